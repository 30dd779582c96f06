package org.hapticsd.device.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import java.util.List;
import org.hapticsd.device.DeviceHealth;
import org.hapticsd.device.DeviceState;
import org.hapticsd.testsupport.JitPrimer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The per-tick calls of the device contract must not allocate, with a scripted hand moving the stylus. */
class SimulatedDeviceAllocationTest {

    private static final long TICK_NS = 1_000_000L;

    /** The compiler's one-off allocations on the measuring thread, done before anything is measured. */
    @BeforeAll
    static void primeJit() {
        JitPrimer.primeClassPath();
    }

    @Test
    void shouldNotAllocateInReadStateCommandForceAndHealth() {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assumeTrue(threads.isThreadAllocatedMemorySupported(), "JVM cannot count per-thread allocation");
        threads.setThreadAllocatedMemoryEnabled(true);

        WaypointHandTarget path = new WaypointHandTarget(List.of(
                new WaypointHandTarget.Waypoint(0.0, 0.0, 0.0, 0.0),
                new WaypointHandTarget.Waypoint(0.5, 0.04, 0.0, 0.01),
                new WaypointHandTarget.Waypoint(1.0, 0.04, 0.03, 0.0),
                new WaypointHandTarget.Waypoint(2.0, 0.0, 0.0, 0.0)), true);
        SimulatedDevice device = new SimulatedDevice(SimulatedDeviceConfig.defaults(), path);
        device.open();
        DeviceState state = new DeviceState();
        DeviceHealth health = new DeviceHealth();

        // 50 000 warm-up ticks: well past HotSpot's C2 thresholds (15 000 calls tiered, 10 000 not), so every
        // device method has been compiled, and its class's string constants resolved, before measuring.
        long nowNs = Driver.tick(device, state, health, 0L, 50_000);
        long beforeBytes = threads.getCurrentThreadAllocatedBytes();
        nowNs = Driver.tick(device, state, health, nowNs, 200_000);
        long afterBytes = threads.getCurrentThreadAllocatedBytes();

        // Exactly zero: the counter is per thread and in bytes, and nothing else runs on this thread between
        // the two reads. Any boxing, lambda or iterator on the path would show up as >= 16 bytes per call.
        assertEquals(0L, afterBytes - beforeBytes, "bytes allocated by 200 000 ticks");
        assertEquals(250_000L, state.sequence, "every tick produced a sample");
        assertEquals(nowNs - TICK_NS, state.deviceTimeNs);
    }

    /**
     * The measured loop lives in its own class with no string literals. When C2 first compiles a method
     * (here the loop's on-stack replacement, which may happen during the measured run), HotSpot resolves every
     * string constant of that method's class on the requesting thread, allocating a String and its byte[]
     * (48 B each, observed). In the test class that would charge its assertion messages to the device.
     */
    private static final class Driver {
        /** Renders a wall at x = 20 mm from each sample, so the force varies; every 1024th tick it clamps. */
        static long tick(SimulatedDevice device, DeviceState state, DeviceHealth health, long startNs, int ticks) {
            long nowNs = startNs;
            for (int i = 0; i < ticks; i++) {
                device.readState(nowNs, state);
                double penetrationM = state.positionXM - 0.02;
                double fxN = penetrationM > 0.0 ? -3000.0 * penetrationM : 0.0;
                device.commandForce(fxN, 0.0, (i & 1023) == 0 ? 50.0 : 0.0, 0.0, 0.0, 0.0);
                device.health(nowNs, health);
                nowNs += TICK_NS;
            }
            return nowNs;
        }
    }
}
