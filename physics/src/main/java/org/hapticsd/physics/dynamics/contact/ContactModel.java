package org.hapticsd.physics.dynamics.contact;

import org.hapticsd.physics.ContactMode;
import org.hapticsd.physics.StepContext;
import org.hapticsd.physics.dynamics.ContactPoints;
import org.hapticsd.physics.dynamics.RigidBodies;

/**
 * One contact law, plugged into the stages of the step (box2d {@code src/solver.c}: contact blocks run through the
 * same stages as everything else). A model owns its rows, the state it carries from one step to the next (an LCP
 * model its impulses, a penalty model its stick points) and reads its settings from the step context.
 *
 * <p>Each step the world hands a model the indices of its own points ({@code mine}, in the narrowphase's order) and,
 * for every point of the step, the slot of the point it continues in the last step ({@code previous[i]}, or −1
 * for a new contact; see {@link ContactMatcher}). A model whose point continues one of another mode's (the pair's
 * mode changed) gets −1. The stages are called on every registered model in turn, in the order of
 * {@link ContactMode}; a stage a model has no use for keeps its empty default.
 *
 * <p>Loop thread only. A model allocates in {@link #reserve} and nowhere else.
 */
public interface ContactModel {

    /** The mode whose points this model resolves. */
    ContactMode mode();

    /**
     * How far a point may lie from a stored point of its pair, relative to the lower body's centre, and still
     * continue it when the narrowphase named it differently (see {@link ContactMatcher}), m; 0 matches by feature id
     * only.
     */
    double matchRadiusM();

    /** Makes room for {@code points} contact points and {@code bodies} bodies without growing during a step. */
    void reserve(int points, int bodies);

    /**
     * {@code PREPARE_CONTACTS}, before gravity and external forces reach the velocities: read the start-of-step
     * velocities (Springhead chooses its model from the approach speed before the step), build rows, take over the
     * carried state of continued points, or add forces to {@link RigidBodies#forceN} / {@link RigidBodies#torqueNm}
     * for the integrator to apply.
     */
    void prepare(StepContext context, RigidBodies bodies, ContactPoints points, PointIndices mine, int[] previous);

    /** {@code WARM_START}: apply the impulses carried over from the last step. */
    default void warmStart(StepContext context, RigidBodies bodies) {
    }

    /** {@code SOLVE}: change the velocities of dynamic bodies so that the contact conditions hold. */
    default void solveVelocities(StepContext context, RigidBodies bodies) {
    }

    /**
     * {@code CORRECT_POSITIONS}: after integration, reduce remaining penetration through the bodies' pseudo-velocities
     * (split impulse), which move positions and are then forgotten.
     */
    default void relax(StepContext context, RigidBodies bodies) {
    }

    /**
     * {@code RESTITUTION}: after the positions are final, velocity changes that belong to the end of the step (box2d
     * {@code b2ApplyRestitution}: a bounce applied once the contact constraints have been met).
     */
    default void restitution(StepContext context, RigidBodies bodies) {
    }

    /**
     * {@code STORE_IMPULSES}: write each of its points' {@code normalForceN} and {@code frictionForceN}, and keep what
     * it carries to the next step, indexed by this step's point slots.
     */
    void store(StepContext context, ContactPoints points);
}
