package org.hapticsd.physics;

/**
 * The stages of {@link PhysicsWorld#step}, in the order they run; each is timed into the {@link StepProfile}.
 *
 * <p>The list is fixed and the declaration order is the execution order, as Box2D's {@code b2SolverStageType}
 * (box2d {@code src/solver.h}): the step walks {@link #at(int)} from 0 to {@link #count()} - 1, so the order
 * cannot drift from the documentation. The order is that of source 003 (contact detection → constraint forces →
 * velocity update → position update), with sequential impulses' warm start and split position correction added.
 */
public enum StepStage {
    /**
     * Refreshes what follows from each moving body's pose (rotation matrix, world inverse inertia
     * {@code R·I⁻¹·Rᵀ}, bounds), lists the pairs whose bounds overlap and keeps those whose contact mode is not
     * {@link ContactMode#NONE}.
     */
    BROADPHASE,
    /**
     * Runs the exact test on each kept pair, fills the contact pool, lists each contact model's points, matches each
     * point to the last step's by (body pair, feature id, and for LCP position) so that the models carry their state
     * over, and lists the new contacts with their approach speed ({@code PhysicsWorld.contactOnsets()}).
     */
    NARROWPHASE,
    /**
     * The deformable bodies' nodes against the rigid bodies and the tool (a penalty coupling, {@code
     * PhysicsWorld.addDeformable}): forces on the nodes, and the opposite forces into the bodies' accumulators,
     * which the velocity integration then applies. Nothing to do without deformable bodies.
     */
    DEFORMABLE_CONTACTS,
    /**
     * Each contact model builds what it needs from the start-of-step state: penalty contacts turn into forces, LCP
     * contacts into rows (Jacobian, effective mass {@code 1/A_ii}, the Springhead collision or static target, the
     * friction bound).
     */
    PREPARE_CONTACTS,
    /**
     * Gravity, applied forces (penalty contacts, {@code PhysicsWorld.applyForce}), damping and the gyroscopic term
     * update the velocities of dynamic bodies: the free velocity {@code b} of source 003.
     */
    INTEGRATE_VELOCITIES,
    /** Applies the impulses carried over from the last step to the velocities (sequential impulses). */
    WARM_START,
    /** Projected Gauss–Seidel sweeps over the LCP rows: normal, then two friction directions, per point. */
    SOLVE,
    /** Semi-implicit Euler: positions from the new velocities, orientations {@code q += ½·(0, ω)·q·Δt}. */
    INTEGRATE,
    /** Each deformable body's own step (its integrator: Newmark, modal, ...) under its forces and the coupling's. */
    DEFORMABLE_INTEGRATE,
    /**
     * Springhead's static contact model {@code d' = d − γ·max(d − d_tol, 0)} as a separate position projection
     * (split impulse): Gauss–Seidel on pseudo-velocities that move the bodies but are then discarded, so pushing
     * bodies apart never adds kinetic energy.
     */
    CORRECT_POSITIONS,
    /**
     * Velocity changes that belong after the positions (box2d's restitution pass): no model of the rigid contacts
     * uses it (Springhead's bounce is the LCP rows' target), the stage is there for those that do.
     */
    RESTITUTION,
    /**
     * Writes each point's force (impulse / {@code Δt}) and sums force and torque per body; each model keeps what it
     * carries to the next step (impulses, stick points). Also puts resting islands to sleep, and takes out a body whose
     * state is no longer finite.
     */
    STORE_IMPULSES;

    /** {@code values()} clones its array on every call; the step reads this copy instead. */
    private static final StepStage[] IN_ORDER = values();

    /** Number of stages. */
    public static int count() {
        return IN_ORDER.length;
    }

    /** The stage that runs at position {@code index} (0-based), without allocating. */
    public static StepStage at(int index) {
        return IN_ORDER[index];
    }
}
