package org.hapticsd.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** An interrupt neither cuts the wait short nor is lost: the caller sees it afterwards. */
class UninterruptiblyTest {

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void shouldJoinToTheEndAndKeepTheInterrupt() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        Thread worker = new Thread(() -> {
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        worker.start();
        Thread releaser = releaseLater(release);
        Thread.currentThread().interrupt();
        Uninterruptibly.join(worker);
        assertFalse(worker.isAlive(), "returned only once the thread had ended");
        assertTrue(Thread.interrupted(), "the interrupt is kept for the caller");
        releaser.join();
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void shouldAwaitTheLatchAndKeepTheInterrupt() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        Thread releaser = releaseLater(release);
        Thread.currentThread().interrupt();
        Uninterruptibly.await(release);
        assertEquals(0, release.getCount(), "returned only once the latch was open");
        assertTrue(Thread.interrupted(), "the interrupt is kept for the caller");
        releaser.join();
        // Not interrupted: no interrupt appears.
        Uninterruptibly.await(release);
        assertFalse(Thread.interrupted());
    }

    /** Opens {@code latch} after 100 ms, from another thread. */
    private static Thread releaseLater(CountDownLatch latch) {
        Thread releaser = new Thread(() -> {
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            latch.countDown();
        });
        releaser.start();
        return releaser;
    }
}
