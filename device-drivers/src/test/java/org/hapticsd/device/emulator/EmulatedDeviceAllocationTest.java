package org.hapticsd.device.emulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import org.hapticsd.testsupport.JitPrimer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@link EmulatedDevice#receive} and {@link EmulatedDevice#poll} allocate nothing once warmed up. */
class EmulatedDeviceAllocationTest {

    /** The compiler's one-off allocations on the measuring thread, done before anything is measured. */
    @BeforeAll
    static void primeJit() {
        JitPrimer.primeClassPath();
    }

    @Test
    void shouldNotAllocateInReceiveAndPollAfterWarmUp() {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assumeTrue(threads.isThreadAllocatedMemorySupported(), "JVM cannot count per-thread allocation");
        threads.setThreadAllocatedMemoryEnabled(true);

        Driver driver = new Driver(threads, new HostLink(new EmulatedDevice(EmulatorProfile.falconLike())));
        int windows = driver.warmUp();
        assertTrue(windows <= Driver.MAX_WINDOWS, "no 3 allocation-free windows in a row within "
                + Driver.MAX_WINDOWS + " windows of " + Driver.TICKS_PER_WINDOW + " ticks");

        long bytes = driver.measure(Driver.MEASURED_WINDOWS);

        // Exactly zero: the counter is per thread and nothing else runs on it between the reads. One boxed value,
        // lambda or iterator per call would show as >= 16 bytes per tick, millions over the run.
        assertEquals(0L, bytes, "bytes allocated by " + Driver.MEASURED_WINDOWS * Driver.TICKS_PER_WINDOW
                + " ticks of receive + poll");
        HostLink host = driver.host;
        assertTrue(host.stateSequenceIncreasing);
        assertTrue(host.device.watchdogTrips() > Driver.MEASURED_WINDOWS, "the stall path ran every window");
        assertTrue(host.device.staleForcesIgnored() > 0, "the duplicate path ran");
        assertTrue(host.device.resyncs() > 0, "the garbage path ran");
        assertTrue(host.stateCount > Driver.MEASURED_WINDOWS * (Driver.TICKS_PER_WINDOW - 10), "STATE streamed");
    }

    /**
     * The measured loop lives in a class with NO string literals: when C2 compiles a method (possibly during the
     * measured run) HotSpot resolves the string constants of that method's class on the compiling request's
     * thread, which would charge a String to the device under test. {@link HostLink} has none either.
     *
     * <p>Each window of 1000 1-ms ticks exercises every steady-state path: FORCE streaming with a clamp every
     * 128th tick, a duplicate FORCE every 64th, garbage before a frame every 256th, host heartbeats every 100th,
     * and once per window a 7-tick stall that trips the watchdog followed by the re-arm pair.
     */
    static final class Driver {
        static final int TICKS_PER_WINDOW = 1000;
        static final int MAX_WINDOWS = 500;
        static final int ZERO_WINDOWS_NEEDED = 3;
        /**
         * Windows run before the zero-window count starts: 50,000 ticks, past C2's compile thresholds for every
         * path. Without it, three early windows in a row can allocate nothing while C2 has yet to compile (and
         * charge a deoptimisation or two to this thread in the measured windows: 80 to 136 bytes seen here).
         */
        static final int MIN_WARM_UP_WINDOWS = 50;
        static final int MEASURED_WINDOWS = 20;
        private static final long TICK_NS = 1_000_000L;
        private static final int STALL_START = 500;
        private static final int STALL_TICKS = 7;

        final HostLink host;
        private final com.sun.management.ThreadMXBean threads;
        private final byte[] garbage = {0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77};
        private long nowNs;

        Driver(com.sun.management.ThreadMXBean threads, HostLink host) {
            this.threads = threads;
            this.host = host;
            host.sendHello(1, 1, 1000, 0L);
            host.poll(0L);
            nowNs = TICK_NS;
        }

        /** Runs windows until {@link #ZERO_WINDOWS_NEEDED} in a row allocate 0; returns how many it took. */
        int warmUp() {
            int zeroInARow = 0;
            int windows = 0;
            while ((zeroInARow < ZERO_WINDOWS_NEEDED || windows < MIN_WARM_UP_WINDOWS) && windows <= MAX_WINDOWS) {
                zeroInARow = measure(1) == 0L ? zeroInARow + 1 : 0;
                windows++;
            }
            return windows;
        }

        long measure(int windows) {
            long before = threads.getCurrentThreadAllocatedBytes();
            for (int w = 0; w < windows; w++) {
                window();
            }
            return threads.getCurrentThreadAllocatedBytes() - before;
        }

        private void window() {
            for (int i = 0; i < TICKS_PER_WINDOW; i++) {
                if (i >= STALL_START && i < STALL_START + STALL_TICKS) {
                    host.poll(nowNs);
                    nowNs += TICK_NS;
                    continue;
                }
                boolean enable = i != STALL_START + STALL_TICKS;
                if ((i & 255) == 0) {
                    host.device.receive(garbage, 0, garbage.length, nowNs);
                }
                float fxN = (i & 127) == 0 ? 40f : (float) (host.device.positionM(0) * -3000.0);
                host.sendForce(fxN, 0.5f, 0f, enable, nowNs);
                if ((i & 63) == 0) {
                    host.resendLast(nowNs);
                }
                if (i % 100 == 0) {
                    host.sendHeartbeat(nowNs);
                }
                host.poll(nowNs);
                nowNs += TICK_NS;
            }
        }
    }
}
