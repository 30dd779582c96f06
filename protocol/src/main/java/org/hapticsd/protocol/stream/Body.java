package org.hapticsd.protocol.stream;

/**
 * One body of a SCENE.
 *
 * @param id           0..65534, unique in the scene; STATE poses, contacts and events refer to it
 * @param name         the scene file's name for it
 * @param motion       static, kinematic or dynamic
 * @param shape        shape and size, body frame
 * @param materialName a material name for the client's renderer (may be empty)
 * @param colourRgba   display colour hint 0xRRGGBBAA; alpha 0 means "no hint, the client chooses"
 * @param positionM    pose when the scene was sent, scene frame (for static bodies, their pose for good)
 * @param orientation  orientation when the scene was sent, unit quaternion (w, x, y, z)
 */
public record Body(int id, String name, Motion motion, Shape shape, String materialName, int colourRgba,
                   Vec3 positionM, Quat orientation) {
    public Body {
        Checks.bodyId("body id", id);
        Checks.string("body name", name);
        Checks.notNull("motion", motion);
        Checks.notNull("shape", shape);
        Checks.string("materialName", materialName);
        Checks.notNull("positionM", positionM);
        Checks.notNull("orientation", orientation);
    }
}
