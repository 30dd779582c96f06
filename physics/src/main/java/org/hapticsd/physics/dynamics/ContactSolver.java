package org.hapticsd.physics.dynamics;

import org.hapticsd.physics.ContactMode;
import org.hapticsd.physics.StepContext;

/**
 * Resolves the contact points of one {@link ContactMode}, stage by stage of the step. Each solver handles the
 * points whose {@code ContactPoints.mode} is its own and ignores the rest, so modes coexist in one scene: a penalty
 * contact's force enters the same step's free velocity that the LCP rows then constrain.
 *
 * <p>The stages call every registered solver in turn (the world holds them in an array indexed by mode ordinal).
 * A further mode — impulse waveforms (seed 000) — implements this interface and is registered beside the two
 * existing ones; a stage it has no use for is an empty method. No method may allocate once the solver has seen
 * the scene's largest contact set.
 */
public interface ContactSolver {

    /** The mode whose points this solver resolves. */
    ContactMode mode();

    /**
     * {@code PREPARE_CONTACTS}, before gravity and external forces reach the velocities: read the start-of-step
     * velocities (Springhead chooses its model from the approach speed before the step), build rows, or add forces
     * to {@link RigidBodies#forceN} / {@link RigidBodies#torqueNm} for the integrator to apply.
     */
    void prepare(StepContext context, RigidBodies bodies, ContactPoints contacts);

    /** {@code WARM_START}: apply the impulses carried over from the last step. */
    void warmStart(StepContext context, RigidBodies bodies);

    /** {@code SOLVE}: change the velocities of dynamic bodies so that the contact conditions hold. */
    void solveVelocities(StepContext context, RigidBodies bodies);

    /** {@code CORRECT_POSITIONS}: after integration, reduce remaining penetration by moving positions directly. */
    void correctPositions(StepContext context, RigidBodies bodies);

    /**
     * {@code STORE_IMPULSES}: write each point's {@code normalForceN} and {@code frictionForceN}, and whatever it
     * needs next step ({@code normalImpulseNs}, {@code frictionImpulseNs}, {@code stickDisplacementM}).
     */
    void storeImpulses(StepContext context, ContactPoints contacts);
}
