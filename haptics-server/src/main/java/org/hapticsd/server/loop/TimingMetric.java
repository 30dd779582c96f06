package org.hapticsd.server.loop;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;

/**
 * One nanosecond-valued loop metric: a wait-free recorder for the loop thread and, on the reader side, the
 * last interval and the running total.
 */
public final class TimingMetric {
    /** 10 s: any longer value is recorded as 10 s (it is already catastrophic) rather than thrown on. */
    public static final long HIGHEST_TRACKABLE_NS = 10_000_000_000L;
    private static final int SIGNIFICANT_DIGITS = 3;

    private final SingleWriterRecorder recorder = new SingleWriterRecorder(HIGHEST_TRACKABLE_NS, SIGNIFICANT_DIGITS);
    private final Histogram interval = new Histogram(HIGHEST_TRACKABLE_NS, SIGNIFICANT_DIGITS);
    private final Histogram total = new Histogram(HIGHEST_TRACKABLE_NS, SIGNIFICANT_DIGITS);
    private Histogram recycle;

    /** Loop thread only; never allocates, never throws. */
    public void record(long valueNs) {
        recorder.recordValue(valueNs < 0 ? 0 : Math.min(valueNs, HIGHEST_TRACKABLE_NS));
    }

    /** Reader thread: moves what was recorded since the last call into {@link #interval()} and {@link #total()}. */
    void fold() {
        Histogram taken = recorder.getIntervalHistogram(recycle);
        interval.reset();
        interval.add(taken);
        total.add(taken);
        recycle = taken;
    }

    /** Values recorded between the last two {@code fold()} calls. Reader thread only. */
    public Histogram interval() {
        return interval;
    }

    /** Every value folded so far. Reader thread only. */
    public Histogram total() {
        return total;
    }
}
