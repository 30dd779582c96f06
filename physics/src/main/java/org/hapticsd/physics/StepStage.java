package org.hapticsd.physics;

/**
 * The stages of {@link PhysicsWorld#step}, in the order they run; each is timed into the {@link StepProfile}.
 *
 * <p>The list is fixed and the declaration order is the execution order, as Box2D's {@code b2SolverStageType}
 * (box2d {@code src/solver.h}): the step walks {@link #at(int)} from 0 to {@link #count()} - 1, so the order
 * cannot drift from the documentation.
 */
public enum StepStage {
    /** Refreshes the bounding boxes of moving bodies and lists the tool–static pairs whose boxes overlap. */
    BROADPHASE,
    /** Runs the exact contact test on each candidate pair and fills the contact pool. */
    NARROWPHASE,
    /** Turns each contact into a penalty force and sums the forces and torques per body. */
    CONTACT_FORCES;

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
