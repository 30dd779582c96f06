package org.hapticsd.protocol.stream;

/** A body's pose in a STATE: scene frame, position of the body origin and unit quaternion (w, x, y, z). */
public record BodyPose(int bodyId, Vec3 positionM, Quat orientation) {
    public BodyPose {
        Checks.bodyId("pose bodyId", bodyId);
        Checks.notNull("positionM", positionM);
        Checks.notNull("orientation", orientation);
    }
}
