package org.hapticsd.device.link;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import org.hapticsd.device.DeviceHealth;
import org.hapticsd.device.DeviceState;
import org.hapticsd.device.emulator.EmulatorProfile;
import org.hapticsd.testsupport.JitPrimer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The loop-thread calls of the link driver (readState, health, commandForce, endOfTick) must not allocate, while its I/O
 * threads stream real frames from the emulator over TCP: the new-state path (sequence-lock copy) is exercised as
 * well as the no-new-state path.
 */
class LinkAllocationTest {

    /** The compiler's one-off allocations on the measuring thread, done before anything is measured. */
    @BeforeAll
    static void primeJit() {
        JitPrimer.primeClassPath();
    }

    @Test
    void shouldNotAllocateOnTheLoopThread() throws Exception {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assumeTrue(threads.isThreadAllocatedMemorySupported(), "JVM cannot count per-thread allocation");
        threads.setThreadAllocatedMemoryEnabled(true);
        try (EmulatorOverTcp emulator = new EmulatorOverTcp(EmulatorProfile.falconLike());
             LinkHapticDevice device = emulator.device(LinkSession.Config.defaults(1000))) {
            device.open();
            DeviceState state = new DeviceState();
            DeviceHealth health = new DeviceHealth();
            long[] fresh = new long[1];
            // Warm-up until C2 has compiled the calls: windows of 20 000 calls (a few ms each, so several new
            // STATEs arrive per window), until three windows in a row allocate nothing (at most 200 windows).
            int quiet = 0;
            for (int window = 0; window < 200 && quiet < 3; window++) {
                long before = threads.getCurrentThreadAllocatedBytes();
                Driver.calls(device, state, health, 20_000, fresh);
                quiet = threads.getCurrentThreadAllocatedBytes() - before == 0 ? quiet + 1 : 0;
            }
            fresh[0] = 0;
            long beforeBytes = threads.getCurrentThreadAllocatedBytes();
            long startNs = System.nanoTime();
            while (fresh[0] < 200 && System.nanoTime() - startNs < 5_000_000_000L) {
                Driver.calls(device, state, health, 20_000, fresh);
            }
            long afterBytes = threads.getCurrentThreadAllocatedBytes();
            // Exactly zero: per-thread byte counter, nothing else on this thread between the reads.
            assertEquals(0L, afterBytes - beforeBytes, "bytes allocated on the loop thread");
            assertTrue(fresh[0] >= 200, "new states seen while measuring: " + fresh[0]);
        }
    }

    /** The measured calls, in a class without string literals (see SimulatedDeviceAllocationTest). */
    private static final class Driver {
        static void calls(LinkHapticDevice device, DeviceState state, DeviceHealth health, int n, long[] fresh) {
            for (int i = 0; i < n; i++) {
                long nowNs = System.nanoTime();
                if (device.readState(nowNs, state)) {
                    fresh[0]++;
                }
                device.health(nowNs, health);
                device.commandForce(0.0, 0.0, (i & 1) * 0.5, 0.0, 0.0, 0.0);
                device.endOfTick();
            }
        }
    }
}
