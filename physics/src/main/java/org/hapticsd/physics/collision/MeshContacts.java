package org.hapticsd.physics.collision;

import org.hapticsd.physics.Shape;
import org.hapticsd.physics.geometry.Transform;
import org.hapticsd.physics.geometry.TriangleMesh;
import org.joml.Vector3d;

/**
 * A convex shape against a list of triangles of a mesh, merged into one manifold for the pair.
 *
 * <p>Each triangle is tested on its own ({@link Narrowphase#collideTriangle}); the manifold takes the normal of
 * the deepest triangle contact and keeps, from the other triangles, the points whose contact normal is that same
 * normal (to {@link #SAME_COS}) and the points of face contacts (contact along the triangle's own normal) within
 * {@link #MERGE_COS} of it; then it reduces them to the vertices of their contact polygon
 * ({@link ContactCandidates#writeHullTo}), so a box on a floor of two triangles gets its four corners, not the
 * extra points where the shared diagonal crosses its face. Nothing is averaged: a mean normal over a fold would
 * push along a direction no triangle has.
 *
 * <p>Why edge and vertex contacts of the other triangles are dropped: a sphere over one triangle of a flat floor
 * near its edge also reaches the neighbour's edge, whose contact points 15° off the floor normal from a different
 * place: a ghost point that would push sideways. Without mesh adjacency the test cannot tell an inner edge from a
 * boundary edge (Bullet's {@code btAdjustInternalEdgeContacts} uses it), so edge contacts survive only as the
 * deepest contact itself.
 *
 * <p>Limitation: one normal per pair. In a concave corner (a floor meeting a wall) the points of the shallower
 * side are dropped, so the shape is pushed out of one wall per step, the deepest first; a merged point from a
 * triangle tilted against the chosen normal keeps its own depth, measured along its own triangle's normal. Points
 * from the triangles inside a flat or gently curved region, the case haptic scenes are made of, are exact. The
 * fix, one manifold per cluster of normals, needs a solver that takes several manifolds per pair.
 */
final class MeshContacts {
    /** Face contacts within 20° of the deepest contact's normal are merged: cos 20° ≈ 0.9397. */
    static final double MERGE_COS = 0.9396926207859084;
    /**
     * Contacts count as having the same normal when their cosine is within 1e-9 of 1 (an angle of 4.5e-5 rad):
     * coplanar triangles' normals, computed from different vertices, differ by rounding only.
     */
    static final double SAME_COS = 1.0 - 1e-9;

    private final Narrowphase narrowphase;
    private final ContactCandidates merged;
    private final ContactManifold triangleManifold = new ContactManifold();
    private final ContactManifold compactScratch = new ContactManifold();
    private final Vector3d cornerA = new Vector3d();
    private final Vector3d cornerB = new Vector3d();
    private final Vector3d cornerC = new Vector3d();
    private final Vector3d closestM = new Vector3d();

    MeshContacts(Narrowphase narrowphase, ContactCandidates merged) {
        this.narrowphase = narrowphase;
        this.merged = merged;
    }

    /**
     * @param triangles triangle indices to test, or {@code null} for every triangle of the mesh (then
     *     {@code count} is ignored)
     * @param boundingRadiusM radius around {@code poseA}'s position that holds shape a: triangles farther than
     *     this plus the margin are skipped without a test
     */
    boolean collide(Shape a, Transform poseA, double boundingRadiusM, TriangleMesh mesh, Transform poseMesh,
                    int[] triangles, int count, double marginM, ContactManifold out) {
        merged.clear();
        int n = triangles == null ? mesh.triangleCount() : count;
        double reachM = boundingRadiusM + marginM;
        double cx = poseA.position().x();
        double cy = poseA.position().y();
        double cz = poseA.position().z();
        for (int k = 0; k < n; k++) {
            int t = triangles == null ? k : triangles[k];
            corner(mesh, t, 0, poseMesh, cornerA);
            corner(mesh, t, 1, poseMesh, cornerB);
            corner(mesh, t, 2, poseMesh, cornerC);
            ClosestPoints.pointTriangle(cx, cy, cz, cornerA.x, cornerA.y, cornerA.z, cornerB.x, cornerB.y, cornerB.z,
                cornerC.x, cornerC.y, cornerC.z, closestM);
            if (closestM.distanceSquared(cx, cy, cz) > reachM * reachM) {
                continue;
            }
            if (!narrowphase.collideTriangle(a, poseA, cornerA.x, cornerA.y, cornerA.z, cornerB.x, cornerB.y,
                cornerB.z, cornerC.x, cornerC.y, cornerC.z, triangleManifold)) {
                continue;
            }
            Vector3d normal = triangleManifold.normal;
            boolean fromFace = isFaceContact(normal);
            for (int i = 0; i < triangleManifold.pointCount(); i++) {
                if (merged.isFull()) {
                    // Make room: what the final reduction would drop anyway, judged by the deepest so far.
                    int deepest = merged.deepest();
                    double nx = merged.normalX(deepest);
                    double ny = merged.normalY(deepest);
                    double nz = merged.normalZ(deepest);
                    merged.keepConsistent(nx, ny, nz, SAME_COS, MERGE_COS);
                    merged.compact(nx, ny, nz, compactScratch);
                }
                merged.add(triangleManifold.point(i).x(), triangleManifold.point(i).y(),
                    triangleManifold.point(i).z(), triangleManifold.depth(i),
                    FeatureIds.meshTriangle(triangleManifold.featureId(i), t), normal.x, normal.y, normal.z,
                    fromFace);
            }
        }
        if (merged.count == 0) {
            return false;
        }
        int deepest = merged.deepest();
        double nx = merged.normalX(deepest);
        double ny = merged.normalY(deepest);
        double nz = merged.normalZ(deepest);
        merged.keepConsistent(nx, ny, nz, SAME_COS, MERGE_COS);
        out.normal.set(nx, ny, nz);
        merged.writeHullTo(nx, ny, nz, out);
        return true;
    }

    /** The contact pushes along the triangle's own normal ({@code (b − a) × (c − a)}, the corners still held). */
    private boolean isFaceContact(Vector3d normal) {
        double abx = cornerB.x - cornerA.x;
        double aby = cornerB.y - cornerA.y;
        double abz = cornerB.z - cornerA.z;
        double acx = cornerC.x - cornerA.x;
        double acy = cornerC.y - cornerA.y;
        double acz = cornerC.z - cornerA.z;
        double fx = aby * acz - abz * acy;
        double fy = abz * acx - abx * acz;
        double fz = abx * acy - aby * acx;
        double length = Math.sqrt(fx * fx + fy * fy + fz * fz);
        return (fx * normal.x + fy * normal.y + fz * normal.z) / length >= SAME_COS;
    }

    private static void corner(TriangleMesh mesh, int triangle, int k, Transform poseMesh, Vector3d destM) {
        int vertex = mesh.corner(triangle, k);
        poseMesh.toWorld(mesh.vertexX(vertex), mesh.vertexY(vertex), mesh.vertexZ(vertex), destM);
    }
}
