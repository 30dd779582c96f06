package org.hapticsd.server.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.NanoClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The runner's thread on a simulated clock: no test waits for real ticks. */
class LoopRunnerTest {

    /** Each read moves time by 300 µs, so a 1 kHz tick passes every few reads without real waiting. */
    private static final class FastClock implements NanoClock {
        private volatile long nowNs;

        @Override
        public long nanoTime() {
            long t = nowNs + 300_000;
            nowNs = t;
            return t;
        }
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void shouldRunTicksOnItsOwnThreadAndLeaveTheDeviceAtZeroWhenClosed() throws Exception {
        ScriptedDevice device = new ScriptedDevice();
        device.xM = 0.028; // in the wall, so rendered force is non-zero once the gate would open
        LoopFixture f = new LoopFixture(device);
        LoopRunner runner = new LoopRunner(f.loop, 1000, WaitStrategies.SPIN, new FastClock());
        runner.start();
        LoopSnapshot snapshot = f.assembly.snapshots().newSnapshot();
        while (f.assembly.snapshots().read(snapshot) == 0 || snapshot.tick < 200) {
            Thread.onSpinWait();
        }
        runner.close();

        assertFalse(runner.isRunning());
        assertTrue(device.closed, "device closed by the loop thread on stop");
        assertEquals(0.0, device.lastForceMagnitudeN(), 0.0);
        assertNull(runner.fatalError());
        assertTrue(f.assembly.stats().ticks() >= 200);
        // Each tick commanded a force, then told the device it was over (a link driver wakes its writer there).
        assertEquals(f.assembly.stats().ticks(), device.endsOfTick, "endOfTick once per tick");
        assertEquals(0, device.endsOfTickWithoutForce, "ticks ended without a force commanded");
    }

    @Test
    void shouldCloseTheDeviceWhenClosedWithoutEverStarting() throws Exception {
        ScriptedDevice device = new ScriptedDevice();
        LoopFixture f = new LoopFixture(device);
        LoopRunner runner = new LoopRunner(f.loop, 1000, WaitStrategies.SPIN, new FastClock());
        runner.close();
        assertTrue(device.closed);
        assertEquals(0.0, device.lastForceMagnitudeN(), 0.0);
    }
}
