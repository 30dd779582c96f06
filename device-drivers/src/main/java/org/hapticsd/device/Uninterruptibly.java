package org.hapticsd.device;

import java.util.concurrent.CountDownLatch;

/**
 * Waits that an interrupt does not cut short: a thread that must not go on before another has finished (a device
 * closed, a file's trailer written, a policy set) waits to the end, then interrupts itself again so that its caller
 * still sees the interrupt.
 */
public final class Uninterruptibly {
    private Uninterruptibly() {
    }

    /** Returns once {@code thread} has ended. */
    public static void join(Thread thread) {
        boolean interrupted = false;
        while (thread.isAlive()) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Returns once {@code latch} has counted down to zero. */
    public static void await(CountDownLatch latch) {
        boolean interrupted = false;
        while (true) {
            try {
                latch.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
