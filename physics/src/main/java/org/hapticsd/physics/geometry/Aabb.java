package org.hapticsd.physics.geometry;

import org.joml.Quaterniondc;
import org.joml.Vector3dc;

/**
 * World-space axis-aligned bounding boxes stored flat in a {@code double[]}, {@link #STRIDE} values per body:
 * {@code minX, minY, minZ, maxX, maxY, maxZ}. A flat array rather than one object per body keeps the broadphase
 * walking contiguous memory: it reads a body's bounds by index, to test them against its tree's fat boxes, with no
 * object to dereference.
 *
 * <p>An unbounded shape (a half-space) gets infinite bounds, so the ordinary overlap test accepts it against
 * everything without a special case.
 */
public final class Aabb {

    /** Values per body in a bounds array. */
    public static final int STRIDE = 6;

    private Aabb() {
    }

    /** Writes the bounds of a sphere of radius {@code radiusM} centred at {@code centreM} into slot {@code body}. */
    public static void ofSphere(Vector3dc centreM, double radiusM, double[] boundsM, int body) {
        int i = body * STRIDE;
        boundsM[i] = centreM.x() - radiusM;
        boundsM[i + 1] = centreM.y() - radiusM;
        boundsM[i + 2] = centreM.z() - radiusM;
        boundsM[i + 3] = centreM.x() + radiusM;
        boundsM[i + 4] = centreM.y() + radiusM;
        boundsM[i + 5] = centreM.z() + radiusM;
    }

    /**
     * Writes the bounds of a box with half extents {@code h} turned by the unit quaternion {@code orientation} and
     * centred at {@code centreM} into slot {@code body}. The world half extent along axis i is
     * {@code Σ_j |R_ij|·h_j} (Ericson, Real-Time Collision Detection, §4.2.6), with {@code R} the rotation matrix
     * of the quaternion written out in doubles so that no matrix object is needed.
     */
    public static void ofOrientedBox(Vector3dc centreM, Quaterniondc orientation,
                                     double halfXM, double halfYM, double halfZM, double[] boundsM, int body) {
        double qx = orientation.x();
        double qy = orientation.y();
        double qz = orientation.z();
        double qw = orientation.w();
        double xx = qx * qx;
        double yy = qy * qy;
        double zz = qz * qz;
        double xy = qx * qy;
        double xz = qx * qz;
        double yz = qy * qz;
        double xw = qx * qw;
        double yw = qy * qw;
        double zw = qz * qw;
        double r00 = 1.0 - 2.0 * (yy + zz);
        double r01 = 2.0 * (xy - zw);
        double r02 = 2.0 * (xz + yw);
        double r10 = 2.0 * (xy + zw);
        double r11 = 1.0 - 2.0 * (xx + zz);
        double r12 = 2.0 * (yz - xw);
        double r20 = 2.0 * (xz - yw);
        double r21 = 2.0 * (yz + xw);
        double r22 = 1.0 - 2.0 * (xx + yy);
        double extentXM = Math.abs(r00) * halfXM + Math.abs(r01) * halfYM + Math.abs(r02) * halfZM;
        double extentYM = Math.abs(r10) * halfXM + Math.abs(r11) * halfYM + Math.abs(r12) * halfZM;
        double extentZM = Math.abs(r20) * halfXM + Math.abs(r21) * halfYM + Math.abs(r22) * halfZM;
        int i = body * STRIDE;
        boundsM[i] = centreM.x() - extentXM;
        boundsM[i + 1] = centreM.y() - extentYM;
        boundsM[i + 2] = centreM.z() - extentZM;
        boundsM[i + 3] = centreM.x() + extentXM;
        boundsM[i + 4] = centreM.y() + extentYM;
        boundsM[i + 5] = centreM.z() + extentZM;
    }

    /** Writes infinite bounds into slot {@code body}: the shape overlaps everything. */
    public static void unbounded(double[] boundsM, int body) {
        int i = body * STRIDE;
        boundsM[i] = Double.NEGATIVE_INFINITY;
        boundsM[i + 1] = Double.NEGATIVE_INFINITY;
        boundsM[i + 2] = Double.NEGATIVE_INFINITY;
        boundsM[i + 3] = Double.POSITIVE_INFINITY;
        boundsM[i + 4] = Double.POSITIVE_INFINITY;
        boundsM[i + 5] = Double.POSITIVE_INFINITY;
    }

    /**
     * Whether the bounds of {@code bodyA} and {@code bodyB} overlap, touching included: the broadphase must not
     * drop a pair the narrowphase could still call a contact, and the exact decision belongs to the narrowphase.
     */
    public static boolean overlap(double[] boundsM, int bodyA, int bodyB) {
        int a = bodyA * STRIDE;
        int b = bodyB * STRIDE;
        return boundsM[a] <= boundsM[b + 3] && boundsM[b] <= boundsM[a + 3]
                && boundsM[a + 1] <= boundsM[b + 4] && boundsM[b + 1] <= boundsM[a + 4]
                && boundsM[a + 2] <= boundsM[b + 5] && boundsM[b + 2] <= boundsM[a + 5];
    }
}
