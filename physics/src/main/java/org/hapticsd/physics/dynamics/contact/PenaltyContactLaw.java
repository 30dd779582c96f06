package org.hapticsd.physics.dynamics.contact;

import org.joml.Vector3d;
import org.joml.Vector3dc;

/**
 * The penalty (spring–damper) contact law: a normal force from the depth and its rate, and Coulomb friction from
 * a tangential spring anchored at the stick point.
 *
 * <p>Penalty rather than a constraint for the haptic tool: the tool is kinematic (its motion is the user's hand),
 * so there is no mass to solve for, and a haptic wall is by nature a spring the device renders. Dynamic bodies
 * may use it too ({@code ContactMode.PENALTY}); see {@link PenaltyContactModel} for the stable range.
 */
public final class PenaltyContactLaw {

    private PenaltyContactLaw() {
    }

    /**
     * Rate of increase of the depth, {@code ḋ = −(vA − vB)·n}: positive while A moves into B.
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

    /**
     * Coulomb friction as a tangential spring–damper anchored at the stick point (the stick–slip model of haptic
     * friction, e.g. Salisbury et al., "Haptic rendering: programming touch interaction with virtual objects",
     * 1995; Karnopp's stick–slip with an elastic stick phase).
     *
     * <p>The displacement {@code s} of A from its stick point first loses any component along the (possibly
     * turned) normal, then grows by the sliding velocity: {@code s ← s − (s·n)·n + v_t·Δt}. The force on A is
     * {@code f_t = −(k·s + b·v_t)}. While {@code |f_t|} stays within {@code boundN} the contact sticks: A is held
     * by a spring of the wall's stiffness. Beyond it, A slips: the force is scaled to the bound, and the stick
     * point is dragged along so that the spring alone gives the bound, {@code s = −f_t/k}. Rejected: viscous
     * regularisation {@code f_t = −min(μ·f_n, b·|v_t|)·v̂_t}, which cannot hold a block on an incline (it creeps at
     * the speed where damping equals the slope force) and renders no stiction to the hand.
     *
     * @param slidingVelocityMps the relative tangential velocity {@code v_t} of A over B at the point
     * @param stickDisplacementM {@code s}, updated in place
     * @param boundN the friction bound, {@code μ0·f_n} or {@code μ·f_n}; {@code <= 0} gives no friction and
     *     resets {@code s}
     * @param destForceN receives {@code f_t}, the friction force on A
     */
    public static Vector3d stickSlipFrictionN(double stiffnessNpm, double dampingNspm, double dtS, double boundN,
                                              Vector3dc normal, Vector3dc slidingVelocityMps,
                                              Vector3d stickDisplacementM, Vector3d destForceN) {
        if (!(boundN > 0.0)) {
            stickDisplacementM.zero();
            return destForceN.zero();
        }
        Vector3d s = stickDisplacementM;
        s.fma(-s.dot(normal), normal).fma(dtS, slidingVelocityMps);
        destForceN.set(s).mul(-stiffnessNpm).fma(-dampingNspm, slidingVelocityMps);
        double magnitudeN = destForceN.length();
        if (magnitudeN > boundN) {
            destForceN.mul(boundN / magnitudeN);
            s.set(destForceN).mul(-1.0 / stiffnessNpm);
        }
        return destForceN;
    }
}
