package org.hapticsd.device.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.hapticsd.device.DeviceFault;
import org.hapticsd.device.DeviceHealth;
import org.hapticsd.device.DeviceState;
import org.junit.jupiter.api.Test;

/** Open/read/close, sample bookkeeping and health. Exact comparisons: these are counters and copies. */
class SimulatedDeviceLifecycleTest {

    @Test
    void shouldReturnFalseAndLeaveDestUntouchedBeforeOpen() {
        SimulatedDevice device = new SimulatedDevice(SimulatedDeviceConfig.defaults());
        DeviceState state = new DeviceState();
        state.sequence = 42;

        assertFalse(device.readState(1_000L, state));
        assertEquals(42, state.sequence);
    }

    @Test
    void shouldIncrementSequenceAndStampNowOnEveryRead() {
        SimulatedDevice device = new SimulatedDevice(SimulatedDeviceConfig.defaults());
        device.open();
        DeviceState state = new DeviceState();
        long[] timesNs = {5_000_000L, 6_000_000L, 6_000_000L, 6_250_000L, 9_000_000L};

        for (int i = 0; i < timesNs.length; i++) {
            assertTrue(device.readState(timesNs[i], state), "read " + i + " is fresh");
            assertEquals(i + 1, state.sequence, "sequence after read " + i);
            assertEquals(timesNs[i], state.deviceTimeNs, "deviceTimeNs of read " + i);
        }
    }

    @Test
    void shouldStartAtRestAtInitialPositionWithoutOrientation() {
        SimulatedDeviceConfig config = SimulatedDeviceConfig.defaults().withInitialPositionM(0.01, 0.02, -0.03);
        // Target far away: any motion during the first read would show in the position.
        SimulatedDevice device = new SimulatedDevice(config, new FixedHandTarget(0.05, 0.05, 0.05));
        device.open();
        DeviceState state = new DeviceState();
        state.orientationW = 0.0;
        state.orientationX = 1.0;
        state.hasOrientation = true;

        device.readState(123_456_789L, state);

        assertEquals(0.01, state.positionXM, 0.0);
        assertEquals(0.02, state.positionYM, 0.0);
        assertEquals(-0.03, state.positionZM, 0.0);
        assertEquals(0.0, state.velocityXMps, 0.0);
        assertFalse(state.hasOrientation);
        assertEquals(1.0, state.orientationW, 0.0);
        assertEquals(0.0, state.orientationX, 0.0);
    }

    @Test
    void shouldNotMoveWhenTimeDoesNotAdvance() {
        SimulatedDevice device = new SimulatedDevice(SimulatedDeviceConfig.defaults(),
                new FixedHandTarget(0.05, 0.0, 0.0));
        device.open();
        DeviceState state = new DeviceState();
        device.readState(1_000_000L, state);
        device.readState(2_000_000L, state);
        double movedXM = state.positionXM;

        device.readState(2_000_000L, state);
        assertEquals(movedXM, state.positionXM, 0.0, "same nowNs");
        device.readState(1_500_000L, state);
        assertEquals(movedXM, state.positionXM, 0.0, "nowNs going backwards");
        assertEquals(4, state.sequence, "both still produce a sample");
    }

    @Test
    void shouldReportButtonsSet() {
        SimulatedDevice device = new SimulatedDevice(SimulatedDeviceConfig.defaults());
        device.open();
        DeviceState state = new DeviceState();
        device.readState(0L, state);
        assertEquals(0, state.buttons);

        device.setButtons(0b101);
        device.readState(1_000_000L, state);
        assertEquals(0b101, state.buttons);
    }

    @Test
    void shouldReportHealthAgeFromLastSample() {
        SimulatedDevice device = new SimulatedDevice(SimulatedDeviceConfig.defaults());
        DeviceHealth health = new DeviceHealth();
        health.fault = DeviceFault.INTERNAL;

        device.health(0L, health);
        assertFalse(health.connected, "not open");
        assertEquals(Long.MAX_VALUE, health.lastStateAgeNs, "no sample yet");
        assertEquals(DeviceFault.NONE, health.fault);

        device.open();
        device.health(10L, health);
        assertTrue(health.connected);
        assertEquals(Long.MAX_VALUE, health.lastStateAgeNs, "open but still no sample");

        device.readState(1_000_000L, new DeviceState());
        device.health(1_000_500L, health);
        assertEquals(500L, health.lastStateAgeNs);
    }

    @Test
    void shouldDisconnectAndStopSamplingOnCloseIdempotently() {
        SimulatedDevice device = new SimulatedDevice(SimulatedDeviceConfig.defaults());
        device.open();
        DeviceState state = new DeviceState();
        device.readState(1_000_000L, state);

        device.close();
        device.close();

        DeviceHealth health = new DeviceHealth();
        device.health(3_000_000L, health);
        assertFalse(health.connected);
        assertEquals(2_000_000L, health.lastStateAgeNs, "age keeps counting from the last sample");
        assertFalse(device.readState(4_000_000L, state));
        assertEquals(1, state.sequence);
    }

    @Test
    void shouldRestartAtInitialPositionWithContinuingSequenceOnReopen() {
        SimulatedDevice device = new SimulatedDevice(SimulatedDeviceConfig.defaults(),
                new FixedHandTarget(0.05, 0.0, 0.0));
        device.open();
        DeviceState state = new DeviceState();
        for (int i = 0; i <= 100; i++) {
            device.readState(i * 1_000_000L, state);
        }
        assertTrue(state.positionXM > 0.01, "moved toward the hand before reopening");
        device.close();

        device.open();
        device.readState(500_000_000L, state);

        assertEquals(0.0, state.positionXM, 0.0, "back at the initial position, time origin reset");
        assertEquals(102, state.sequence, "sequence continues");
    }
}
