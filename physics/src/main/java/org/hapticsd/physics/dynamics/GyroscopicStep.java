package org.hapticsd.physics.dynamics;

import org.joml.Matrix3dc;
import org.joml.Vector3d;

/**
 * The torque-free part of Euler's equation over one step, in the body frame:
 * {@code I·ω̇ + ω × I·ω = 0}, integrated with the implicit midpoint rule
 * {@code I·(ω₂ − ω₁) + Δt·ω_m × I·ω_m = 0}, {@code ω_m = (ω₁ + ω₂)/2}, solved by two Newton iterations from
 * {@code ω₂ = ω₁} with the Jacobian {@code I + (Δt/2)·([ω_m]×·I − [I·ω_m]×)}.
 *
 * <h2>Why the midpoint rule</h2>
 * Dotting the update with {@code ω_m} and with {@code I·ω_m} (the cross product is orthogonal to both) gives
 * {@code ω₂ᵀIω₂ = ω₁ᵀIω₁} and {@code |Iω₂| = |Iω₁|}: the rule conserves the kinetic energy and the magnitude of
 * the angular momentum exactly, for any step, so a free body keeps both and a T-handle spun near its intermediate
 * axis keeps flipping (Dzhanibekov) instead of drifting to its major axis. The alternatives:
 * <ul>
 *   <li>explicit {@code ω += −Δt·I⁻¹(ω × Iω)}: gains energy every step and blows up for long bodies;</li>
 *   <li>Catto's implicit (backward Euler) gyroscopic step with one Newton iteration (GDC 2015, "Numerical
 *       Methods"; Bullet's {@code computeGyroscopicImpulseImplicit_Body}): unconditionally stable but dissipative,
 *       losing energy at a relative rate of about {@code (Ω·Δt)²/2} per step for a body-frame precession rate
 *       {@code Ω}. Measured on the T-handle of the tests at 1 kHz: 2 % of its energy and 1 % of |L| lost in 10 s,
 *       against {@code 1e-13} for this rule. The cost of the midpoint rule is one more 3×3 solve.</li>
 * </ul>
 * Two iterations bring the residual to rounding (measured {@code < 1e-13} relative at {@code |ω|·Δt = 0.006}; the
 * Newton error squares each iteration, starting from {@code O((|ω|·Δt)²)}). A fixed count keeps the cost and the
 * result deterministic.
 *
 * <p>Stateless and allocation-free.
 */
public final class GyroscopicStep {

    private static final int NEWTON_ITERATIONS = 2;

    private GyroscopicStep() {
    }

    /**
     * Advances {@code omegaBody} (rad/s, body frame) by {@code dtS} under no torque.
     *
     * @param inertia symmetric positive-definite inertia about the centre of mass, body frame
     */
    public static void implicitMidpoint(Matrix3dc inertia, double dtS, Vector3d omegaBody) {
        // The inertia is symmetric, so JOML's column-major mCR equals the row-major element (R, C).
        double i00 = inertia.m00();
        double i01 = inertia.m10();
        double i02 = inertia.m20();
        double i11 = inertia.m11();
        double i12 = inertia.m21();
        double i22 = inertia.m22();
        double w1x = omegaBody.x;
        double w1y = omegaBody.y;
        double w1z = omegaBody.z;
        double w2x = w1x;
        double w2y = w1y;
        double w2z = w1z;
        double halfDt = 0.5 * dtS;
        for (int iteration = 0; iteration < NEWTON_ITERATIONS; iteration++) {
            double wx = 0.5 * (w1x + w2x);
            double wy = 0.5 * (w1y + w2y);
            double wz = 0.5 * (w1z + w2z);
            double lx = i00 * wx + i01 * wy + i02 * wz;
            double ly = i01 * wx + i11 * wy + i12 * wz;
            double lz = i02 * wx + i12 * wy + i22 * wz;
            double dx = w2x - w1x;
            double dy = w2y - w1y;
            double dz = w2z - w1z;
            // g = I·(ω₂ − ω₁) + Δt·ω_m × L_m
            double gx = i00 * dx + i01 * dy + i02 * dz + dtS * (wy * lz - wz * ly);
            double gy = i01 * dx + i11 * dy + i12 * dz + dtS * (wz * lx - wx * lz);
            double gz = i02 * dx + i12 * dy + i22 * dz + dtS * (wx * ly - wy * lx);
            // J = I + (Δt/2)·([ω_m]×·I − [L_m]×), with [a]× = [[0, −a_z, a_y], [a_z, 0, −a_x], [−a_y, a_x, 0]].
            double j00 = i00 + halfDt * (-wz * i01 + wy * i02);
            double j01 = i01 + halfDt * (-wz * i11 + wy * i12 + lz);
            double j02 = i02 + halfDt * (-wz * i12 + wy * i22 - ly);
            double j10 = i01 + halfDt * (wz * i00 - wx * i02 - lz);
            double j11 = i11 + halfDt * (wz * i01 - wx * i12);
            double j12 = i12 + halfDt * (wz * i02 - wx * i22 + lx);
            double j20 = i02 + halfDt * (-wy * i00 + wx * i01 + ly);
            double j21 = i12 + halfDt * (-wy * i01 + wx * i11 - lx);
            double j22 = i22 + halfDt * (-wy * i02 + wx * i12);
            // Δ = J⁻¹·g by cofactors.
            double c00 = j11 * j22 - j12 * j21;
            double c01 = j12 * j20 - j10 * j22;
            double c02 = j10 * j21 - j11 * j20;
            double det = j00 * c00 + j01 * c01 + j02 * c02;
            double inverseDet = 1.0 / det;
            double deltaX = (c00 * gx + (j02 * j21 - j01 * j22) * gy + (j01 * j12 - j02 * j11) * gz) * inverseDet;
            double deltaY = (c01 * gx + (j00 * j22 - j02 * j20) * gy + (j02 * j10 - j00 * j12) * gz) * inverseDet;
            double deltaZ = (c02 * gx + (j01 * j20 - j00 * j21) * gy + (j00 * j11 - j01 * j10) * gz) * inverseDet;
            w2x -= deltaX;
            w2y -= deltaY;
            w2z -= deltaZ;
        }
        omegaBody.set(w2x, w2y, w2z);
    }
}
