package org.hapticsd.physics.collision;

import org.hapticsd.physics.BoxShape;
import org.hapticsd.physics.CapsuleShape;
import org.hapticsd.physics.ConvexHullShape;
import org.hapticsd.physics.PlaneShape;
import org.hapticsd.physics.Shape;
import org.hapticsd.physics.SphereShape;
import org.hapticsd.physics.TriangleMeshShape;
import org.hapticsd.physics.geometry.ConvexHull;
import org.hapticsd.physics.geometry.Transform;
import org.hapticsd.physics.geometry.TriangleMesh;
import org.joml.Vector3d;

/**
 * Signed distance of a world point from a posed shape's surface, written independently of the collision code: 0 on
 * the surface, positive outside. For a convex polytope, {@code max over faces of n·p − d} is 0 exactly on the
 * boundary (it is not the Euclidean distance outside, only a bound, which is all "on the surface" needs).
 */
final class SurfaceDistance {

    private SurfaceDistance() {
    }

    static double of(Shape shape, Transform pose, Vector3d worldM) {
        Vector3d p = pose.toLocal(worldM, new Vector3d());
        if (shape instanceof SphereShape s) {
            return p.length() - s.radiusM();
        }
        if (shape instanceof CapsuleShape c) {
            double z = Math.max(-c.halfLengthM(), Math.min(c.halfLengthM(), p.z));
            return Math.sqrt(p.x * p.x + p.y * p.y + (p.z - z) * (p.z - z)) - c.radiusM();
        }
        if (shape instanceof BoxShape b) {
            return Math.max(Math.abs(p.x) - b.halfXM(), Math.max(Math.abs(p.y) - b.halfYM(), Math.abs(p.z) - b.halfZM()));
        }
        if (shape instanceof ConvexHullShape h) {
            ConvexHull hull = h.hull();
            double max = Double.NEGATIVE_INFINITY;
            Vector3d n = new Vector3d();
            for (int f = 0; f < hull.faceCount(); f++) {
                max = Math.max(max, hull.faceNormal(f, n).dot(p) - hull.faceOffsetM(f));
            }
            return max;
        }
        if (shape instanceof PlaneShape plane) {
            return plane.normal().dot(p);
        }
        if (shape instanceof TriangleMeshShape m) {
            // Distance to the nearest triangle (unsigned): the mesh is a surface, not a solid.
            TriangleMesh mesh = m.mesh();
            double best = Double.POSITIVE_INFINITY;
            Vector3d q = new Vector3d();
            for (int t = 0; t < mesh.triangleCount(); t++) {
                int a = mesh.corner(t, 0);
                int b = mesh.corner(t, 1);
                int c = mesh.corner(t, 2);
                ClosestPoints.pointTriangle(p.x, p.y, p.z, mesh.vertexX(a), mesh.vertexY(a), mesh.vertexZ(a),
                    mesh.vertexX(b), mesh.vertexY(b), mesh.vertexZ(b), mesh.vertexX(c), mesh.vertexY(c),
                    mesh.vertexZ(c), q);
                best = Math.min(best, q.distance(p));
            }
            return best;
        }
        throw new IllegalArgumentException(shape.toString());
    }
}
