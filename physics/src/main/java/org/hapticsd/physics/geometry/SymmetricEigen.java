package org.hapticsd.physics.geometry;

import org.joml.Matrix3dc;

/**
 * Eigenvalues of a symmetric 3 × 3 matrix in closed form (the trigonometric solution of the characteristic cubic):
 * an inertia's principal moments, the definiteness of a damping matrix. Only the upper triangle is read.
 */
public final class SymmetricEigen {
    private SymmetricEigen() {
    }

    /** The least eigenvalue. */
    public static double least(Matrix3dc m) {
        return eigenvalue(m, 2.0 * Math.PI / 3.0);
    }

    /** The greatest eigenvalue. */
    public static double greatest(Matrix3dc m) {
        return eigenvalue(m, 0.0);
    }

    /** {@code q + 2p·cos(φ + shift)}: shift 0 gives the greatest root, 2π/3 the least. */
    private static double eigenvalue(Matrix3dc m, double shift) {
        double a = m.m00();
        double b = m.m11();
        double c = m.m22();
        double d = m.m10();
        double e = m.m21();
        double f = m.m20();
        double offDiagonal = d * d + e * e + f * f;
        if (offDiagonal == 0.0) {
            return shift == 0.0 ? Math.max(a, Math.max(b, c)) : Math.min(a, Math.min(b, c));
        }
        double q = (a + b + c) / 3.0;
        double p2 = (a - q) * (a - q) + (b - q) * (b - q) + (c - q) * (c - q) + 2.0 * offDiagonal;
        double p = Math.sqrt(p2 / 6.0);
        // B = (A − q·I)/p; r = det(B)/2, clamped to [−1, 1] against rounding.
        double ba = (a - q) / p;
        double bb = (b - q) / p;
        double bc = (c - q) / p;
        double bd = d / p;
        double be = e / p;
        double bf = f / p;
        double det = ba * (bb * bc - be * be) - bd * (bd * bc - be * bf) + bf * (bd * be - bb * bf);
        double r = Math.max(-1.0, Math.min(1.0, det / 2.0));
        double phi = Math.acos(r) / 3.0;
        return q + 2.0 * p * Math.cos(phi + shift);
    }
}
