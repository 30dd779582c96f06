package org.hapticsd.physics.collision;

import java.util.Arrays;

import org.hapticsd.physics.BoxShape;
import org.hapticsd.physics.geometry.Transform;
import org.joml.Vector3d;

/**
 * Box against box by the separating-axis test over the 15 axes of two oriented boxes (Gottschalk, Lin and Manocha,
 * "OBBTree", SIGGRAPH 1996; Ericson §4.4.1): the 3 + 3 face normals and the 9 cross products of an edge direction of
 * each. Each axis's separation comes from the boxes' projected radii, {@code |t·L| − r_A − r_B} over |L|, with no
 * vertex loop. The manifold is then built by {@link PolytopeContact#build} on the boxes' polytope views, with the
 * same face/edge hysteresis, so a box and {@code ConvexHull.box} of the same extents give the same contact.
 *
 * <p>Face indices and vertex numbers follow {@link org.hapticsd.physics.geometry.ConvexHull#box}: face 2i is +axis
 * i, 2i + 1 is −axis i; vertex bit i set means +half extent along axis i.
 */
final class BoxBoxContact {
    /** UNIT_BOX edge index of the edge between vertices lo and hi, at [8·lo + hi]; -1 for non-edges. */
    private static final int[] EDGE_INDEX = edgeIndexTable();

    private final Polytope polytopeA;
    private final Polytope polytopeB;
    private final PolytopeContact polytopes;
    private final Vector3d[] axisA = {new Vector3d(), new Vector3d(), new Vector3d()};
    private final Vector3d[] axisB = {new Vector3d(), new Vector3d(), new Vector3d()};
    private final double[] halfA = new double[3];
    private final double[] halfB = new double[3];
    /** c[3i + j] = a_i · b_j, the rotation from B's frame to A's. */
    private final double[] c = new double[9];

    BoxBoxContact(Polytope polytopeA, Polytope polytopeB, PolytopeContact polytopes) {
        this.polytopeA = polytopeA;
        this.polytopeB = polytopeB;
        this.polytopes = polytopes;
    }

    boolean collide(BoxShape a, Transform poseA, BoxShape b, Transform poseB, double marginM, ContactManifold out) {
        halfA[0] = a.halfXM();
        halfA[1] = a.halfYM();
        halfA[2] = a.halfZM();
        halfB[0] = b.halfXM();
        halfB[1] = b.halfYM();
        halfB[2] = b.halfZM();
        for (int i = 0; i < 3; i++) {
            poseA.axis(i, axisA[i]);
            poseB.axis(i, axisB[i]);
        }
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                c[3 * i + j] = axisA[i].dot(axisB[j]);
            }
        }
        double tx = poseB.position().x() - poseA.position().x();
        double ty = poseB.position().y() - poseA.position().y();
        double tz = poseB.position().z() - poseA.position().z();
        if (!faceAxes(tx, ty, tz, marginM) || !edgeAxes(tx, ty, tz, marginM)) {
            return false;
        }
        polytopeA.setBox(a, poseA);
        polytopeB.setBox(b, poseB);
        return polytopes.build(polytopeA, polytopeB, marginM, out);
    }

    private boolean faceAxes(double tx, double ty, double tz, double marginM) {
        PolytopeContact p = polytopes;
        p.separationAM = Double.NEGATIVE_INFINITY;
        p.separationBM = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < 3; i++) {
            Vector3d n = axisA[i];
            double distance = n.x * tx + n.y * ty + n.z * tz;
            double rB = halfB[0] * Math.abs(c[3 * i]) + halfB[1] * Math.abs(c[3 * i + 1])
                + halfB[2] * Math.abs(c[3 * i + 2]);
            double s = Math.abs(distance) - halfA[i] - rB;
            if (s > marginM) {
                return false;
            }
            if (s > p.separationAM) {
                p.separationAM = s;
                // The face of A that faces B; +axis when B's centre lies on the plane, as the hull loop's order does.
                p.faceA = distance >= 0.0 ? 2 * i : 2 * i + 1;
            }
        }
        for (int j = 0; j < 3; j++) {
            Vector3d n = axisB[j];
            double distance = n.x * tx + n.y * ty + n.z * tz;
            double rA = halfA[0] * Math.abs(c[j]) + halfA[1] * Math.abs(c[3 + j]) + halfA[2] * Math.abs(c[6 + j]);
            double s = Math.abs(distance) - rA - halfB[j];
            if (s > marginM) {
                return false;
            }
            if (s > p.separationBM) {
                p.separationBM = s;
                // The face of B that faces A, i.e. along −t.
                p.faceB = -distance >= 0.0 ? 2 * j : 2 * j + 1;
            }
        }
        return true;
    }

    private boolean edgeAxes(double tx, double ty, double tz, double marginM) {
        PolytopeContact p = polytopes;
        p.edgeA = -1;
        p.separationEdgeM = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < 3; i++) {
            Vector3d u = axisA[i];
            for (int j = 0; j < 3; j++) {
                Vector3d w = axisB[j];
                double lx = u.y * w.z - u.z * w.y;
                double ly = u.z * w.x - u.x * w.z;
                double lz = u.x * w.y - u.y * w.x;
                // Unit axes: |L| is the sine of the angle between the edges.
                double length = Math.sqrt(lx * lx + ly * ly + lz * lz);
                if (length <= PolytopeContact.PARALLEL_SIN) {
                    continue;
                }
                double rA = 0.0;
                double rB = 0.0;
                for (int k = 0; k < 3; k++) {
                    rA += halfA[k] * Math.abs(axisA[k].x * lx + axisA[k].y * ly + axisA[k].z * lz);
                    rB += halfB[k] * Math.abs(axisB[k].x * lx + axisB[k].y * ly + axisB[k].z * lz);
                }
                double distance = tx * lx + ty * ly + tz * lz;
                double s = (Math.abs(distance) - rA - rB) / length;
                if (s > marginM) {
                    return false;
                }
                if (s > p.separationEdgeM) {
                    double sign = distance >= 0.0 ? 1.0 : -1.0;
                    p.separationEdgeM = s;
                    p.edgeNx = sign * lx / length;
                    p.edgeNy = sign * ly / length;
                    p.edgeNz = sign * lz / length;
                    p.edgeA = supportingEdge(axisA, i, p.edgeNx, p.edgeNy, p.edgeNz, 1.0);
                    p.edgeB = supportingEdge(axisB, j, p.edgeNx, p.edgeNy, p.edgeNz, -1.0);
                }
            }
        }
        return true;
    }

    /**
     * The edge along axis {@code along} that is farthest along {@code direction·n}: on each other axis k it sits
     * on the side sign(a_k·n). Returned as the UNIT_BOX edge index so the polytope view can read its vertices.
     */
    private static int supportingEdge(Vector3d[] axes, int along, double nx, double ny, double nz, double direction) {
        int low = 0;
        for (int k = 0; k < 3; k++) {
            if (k != along && direction * (axes[k].x * nx + axes[k].y * ny + axes[k].z * nz) >= 0.0) {
                low |= 1 << k;
            }
        }
        return EDGE_INDEX[8 * low + (low | 1 << along)];
    }

    private static int[] edgeIndexTable() {
        int[] table = new int[64];
        Arrays.fill(table, -1);
        HullFeatures box = HullFeatures.UNIT_BOX;
        for (int e = 0; e < box.edgeCount; e++) {
            table[8 * box.edgeVertex[2 * e] + box.edgeVertex[2 * e + 1]] = e;
        }
        return table;
    }
}
