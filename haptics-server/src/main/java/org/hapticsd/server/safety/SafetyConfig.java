package org.hapticsd.server.safety;

/**
 * Limits of the safety layer. They come only from local configuration (scene file, command line), never from
 * a remote client.
 *
 * @param maxForceN           configured force ceiling; the effective ceiling is the smaller of this and the
 *                            device's own maximum
 * @param maxForceStepN       slew limit: the most the output force vector may change in one tick
 * @param gateThresholdN      the rendered force must stay below this for {@code gateTicks} ticks before the
 *                            output is enabled
 * @param gateTicks           consecutive quiet ticks the start-up gate waits for
 * @param rampNs              time over which output is scaled from 0 to 1 once the gate opens
 * @param watchdogTicks       consecutive ticks without a fresh device state that trip the watchdog
 * @param overrunLimit        consecutive loop overruns that trip SAFE
 * @param thermalTimeConstantS time constant of the motors' heat model, s: the output's mean square over about this
 *                            time is held at or below the square of the device's continuous force
 *                            ({@link SafetyLayer}, "Thermal limit")
 */
public record SafetyConfig(double maxForceN, double maxForceStepN, double gateThresholdN, int gateTicks,
                           long rampNs, int watchdogTicks, int overrunLimit, double thermalTimeConstantS) {

    public static final double DEFAULT_MAX_FORCE_N = 8.0;
    /** 0.5 N per tick = 500 N/s at 1 kHz: a 4 N contact onset becomes an 8 ms ramp, below what a hand notices. */
    public static final double DEFAULT_MAX_FORCE_STEP_N = 0.5;
    public static final double DEFAULT_GATE_THRESHOLD_N = 0.05;
    public static final int DEFAULT_GATE_TICKS = 50;
    public static final long DEFAULT_RAMP_NS = 1_000_000_000L;
    public static final int DEFAULT_WATCHDOG_TICKS = 3;
    public static final int DEFAULT_OVERRUN_LIMIT = 50;
    /**
     * 30 s: a cold device may give its peak force for a few seconds (8 N for 6.2 s on a device of 8 N peak and 4 N
     * continuous) before the limit folds it back to the continuous force; motor windings heat over tens of seconds.
     */
    public static final double DEFAULT_THERMAL_TIME_CONSTANT_S = 30.0;

    /** The limits with the default {@link #DEFAULT_THERMAL_TIME_CONSTANT_S}. */
    public SafetyConfig(double maxForceN, double maxForceStepN, double gateThresholdN, int gateTicks, long rampNs,
                        int watchdogTicks, int overrunLimit) {
        this(maxForceN, maxForceStepN, gateThresholdN, gateTicks, rampNs, watchdogTicks, overrunLimit,
            DEFAULT_THERMAL_TIME_CONSTANT_S);
    }

    public SafetyConfig {
        requirePositiveFinite("maxForceN", maxForceN);
        requirePositiveFinite("maxForceStepN", maxForceStepN);
        requirePositiveFinite("gateThresholdN", gateThresholdN);
        if (gateTicks < 1) {
            throw new IllegalArgumentException("gateTicks must be >= 1, got " + gateTicks);
        }
        if (rampNs < 0) {
            throw new IllegalArgumentException("rampNs must be >= 0, got " + rampNs);
        }
        if (watchdogTicks < 1) {
            throw new IllegalArgumentException("watchdogTicks must be >= 1, got " + watchdogTicks);
        }
        if (overrunLimit < 1) {
            throw new IllegalArgumentException("overrunLimit must be >= 1, got " + overrunLimit);
        }
        requirePositiveFinite("thermalTimeConstantS", thermalTimeConstantS);
    }

    /** The same limits with another {@code watchdogTicks}. */
    public SafetyConfig withWatchdogTicks(int ticks) {
        return new SafetyConfig(maxForceN, maxForceStepN, gateThresholdN, gateTicks, rampNs, ticks, overrunLimit,
            thermalTimeConstantS);
    }

    /**
     * The loop watchdog for a device that sends a state only every {@code ceil(loopRateHz / deviceRateHz)} ticks:
     * {@code watchdogTicks} of the device's periods rather than of the loop's, as the device's own watchdog counts
     * periods of the slower side (docs/device-protocol.md, section 7). A device at the loop rate or faster keeps
     * this config.
     */
    public SafetyConfig forDeviceRate(int loopRateHz, int deviceRateHz) {
        if (deviceRateHz <= 0 || deviceRateHz >= loopRateHz) {
            return this;
        }
        int ticksPerState = (loopRateHz + deviceRateHz - 1) / deviceRateHz;
        return withWatchdogTicks(watchdogTicks * ticksPerState);
    }

    public static SafetyConfig defaults() {
        return new SafetyConfig(DEFAULT_MAX_FORCE_N, DEFAULT_MAX_FORCE_STEP_N, DEFAULT_GATE_THRESHOLD_N,
            DEFAULT_GATE_TICKS, DEFAULT_RAMP_NS, DEFAULT_WATCHDOG_TICKS, DEFAULT_OVERRUN_LIMIT);
    }

    private static void requirePositiveFinite(String field, double value) {
        if (!(value > 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException(field + " must be > 0 and finite, got " + value);
        }
    }
}
