package org.hapticsd.device.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The device's last-resort clamp on commanded force: 10 N peak with the default info. */
class SimulatedDeviceForceClampTest {

    /**
     * One square root and a few divisions on values up to 10 N: error of a few ulps of 10 (~2e-15 N).
     * 1e-12 N is far above that and far below any wrong clamp.
     */
    private static final double FORCE_TOLERANCE_N = 1e-12;

    private SimulatedDevice device;

    @BeforeEach
    void openDevice() {
        device = new SimulatedDevice(SimulatedDeviceConfig.defaults());
        device.open();
    }

    @Test
    void shouldClampForceToMaxKeepingDirection() {
        // |(30, -40, 0)| = 50 N -> 10 N along (0.6, -0.8, 0).
        device.commandForce(30.0, -40.0, 0.0, 0.0, 0.0, 0.0);

        assertEquals(6.0, device.commandedForceXN(), FORCE_TOLERANCE_N);
        assertEquals(-8.0, device.commandedForceYN(), FORCE_TOLERANCE_N);
        assertEquals(0.0, device.commandedForceZN(), FORCE_TOLERANCE_N);
        assertEquals(device.info().maxForceN(), magnitudeN(), FORCE_TOLERANCE_N);
    }

    @Test
    void shouldClampHugeFiniteForceWithoutOverflowingToZero() {
        // 1e300^2 overflows a double; the clamp must still return 10 N along (1, 1, 0)/sqrt(2).
        device.commandForce(1e300, 1e300, 0.0, 0.0, 0.0, 0.0);

        double componentN = 10.0 / Math.sqrt(2.0);
        assertEquals(componentN, device.commandedForceXN(), FORCE_TOLERANCE_N);
        assertEquals(componentN, device.commandedForceYN(), FORCE_TOLERANCE_N);
        assertEquals(0.0, device.commandedForceZN(), FORCE_TOLERANCE_N);
    }

    @Test
    void shouldPassForceWithinLimitUnchanged() {
        device.commandForce(3.0, -4.0, 5.0, 0.0, 0.0, 0.0);

        // Below the limit nothing is computed on the force, so it must come back bit for bit.
        assertEquals(3.0, device.commandedForceXN(), 0.0);
        assertEquals(-4.0, device.commandedForceYN(), 0.0);
        assertEquals(5.0, device.commandedForceZN(), 0.0);
    }

    @Test
    void shouldTreatNaNForceAsZero() {
        device.commandForce(2.0, 2.0, 2.0, 0.0, 0.0, 0.0);
        device.commandForce(Double.NaN, 1.0, 1.0, 0.0, 0.0, 0.0);

        assertEquals(0.0, device.commandedForceXN(), 0.0);
        assertEquals(0.0, device.commandedForceYN(), 0.0, "all components zeroed, not only the NaN one");
        assertEquals(0.0, device.commandedForceZN(), 0.0);
    }

    @Test
    void shouldTreatInfiniteForceAsZero() {
        device.commandForce(1.0, Double.NEGATIVE_INFINITY, 1.0, 0.0, 0.0, 0.0);

        assertEquals(0.0, magnitudeN(), 0.0);
    }

    @Test
    void shouldIgnoreTorque() {
        device.commandForce(1.0, 0.0, 0.0, 5.0, Double.NaN, 1e9);

        assertEquals(1.0, device.commandedForceXN(), 0.0, "a NaN torque must not zero the force");
    }

    @Test
    void shouldIgnoreForceWhileClosedAndZeroItOnClose() {
        SimulatedDevice unopened = new SimulatedDevice(SimulatedDeviceConfig.defaults());
        unopened.commandForce(5.0, 0.0, 0.0, 0.0, 0.0, 0.0);
        assertEquals(0.0, unopened.commandedForceXN(), 0.0, "before open");

        device.commandForce(5.0, 0.0, 0.0, 0.0, 0.0, 0.0);
        device.close();
        assertEquals(0.0, device.commandedForceXN(), 0.0, "after close");
        device.commandForce(5.0, 0.0, 0.0, 0.0, 0.0, 0.0);
        assertEquals(0.0, device.commandedForceXN(), 0.0, "commanded after close");
    }

    private double magnitudeN() {
        double x = device.commandedForceXN();
        double y = device.commandedForceYN();
        double z = device.commandedForceZN();
        return Math.sqrt(x * x + y * y + z * z);
    }
}
