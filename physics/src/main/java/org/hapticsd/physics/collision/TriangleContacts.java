package org.hapticsd.physics.collision;

import org.joml.Vector3d;

/**
 * A sphere against one triangle of a mesh, one-sided: a sphere whose centre is behind the triangle's plane gets no
 * contact, so a tool that has passed through a thin wall is not pulled back through it, and the neighbouring
 * triangles whose front it faces push it instead. In front, the closest point of the triangle (Ericson §5.1.5)
 * gives the contact: the face normal over the face, and the direction from the closest point to the centre over an
 * edge or a vertex, so a sphere rolling over a convex mesh edge is pushed from the edge, not from either face.
 *
 * <p>Capsules, boxes and hulls against a triangle go through {@link SegmentPolytopeContact} and
 * {@link PolytopeContact} with the triangle as a flat {@link Polytope}; {@link Narrowphase#collideTriangle}
 * dispatches.
 */
final class TriangleContacts {
    private final Vector3d closestM = new Vector3d();

    /**
     * @return {@code true} with one point (id: the Voronoi region + 1) when the sphere reaches the triangle
     */
    boolean sphereTriangle(double cx, double cy, double cz, double radiusM,
                           double ax, double ay, double az, double bx, double by, double bz,
                           double tx, double ty, double tz, double marginM, ContactManifold out) {
        double abx = bx - ax;
        double aby = by - ay;
        double abz = bz - az;
        double acx = tx - ax;
        double acy = ty - ay;
        double acz = tz - az;
        double nx = aby * acz - abz * acy;
        double ny = abz * acx - abx * acz;
        double nz = abx * acy - aby * acx;
        double length = Math.sqrt(nx * nx + ny * ny + nz * nz);
        if (!(length > 0.0)) {
            return false;
        }
        nx /= length;
        ny /= length;
        nz /= length;
        double heightM = nx * (cx - ax) + ny * (cy - ay) + nz * (cz - az);
        if (heightM < 0.0 || heightM - radiusM >= marginM) {
            return false;
        }
        int region = ClosestPoints.pointTriangle(cx, cy, cz, ax, ay, az, bx, by, bz, tx, ty, tz, closestM);
        double dx = cx - closestM.x;
        double dy = cy - closestM.y;
        double dz = cz - closestM.z;
        double distanceM = Math.sqrt(dx * dx + dy * dy + dz * dz);
        double depthM = radiusM - distanceM;
        if (!(depthM > -marginM)) {
            return false;
        }
        if (distanceM > 0.0) {
            out.normal.set(dx / distanceM, dy / distanceM, dz / distanceM);
        } else {
            out.normal.set(nx, ny, nz);
        }
        out.addPoint(closestM, depthM, region + 1);
        return true;
    }
}
