package org.hapticsd.server.loop;

/**
 * Absolute tick deadlines at a fixed period on a monotonic clock.
 *
 * <p>Deadlines are {@code start + k·period}, never "now + period", so waiting error does not accumulate.
 * A tick that ends past the next deadline does not make the loop run the missed ticks back to back (what a
 * fixed-rate executor does after a stall, which would hammer the device with a burst of stale forces). The latest
 * deadline passed gets a tick at once, <b>late</b>, when it passed less than {@link #LATE_START_SHARE} of a period
 * ago; every deadline before it is skipped and counted, and so is that one when it passed longer ago, and the loop
 * then waits for the first deadline still in the future. So a tick that overran by a quarter of a period is
 * followed at once by the next tick, which reads the device and writes a fresh force a quarter of a period late,
 * instead of leaving the last force on the device for a whole period more; and the loop is back on its deadlines
 * after one tick, as long as a tick takes less than half a period. A late tick that overruns as well is not followed
 * by another: the deadlines it ran past are skipped, so the loop catches up by one late tick at most, and a tick
 * that needs most of the period (a scene at its budget) does not turn one stall into a chain of overruns that would
 * count toward the safety layer's {@code overrunLimit}. Each deadline gets one tick or one count as skipped: ticks
 * plus skipped deadlines are the periods the run spanned.
 *
 * <p>Measured (docs/performance.md, *Nineteenth session*): with stalls of 0.6–1.3 ms injected on the loop's CPU every
 * 10–30 ms, the 200-sphere pile skipped 183–285 deadlines in 12 s (976–985 Hz) when every overrun skipped, and 1–34
 * (997.2–999.9 Hz) with late starts; the default scene 30–70 and 0–1. A skipped deadline left the device without a
 * new force for two periods and the simulation a period behind the device. The rejected alternative, a late tick for
 * any deadline passed less than a whole period ago, and late ticks in a row, lets a scene too heavy for the rate run
 * its ticks back to back with no wait between them (a tick of 1.2 periods would keep the core busy all the time); as
 * it is, such a scene runs two ticks in three periods and the loop is idle a fifth of the time ({@code
 * TickScheduleTest}).
 *
 * <p>Deadlines are compared by subtraction so that the clock may wrap.
 */
public final class TickSchedule {
    public static final int MIN_RATE_HZ = 250;
    public static final int MAX_RATE_HZ = 4000;
    /** A passed deadline gets its tick late when it passed less than this share of a period ago, else is skipped. */
    public static final double LATE_START_SHARE = 0.5;

    private final long periodNs;
    private final long lateStartLimitNs;
    private long deadlineNs;
    private long skippedDeadlines;
    private long lateStarts;
    private boolean nextStartsLate;

    public TickSchedule(int rateHz, long startNs) {
        this.periodNs = periodNsFor(rateHz);
        this.lateStartLimitNs = (long) (periodNs * LATE_START_SHARE);
        this.deadlineNs = startNs;
    }

    /** Starts over: the next deadline is {@code startNs}; the counts are kept. */
    public void restart(long startNs) {
        deadlineNs = startNs;
        nextStartsLate = false;
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

    /** Deadlines skipped so far: a tick ended after them, and they passed too long ago for a late tick. */
    public long skippedDeadlines() {
        return skippedDeadlines;
    }

    /** Ticks given a deadline already passed (less than {@link #LATE_START_SHARE} of a period ago) after an overrun. */
    public long lateStarts() {
        return lateStarts;
    }

    /**
     * Whether the deadline {@link #advance} moved to had already passed: the next tick starts at once, late, because
     * the tick before it overran.
     */
    public boolean nextStartsLate() {
        return nextStartsLate;
    }

    /** How long after its deadline a tick may start late, ns: {@link #LATE_START_SHARE} of a period. */
    public long lateStartLimitNs() {
        return lateStartLimitNs;
    }

    /**
     * Moves to the deadline after the current one. When the tick that just ran ended at or after it, moves instead to
     * the latest deadline passed at {@code nowNs} if it passed less than {@link #lateStartLimitNs()} ago and the tick
     * that just ran did not start late itself (the next tick starts late, at once), else to the first deadline still
     * in the future, and counts the deadlines passed over as skipped.
     *
     * @return {@code true} when the tick that just ran overran, i.e. ended at or after the next deadline
     */
    public boolean advance(long nowNs) {
        deadlineNs += periodNs;
        long lateNs = nowNs - deadlineNs;
        if (lateNs < 0) {
            nextStartsLate = false;
            return false;
        }
        long passedBeforeLatest = lateNs / periodNs;
        // At most one late tick in a row: a late tick that overran too means the loop cannot catch up this way.
        boolean ranLate = nextStartsLate;
        nextStartsLate = !ranLate && lateNs - passedBeforeLatest * periodNs < lateStartLimitNs;
        long skipped = nextStartsLate ? passedBeforeLatest : passedBeforeLatest + 1;
        deadlineNs += skipped * periodNs;
        skippedDeadlines += skipped;
        if (nextStartsLate) {
            lateStarts++;
        }
        return true;
    }
}
