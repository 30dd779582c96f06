package org.hapticsd.physics.dynamics.contact;

import org.joml.Vector3d;

/**
 * One LCP contact point as three rows — normal {@code n} and the two friction directions {@code t1}, {@code t2}
 * (Springhead's x, y, z contact frame, seed 002) — with everything the Gauss–Seidel sweeps read, precomputed once
 * per step by {@link LcpContactModel#prepare}. Preallocated and reused (Box2D's {@code b2ContactConstraintPoint}).
 *
 * <p>Row {@code d} of the Jacobian of source 003 is {@code J_d = [dᵀ, (r_A × d)ᵀ, −dᵀ, −(r_B × d)ᵀ]}, so the
 * relative velocity along {@code d} is {@code d·(v_A − v_B) + (r_A × d)·ω_A − (r_B × d)·ω_B} and the diagonal of
 * {@code J·M⁻¹·Jᵀ} is {@code 1/m_A + 1/m_B + (r_A × d)·I_A⁻¹(r_A × d) + (r_B × d)·I_B⁻¹(r_B × d)}.
 */
final class ContactConstraint {

    /** Slot in {@link ContactPoints}. */
    int point;
    int bodyA;
    int bodyB;
    boolean dynamicA;
    boolean dynamicB;
    double inverseMassA;
    double inverseMassB;

    /** Contact frame: x = normal, y = sliding direction at the start of the step, z = x × y. */
    final Vector3d n = new Vector3d();
    final Vector3d t1 = new Vector3d();
    final Vector3d t2 = new Vector3d();

    /** {@code r_A × d} and {@code r_B × d} for d = n, t1, t2: the angular parts of the Jacobian rows. */
    final Vector3d rAxN = new Vector3d();
    final Vector3d rBxN = new Vector3d();
    final Vector3d rAxT1 = new Vector3d();
    final Vector3d rBxT1 = new Vector3d();
    final Vector3d rAxT2 = new Vector3d();
    final Vector3d rBxT2 = new Vector3d();

    /** {@code I⁻¹·(r × d)}: the change of ω per unit impulse along each row. */
    final Vector3d iArAxN = new Vector3d();
    final Vector3d iBrBxN = new Vector3d();
    final Vector3d iArAxT1 = new Vector3d();
    final Vector3d iBrBxT1 = new Vector3d();
    final Vector3d iArAxT2 = new Vector3d();
    final Vector3d iBrBxT2 = new Vector3d();

    /** {@code 1/A_ii} of each row, kg. */
    double normalMass;
    double tangentMass1;
    double tangentMass2;

    /** Depth at detection, m. */
    double depthM;
    /** Normal relative velocity the row drives to (or above), m/s: Springhead's collision or static target. */
    double targetNormalSpeedMps;
    /** {@code μ0} while sliding at most {@code V_f} at the start of the step, {@code μ} above. */
    double friction;

    /** Accumulated impulses of the step, N·s: {@code λ_n >= 0}, {@code |(λ_t1, λ_t2)| <= friction·λ_n}. */
    double normalImpulse;
    double tangentImpulse1;
    double tangentImpulse2;

    /** Position correction: target pseudo-velocity, m/s, and accumulated pseudo-impulse, N·s. */
    double pseudoTargetMps;
    double pseudoImpulse;
}
