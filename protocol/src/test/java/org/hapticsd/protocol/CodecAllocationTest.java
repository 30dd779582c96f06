package org.hapticsd.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.hapticsd.testsupport.JitPrimer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class CodecAllocationTest {

    /** The compiler's one-off allocations on the measuring thread, done before anything is measured. */
    @BeforeAll
    static void primeJit() {
        JitPrimer.primeClassPath();
    }

    /** Bounded by its loop counts (at most 300 windows of warm-up); the wall-clock guard only catches a hang. */
    @Test
    @Timeout(value = 10, unit = java.util.concurrent.TimeUnit.MINUTES)
    void shouldAllocateNothingOverAHundredThousandEncodeDecodeCyclesAfterWarmUp() {
        CodecAllocationProbe probe = new CodecAllocationProbe();
        assertTrue(probe.supported(), "this JVM must measure per-thread allocation");
        int windows = probe.warmUp(10_000, 3, 300);
        assertTrue(windows > 0, "no three consecutive allocation-free windows of 10k cycles in 300");
        long before = probe.received();
        // Tolerance: zero bytes. The measurement itself allocates nothing (the MXBean returns a long).
        assertEquals(0, probe.allocatedBytes(100_000));
        assertEquals(200_000, probe.received() - before, "every frame of the measured run was decoded");
    }

    @Test
    void shouldSeeAnAllocationWhenThereIsOne() {
        CodecAllocationProbe probe = new CodecAllocationProbe();
        // At least the 4096 bytes of the array itself; the header adds a few more.
        assertTrue(probe.allocatedBytesOfOneArray(4096) >= 4096);
    }
}
