package org.hapticsd.physics;

import org.hapticsd.physics.collision.ContactManifold;
import org.hapticsd.physics.collision.Narrowphase;
import org.hapticsd.physics.geometry.Transform;
import org.joml.Vector3d;

/**
 * A second, independent box–box used only by tests, to tell solver failures from narrowphase failures: reference face on B, incident face on A
 * clipped against the reference face's side planes (Sutherland–Hodgman), as in Box2D's and ODE's box–box, but
 * with only B's three face axes as candidate separating axes. That is enough for boxes resting face to face (a
 * stack, boxes on boxes), where the least-penetration axis is a face axis of the lower box; it is not a general
 * box–box test (no A-face or edge–edge axes). Every other pair goes to the real {@link Narrowphase}.
 *
 * <p>Feature ids: an incident vertex that survives clipping keeps {@code 1 + vertex}; a point made by clipping
 * is named by the clipping plane and the ids of the edge's two ends; both stable while the boxes rest.
 */
final class FaceClippingBoxBox implements ShapePairTest {

    private static final double CLIP_TOLERANCE_M = 1e-5;

    private final Narrowphase narrowphase = new Narrowphase();
    private final Vector3d d = new Vector3d();
    private final Vector3d n = new Vector3d();
    private final Vector3d axis = new Vector3d();
    private final Vector3d[] axesA = {new Vector3d(), new Vector3d(), new Vector3d()};
    private final Vector3d[] axesB = {new Vector3d(), new Vector3d(), new Vector3d()};
    private final double[] polygon = new double[3 * 16];
    private final double[] clipped = new double[3 * 16];
    private final int[] tags = new int[16];
    private final int[] clippedTags = new int[16];

    @Override
    public boolean collide(Shape a, Transform poseA, Shape b, Transform poseB, ContactManifold out) {
        if (a instanceof BoxShape boxA && b instanceof BoxShape boxB) {
            out.clear();
            return boxBox(boxA, poseA, boxB, poseB, out);
        }
        return narrowphase.collide(a, poseA, b, poseB, out);
    }

    private boolean boxBox(BoxShape boxA, Transform poseA, BoxShape boxB, Transform poseB, ContactManifold out) {
        double[] hA = {boxA.halfXM(), boxA.halfYM(), boxA.halfZM()};
        double[] hB = {boxB.halfXM(), boxB.halfYM(), boxB.halfZM()};
        for (int i = 0; i < 3; i++) {
            poseA.axis(i, axesA[i]);
            poseB.axis(i, axesB[i]);
        }
        d.set(poseA.position()).sub(poseB.position());
        int reference = -1;
        double bestSeparation = Double.NEGATIVE_INFINITY;
        for (int k = 0; k < 3; k++) {
            double projectedA = 0.0;
            for (int j = 0; j < 3; j++) {
                projectedA += Math.abs(axesB[k].dot(axesA[j])) * hA[j];
            }
            double separation = Math.abs(d.dot(axesB[k])) - hB[k] - projectedA;
            if (separation > 0.0) {
                return false;
            }
            if (separation > bestSeparation) {
                bestSeparation = separation;
                reference = k;
            }
        }
        double sign = d.dot(axesB[reference]) >= 0.0 ? 1.0 : -1.0;
        n.set(axesB[reference]).mul(sign);
        double planeOffset = n.dot(poseB.position()) + hB[reference];

        // Incident face of A: the face whose outward normal is most anti-parallel to n.
        int incident = 0;
        double mostAnti = Double.POSITIVE_INFINITY;
        for (int j = 0; j < 3; j++) {
            double c = axesA[j].dot(n);
            if (c < mostAnti) {
                mostAnti = c;
                incident = 2 * j;
            }
            if (-c < mostAnti) {
                mostAnti = -c;
                incident = 2 * j + 1;
            }
        }
        int j = incident / 2;
        double faceSign = (incident % 2 == 0) ? 1.0 : -1.0;
        int u = (j + 1) % 3;
        int v = (j + 2) % 3;
        double[] su = {-1, 1, 1, -1};
        double[] sv = {-1, -1, 1, 1};
        int count = 4;
        for (int c = 0; c < 4; c++) {
            axis.set(poseA.position()).fma(faceSign * hA[j], axesA[j]).fma(su[c] * hA[u], axesA[u])
                    .fma(sv[c] * hA[v], axesA[v]);
            polygon[3 * c] = axis.x;
            polygon[3 * c + 1] = axis.y;
            polygon[3 * c + 2] = axis.z;
            tags[c] = 1 + c;
        }
        // Clip against the four side planes of B's reference face: ±e_i·(x − x_B) <= h_i for the other two axes.
        int plane = 0;
        for (int k = 0; k < 3; k++) {
            if (k == reference) {
                continue;
            }
            for (int s = -1; s <= 1; s += 2) {
                axis.set(axesB[k]).mul(s);
                double offset = axis.dot(poseB.position()) + hB[k];
                count = clip(count, axis, offset, plane);
                plane++;
                if (count == 0) {
                    return false;
                }
            }
        }
        for (int c = 0; c < count; c++) {
            double px = polygon[3 * c];
            double py = polygon[3 * c + 1];
            double pz = polygon[3 * c + 2];
            double depth = planeOffset - (n.x * px + n.y * py + n.z * pz);
            if (depth > 0.0) {
                out.addPoint(px + n.x * depth, py + n.y * depth, pz + n.z * depth, depth, tags[c]);
            }
        }
        if (out.pointCount() == 0) {
            return false;
        }
        out.normal.set(n);
        return true;
    }

    /** Sutherland–Hodgman: keeps the part of the polygon with {@code normal·x <= offset}. */
    private int clip(int count, Vector3d normal, double offset, int plane) {
        int kept = 0;
        for (int c = 0; c < count; c++) {
            int next = (c + 1) % count;
            double distC = normal.x * polygon[3 * c] + normal.y * polygon[3 * c + 1] + normal.z * polygon[3 * c + 2]
                    - offset;
            double distN = normal.x * polygon[3 * next] + normal.y * polygon[3 * next + 1]
                    + normal.z * polygon[3 * next + 2] - offset;
            // A vertex overhanging a side plane by less than 10 µm counts as on it: boxes stacked edge on edge
            // otherwise flip between keeping the vertex and clipping it as they rock by micro-radians, and every
            // flip renames the points and loses their warm start.
            if (distC <= CLIP_TOLERANCE_M) {
                copy(c, kept++, tags[c]);
            }
            if ((distC <= CLIP_TOLERANCE_M) != (distN <= CLIP_TOLERANCE_M)) {
                double t = distC / (distC - distN);
                for (int i = 0; i < 3; i++) {
                    clipped[3 * kept + i] = polygon[3 * c + i] + t * (polygon[3 * next + i] - polygon[3 * c + i]);
                }
                clippedTags[kept++] = 31 * (31 * (plane + 1) + tags[c]) + tags[next];
            }
        }
        System.arraycopy(clipped, 0, polygon, 0, 3 * kept);
        System.arraycopy(clippedTags, 0, tags, 0, kept);
        return kept;
    }

    private void copy(int from, int to, int tag) {
        clipped[3 * to] = polygon[3 * from];
        clipped[3 * to + 1] = polygon[3 * from + 1];
        clipped[3 * to + 2] = polygon[3 * from + 2];
        clippedTags[to] = tag;
    }
}
