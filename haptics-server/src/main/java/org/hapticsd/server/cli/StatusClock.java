package org.hapticsd.server.cli;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** The pace of the commands' status lines: one at each whole second since the start, until stopped or done. */
final class StatusClock {
    private StatusClock() {
    }

    /**
     * Waits for the next whole second since {@code startNs}.
     *
     * @return false when {@code stop} was counted down or the run reached {@code limitS} seconds (having waited
     *     until then): no more status lines
     */
    static boolean awaitNextSecond(CountDownLatch stop, long startNs, double limitS) {
        double elapsedS = (System.nanoTime() - startNs) * 1e-9;
        // Never before the first whole second: the clock's origin may still be ahead (run times its status lines
        // from half a period after the first deadline, and printed a line at "0.0 s" when called before it).
        double nextStatusS = Math.max(1.0, Math.floor(elapsedS) + 1.0);
        if (nextStatusS > limitS) {
            awaitQuietly(stop, Math.max(0.0, limitS - elapsedS));
            return false;
        }
        return !awaitQuietly(stop, nextStatusS - elapsedS);
    }

    /** Waits at most {@code seconds}; true when the latch was counted down (or the thread interrupted). */
    static boolean awaitQuietly(CountDownLatch latch, double seconds) {
        try {
            return latch.await((long) (seconds * 1e9), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return true;
        }
    }
}
