package org.hapticsd.physics;

/**
 * When resting bodies stop being simulated (sleeping, an option: off unless a scene asks for it). A group of dynamic
 * bodies whose bounds touch (an island) falls asleep together once every body in it has moved slower than
 * {@link #linearMps()} and turned slower than {@link #angularRadps()} for {@link #afterS()} seconds, and none of
 * them touches a kinematic body or a haptic tool. A sleeping body is held still, as a static body would be, and
 * costs no contact or solver work; anything that starts touching it, a changed pose or velocity, or a change of
 * gravity, settings or contact modes wakes it and, step by step through their touching bounds, its island.
 *
 * <h2>Why off by default</h2>
 * Sleeping trades fidelity for time: a body that creeps slower than the threshold is stopped, and a waking island
 * starts its contacts without a warm start (one step solved from zero impulses). The peer benchmark compares
 * engines with sleeping off, and the haptic scenes of this project are small; a lab scene with a large pile that
 * comes to rest is where it pays (see docs/performance.md).
 *
 * <h2>Thresholds when on</h2>
 * {@code 5 mm/s} and {@code 0.05 rad/s} (a 5 cm ball rolling at 2.5 mm/s): gravity alone changes a resting body's
 * speed by {@code g·Δt ≈ 10 mm/s} per step at 1 kHz, which the contacts cancel each step to about a thousandth of
 * that, so settled bodies sit three orders of magnitude below; a ball still visibly rolling is above. Box2D's are
 * of the same order (1 cm/s, 2°/s, 0.5 s).
 */
public final class SleepSettings {
    /** Default {@link #linearMps()} when sleeping is enabled. */
    public static final double DEFAULT_LINEAR_MPS = 0.005;
    /** Default {@link #angularRadps()} when sleeping is enabled. */
    public static final double DEFAULT_ANGULAR_RADPS = 0.05;

    private static final SleepSettings OFF = new SleepSettings(0.0, DEFAULT_LINEAR_MPS, DEFAULT_ANGULAR_RADPS);

    private final double afterS;
    private final double linearMps;
    private final double angularRadps;

    /**
     * @param afterS seconds an island must rest before it sleeps, finite and {@code >= 0}; 0 turns sleeping off
     * @param linearMps speed below which a body counts as resting, m/s, finite and {@code >= 0}
     * @param angularRadps angular speed below which a body counts as resting, rad/s, finite and {@code >= 0}
     */
    public SleepSettings(double afterS, double linearMps, double angularRadps) {
        this.afterS = requireNonNegative("afterS", afterS);
        this.linearMps = requireNonNegative("linearMps", linearMps);
        this.angularRadps = requireNonNegative("angularRadps", angularRadps);
    }

    /** Sleeping off: every body is simulated on every step. */
    public static SleepSettings off() {
        return OFF;
    }

    /** Sleeping after {@code afterS} seconds of rest, with the default thresholds. */
    public static SleepSettings after(double afterS) {
        return new SleepSettings(afterS, DEFAULT_LINEAR_MPS, DEFAULT_ANGULAR_RADPS);
    }

    /** Whether bodies may sleep at all ({@link #afterS()} {@code > 0}). */
    public boolean enabled() {
        return afterS > 0.0;
    }

    /** Seconds of rest before an island sleeps; 0 when sleeping is off. */
    public double afterS() {
        return afterS;
    }

    /** Speed below which a body counts as resting, m/s. */
    public double linearMps() {
        return linearMps;
    }

    /** Angular speed below which a body counts as resting, rad/s. */
    public double angularRadps() {
        return angularRadps;
    }

    private static double requireNonNegative(String what, double value) {
        if (!(value >= 0.0) || !Double.isFinite(value)) {
            throw new IllegalArgumentException(what + " must be finite and >= 0, was " + value);
        }
        return value;
    }

    @Override
    public String toString() {
        return enabled() ? "sleep after " + afterS + " s below " + linearMps + " m/s and " + angularRadps + " rad/s"
            : "sleep off";
    }
}
