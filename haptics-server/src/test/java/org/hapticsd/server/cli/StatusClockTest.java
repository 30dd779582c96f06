package org.hapticsd.server.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** The status lines' pacing: never a line before the first whole second of the run's clock. */
class StatusClockTest {

    @Test
    void shouldNotAskForALineBeforeTheFirstSecondWhenTheClocksOriginIsStillAhead() {
        // run times its lines from half a period after the loop's first deadline, which may lie ahead of the caller:
        // before the fix the first call asked for a line at once ("[   0.0 s] rate 902.4 Hz", a CI run).
        long originAheadNs = System.nanoTime() + 20_000_000L;
        assertFalse(StatusClock.awaitNextSecond(new CountDownLatch(1), originAheadNs, 0.05),
            "a 0.05 s run gets no status line");
    }
}
