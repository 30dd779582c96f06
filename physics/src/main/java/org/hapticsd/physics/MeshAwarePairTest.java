package org.hapticsd.physics;

import java.util.IdentityHashMap;
import java.util.Map;
import org.hapticsd.physics.collision.ContactManifold;
import org.hapticsd.physics.collision.Narrowphase;
import org.hapticsd.physics.geometry.ConvexHull;
import org.hapticsd.physics.geometry.Transform;
import org.hapticsd.physics.geometry.TriangleBvh;
import org.joml.Vector3d;

/**
 * The world's narrowphase: {@link Narrowphase#collide} for convex pairs, and for a shape against a static triangle
 * mesh a query of the mesh's bounding-volume hierarchy with the shape's bounds, so that only the triangles near the
 * shape are tested ({@link Narrowphase#collideMesh}) instead of all of them.
 *
 * <p>The shape's bounds in the mesh frame are the cube around its bounding sphere: conservative, rotation-free and
 * cheap, at the price of a few extra candidate triangles for elongated shapes. Hierarchies are built when a body is
 * added ({@link #prepare}), never during a step.
 */
final class MeshAwarePairTest implements ShapePairTest {
    private static final int MAX_TRIANGLES_PER_QUERY = 256;

    private final Narrowphase narrowphase = new Narrowphase();
    private final Map<TriangleMeshShape, TriangleBvh> hierarchies = new IdentityHashMap<>();
    private final Map<ConvexHull, Double> hullRadii = new IdentityHashMap<>();
    private final int[] triangles = new int[MAX_TRIANGLES_PER_QUERY];
    private final Vector3d centreInMeshM = new Vector3d();

    @Override
    public void prepare(Shape shape) {
        narrowphase.prepare(shape);
        if (shape instanceof TriangleMeshShape mesh) {
            hierarchies.computeIfAbsent(mesh, m -> new TriangleBvh(m.mesh()));
        } else if (shape instanceof ConvexHullShape hull) {
            hullRadii.computeIfAbsent(hull.hull(), MeshAwarePairTest::farthestVertexM);
        }
    }

    @Override
    public boolean collide(Shape a, Transform poseA, Shape b, Transform poseB, ContactManifold out) {
        if (b instanceof TriangleMeshShape mesh && !(a instanceof TriangleMeshShape)) {
            return collideWithMesh(a, poseA, mesh, poseB, out);
        }
        if (a instanceof TriangleMeshShape mesh && !(b instanceof TriangleMeshShape)) {
            boolean hit = collideWithMesh(b, poseB, mesh, poseA, out);
            if (hit) {
                out.flip();
            }
            return hit;
        }
        return narrowphase.collide(a, poseA, b, poseB, out);
    }

    private boolean collideWithMesh(Shape shape, Transform pose, TriangleMeshShape mesh, Transform meshPose,
                                    ContactManifold out) {
        TriangleBvh bvh = hierarchies.get(mesh);
        if (bvh == null || shape instanceof PlaneShape) {
            // Unprepared mesh or a pair the narrowphase refuses: let it answer (or throw) as for any pair.
            return narrowphase.collide(shape, pose, mesh, meshPose, out);
        }
        double r = boundingRadiusM(shape);
        meshPose.toLocal(pose.position(), centreInMeshM);
        int found = bvh.query(centreInMeshM.x - r, centreInMeshM.y - r, centreInMeshM.z - r,
            centreInMeshM.x + r, centreInMeshM.y + r, centreInMeshM.z + r, triangles);
        out.clear();
        if (found == 0) {
            return false;
        }
        // A shape overlapping more triangles than the buffer holds is tested against the first ones found; a
        // mesh that fine under one body should be simplified (the limit is documented in docs/scenes.md).
        return narrowphase.collideMesh(shape, pose, mesh, meshPose, triangles, Math.min(found, triangles.length),
            out);
    }

    private double boundingRadiusM(Shape shape) {
        if (shape instanceof SphereShape sphere) {
            return sphere.radiusM();
        }
        if (shape instanceof BoxShape box) {
            return Math.sqrt(box.halfXM() * box.halfXM() + box.halfYM() * box.halfYM() + box.halfZM() * box.halfZM());
        }
        if (shape instanceof CapsuleShape capsule) {
            return capsule.halfLengthM() + capsule.radiusM();
        }
        if (shape instanceof ConvexHullShape hull) {
            Double radius = hullRadii.get(hull.hull());
            return radius != null ? radius : farthestVertexM(hull.hull());
        }
        return Double.POSITIVE_INFINITY;
    }

    private static double farthestVertexM(ConvexHull hull) {
        double max = 0;
        for (int i = 0; i < hull.vertexCount(); i++) {
            double x = hull.vertexX(i);
            double y = hull.vertexY(i);
            double z = hull.vertexZ(i);
            max = Math.max(max, Math.sqrt(x * x + y * y + z * z));
        }
        return max;
    }
}
