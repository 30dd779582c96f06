package org.hapticsd.server.render;

import org.hapticsd.physics.geometry.SymmetricEigen;
import org.joml.Matrix3d;
import org.joml.Matrix3dc;
import org.joml.Vector3d;
import org.joml.Vector3dc;

/**
 * A velocity-dependent force field on the hand: {@code F = B·v}, with {@code v} the device's velocity in the scene
 * frame and {@code B} a 3 × 3 matrix, N·s/m. A viscous field is {@code B = −b·I}; a curl field, the standard
 * perturbation of motor-adaptation experiments (Shadmehr and Mussa-Ivaldi, 1994), is antisymmetric, e.g.
 * {@code [[0, 13, 0], [−13, 0, 0], [0, 0, 0]]}, and pushes across the movement without doing work. A field is never
 * allowed to give energy: the symmetric part of {@code B} must have no positive eigenvalue (checked when built), so
 * that the field either takes energy out of the hand's motion or none. Zero when the hand is still, so the safety
 * layer's start-up gate opens as without it.
 *
 * <p>Loop thread; allocates nothing after construction.
 */
public final class ForceField implements HapticEffect {
    /** Rounding allowed on the symmetric part's greatest eigenvalue, N·s/m. */
    private static final double ZERO_NSPM = 1e-12;

    private final Matrix3d matrixNspm;
    private final Vector3d scratch = new Vector3d();

    /**
     * @param matrixNspm B, N·s/m
     * @throws IllegalArgumentException when an entry is not finite, or the field could give energy (a positive
     *                                  eigenvalue of (B + Bᵀ)/2), naming the eigenvalue
     */
    public ForceField(Matrix3dc matrixNspm) {
        if (!matrixNspm.isFinite()) {
            throw new IllegalArgumentException("the field's matrix must be finite");
        }
        Matrix3d symmetric = new Matrix3d(matrixNspm).add(new Matrix3d(matrixNspm).transpose()).scale(0.5);
        double greatest = SymmetricEigen.greatest(symmetric);
        if (greatest > ZERO_NSPM) {
            throw new IllegalArgumentException(String.format(java.util.Locale.ROOT, "the field would give energy: "
                + "its symmetric part (B + Bᵀ)/2 has the eigenvalue %.4g N·s/m > 0, a negative damping along some "
                + "direction; a field may only damp (negative eigenvalues) or push across the motion (an "
                + "antisymmetric B)", greatest));
        }
        this.matrixNspm = new Matrix3d(matrixNspm);
    }

    /** A viscous field, {@code F = −b·v}. */
    public static ForceField viscous(double dampingNspm) {
        return new ForceField(new Matrix3d().scaling(-dampingNspm));
    }

    /** Adds {@code B·v} to {@code forceN}, both scene frame. */
    public Vector3d addTo(Vector3dc velocityMps, Vector3d forceN) {
        return forceN.add(matrixNspm.transform(velocityMps, scratch));
    }

    /** Adds {@code B·v} for the hand's velocity. */
    @Override
    public Vector3d addTo(RenderContext ctx, Vector3d forceN) {
        return addTo(ctx.handMps(), forceN);
    }

    /** Copies B into {@code dest}. */
    public Matrix3d matrix(Matrix3d dest) {
        return dest.set(matrixNspm);
    }

    /**
     * The largest damping the field renders in any direction, N·s/m: the greatest singular value of B, what the
     * passivity bound counts as the virtual damping ({@code ToolStiffness}).
     */
    public double largestDampingNspm() {
        Matrix3d gram = new Matrix3d(matrixNspm).transpose().mul(matrixNspm);
        return Math.sqrt(Math.max(0.0, SymmetricEigen.greatest(gram)));
    }
}
