package org.hapticsd.device.sim;

/**
 * Where the simulated user's hand wants the stylus to be, as a function of simulated time.
 *
 * <p>Called from {@link SimulatedDevice#readState} once per physics substep (ten times per 1 kHz tick by
 * default), so implementations must not allocate, block or take locks.
 */
public interface HandTarget {

    /**
     * Writes the target position at {@code tSeconds} into {@code positionOut3}.
     *
     * @param tSeconds     simulated time since the device's first {@code readState} after {@code open()}
     * @param positionOut3 destination {@code {xM, yM, zM}} in the device frame; only indices 0..2 are written
     */
    void targetAt(double tSeconds, double[] positionOut3);

    /** The hand holds the stylus toward {@link #targetAt}: a spring-damper (the default). */
    int HOLDS = 0;
    /** The hand pushes the stylus with a constant force (no spring), still damping it as a grip does. */
    int PRESSES = 1;
    /** The hand has let go: neither spring nor hand damping acts, only the mechanism's own damping. */
    int RELEASED = 2;

    /**
     * How the hand acts at {@code tSeconds}: {@link #HOLDS}, {@link #PRESSES} (then the force is written to
     * {@code forceOut3}, N, device frame) or {@link #RELEASED}. The default always holds.
     */
    default int modeAt(double tSeconds, double[] forceOut3) {
        return HOLDS;
    }

    /** The stylus buttons the hand holds down at {@code tSeconds}: bit i = button i. The default presses none. */
    default int buttonsAt(double tSeconds) {
        return 0;
    }
}
