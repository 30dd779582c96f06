package org.hapticsd.physics.dynamics;

import org.joml.Vector3dc;

/**
 * The penalty (spring–damper) contact law and the kinematics it reads.
 *
 * <p>Penalty rather than a constraint: the tool is kinematic (its motion is the user's hand), so there is no
 * mass to solve for, and a haptic wall is by nature a spring the device renders. The projected Gauss–Seidel
 * contact solver of the next issue sits beside this law for dynamic bodies.
 */
public final class PenaltyContactLaw {

    private PenaltyContactLaw() {
    }

    /**
     * Rate of increase of the depth, {@code ḋ = −(vA − vB)·n}: positive while A moves into B. Linear velocities
     * only, since neither a kinematic sphere nor a static body has an angular velocity that moves the contact
     * point in this slice.
     *
     * @param normal unit normal from B toward A
     */
    public static double penetrationRateMps(Vector3dc velocityAMps, Vector3dc velocityBMps, Vector3dc normal) {
        double vx = velocityAMps.x() - velocityBMps.x();
        double vy = velocityAMps.y() - velocityBMps.y();
        double vz = velocityAMps.z() - velocityBMps.z();
        return -(vx * normal.x() + vy * normal.y() + vz * normal.z());
    }

    /**
     * Magnitude of the normal force on A, {@code f = max(0, k·d + b·ḋ)}: a linear Kelvin–Voigt spring–dashpot,
     * so that with {@code b = 0} the rendered force is exactly {@code k·d}, the stiffness the passivity bound is
     * stated for. Rejected: Hunt–Crossley's {@code k·dⁿ + λ·dⁿ·ḋ}, which removes the force jump at impact but
     * makes the rendered stiffness depth-dependent. The clamp at zero makes the contact push only: on fast
     * separation {@code b·ḋ} outweighs {@code k·d}, and an unclamped damper would pull the tool back into the
     * wall, a sticky feel users notice at once.
     */
    public static double normalForceN(double stiffnessNpm, double dampingNspm, double depthM, double rateMps) {
        return Math.max(0.0, stiffnessNpm * depthM + dampingNspm * rateMps);
    }
}
