package org.hapticsd.server.loop;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Loop timing, written by the loop thread and read live by one other thread at a time.
 *
 * <p>Each metric is an HdrHistogram recorder ({@link TimingMetric}): recording is wait-free and allocation-free
 * for the loop, and the reader swaps out interval histograms without stopping it. The reader folds the
 * intervals into running totals ({@link #sample()}), so the numbers printed live and at shutdown are the same
 * data. Counters are single-writer, published with ordered stores.
 */
public final class LoopStats {
    private final TimingMetric periodError = new TimingMetric();
    private final TimingMetric tickTime = new TimingMetric();
    private final TimingMetric[] stageTime = new TimingMetric[LoopStage.ALL.length];
    private final AtomicLong ticks = new AtomicLong();
    private final AtomicLong overruns = new AtomicLong();
    private final AtomicLong longestTickNs = new AtomicLong();

    public LoopStats() {
        for (int i = 0; i < stageTime.length; i++) {
            stageTime[i] = new TimingMetric();
        }
    }

    // ---- writer side: the loop thread ----

    /** |actual period − nominal period| of the tick that just started. */
    public void recordPeriodError(long errorNs) {
        periodError.record(errorNs);
    }

    public void recordStage(LoopStage stage, long elapsedNs) {
        stageTime[stage.ordinal()].record(elapsedNs);
    }

    /** Compute time of one tick, from its first stage to the end of publishing. */
    public void recordTick(long tickNs) {
        tickTime.record(tickNs);
        ticks.lazySet(ticks.get() + 1);
        if (tickNs > longestTickNs.get()) {
            longestTickNs.lazySet(tickNs);
        }
    }

    /** A tick ended at or after the next deadline. */
    public void recordOverrun() {
        overruns.lazySet(overruns.get() + 1);
    }

    // ---- reader side ----

    /** Folds everything recorded since the last call into the totals. Returns this for chaining. */
    public synchronized LoopStats sample() {
        periodError.fold();
        tickTime.fold();
        for (TimingMetric metric : stageTime) {
            metric.fold();
        }
        return this;
    }

    public TimingMetric periodError() {
        return periodError;
    }

    public TimingMetric tickTime() {
        return tickTime;
    }

    public TimingMetric stageTime(LoopStage stage) {
        return stageTime[stage.ordinal()];
    }

    public long ticks() {
        return ticks.get();
    }

    public long overruns() {
        return overruns.get();
    }

    public long longestTickNs() {
        return longestTickNs.get();
    }
}
