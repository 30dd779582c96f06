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
}
