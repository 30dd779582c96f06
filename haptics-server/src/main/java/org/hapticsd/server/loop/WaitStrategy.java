package org.hapticsd.server.loop;

import org.agrona.concurrent.NanoClock;

/**
 * How the loop thread waits for its next absolute deadline. Chosen by name ({@link WaitStrategies#named}).
 * Implementations never allocate.
 */
public interface WaitStrategy {

    /** Returns once {@code clock} has reached {@code deadlineNs} (possibly a little after). */
    default void waitUntil(long deadlineNs, NanoClock clock) {
        waitUntil(deadlineNs, 0, clock);
    }

    /**
     * Returns once {@code clock} has reached {@code deadlineNs} (possibly a little after).
     *
     * @param recentTickNs how long the loop's recent ticks ran (a decaying peak; 0 when unknown): a strategy that
     *                     parks keeps the same margin against a late wake-up whatever the scene costs
     */
    void waitUntil(long deadlineNs, long recentTickNs, NanoClock clock);

    /** The name this strategy is selected by on the command line. */
    String name();

    /**
     * Whether this strategy gives the CPU up while it waits (parks or sleeps), so that the CPU may go idle between
     * ticks; a strategy that spins to the deadline keeps it busy by itself ({@link LoopRunner#keepCpuAwake}).
     */
    default boolean parks() {
        return true;
    }

    /**
     * The way to wait when the loop thread runs under the real-time FIFO policy ({@link LoopRunner}), or null when
     * this strategy must not be used there: a real-time thread that never sleeps is throttled by the kernel (it
     * lets real-time threads run 95 % of each second), a stall of 50 ms every second.
     */
    default WaitStrategy underRealTimePolicy() {
        return this;
    }
}
