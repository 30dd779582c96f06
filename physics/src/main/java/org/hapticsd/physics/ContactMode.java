package org.hapticsd.physics;

/**
 * How contacts between a pair of bodies are detected and resolved (Springhead's {@code PHSceneDesc::ContactMode},
 * users' manual §7.7, seed 002).
 *
 * <p>Set per pair, per body, per group or for the whole scene; see {@link PhysicsWorld#setPairContactMode} for the
 * precedence. Each mode other than {@link #NONE} has one contact solver behind the interface
 * {@code org.hapticsd.physics.dynamics.ContactSolver}; a further mode (impulse waveforms, seed 000) is a new
 * constant here plus one new solver registered in {@link PhysicsWorld}. Constants are only ever appended.
 */
public enum ContactMode {
    /** No detection and no force: the two bodies pass through each other. */
    NONE,
    /** Constraint method: contact impulses from the LCP of source 003, solved by projected Gauss–Seidel. */
    LCP,
    /** Penalty method: a spring–damper force from the depth and its rate, with spring–stick Coulomb friction. */
    PENALTY;

    private static final ContactMode[] BY_ORDINAL = values();

    /** The mode with this ordinal, without cloning {@code values()}. */
    public static ContactMode ofOrdinal(int ordinal) {
        return BY_ORDINAL[ordinal];
    }

    /** Number of modes. */
    public static int count() {
        return BY_ORDINAL.length;
    }
}
