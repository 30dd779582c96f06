package org.hapticsd.server.loop;

import java.util.concurrent.CountDownLatch;
import org.hapticsd.device.ThreadPolicy;
import org.hapticsd.device.Uninterruptibly;

/**
 * A thread that keeps the loop's CPU from going idle while the loop thread waits between ticks: it runs on that CPU
 * only, under Linux's idle policy ({@code SCHED_IDLE}), and spins. Any thread of another policy takes the CPU from
 * it at once, the real-time loop thread first, so it only fills time the CPU would otherwise spend halted.
 *
 * <p>Why: on a virtual machine a halted virtual CPU is the host's to reschedule, and it wakes late and runs slower.
 * Measured on the 2-vCPU machine of docs/performance.md ("Fourteenth session"), six interleaved 12 s runs each: the
 * default scene skipped 1–435 deadlines without it and 0–3 with it, the 200-sphere pile 3–226 without and 0–39 with
 * it. The CPU shows as busy to {@code top}; {@code --no-keep-cpu-awake} turns it off.
 */
final class KeepAwake implements AutoCloseable {
    static final String THREAD_NAME = LoopRunner.THREAD_NAME + "-awake";

    private final int cpu;
    private final Thread thread;
    private final CountDownLatch ready = new CountDownLatch(1);
    private volatile boolean running = true;
    private volatile String refused;
    private volatile long tid = -1;

    /**
     * Starts the thread, which must be created by a thread of the normal policy (a Linux thread inherits its
     * creator's), and waits until it has taken its policy and CPU or given up.
     */
    KeepAwake(int cpu) {
        this.cpu = cpu;
        this.thread = new Thread(this::run, THREAD_NAME);
        thread.setDaemon(true);
        thread.start();
        Uninterruptibly.await(ready);
    }

    private void run() {
        try {
            long self = ThreadPolicy.currentThreadTid();
            if (self < 0) {
                refused = "Linux only (no /proc/thread-self here)";
                return;
            }
            // Idle first: spinning at the normal policy would take time from the process's other threads.
            String why = ThreadPolicy.setIdle(self);
            if (why == null) {
                why = ThreadPolicy.pinToCpus(self, cpu);
            }
            if (why != null) {
                refused = why;
                return;
            }
            tid = self;
        } finally {
            ready.countDown();
        }
        while (running) {
            Thread.onSpinWait();
        }
    }

    /** Null while it runs on its CPU, or why it does not. */
    String refused() {
        return refused;
    }

    /** Its kernel thread id while it runs, else -1. */
    long tid() {
        return tid;
    }

    boolean isAlive() {
        return thread.isAlive();
    }

    /** Stops the spinning and waits for the thread to end. */
    @Override
    public void close() {
        running = false;
        Uninterruptibly.join(thread);
    }
}
