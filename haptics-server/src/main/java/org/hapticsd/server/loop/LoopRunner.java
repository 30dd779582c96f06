package org.hapticsd.server.loop;

import org.agrona.concurrent.NanoClock;

/**
 * Owns the loop thread: waits for each absolute deadline with the chosen {@link WaitStrategy}, reads the clock
 * once, runs the tick, and moves to the next deadline, skipping any that were missed ({@link TickSchedule}).
 * On stop the loop commands zero force and closes the device on its own thread, so the device handle never
 * changes threads.
 */
public final class LoopRunner implements AutoCloseable {
    public static final String THREAD_NAME = "hapticsd-loop";

    private final HapticLoop loop;
    /**
     * A field, not a local of {@link #run()}: C2 would scalar-replace a local schedule, and the first overrun
     * (a branch never taken before) would deoptimise the loop and re-materialise it on the heap, an
     * allocation on the loop thread in the middle of a run.
     */
    private final TickSchedule schedule;
    private final WaitStrategy waitStrategy;
    private final NanoClock clock;
    private final Thread thread;
    private volatile boolean running = true;
    private volatile Throwable fatal;
    private volatile long skippedDeadlines;
    /**
     * A decaying peak of the tick time, for the wait strategy ({@link WaitStrategies}: hybrid parks less after
     * heavy ticks). It falls by 1/64 per tick, so a spike is remembered for about a hundred ticks.
     */
    private long recentTickNs;

    public LoopRunner(HapticLoop loop, int rateHz, WaitStrategy waitStrategy, NanoClock clock) {
        this.loop = loop;
        this.schedule = new TickSchedule(rateHz, 0);
        this.waitStrategy = waitStrategy;
        this.clock = clock;
        this.thread = new Thread(this::run, THREAD_NAME);
        this.thread.setPriority(Thread.MAX_PRIORITY);
    }

    private volatile boolean started;

    public void start() {
        started = true;
        thread.start();
    }

    private void run() {
        try {
            schedule.restart(clock.nanoTime());
            while (running) {
                waitStrategy.waitUntil(schedule.deadlineNs(), recentTickNs, clock);
                long startNs = clock.nanoTime();
                loop.tick(startNs);
                long endNs = clock.nanoTime();
                recentTickNs = Math.max(endNs - startNs, recentTickNs - (recentTickNs >> 6));
                if (schedule.advance(endNs)) {
                    loop.afterTick(true);
                    skippedDeadlines = schedule.skippedDeadlines();
                } else {
                    loop.afterTick(false);
                }
            }
        } catch (Throwable t) {
            fatal = t;
        } finally {
            loop.shutdown();
        }
    }

    /** Deadlines skipped because ticks overran; any thread. */
    public long skippedDeadlines() {
        return skippedDeadlines;
    }

    /** Id of the loop thread, for reading its allocation counter from another thread. */
    public long threadId() {
        return thread.getId();
    }

    public boolean isRunning() {
        return thread.isAlive();
    }

    /** An error that escaped the tick's own handling and stopped the loop, or null. */
    public Throwable fatalError() {
        return fatal;
    }

    /** Stops after the current tick; the device is left at zero force and closed. Waits for the thread. */
    @Override
    public void close() {
        running = false;
        if (!started) {
            // No loop thread ever owned the device: release it here, once.
            started = true;
            loop.shutdown();
            return;
        }
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
}
