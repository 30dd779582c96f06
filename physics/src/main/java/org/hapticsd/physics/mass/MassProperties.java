package org.hapticsd.physics.mass;

import org.joml.Matrix3d;
import org.joml.Vector3d;

/**
 * Mass, centre of mass and inertia tensor of a rigid body, immutable.
 *
 * <p>Frames and conventions: the centre of mass is in the body frame; the inertia tensor is taken about the centre
 * of mass with axes along the body frame, {@code I = ∫ (|r|² E − r rᵀ) dm} with {@code r} measured from the centre of
 * mass. Its off-diagonal entries therefore carry the minus sign ({@code I_xy = −∫ x y dm}): they are the matrix
 * entries, not the "products of inertia" that some texts tabulate without the sign. The six independent entries are
 * stored as doubles rather than as a JOML matrix so that the object is immutable and cannot be changed through a
 * cast of a read-only view; {@link #inertiaKgM2(Matrix3d)} writes the full matrix into a destination.
 */
public final class MassProperties {

    private final double massKg;
    private final double centreXM;
    private final double centreYM;
    private final double centreZM;
    private final double ixxKgM2;
    private final double iyyKgM2;
    private final double izzKgM2;
    private final double ixyKgM2;
    private final double ixzKgM2;
    private final double iyzKgM2;

    /**
     * @param massKg finite, {@code > 0}
     * @param centreXM centre of mass, body frame
     * @param ixxKgM2 tensor entries about the centre of mass: {@code I_xx = ∫ (y² + z²) dm}, …,
     *     {@code I_xy = −∫ x y dm}, …; they must describe a physical body: every principal moment at most the sum
     *     of the other two, and the products bounded accordingly (see {@code requirePhysical})
     * @throws IllegalArgumentException naming the first value that is not finite or not physical
     */
    public MassProperties(double massKg, double centreXM, double centreYM, double centreZM,
                          double ixxKgM2, double iyyKgM2, double izzKgM2,
                          double ixyKgM2, double ixzKgM2, double iyzKgM2) {
        if (!(massKg > 0) || !Double.isFinite(massKg)) {
            throw new IllegalArgumentException("massKg must be finite and > 0, was " + massKg);
        }
        double[] values = {centreXM, centreYM, centreZM, ixxKgM2, iyyKgM2, izzKgM2, ixyKgM2, ixzKgM2, iyzKgM2};
        String[] names = {"centreXM", "centreYM", "centreZM", "ixxKgM2", "iyyKgM2", "izzKgM2", "ixyKgM2", "ixzKgM2",
            "iyzKgM2"};
        for (int i = 0; i < values.length; i++) {
            if (!Double.isFinite(values[i])) {
                throw new IllegalArgumentException(names[i] + " must be finite, was " + values[i]);
            }
        }
        requirePhysical(ixxKgM2, iyyKgM2, izzKgM2, ixyKgM2, ixzKgM2, iyzKgM2);
        this.massKg = massKg;
        this.centreXM = centreXM;
        this.centreYM = centreYM;
        this.centreZM = centreZM;
        this.ixxKgM2 = ixxKgM2;
        this.iyyKgM2 = iyyKgM2;
        this.izzKgM2 = izzKgM2;
        this.ixyKgM2 = ixyKgM2;
        this.ixzKgM2 = ixzKgM2;
        this.iyzKgM2 = iyzKgM2;
    }

    /**
     * Necessary conditions for a real body, which catch sign, unit and convention errors. With the second moment
     * about the centre {@code C = ∫ r rᵀ dm = (tr I / 2) E − I}, a body has {@code C} positive semi-definite: its
     * diagonal is non-negative (each moment at most the sum of the other two) and each off-diagonal entry is bounded
     * by Cauchy–Schwarz, {@code |C_ij| ≤ √(C_ii C_jj)}. A thin rod or plate sits on that boundary and its computed
     * entries carry rounding of about 1e-16 of the trace, so the checks allow 1e-9 of the trace.
     */
    private static void requirePhysical(double ixx, double iyy, double izz, double ixy, double ixz, double iyz) {
        double halfTrace = 0.5 * (ixx + iyy + izz);
        double cxx = halfTrace - ixx;
        double cyy = halfTrace - iyy;
        double czz = halfTrace - izz;
        double slack = 1e-9 * halfTrace;
        boolean physical = halfTrace > 0 && cxx >= -slack && cyy >= -slack && czz >= -slack
            && Math.abs(ixy) <= Math.sqrt(Math.max(cxx, 0) * Math.max(cyy, 0)) + slack
            && Math.abs(ixz) <= Math.sqrt(Math.max(cxx, 0) * Math.max(czz, 0)) + slack
            && Math.abs(iyz) <= Math.sqrt(Math.max(cyy, 0) * Math.max(czz, 0)) + slack;
        if (!physical) {
            throw new IllegalArgumentException("inertia tensor (" + ixx + ", " + iyy + ", " + izz + "; " + ixy + ", "
                + ixz + ", " + iyz + ") kg·m² is not that of a body: each moment must be positive and at most the "
                + "sum of the other two, and each product at most the geometric mean of the matching second moments");
        }
    }

    public double massKg() {
        return massKg;
    }

    /** Centre of mass in the body frame. */
    public Vector3d centreOfMassM(Vector3d destM) {
        return destM.set(centreXM, centreYM, centreZM);
    }

    public double centreXM() {
        return centreXM;
    }

    public double centreYM() {
        return centreYM;
    }

    public double centreZM() {
        return centreZM;
    }

    /** The symmetric inertia tensor about the centre of mass, body axes. */
    public Matrix3d inertiaKgM2(Matrix3d dest) {
        // JOML's set takes column-major arguments; the matrix is symmetric, so the order does not matter.
        return dest.set(ixxKgM2, ixyKgM2, ixzKgM2,
                        ixyKgM2, iyyKgM2, iyzKgM2,
                        ixzKgM2, iyzKgM2, izzKgM2);
    }

    public double ixxKgM2() {
        return ixxKgM2;
    }

    public double iyyKgM2() {
        return iyyKgM2;
    }

    public double izzKgM2() {
        return izzKgM2;
    }

    /** Tensor entry {@code −∫ x y dm}. */
    public double ixyKgM2() {
        return ixyKgM2;
    }

    /** Tensor entry {@code −∫ x z dm}. */
    public double ixzKgM2() {
        return ixzKgM2;
    }

    /** Tensor entry {@code −∫ y z dm}. */
    public double iyzKgM2() {
        return iyzKgM2;
    }

    /**
     * The same shape with another mass: the centre stays and the inertia scales with the mass, since both are
     * integrals of one density over one volume.
     */
    public MassProperties withMassKg(double newMassKg) {
        if (!(newMassKg > 0) || !Double.isFinite(newMassKg)) {
            throw new IllegalArgumentException("massKg must be finite and > 0, was " + newMassKg);
        }
        double scale = newMassKg / massKg;
        return new MassProperties(newMassKg, centreXM, centreYM, centreZM, scale * ixxKgM2, scale * iyyKgM2,
            scale * izzKgM2, scale * ixyKgM2, scale * ixzKgM2, scale * iyzKgM2);
    }

    @Override
    public String toString() {
        return "MassProperties[massKg=" + massKg + ", centreM=(" + centreXM + ", " + centreYM + ", " + centreZM
            + "), inertiaKgM2=(" + ixxKgM2 + ", " + iyyKgM2 + ", " + izzKgM2 + "; " + ixyKgM2 + ", " + ixzKgM2 + ", "
            + iyzKgM2 + ")]";
    }
}
