package org.hapticsd.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link CollectorPauses}: which collections are pauses, the end report's line by numbers, and the JVM's own
 * notifications counted while listening and not after.
 */
class CollectorPausesTest {

    /** The actions the JVM gives (JDK 17 and 25, G1 and ZGC): every one a pause but a concurrent cycle's end. */
    @Test
    void shouldCountEveryCollectionButAConcurrentCycleAsAPause() {
        assertTrue(CollectorPauses.isPause("end of minor GC"), "G1 young");
        assertTrue(CollectorPauses.isPause("end of major GC"), "G1 full");
        assertTrue(CollectorPauses.isPause("end of GC pause"), "ZGC, Shenandoah pauses");
        assertTrue(CollectorPauses.isPause("end of concurrent GC pause"), "G1's remark and cleanup (JDK 21 on)");
        assertFalse(CollectorPauses.isPause("end of GC cycle"), "ZGC, Shenandoah cycles run beside the loop");
    }

    @Test
    void shouldSummarisePausesByCollectorWithTheLongestAndTheTotal() {
        CollectorPauses none = new CollectorPauses();
        assertEquals("collector pauses: none", none.summary());
        assertEquals(0L, none.count());

        CollectorPauses g1 = new CollectorPauses();
        g1.record("G1 Young Generation", 16);
        g1.record("G1 Young Generation", 18);
        g1.record("G1 Old Generation", 5);
        assertEquals("collector pauses: 3 (G1 Old Generation 1, G1 Young Generation 2), longest 18 ms, 39 ms in all",
            g1.summary());
        assertEquals(3L, g1.count());
        assertEquals(18L, g1.longestMs());
        assertEquals(39L, g1.totalMs());

        CollectorPauses zgc = new CollectorPauses();
        for (int i = 0; i < 30; i++) {
            zgc.record("ZGC Pauses", 0);
        }
        assertEquals("collector pauses: 30 (ZGC Pauses 30), each under 1 ms", zgc.summary());
        CollectorPauses one = new CollectorPauses();
        one.record("ZGC Pauses", 0);
        assertEquals("collector pauses: 1 (ZGC Pauses 1), under 1 ms", one.summary());
    }

    /**
     * {@code System.gc()} stops the threads under any collector (G1: a full collection; ZGC: the pauses of a
     * cycle): counted once the notifications arrive (on the JVM's thread, within seconds), and after
     * {@link CollectorPauses#close} no more.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldCountTheJvmsPausesWhileListeningOnly() throws Exception {
        CollectorPauses pauses = CollectorPauses.start();
        System.gc();
        long waitedMs = 0;
        while (pauses.count() == 0 && waitedMs < 20_000) {
            Thread.sleep(20);
            waitedMs += 20;
        }
        assertTrue(pauses.count() > 0, "no pause counted in 20 s after System.gc()");
        // The cycle's last notifications may still come: wait until the count has stood still for half a second.
        long seen;
        do {
            seen = pauses.count();
            Thread.sleep(500);
        } while (pauses.count() != seen);
        pauses.close();
        assertTrue(pauses.summary().startsWith("collector pauses: " + seen + " ("), pauses.summary());
        System.gc();
        Thread.sleep(1000);
        assertEquals(seen, pauses.count(), "counted after close");
    }
}
