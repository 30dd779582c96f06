package org.hapticsd.physics;

import java.util.Arrays;

import org.hapticsd.physics.geometry.Aabb;
import org.hapticsd.physics.geometry.ConvexHull;
import org.hapticsd.physics.geometry.TriangleMesh;
import org.joml.Quaterniondc;
import org.joml.Vector3d;
import org.joml.Vector3dc;

/**
 * World bounds of each body's shape, written into the flat bounds array the broadphase reads
 * ({@link Aabb#STRIDE} values per body). Spheres, boxes and planes use {@link Aabb}; a capsule is its segment's
 * bounds grown by the radius; a hull or a mesh keeps the box of its vertices in the body frame (computed once
 * when the body is added) and bounds that box as an oriented box, which is conservative and O(1) per step
 * instead of O(vertices). Candidates to move into {@code geometry.Aabb} when that package is merged.
 */
final class BodyBounds {

    /** Per body: centre x, y, z and half extents x, y, z of the vertex box in the body frame (hulls, meshes). */
    private double[] localBoxM = new double[0];
    private final Vector3d centreM = new Vector3d();

    void bodyAdded(int body, int bodyCapacity, Shape shape) {
        if (localBoxM.length < bodyCapacity * 6) {
            localBoxM = Arrays.copyOf(localBoxM, bodyCapacity * 6);
        }
        if (shape instanceof ConvexHullShape hullShape) {
            ConvexHull hull = hullShape.hull();
            int n = hull.vertexCount();
            double[] xyz = new double[3 * n];
            for (int i = 0; i < n; i++) {
                xyz[3 * i] = hull.vertexX(i);
                xyz[3 * i + 1] = hull.vertexY(i);
                xyz[3 * i + 2] = hull.vertexZ(i);
            }
            writeLocalBox(xyz, n, body);
        } else if (shape instanceof TriangleMeshShape meshShape) {
            TriangleMesh mesh = meshShape.mesh();
            int n = mesh.vertexCount();
            double[] xyz = new double[3 * n];
            for (int i = 0; i < n; i++) {
                xyz[3 * i] = mesh.vertexX(i);
                xyz[3 * i + 1] = mesh.vertexY(i);
                xyz[3 * i + 2] = mesh.vertexZ(i);
            }
            writeLocalBox(xyz, n, body);
        }
    }

    /** Writes the world bounds of {@code shape} at ({@code positionM}, {@code orientation}) into slot {@code body}. */
    void write(Shape shape, Vector3dc positionM, Quaterniondc orientation, double[] boundsM, int body) {
        write(shape, positionM, orientation, boundsM, body, centreM);
    }

    /** {@link #write(Shape, Vector3dc, Quaterniondc, double[], int)} with the caller's scratch (a lane's thread). */
    void write(Shape shape, Vector3dc positionM, Quaterniondc orientation, double[] boundsM, int body,
               Vector3d centreM) {
        if (shape instanceof SphereShape sphere) {
            Aabb.ofSphere(positionM, sphere.radiusM(), boundsM, body);
        } else if (shape instanceof BoxShape box) {
            Aabb.ofOrientedBox(positionM, orientation, box.halfXM(), box.halfYM(), box.halfZM(), boundsM, body);
        } else if (shape instanceof CapsuleShape capsule) {
            // The segment runs ±halfLength along the body z axis: its world half extent per axis is
            // |R·(0, 0, h)|_i, plus the radius all round.
            orientation.transform(0.0, 0.0, capsule.halfLengthM(), centreM);
            double r = capsule.radiusM();
            int i = body * Aabb.STRIDE;
            boundsM[i] = positionM.x() - Math.abs(centreM.x) - r;
            boundsM[i + 1] = positionM.y() - Math.abs(centreM.y) - r;
            boundsM[i + 2] = positionM.z() - Math.abs(centreM.z) - r;
            boundsM[i + 3] = positionM.x() + Math.abs(centreM.x) + r;
            boundsM[i + 4] = positionM.y() + Math.abs(centreM.y) + r;
            boundsM[i + 5] = positionM.z() + Math.abs(centreM.z) + r;
        } else if (shape instanceof PlaneShape) {
            Aabb.unbounded(boundsM, body);
        } else {
            // ConvexHullShape or TriangleMeshShape: the oriented vertex box.
            int k = body * 6;
            orientation.transform(localBoxM[k], localBoxM[k + 1], localBoxM[k + 2], centreM).add(positionM);
            Aabb.ofOrientedBox(centreM, orientation, localBoxM[k + 3], localBoxM[k + 4], localBoxM[k + 5],
                    boundsM, body);
        }
    }

    private void writeLocalBox(double[] xyz, int n, int body) {
        double[] min = {Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY};
        double[] max = {Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY};
        for (int i = 0; i < n; i++) {
            for (int axis = 0; axis < 3; axis++) {
                min[axis] = Math.min(min[axis], xyz[3 * i + axis]);
                max[axis] = Math.max(max[axis], xyz[3 * i + axis]);
            }
        }
        int k = body * 6;
        for (int axis = 0; axis < 3; axis++) {
            localBoxM[k + axis] = 0.5 * (min[axis] + max[axis]);
            localBoxM[k + 3 + axis] = 0.5 * (max[axis] - min[axis]);
        }
    }
}
