package org.hapticsd.server.loop;

/**
 * Absolute tick deadlines at a fixed period on a monotonic clock.
 *
 * <p>Deadlines are {@code start + k·period}, never "now + period", so waiting error does not accumulate.
 * A tick that ends past the next deadline does not make the loop run the missed ticks back to back (what a
 * fixed-rate executor does after a stall, which would hammer the device with a burst of stale forces): the
 * missed deadlines are skipped and counted, and the loop resumes on the first deadline still in the future.
 * Deadlines are compared by subtraction so that the clock may wrap.
 */
public final class TickSchedule {
    public static final int MIN_RATE_HZ = 250;
    public static final int MAX_RATE_HZ = 4000;

    private final long periodNs;
    private long deadlineNs;
    private long skippedDeadlines;

    public TickSchedule(int rateHz, long startNs) {
        this.periodNs = periodNsFor(rateHz);
        this.deadlineNs = startNs;
    }

    /** Starts over: the next deadline is {@code startNs}; the skipped count is kept. */
    public void restart(long startNs) {
        deadlineNs = startNs;
    }

    /** Nanoseconds per tick; rejects a rate outside {@value #MIN_RATE_HZ}..{@value #MAX_RATE_HZ} Hz. */
    public static long periodNsFor(int rateHz) {
        if (rateHz < MIN_RATE_HZ || rateHz > MAX_RATE_HZ) {
            throw new IllegalArgumentException(
                "rate must be " + MIN_RATE_HZ + ".." + MAX_RATE_HZ + " Hz, got " + rateHz);
        }
        return 1_000_000_000L / rateHz;
    }

    public long periodNs() {
        return periodNs;
    }

    /** The deadline the next tick should start at. */
    public long deadlineNs() {
        return deadlineNs;
    }

    /** Deadlines skipped so far because a tick ended after them. */
    public long skippedDeadlines() {
        return skippedDeadlines;
    }

    /**
     * Moves to the deadline after the current one, skipping every deadline already passed at {@code nowNs}.
     *
     * @return {@code true} when the tick that just ran overran, i.e. ended at or after the next deadline
     */
    public boolean advance(long nowNs) {
        deadlineNs += periodNs;
        long lateNs = nowNs - deadlineNs;
        if (lateNs < 0) {
            return false;
        }
        long missed = lateNs / periodNs + 1;
        deadlineNs += missed * periodNs;
        skippedDeadlines += missed;
        return true;
    }
}
