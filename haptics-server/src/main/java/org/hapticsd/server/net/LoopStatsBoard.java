package org.hapticsd.server.net;

import org.hapticsd.protocol.stream.LoopStats;

/**
 * The loop statistics STATE carries, refreshed once a second by the thread that samples the loop's histograms
 * (the status printer): percentiles need the histograms, which have a single reader, so viewers read this
 * summary instead. A volatile reference to an immutable record: readers on any thread see a whole summary.
 */
public final class LoopStatsBoard {
    private volatile LoopStats latest = new LoopStats(0f, 0L, 0L, 0L);

    public void publish(double achievedRateHz, long periodErrorP99Ns, long tickTimeP99Ns, long overruns) {
        latest = new LoopStats((float) achievedRateHz, periodErrorP99Ns, tickTimeP99Ns, overruns);
    }

    public LoopStats latest() {
        return latest;
    }
}
