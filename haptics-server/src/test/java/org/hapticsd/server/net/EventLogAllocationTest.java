package org.hapticsd.server.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import org.hapticsd.server.loop.LoopSnapshot;
import org.hapticsd.server.safety.SafetyState;
import org.hapticsd.testsupport.JitPrimer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The event log runs on the loop thread every tick (it is {@code run}'s tick sink): it must not allocate. */
class EventLogAllocationTest {

    /** The compiler's one-off allocations on the measuring thread, done before anything is measured. */
    @BeforeAll
    static void primeJit() {
        JitPrimer.primeClassPath();
    }

    @Test
    void shouldNotAllocatePerTick() {
        com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assumeTrue(threads.isThreadAllocatedMemorySupported(), "JVM cannot count per-thread allocation");
        threads.setThreadAllocatedMemoryEnabled(true);
        EventLog log = new EventLog(1_000_000L);
        LoopSnapshot s = new LoopSnapshot(3);
        // Warm-up windows until three in a row allocate nothing (C2 has compiled everything), at most 30. Each is
        // as long as the measured window, so the measured loop runs the code (and on-stack replacement) that the
        // warm-up already compiled: with 20 000-tick windows a CI run once allocated 104 bytes in the long window.
        int quiet = 0;
        long tick = 0;
        for (int window = 0; window < 30 && quiet < 3; window++) {
            long before = threads.getCurrentThreadAllocatedBytes();
            tick = Driver.ticks(log, s, tick, 200_000);
            quiet = threads.getCurrentThreadAllocatedBytes() - before == 0 ? quiet + 1 : 0;
        }
        long before = threads.getCurrentThreadAllocatedBytes();
        Driver.ticks(log, s, tick, 200_000);
        assertEquals(0L, threads.getCurrentThreadAllocatedBytes() - before, "bytes allocated by 200 000 ticks");
    }

    /** Contacts come and go, safety and the device change, every few ticks; no string literals here. */
    private static final class Driver {
        static long ticks(EventLog log, LoopSnapshot s, long startTick, int n) {
            long tick = startTick;
            for (int i = 0; i < n; i++) {
                s.tick = tick++;
                int phase = (int) (tick % 40);
                s.publishedContacts = phase < 20 ? 0 : phase < 30 ? 2 : 1;
                s.contactBodies[0] = 0;
                s.contactBodies[1] = 1;
                s.contactBodies[2] = 0;
                s.contactBodies[3] = 2;
                s.contactForceN[0] = -2.0;
                s.contactNormal[0] = -1.0;
                s.safety = phase < 35 ? SafetyState.ACTIVE : SafetyState.SAFE;
                s.deviceConnected = phase != 39;
                log.onTick(s);
            }
            return tick;
        }
    }
}
