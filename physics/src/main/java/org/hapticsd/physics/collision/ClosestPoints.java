package org.hapticsd.physics.collision;

import org.joml.Vector3d;

/**
 * Closest points between segments, and between a point and a triangle: the distance kernels under the capsule and
 * triangle contacts. Inputs are plain coordinates (world frame, metres) so callers pass values they already hold
 * in registers; results go to destination vectors, written only after every input is read.
 */
final class ClosestPoints {

    /**
     * Squared lengths below this are treated as a degenerate (point) segment. (1e-15 m)² is far below any shape
     * this engine accepts yet far above the underflow of a squared centimetre coordinate difference.
     */
    private static final double DEGENERATE_LENGTH_SQUARED_M2 = 1e-30;

    /** Voronoi region of a triangle that holds the closest point (Ericson §5.1.5). */
    static final int REGION_FACE = 0;
    static final int REGION_VERTEX_A = 1;
    static final int REGION_VERTEX_B = 2;
    static final int REGION_VERTEX_C = 3;
    static final int REGION_EDGE_AB = 4;
    static final int REGION_EDGE_BC = 5;
    static final int REGION_EDGE_CA = 6;

    private ClosestPoints() {
    }

    /**
     * Closest points {@code c1 = p1 + s·(q1 − p1)} and {@code c2 = p2 + t·(q2 − p2)} of two segments, s and t in
     * [0, 1] (Ericson, Real-Time Collision Detection, §5.1.9). Minimising {@code |c1 − c2|²} over the unclamped
     * lines gives the 2×2 system {@code [a −b; b −e]·[s t]ᵀ = [−c −f]ᵀ} with {@code a = d1·d1}, {@code b = d1·d2},
     * {@code e = d2·d2}, {@code c = d1·r}, {@code f = d2·r}, {@code r = p1 − p2}; s is clamped first, t follows from
     * s, and when t leaves [0, 1] it is clamped and s recomputed for it. Parallel lines ({@code ae − b² = 0}) take
     * s = 0, one of the infinitely many minimisers, so the result is still deterministic.
     *
     * @return the squared distance {@code |c1 − c2|²}
     */
    static double segmentSegment(double p1x, double p1y, double p1z, double q1x, double q1y, double q1z,
                                 double p2x, double p2y, double p2z, double q2x, double q2y, double q2z,
                                 Vector3d destC1, Vector3d destC2) {
        double d1x = q1x - p1x;
        double d1y = q1y - p1y;
        double d1z = q1z - p1z;
        double d2x = q2x - p2x;
        double d2y = q2y - p2y;
        double d2z = q2z - p2z;
        double rx = p1x - p2x;
        double ry = p1y - p2y;
        double rz = p1z - p2z;
        double a = d1x * d1x + d1y * d1y + d1z * d1z;
        double e = d2x * d2x + d2y * d2y + d2z * d2z;
        double f = d2x * rx + d2y * ry + d2z * rz;
        double s;
        double t;
        if (a <= DEGENERATE_LENGTH_SQUARED_M2 && e <= DEGENERATE_LENGTH_SQUARED_M2) {
            s = 0.0;
            t = 0.0;
        } else if (a <= DEGENERATE_LENGTH_SQUARED_M2) {
            s = 0.0;
            t = clamp01(f / e);
        } else {
            double c = d1x * rx + d1y * ry + d1z * rz;
            if (e <= DEGENERATE_LENGTH_SQUARED_M2) {
                t = 0.0;
                s = clamp01(-c / a);
            } else {
                double b = d1x * d2x + d1y * d2y + d1z * d2z;
                double denominator = a * e - b * b;
                s = denominator > 0.0 ? clamp01((b * f - c * e) / denominator) : 0.0;
                t = (b * s + f) / e;
                if (t < 0.0) {
                    t = 0.0;
                    s = clamp01(-c / a);
                } else if (t > 1.0) {
                    t = 1.0;
                    s = clamp01((b - c) / a);
                }
            }
        }
        double c1x = p1x + d1x * s;
        double c1y = p1y + d1y * s;
        double c1z = p1z + d1z * s;
        double c2x = p2x + d2x * t;
        double c2y = p2y + d2y * t;
        double c2z = p2z + d2z * t;
        destC1.set(c1x, c1y, c1z);
        destC2.set(c2x, c2y, c2z);
        double dx = c1x - c2x;
        double dy = c1y - c2y;
        double dz = c1z - c2z;
        return dx * dx + dy * dy + dz * dz;
    }

    /**
     * The parameter {@code t} in [0, 1] of the point of segment p→q closest to x: the projection
     * {@code (x − p)·(q − p) / |q − p|²} clamped (Ericson §5.1.2). A degenerate segment gives 0.
     */
    static double segmentParameter(double px, double py, double pz, double qx, double qy, double qz,
                                   double xx, double xy, double xz) {
        double dx = qx - px;
        double dy = qy - py;
        double dz = qz - pz;
        double lengthSquared = dx * dx + dy * dy + dz * dz;
        if (lengthSquared <= DEGENERATE_LENGTH_SQUARED_M2) {
            return 0.0;
        }
        return clamp01(((xx - px) * dx + (xy - py) * dy + (xz - pz) * dz) / lengthSquared);
    }

    /**
     * The point of triangle abc closest to x, by the Voronoi regions of its vertices, edges and face (Ericson
     * §5.1.5): the barycentric tests decide the region from six dot products without computing the triangle
     * normal, so a sliver triangle still gives its nearest edge or vertex.
     *
     * @return the region, one of the {@code REGION_*} constants
     */
    static int pointTriangle(double xx, double xy, double xz,
                             double ax, double ay, double az, double bx, double by, double bz,
                             double cx, double cy, double cz, Vector3d destM) {
        double abx = bx - ax;
        double aby = by - ay;
        double abz = bz - az;
        double acx = cx - ax;
        double acy = cy - ay;
        double acz = cz - az;
        double apx = xx - ax;
        double apy = xy - ay;
        double apz = xz - az;
        double d1 = abx * apx + aby * apy + abz * apz;
        double d2 = acx * apx + acy * apy + acz * apz;
        if (d1 <= 0.0 && d2 <= 0.0) {
            destM.set(ax, ay, az);
            return REGION_VERTEX_A;
        }
        double bpx = xx - bx;
        double bpy = xy - by;
        double bpz = xz - bz;
        double d3 = abx * bpx + aby * bpy + abz * bpz;
        double d4 = acx * bpx + acy * bpy + acz * bpz;
        if (d3 >= 0.0 && d4 <= d3) {
            destM.set(bx, by, bz);
            return REGION_VERTEX_B;
        }
        double vc = d1 * d4 - d3 * d2;
        if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0) {
            double v = d1 / (d1 - d3);
            destM.set(ax + abx * v, ay + aby * v, az + abz * v);
            return REGION_EDGE_AB;
        }
        double cpx = xx - cx;
        double cpy = xy - cy;
        double cpz = xz - cz;
        double d5 = abx * cpx + aby * cpy + abz * cpz;
        double d6 = acx * cpx + acy * cpy + acz * cpz;
        if (d6 >= 0.0 && d5 <= d6) {
            destM.set(cx, cy, cz);
            return REGION_VERTEX_C;
        }
        double vb = d5 * d2 - d1 * d6;
        if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0) {
            double w = d2 / (d2 - d6);
            destM.set(ax + acx * w, ay + acy * w, az + acz * w);
            return REGION_EDGE_CA;
        }
        double va = d3 * d6 - d5 * d4;
        if (va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0) {
            double w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
            destM.set(bx + (cx - bx) * w, by + (cy - by) * w, bz + (cz - bz) * w);
            return REGION_EDGE_BC;
        }
        double denominator = 1.0 / (va + vb + vc);
        double v = vb * denominator;
        double w = vc * denominator;
        destM.set(ax + abx * v + acx * w, ay + aby * v + acy * w, az + abz * v + acz * w);
        return REGION_FACE;
    }

    static double clamp01(double value) {
        return value < 0.0 ? 0.0 : (value > 1.0 ? 1.0 : value);
    }
}
