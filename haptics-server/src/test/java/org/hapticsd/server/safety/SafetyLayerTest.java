package org.hapticsd.server.safety;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * One test (or a small group) per rule of {@link SafetyLayer}; each is built so that it fails if its rule is
 * removed. The layer is driven tick by tick on a fake clock advancing {@value #PERIOD_NS} ns per tick (1 kHz).
 */
class SafetyLayerTest {

    /**
     * Forces here are at most ~50 N and go through a handful of multiplications, one square root and one
     * division per tick: rounding error is a few ulps of 50 N (~1e-14 N). 1e-12 N is far above that and many
     * orders of magnitude below any rule's effect (the smallest effect asserted is 0.01 N).
     */
    private static final double FORCE_TOLERANCE_N = 1e-12;
    /** Unit-vector components; same reasoning as above, relative to 1. */
    private static final double DIRECTION_TOLERANCE = 1e-12;

    private static final long PERIOD_NS = 1_000_000L;
    /** A clock that does not start at zero, so that elapsed times must be computed by subtraction. */
    private static final long START_NS = 7_000_000_123L;

    private static final double DEVICE_MAX_N = 10.0;
    private static final double MAX_FORCE_N = 8.0;
    /** A slew limit so large it never binds: isolates the other rules from it. */
    private static final double NO_SLEW_N = 1000.0;
    private static final double SLEW_N = 0.5;
    private static final double THRESHOLD_N = 0.05;
    /** Below the gate threshold but non-zero, so an output that wrongly lets it through is visible. */
    private static final double QUIET_N = 0.04;
    private static final int GATE_TICKS = 5;
    private static final long RAMP_NS = 4 * PERIOD_NS;
    private static final int WATCHDOG_TICKS = 3;
    private static final int OVERRUN_LIMIT = 10;

    /** Large slew limit: one tick moves the output all the way to the (scaled, clamped) target. */
    private static SafetyConfig unslewed() {
        return new SafetyConfig(MAX_FORCE_N, NO_SLEW_N, THRESHOLD_N, GATE_TICKS, RAMP_NS, WATCHDOG_TICKS,
            OVERRUN_LIMIT);
    }

    private static SafetyConfig slewed() {
        return new SafetyConfig(MAX_FORCE_N, SLEW_N, THRESHOLD_N, GATE_TICKS, RAMP_NS, WATCHDOG_TICKS,
            OVERRUN_LIMIT);
    }

    /** Drives one layer on a fake 1 kHz clock. */
    static final class Driver {
        final SafetyLayer layer;
        long nowNs = START_NS;

        Driver(SafetyConfig config, double deviceMaxN) {
            layer = new SafetyLayer(config, deviceMaxN);
        }

        Driver(SafetyConfig config, double deviceMaxN, double deviceContinuousN) {
            layer = new SafetyLayer(config, deviceMaxN, deviceContinuousN);
        }

        /** A tick with a fresh state from a healthy device and no overruns. */
        void tick(double fx, double fy, double fz) {
            tick(fx, fy, fz, true, true, 0);
        }

        void tick(double fx, double fy, double fz, boolean fresh, boolean healthy, int overruns) {
            nowNs += PERIOD_NS;
            layer.update(nowNs, fx, fy, fz, fresh, healthy, overruns);
        }

        /** Zero-force ticks through the start-up gate and the ramp, to ACTIVE with zero output. */
        Driver active() {
            SafetyConfig c = layer.config();
            long bound = c.gateTicks() + c.rampNs() / PERIOD_NS + 1;
            for (long i = 0; i < bound && layer.state() != SafetyState.ACTIVE; i++) {
                tick(0.0, 0.0, 0.0);
            }
            assertEquals(SafetyState.ACTIVE, layer.state(), "gate and ramp should take at most " + bound + " ticks");
            assertOutput(0.0, 0.0, 0.0);
            return this;
        }

        /** From ACTIVE, renders the force until the output has slewed to it. */
        Driver outputting(double fx, double fy, double fz) {
            double distanceN = Math.sqrt(sq(fx - layer.outputX()) + sq(fy - layer.outputY()) + sq(fz - layer.outputZ()));
            long ticks = (long) Math.ceil(distanceN / layer.config().maxForceStepN());
            for (long i = 0; i < ticks; i++) {
                tick(fx, fy, fz);
            }
            assertOutput(fx, fy, fz);
            return this;
        }

        double magnitudeN() {
            return Math.sqrt(sq(layer.outputX()) + sq(layer.outputY()) + sq(layer.outputZ()));
        }

        void assertOutput(double x, double y, double z) {
            assertEquals(x, layer.outputX(), FORCE_TOLERANCE_N, "output x");
            assertEquals(y, layer.outputY(), FORCE_TOLERANCE_N, "output y");
            assertEquals(z, layer.outputZ(), FORCE_TOLERANCE_N, "output z");
        }

        /** Exactly zero: zeroing is an assignment, not a computation, so no tolerance is due. */
        void assertZero(String when) {
            assertEquals(0.0, layer.outputX(), 0.0, when);
            assertEquals(0.0, layer.outputY(), 0.0, when);
            assertEquals(0.0, layer.outputZ(), 0.0, when);
        }

        void assertState(SafetyState state, SafetyFault fault, String when) {
            assertEquals(state, layer.state(), when);
            assertEquals(fault, layer.fault(), when);
        }
    }

    private static double sq(double v) {
        return v * v;
    }

    /**
     * The thermal limit, on a device of 8 N peak and 4 N continuous with τ = 1 s (30 s by default: shorter here so
     * that the runs take seconds of fake time, not minutes). The heat the test checks is its own model of the
     * outputs it saw, {@code H ← H + (F² − H)·(1 − e^(−Δt/τ))}, not the layer's.
     */
    @Nested
    class ThermalLimit {
        private static final double PEAK_N = 8.0;
        private static final double CONTINUOUS_N = 4.0;
        private static final double TAU_S = 1.0;

        private Driver hotDevice() {
            SafetyConfig config = new SafetyConfig(MAX_FORCE_N, NO_SLEW_N, THRESHOLD_N, GATE_TICKS, RAMP_NS,
                WATCHDOG_TICKS, OVERRUN_LIMIT, TAU_S);
            return new Driver(config, PEAK_N, CONTINUOUS_N).active();
        }

        /** The heat of the outputs seen, N², advanced by one tick at the current output. */
        private double heated(double heatN2, Driver d) {
            return heatN2 + (sq(d.magnitudeN()) - heatN2) * -Math.expm1(-PERIOD_NS * 1e-9 / TAU_S);
        }

        @Test
        void shouldGiveMoreThanTheContinuousForceWhileColdThenFoldBackToIt() {
            Driver d = hotDevice();
            double heatN2 = 0.0;
            long firstLimitedTick = -1;
            for (long tick = 1; tick <= 5_000; tick++) {
                d.tick(0.0, 6.0, 0.0);
                if (firstLimitedTick < 0 && d.magnitudeN() < 6.0 - FORCE_TOLERANCE_N) {
                    firstLimitedTick = tick;
                }
                assertEquals(0.0, d.layer.outputX(), 0.0, "direction kept");
                assertTrue(d.layer.outputY() >= CONTINUOUS_N - FORCE_TOLERANCE_N, "below continuous at tick " + tick);
                heatN2 = heated(heatN2, d);
                assertTrue(heatN2 <= sq(CONTINUOUS_N) * (1 + 1e-9), "heat " + heatN2 + " N² at tick " + tick);
            }
            // The allowance is the peak to 75 % of 4²'s heat, then falls linearly in its square to 4² at 4²: it
            // passes 6² at H = 16 − 20·4/48 = 14.33 N², which 6 N reaches from cold in τ·ln(36/21.67) = 507.7 ms.
            assertTrue(firstLimitedTick >= 506 && firstLimitedTick <= 510, "limited from tick " + firstLimitedTick);
            assertEquals(CONTINUOUS_N, d.magnitudeN(), 1e-6, "after 5 τ, the continuous force");
            assertTrue(d.layer.thermalLimited());
            assertEquals(1.0, d.layer.heatFraction(), 1e-6);
        }

        /** A tester felt 8 N fall to 4 N in two ticks: the allowance now falls over seconds (τ = 1 s here). */
        @Test
        void shouldLowerTheForceGraduallyNotInAStep() {
            Driver d = hotDevice();
            double previousN = 8.0;
            double largestStepN = 0.0;
            for (int tick = 0; tick < 3_000; tick++) {
                d.tick(8.0, 0.0, 0.0);
                largestStepN = Math.max(largestStepN, previousN - d.magnitudeN());
                previousN = d.magnitudeN();
            }
            assertEquals(CONTINUOUS_N, d.magnitudeN(), 1e-6);
            // From 8 N to 4 N: 48 N² of allowance over the last quarter of the heat, which rises at most
            // (64 − 12)·(1 − e^(−1 ms/τ)) = 0.052 N² a tick: at most 0.62 N² of allowance a tick, 0.04 N of force.
            assertTrue(largestStepN < 0.05, "largest fall in one tick " + largestStepN + " N");
        }

        @Test
        void shouldGiveThePeakAgainOnceCool() {
            Driver d = hotDevice();
            for (int i = 0; i < 5_000; i++) {
                d.tick(0.0, 0.0, 8.0);
            }
            assertEquals(CONTINUOUS_N, d.magnitudeN(), 1e-6);
            // An emergency stop, a reset and the gate do not cool the motors: only time does.
            d.layer.emergencyStop();
            d.layer.reset();
            d.active();
            assertTrue(d.layer.heatFraction() > 0.9, "heat " + d.layer.heatFraction());
            // The gate's few ticks at zero cooled them by 1 %: room for the peak for a few ticks, not more.
            for (int i = 0; i < 20; i++) {
                d.tick(0.0, 0.0, 8.0);
            }
            assertTrue(d.magnitudeN() < 4.5, "still hot: " + d.magnitudeN());
            for (int i = 0; i < 10_000; i++) {
                d.tick(0.0, 0.0, 0.0);
            }
            d.tick(0.0, 0.0, 8.0);
            d.assertOutput(0.0, 0.0, 8.0);
            assertTrue(d.layer.heatFraction() < 1e-3, "cooled to " + d.layer.heatFraction());
        }

        @Test
        void shouldHoldTheMeanSquareOfAnyDemandToTheContinuousForce() {
            Driver d = hotDevice();
            double heatN2 = 0.0;
            long state = 42;
            double demandN = 0.0;
            long limited = 0;
            for (int tick = 0; tick < 20_000; tick++) {
                if (tick % 50 == 0) {
                    state = state * 6364136223846793005L + 1442695040888963407L;
                    demandN = 9.0 * ((state >>> 11) * 0x1.0p-53);
                }
                d.tick(demandN, 0.0, 0.0);
                heatN2 = heated(heatN2, d);
                assertTrue(heatN2 <= sq(CONTINUOUS_N) * (1 + 1e-9), "heat " + heatN2 + " N² at tick " + tick);
                assertTrue(d.magnitudeN() <= PEAK_N + FORCE_TOLERANCE_N);
                limited += d.layer.thermalLimited() ? 1 : 0;
            }
            assertEquals(limited, d.layer.thermalLimitedTicks());
            assertTrue(limited > 1_000, "the demand (mean square 27 N²) was limited on " + limited + " ticks");
        }

        @Test
        void shouldNeverLimitADeviceWhoseContinuousForceIsItsPeak() {
            SafetyConfig config = new SafetyConfig(MAX_FORCE_N, NO_SLEW_N, THRESHOLD_N, GATE_TICKS, RAMP_NS,
                WATCHDOG_TICKS, OVERRUN_LIMIT, TAU_S);
            Driver d = new Driver(config, PEAK_N).active();
            for (int i = 0; i < 10_000; i++) {
                d.tick(0.0, 0.0, 8.0);
                d.assertOutput(0.0, 0.0, 8.0);
            }
            assertEquals(0, d.layer.thermalLimitedTicks());
        }

        @Test
        void shouldRefuseAContinuousForceAboveThePeak() {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new SafetyLayer(SafetyConfig.defaults(), 4.0, 5.0));
            assertTrue(e.getMessage().contains("continuous force"), e.getMessage());
        }
    }

    @Nested
    class FinalClamp {

        @Test
        void shouldClampToDeviceMaxWhenItIsBelowConfiguredMaxKeepingDirection() {
            Driver d = new Driver(unslewed(), 5.0).active();
            assertEquals(5.0, d.layer.limitN(), 0.0, "min(device 5 N, configured 8 N)");

            d.tick(10.0, -20.0, 20.0); // |F| = 30 N

            assertEquals(5.0, d.magnitudeN(), FORCE_TOLERANCE_N);
            assertDirection(d, 10.0, -20.0, 20.0);
        }

        @Test
        void shouldClampToConfiguredMaxWhenItIsBelowDeviceMaxKeepingDirection() {
            SafetyConfig config = new SafetyConfig(3.0, NO_SLEW_N, THRESHOLD_N, GATE_TICKS, RAMP_NS,
                WATCHDOG_TICKS, OVERRUN_LIMIT);
            Driver d = new Driver(config, DEVICE_MAX_N).active();
            assertEquals(3.0, d.layer.limitN(), 0.0, "min(device 10 N, configured 3 N)");

            d.tick(-12.0, 16.0, -30.0); // |F| = 38 N

            assertEquals(3.0, d.magnitudeN(), FORCE_TOLERANCE_N);
            assertDirection(d, -12.0, 16.0, -30.0);
        }

        @Test
        void shouldKeepForceClampedWhileItStaysAboveLimit() {
            Driver d = new Driver(slewed(), DEVICE_MAX_N).active();

            for (int i = 0; i < 100; i++) {
                d.tick(0.0, 0.0, -50.0);
                assertTrue(d.magnitudeN() <= MAX_FORCE_N + FORCE_TOLERANCE_N, "tick " + i + ": " + d.magnitudeN());
            }
            d.assertOutput(0.0, 0.0, -MAX_FORCE_N);
        }

        @Test
        void shouldPassForceBelowLimitUnchanged() {
            Driver d = new Driver(unslewed(), DEVICE_MAX_N).active();

            d.tick(3.0, -4.0, 5.0); // 7.07 N < 8 N

            d.assertOutput(3.0, -4.0, 5.0);
        }

        private void assertDirection(Driver d, double fx, double fy, double fz) {
            double f = Math.sqrt(sq(fx) + sq(fy) + sq(fz));
            double out = d.magnitudeN();
            assertEquals(fx / f, d.layer.outputX() / out, DIRECTION_TOLERANCE, "direction x");
            assertEquals(fy / f, d.layer.outputY() / out, DIRECTION_TOLERANCE, "direction y");
            assertEquals(fz / f, d.layer.outputZ() / out, DIRECTION_TOLERANCE, "direction z");
        }
    }

    @Nested
    class NonFiniteForce {

        static Stream<Arguments> nonFiniteForces() {
            return Stream.of(
                Arguments.of(Double.NaN, 0.0, 0.0),
                Arguments.of(1.0, Double.POSITIVE_INFINITY, 1.0),
                Arguments.of(0.0, 0.0, Double.NEGATIVE_INFINITY),
                Arguments.of(Double.NaN, Double.NaN, Double.NaN));
        }

        @ParameterizedTest
        @MethodSource("nonFiniteForces")
        void shouldZeroOutputAndEnterSafeOnNonFiniteForce(double fx, double fy, double fz) {
            Driver d = new Driver(unslewed(), DEVICE_MAX_N).active().outputting(2.0, 0.0, 0.0);

            d.tick(fx, fy, fz);

            d.assertZero("on the non-finite tick");
            d.assertState(SafetyState.SAFE, SafetyFault.NON_FINITE_FORCE, "on the non-finite tick");
        }

        @Test
        void shouldStayZeroWhenForceBecomesFiniteAgainUntilReset() {
            Driver d = new Driver(unslewed(), DEVICE_MAX_N).active().outputting(2.0, 0.0, 0.0);
            d.tick(Double.NaN, 0.0, 0.0);

            // A quiet force would open a gate after GATE_TICKS ticks: if the fault were not latched it would
            // come through well within these ticks.
            int ticks = 10 * (GATE_TICKS + (int) (RAMP_NS / PERIOD_NS));
            for (int i = 0; i < ticks; i++) {
                d.tick(QUIET_N, 0.0, 0.0);
                d.assertZero("tick " + i + " after the fault");
                d.assertState(SafetyState.SAFE, SafetyFault.NON_FINITE_FORCE, "tick " + i + " after the fault");
            }
        }

        @Test
        void shouldRunStartUpGateAgainAfterReset() {
            Driver d = new Driver(unslewed(), DEVICE_MAX_N).active().outputting(2.0, 0.0, 0.0);
            d.tick(Double.NaN, 0.0, 0.0);
            d.tick(QUIET_N, 0.0, 0.0);

            d.layer.reset();

            for (int i = 1; i < GATE_TICKS; i++) {
                d.tick(QUIET_N, 0.0, 0.0);
                d.assertZero("gate tick " + i);
                d.assertState(SafetyState.GATED, SafetyFault.NONE, "gate tick " + i);
            }
            d.tick(QUIET_N, 0.0, 0.0);
            d.assertZero("gate opens with ramp scale 0");
            d.assertState(SafetyState.RAMPING, SafetyFault.NONE, "gate tick " + GATE_TICKS);
            d.tick(QUIET_N, 0.0, 0.0);
            d.assertOutput(QUIET_N * PERIOD_NS / RAMP_NS, 0.0, 0.0);
        }
    }

    @Nested
    class SlewLimit {

        static Stream<Arguments> steps() {
            // expected ticks = ceil(|F| / 0.5 N)
            return Stream.of(
                Arguments.of(3.0, 0.0, 4.0, 10),     // 5 N
                Arguments.of(0.4, -0.8, 0.8, 3),     // 1.2 N
                Arguments.of(-6.0, 0.0, 0.0, 12),    // 6 N
                Arguments.of(0.0, 0.25, 0.0, 1));    // 0.25 N
        }

        @ParameterizedTest
        @MethodSource("steps")
        void shouldTurnForceStepIntoRampOfBoundedSteps(double fx, double fy, double fz, int expectedTicks) {
            Driver d = new Driver(slewed(), DEVICE_MAX_N).active();

            assertRamp(d, fx, fy, fz, expectedTicks);
        }

        @Test
        void shouldSlewThroughZeroWhenForceReverses() {
            Driver d = new Driver(slewed(), DEVICE_MAX_N).active().outputting(3.0, 0.0, 4.0);

            assertRamp(d, -3.0, 0.0, -4.0, 20); // 10 N of change
        }

        /**
         * A finite force too large to square in a double (|F|² overflows above ~1.3e154 N) is still a force above
         * the limit: the output must move toward it at the slew rate and end clamped, like any other.
         */
        @Test
        void shouldSlewTowardHugeFiniteForceLikeAnyForceAboveLimit() {
            Driver d = new Driver(slewed(), DEVICE_MAX_N).active();

            d.tick(1e200, 0.0, 0.0);
            d.assertOutput(SLEW_N, 0.0, 0.0);

            for (int i = 0; i < 100; i++) {
                d.tick(1e200, 0.0, 0.0);
            }
            d.assertOutput(MAX_FORCE_N, 0.0, 0.0);
        }

        private void assertRamp(Driver d, double fx, double fy, double fz, int expectedTicks) {
            double startDistanceN = Math.sqrt(sq(fx - d.layer.outputX()) + sq(fy - d.layer.outputY())
                + sq(fz - d.layer.outputZ()));
            for (int k = 1; k <= expectedTicks; k++) {
                double px = d.layer.outputX();
                double py = d.layer.outputY();
                double pz = d.layer.outputZ();
                d.tick(fx, fy, fz);
                double stepN = Math.sqrt(sq(d.layer.outputX() - px) + sq(d.layer.outputY() - py)
                    + sq(d.layer.outputZ() - pz));
                assertTrue(stepN <= SLEW_N + FORCE_TOLERANCE_N, "tick " + k + " moved " + stepN + " N");
                double remainingN = Math.sqrt(sq(fx - d.layer.outputX()) + sq(fy - d.layer.outputY())
                    + sq(fz - d.layer.outputZ()));
                // Full-rate steps along the straight line to the target until it is reached.
                assertEquals(Math.max(0.0, startDistanceN - k * SLEW_N), remainingN, FORCE_TOLERANCE_N,
                    "distance to target after tick " + k);
            }
            d.assertOutput(fx, fy, fz);
        }
    }

    @Nested
    class StartUpGate {

        @ParameterizedTest
        @ValueSource(doubles = {0.06, 2.0})
        void shouldKeepOutputZeroWhileRenderedForceIsAboveThresholdHoweverLong(double loudN) {
            Driver d = new Driver(unslewed(), DEVICE_MAX_N);

            for (int i = 0; i < 10_000; i++) {
                d.tick(0.0, loudN, 0.0);
                d.assertZero("tick " + i);
                d.assertState(SafetyState.GATED, SafetyFault.NONE, "tick " + i);
            }
        }

        @Test
        void shouldEnableOutputOnlyAfterGateTicksConsecutiveQuietTicks() {
            SafetyConfig noRamp = new SafetyConfig(MAX_FORCE_N, NO_SLEW_N, THRESHOLD_N, GATE_TICKS, 0L,
                WATCHDOG_TICKS, OVERRUN_LIMIT);
            Driver d = new Driver(noRamp, DEVICE_MAX_N);

            for (int i = 1; i < GATE_TICKS; i++) {
                d.tick(QUIET_N, 0.0, 0.0);
                d.assertZero("quiet tick " + i);
                d.assertState(SafetyState.GATED, SafetyFault.NONE, "quiet tick " + i);
            }
            d.tick(QUIET_N, 0.0, 0.0);
            d.assertState(SafetyState.ACTIVE, SafetyFault.NONE, "quiet tick " + GATE_TICKS + " with no ramp");
            d.assertOutput(QUIET_N, 0.0, 0.0);
        }

        @Test
        void shouldRestartQuietCountOnLoudTick() {
            Driver d = new Driver(unslewed(), DEVICE_MAX_N);

            for (int i = 1; i < GATE_TICKS; i++) {
                d.tick(QUIET_N, 0.0, 0.0);
            }
            d.tick(0.0, 0.0, 0.06);
            d.assertState(SafetyState.GATED, SafetyFault.NONE, "after the loud tick");
            // GATE_TICKS - 1 more quiet ticks: 2 * (GATE_TICKS - 1) >= GATE_TICKS quiet ticks in all, but not in a row.
            for (int i = 1; i < GATE_TICKS; i++) {
                d.tick(QUIET_N, 0.0, 0.0);
                d.assertZero("quiet tick " + i + " after the loud one");
                d.assertState(SafetyState.GATED, SafetyFault.NONE, "quiet tick " + i + " after the loud one");
            }
            d.tick(QUIET_N, 0.0, 0.0);
            d.assertState(SafetyState.RAMPING, SafetyFault.NONE, GATE_TICKS + " quiet ticks in a row");
        }

        @Test
        void shouldScaleOutputLinearlyOverRampAfterGateOpens() {
            long rampNs = 10 * PERIOD_NS;
            // The slew limit is 1000 N per tick; the ramp moves the output by 0.2 N per tick, so the slew limit
            // never binds and the output is exactly scale * force, up to rounding (FORCE_TOLERANCE_N).
            SafetyConfig config = new SafetyConfig(MAX_FORCE_N, NO_SLEW_N, THRESHOLD_N, GATE_TICKS, rampNs,
                WATCHDOG_TICKS, OVERRUN_LIMIT);
            Driver d = new Driver(config, DEVICE_MAX_N);
            for (int i = 1; i < GATE_TICKS; i++) {
                d.tick(0.0, 0.0, 0.0);
                d.assertState(SafetyState.GATED, SafetyFault.NONE, "gate tick " + i);
            }
            d.tick(0.0, 0.0, 0.0);
            d.assertState(SafetyState.RAMPING, SafetyFault.NONE, "gate tick " + GATE_TICKS);
            long openNs = d.nowNs;

            double forceN = 2.0;
            for (int n = 1; n < 10; n++) {
                d.tick(forceN, 0.0, 0.0);
                d.assertState(SafetyState.RAMPING, SafetyFault.NONE, "ramp tick " + n);
                double scale = (double) (d.nowNs - openNs) / rampNs;
                assertEquals(n / 10.0, scale, 1e-15, "the fake clock advances 1 ms per tick");
                d.assertOutput(scale * forceN, 0.0, 0.0);
            }
            d.tick(forceN, 0.0, 0.0);
            d.assertState(SafetyState.ACTIVE, SafetyFault.NONE, "elapsed = rampNs");
            d.assertOutput(forceN, 0.0, 0.0);
            d.tick(forceN, 0.0, 0.0);
            d.assertState(SafetyState.ACTIVE, SafetyFault.NONE, "after the ramp");
            d.assertOutput(forceN, 0.0, 0.0);
        }

        /**
         * Found by a tester: a stiff wall rendering 1.5 kN under a 3 N device limit sent the full 3 N in the ramp's
         * first frames, as the ramp scaled the rendered force before the limit clamped it. The ramp scales the
         * clamped force: the output is fraction × limit, along the rendered direction, over the whole ramp.
         */
        @Test
        void shouldRampAForceBeyondTheLimitFromZeroToTheLimitOverTheWholeRamp() {
            long rampNs = 10 * PERIOD_NS;
            SafetyConfig config = new SafetyConfig(MAX_FORCE_N, NO_SLEW_N, THRESHOLD_N, GATE_TICKS, rampNs,
                WATCHDOG_TICKS, OVERRUN_LIMIT);
            Driver d = new Driver(config, DEVICE_MAX_N);
            for (int i = 0; i < GATE_TICKS; i++) {
                d.tick(0.0, 0.0, 0.0);
            }
            d.assertState(SafetyState.RAMPING, SafetyFault.NONE, "gate open");
            // 1500 N rendered along (3, 0, 4)/5; the limit is MAX_FORCE_N.
            for (int n = 1; n < 10; n++) {
                d.tick(900.0, 0.0, 1200.0);
                d.assertState(SafetyState.RAMPING, SafetyFault.NONE, "ramp tick " + n);
                d.assertOutput(n / 10.0 * MAX_FORCE_N * 0.6, 0.0, n / 10.0 * MAX_FORCE_N * 0.8);
            }
            d.tick(900.0, 0.0, 1200.0);
            d.assertState(SafetyState.ACTIVE, SafetyFault.NONE, "ramp over");
            d.assertOutput(MAX_FORCE_N * 0.6, 0.0, MAX_FORCE_N * 0.8);
        }

        @Test
        void shouldRunGateAgainWhenWatchdogFaultClears() {
            Driver d = new Driver(unslewed(), DEVICE_MAX_N).active().outputting(2.0, 0.0, 0.0);
            for (int i = 0; i < WATCHDOG_TICKS; i++) {
                d.tick(2.0, 0.0, 0.0, false, true, 0);
            }
            d.assertState(SafetyState.SAFE, SafetyFault.WATCHDOG, "after " + WATCHDOG_TICKS + " stale ticks");

            // States resume while a large force is rendered: the gate must hold it back, however long.
            for (int i = 0; i < 100; i++) {
                d.tick(2.0, 0.0, 0.0);
                d.assertZero("fresh tick " + i + " with a loud force");
                d.assertState(SafetyState.GATED, SafetyFault.NONE, "fresh tick " + i + " with a loud force");
            }
            for (int i = 1; i < GATE_TICKS; i++) {
                d.tick(QUIET_N, 0.0, 0.0);
                d.assertZero("quiet tick " + i);
                d.assertState(SafetyState.GATED, SafetyFault.NONE, "quiet tick " + i);
            }
            d.tick(QUIET_N, 0.0, 0.0);
            d.assertState(SafetyState.RAMPING, SafetyFault.NONE, "quiet tick " + GATE_TICKS);
        }
    }

    @Nested
    class Watchdog {

        @Test
        void shouldTripAfterWatchdogTicksWithoutFreshState() {
            Driver d = new Driver(unslewed(), DEVICE_MAX_N).active().outputting(2.0, 0.0, 0.0);

            for (int i = 1; i < WATCHDOG_TICKS; i++) {
                d.tick(2.0, 0.0, 0.0, false, true, 0);
                d.assertState(SafetyState.ACTIVE, SafetyFault.NONE, "stale tick " + i);
                d.assertOutput(2.0, 0.0, 0.0);
            }
            d.tick(2.0, 0.0, 0.0, false, true, 0);

            d.assertZero("stale tick " + WATCHDOG_TICKS);
            d.assertState(SafetyState.SAFE, SafetyFault.WATCHDOG, "stale tick " + WATCHDOG_TICKS);
        }

        @Test
        void shouldCountADeviceSlowerThanTheLoopInItsOwnPeriods() {
            // Found by a 250 Hz device under the 1 kHz loop: a state every 4 ticks always passed the 3-tick watchdog,
            // so it never got force.
            SafetyConfig slow = unslewed().forDeviceRate(1000, 250);
            assertEquals(4 * WATCHDOG_TICKS, slow.watchdogTicks());
            assertEquals(unslewed(), unslewed().forDeviceRate(1000, 1000), "a device at the loop rate keeps it");
            assertEquals(2 * WATCHDOG_TICKS, unslewed().forDeviceRate(1000, 600).watchdogTicks(), "ceil(1000/600)");
            Driver d = new Driver(slow, DEVICE_MAX_N).active().outputting(2.0, 0.0, 0.0);
            for (int state = 0; state < 100; state++) {
                for (int i = 1; i < 4; i++) {
                    d.tick(2.0, 0.0, 0.0, false, true, 0);
                }
                d.tick(2.0, 0.0, 0.0);
                d.assertState(SafetyState.ACTIVE, SafetyFault.NONE, "state " + state);
            }
            // Silence still trips it: 3 of the device's periods.
            for (int i = 1; i < 4 * WATCHDOG_TICKS; i++) {
                d.tick(2.0, 0.0, 0.0, false, true, 0);
            }
            d.assertState(SafetyState.ACTIVE, SafetyFault.NONE, "one tick short of three device periods");
            d.tick(2.0, 0.0, 0.0, false, true, 0);
            d.assertZero("three device periods without a state");
            d.assertState(SafetyState.SAFE, SafetyFault.WATCHDOG, "three device periods without a state");
        }

        @Test
        void shouldNotTripOnFewerConsecutiveStaleTicks() {
            Driver d = new Driver(unslewed(), DEVICE_MAX_N).active().outputting(2.0, 0.0, 0.0);

            // WATCHDOG_TICKS - 1 stale ticks, one fresh, repeated: many stale ticks in all, never enough in a row.
            for (int round = 0; round < 50; round++) {
                for (int i = 1; i < WATCHDOG_TICKS; i++) {
                    d.tick(2.0, 0.0, 0.0, false, true, 0);
                }
                d.tick(2.0, 0.0, 0.0);
                d.assertState(SafetyState.ACTIVE, SafetyFault.NONE, "round " + round);
                d.assertOutput(2.0, 0.0, 0.0);
            }
        }
    }

    @Nested
    class DeviceHealth {

        @Test
        void shouldZeroOutputAndEnterSafeWhenDeviceIsUnhealthy() {
            Driver d = new Driver(unslewed(), DEVICE_MAX_N).active().outputting(2.0, 0.0, 0.0);

            for (int i = 0; i < 20; i++) {
                d.tick(QUIET_N, 0.0, 0.0, true, false, 0);
                d.assertZero("unhealthy tick " + i);
                d.assertState(SafetyState.SAFE, SafetyFault.DEVICE, "unhealthy tick " + i);
            }
        }

        @Test
        void shouldGoBackThroughGateWhenDeviceIsHealthyAgain() {
            Driver d = new Driver(unslewed(), DEVICE_MAX_N).active().outputting(2.0, 0.0, 0.0);
            d.tick(2.0, 0.0, 0.0, true, false, 0);

            d.tick(2.0, 0.0, 0.0);

            d.assertZero("first healthy tick, loud force");
            d.assertState(SafetyState.GATED, SafetyFault.NONE, "first healthy tick");
        }
    }

    @Nested
    class EmergencyStop {

        @Test
        void shouldOutputExactlyZeroOnNextUpdateWithoutSlewing() {
            Driver d = new Driver(slewed(), DEVICE_MAX_N).active().outputting(0.0, 6.0, 0.0);

            d.layer.emergencyStop();
            d.tick(0.0, 6.0, 0.0);

            d.assertZero("first tick after the stop (a slewed drop would leave 5.5 N)");
            d.assertState(SafetyState.ESTOP, SafetyFault.NONE, "first tick after the stop");
        }

        @Test
        void shouldStayStoppedThroughQuietAndLoudForcesUntilReset() {
            Driver d = new Driver(unslewed(), DEVICE_MAX_N).active().outputting(2.0, 0.0, 0.0);
            d.layer.emergencyStop();

            for (int i = 0; i < 500; i++) {
                double forceN = i % 2 == 0 ? QUIET_N : 5.0;
                d.tick(forceN, 0.0, 0.0);
                d.assertZero("tick " + i + " after the stop");
                d.assertState(SafetyState.ESTOP, SafetyFault.NONE, "tick " + i + " after the stop");
            }
        }

        @Test
        void shouldRunGateAndRampAgainAfterReset() {
            Driver d = new Driver(unslewed(), DEVICE_MAX_N).active().outputting(2.0, 0.0, 0.0);
            d.layer.emergencyStop();
            d.tick(2.0, 0.0, 0.0);

            d.layer.reset();
            d.tick(2.0, 0.0, 0.0);
            d.assertZero("first tick after reset, loud force");
            d.assertState(SafetyState.GATED, SafetyFault.NONE, "first tick after reset");

            for (int i = 1; i < GATE_TICKS; i++) {
                d.tick(QUIET_N, 0.0, 0.0);
                d.assertZero("quiet tick " + i);
                d.assertState(SafetyState.GATED, SafetyFault.NONE, "quiet tick " + i);
            }
            d.tick(QUIET_N, 0.0, 0.0);
            d.assertState(SafetyState.RAMPING, SafetyFault.NONE, "quiet tick " + GATE_TICKS);
            for (long n = 1; n <= RAMP_NS / PERIOD_NS; n++) {
                d.tick(QUIET_N, 0.0, 0.0);
                d.assertOutput(QUIET_N * Math.min(1.0, (double) n * PERIOD_NS / RAMP_NS), 0.0, 0.0);
            }
            d.assertState(SafetyState.ACTIVE, SafetyFault.NONE, "after the ramp");
        }

        /**
         * Loop commands are drained in order once per tick, so a reset followed by a stop (two operators, or a
         * double-clicked reset and then the stop button) can reach the layer in one tick. The stop came last and
         * must win: it stays latched until a reset issued after it.
         */
        @Test
        void shouldLatchEmergencyStopRequestedAfterResetInSameTick() {
            Driver d = new Driver(unslewed(), DEVICE_MAX_N).active().outputting(2.0, 0.0, 0.0);

            d.layer.reset();
            d.layer.emergencyStop();
            d.tick(2.0, 0.0, 0.0);
            d.assertZero("tick after reset-then-stop");
            d.assertState(SafetyState.ESTOP, SafetyFault.NONE, "tick after reset-then-stop");

            int ticks = 10 * (GATE_TICKS + (int) (RAMP_NS / PERIOD_NS));
            for (int i = 0; i < ticks; i++) {
                d.tick(QUIET_N, 0.0, 0.0);
                d.assertZero("quiet tick " + i + " after the stop");
            }
        }
    }

    @Nested
    class Overruns {

        @Test
        void shouldNotTripBelowOverrunLimit() {
            Driver d = new Driver(unslewed(), DEVICE_MAX_N).active().outputting(2.0, 0.0, 0.0);

            for (int i = 0; i < 200; i++) {
                d.tick(2.0, 0.0, 0.0, true, true, OVERRUN_LIMIT - 1);
                d.assertState(SafetyState.ACTIVE, SafetyFault.NONE, "tick " + i);
                d.assertOutput(2.0, 0.0, 0.0);
            }
        }

        @Test
        void shouldTripAndLatchAtOverrunLimit() {
            Driver d = new Driver(unslewed(), DEVICE_MAX_N).active().outputting(2.0, 0.0, 0.0);

            d.tick(2.0, 0.0, 0.0, true, true, OVERRUN_LIMIT);
            d.assertZero("overrun-limit tick");
            d.assertState(SafetyState.SAFE, SafetyFault.OVERRUNS, "overrun-limit tick");

            // Overruns stop and the force is quiet: a self-clearing fault would be through the gate in 5 ticks.
            for (int i = 0; i < 100; i++) {
                d.tick(QUIET_N, 0.0, 0.0);
                d.assertZero("tick " + i + " after the overruns stopped");
                d.assertState(SafetyState.SAFE, SafetyFault.OVERRUNS, "tick " + i + " after the overruns stopped");
            }
            d.layer.reset();
            d.tick(QUIET_N, 0.0, 0.0);
            d.assertState(SafetyState.GATED, SafetyFault.NONE, "after reset");
        }
    }

    @Nested
    class ImpactTransient {

        private void tickWithTransient(Driver d, double fz, double tz) {
            d.nowNs += PERIOD_NS;
            d.layer.update(d.nowNs, 0.0, 0.0, fz, 0.0, 0.0, tz, true, true, 0);
        }

        @Test
        void shouldAddTheTransientPastTheSlewLimitInOneTick() {
            // A 5 N pulse sample on a 1 N spring: the slew limit (0.5 N a tick) holds the spring's rise, not the pulse.
            Driver d = new Driver(slewed(), DEVICE_MAX_N).active().outputting(0.0, 0.0, 1.0);
            tickWithTransient(d, 1.0, 5.0);
            d.assertOutput(0.0, 0.0, 6.0);
            // The pulse ends: the output drops back to the spring at once (falling is never slewed here: the slew
            // state followed the spring alone).
            tickWithTransient(d, 1.0, 0.0);
            d.assertOutput(0.0, 0.0, 1.0);
        }

        @Test
        void shouldClampSpringAndTransientTogetherToTheLimit() {
            Driver d = new Driver(unslewed(), DEVICE_MAX_N).active().outputting(0.0, 0.0, 6.0);
            tickWithTransient(d, 6.0, 5.0);
            d.assertOutput(0.0, 0.0, MAX_FORCE_N);
        }

        @Test
        void shouldTripOnANonFiniteTransient() {
            Driver d = new Driver(unslewed(), DEVICE_MAX_N).active().outputting(0.0, 0.0, 2.0);
            tickWithTransient(d, 2.0, Double.NaN);
            d.assertZero("after a NaN transient");
            d.assertState(SafetyState.SAFE, SafetyFault.NON_FINITE_FORCE, "after a NaN transient");
        }

        @Test
        void shouldHoldTheTransientBackWhileGated() {
            Driver d = new Driver(unslewed(), DEVICE_MAX_N);
            tickWithTransient(d, 0.0, 3.0);
            d.assertZero("gated");
        }
    }

    @Nested
    class InternalError {

        @Test
        void shouldZeroOutputAndLatchOnInternalError() {
            Driver d = new Driver(unslewed(), DEVICE_MAX_N).active().outputting(2.0, 0.0, 0.0);

            d.layer.internalError();
            d.assertZero("at once, before the next update");
            d.assertState(SafetyState.SAFE, SafetyFault.INTERNAL_ERROR, "at once");

            for (int i = 0; i < 100; i++) {
                d.tick(QUIET_N, 0.0, 0.0);
                d.assertZero("tick " + i + " after the error");
                d.assertState(SafetyState.SAFE, SafetyFault.INTERNAL_ERROR, "tick " + i + " after the error");
            }
        }
    }

    @Nested
    class ZeroingBypassesSlew {

        static Stream<Arguments> faults() {
            return Stream.of(
                Arguments.of("non-finite force", (Consumer<Driver>) d -> d.tick(Double.NaN, 6.0, 0.0)),
                Arguments.of("watchdog", (Consumer<Driver>) d -> {
                    for (int i = 0; i < WATCHDOG_TICKS; i++) {
                        d.tick(0.0, 6.0, 0.0, false, true, 0);
                    }
                }),
                Arguments.of("device", (Consumer<Driver>) d -> d.tick(0.0, 6.0, 0.0, true, false, 0)),
                Arguments.of("overruns", (Consumer<Driver>) d -> d.tick(0.0, 6.0, 0.0, true, true, OVERRUN_LIMIT)),
                Arguments.of("internal error", (Consumer<Driver>) d -> d.layer.internalError()),
                Arguments.of("emergency stop", (Consumer<Driver>) d -> {
                    d.layer.emergencyStop();
                    d.tick(0.0, 6.0, 0.0);
                }));
        }

        @ParameterizedTest(name = "{0}")
        @MethodSource("faults")
        void shouldDropLargeOutputToExactlyZeroOnFaultTick(String fault, Consumer<Driver> trip) {
            Driver d = new Driver(slewed(), DEVICE_MAX_N).active().outputting(0.0, 6.0, 0.0);

            trip.accept(d);

            // With the 0.5 N slew limit applied, the output would still be 5.5 N.
            d.assertZero(fault);
        }
    }

    @Nested
    class ConfigValidation {

        @ParameterizedTest(name = "{0} = {1}")
        @CsvSource({
            "maxForceN, 0", "maxForceN, -1", "maxForceN, NaN", "maxForceN, Infinity",
            "maxForceStepN, 0", "maxForceStepN, -0.5", "maxForceStepN, NaN", "maxForceStepN, Infinity",
            "gateThresholdN, 0", "gateThresholdN, -0.05", "gateThresholdN, NaN", "gateThresholdN, Infinity",
            "gateTicks, 0", "gateTicks, -1",
            "rampNs, -1",
            "watchdogTicks, 0", "watchdogTicks, -3",
            "overrunLimit, 0", "overrunLimit, -50"})
        void shouldRejectInvalidFieldNamingIt(String field, double value) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> configWith(field, value));

            assertTrue(e.getMessage().startsWith(field + " "), e.getMessage());
        }

        @Test
        void shouldAcceptSmallestValidValues() {
            SafetyConfig c = new SafetyConfig(Double.MIN_VALUE, Double.MIN_VALUE, Double.MIN_VALUE, 1, 0L, 1, 1);

            assertEquals(1, c.gateTicks());
            assertEquals(0L, c.rampNs());
        }

        @ParameterizedTest
        @ValueSource(doubles = {0.0, -1.0, Double.NaN, Double.POSITIVE_INFINITY})
        void shouldRejectInvalidDeviceMaxForce(double deviceMaxN) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new SafetyLayer(SafetyConfig.defaults(), deviceMaxN));

            assertTrue(e.getMessage().contains("device max force"), e.getMessage());
        }

        private SafetyConfig configWith(String field, double bad) {
            return new SafetyConfig(
                field.equals("maxForceN") ? bad : 8.0,
                field.equals("maxForceStepN") ? bad : 0.5,
                field.equals("gateThresholdN") ? bad : 0.05,
                field.equals("gateTicks") ? (int) bad : 50,
                field.equals("rampNs") ? (long) bad : 1_000_000_000L,
                field.equals("watchdogTicks") ? (int) bad : 3,
                field.equals("overrunLimit") ? (int) bad : 50);
        }
    }
}
