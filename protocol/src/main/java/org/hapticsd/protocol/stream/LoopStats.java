package org.hapticsd.protocol.stream;

/**
 * The haptic loop's statistics in a STATE, over the server's reporting window (the last second).
 *
 * @param achievedRateHz   ticks per second actually run
 * @param periodErrorP99Ns 99th percentile of |actual tick period − nominal period|, ns (0..2^32-1)
 * @param tickTimeP99Ns    99th percentile of the time one tick took to compute, ns
 * @param overruns           ticks since start that missed their deadline
 * @param physicsOverBudget  the physics step ran over its budget (a share of the tick period) in more than 1 % of
 *                           the last window's ticks: the scene is too heavy for the rate
 * @param physicsLoadPercent the physics step's 99th percentile over the last window, as a percentage of the tick
 *                           period, 0..255 (255: that much or more); 0 before the first window ends
 */
public record LoopStats(float achievedRateHz, long periodErrorP99Ns, long tickTimeP99Ns, long overruns,
                        boolean physicsOverBudget, int physicsLoadPercent) {
    public LoopStats {
        Checks.u32("periodErrorP99Ns", periodErrorP99Ns);
        Checks.u32("tickTimeP99Ns", tickTimeP99Ns);
        Checks.u32("overruns", overruns);
        Checks.u8("physicsLoadPercent", physicsLoadPercent);
    }

    /** Statistics of a loop whose physics keeps within its budget, or has not been measured yet. */
    public LoopStats(float achievedRateHz, long periodErrorP99Ns, long tickTimeP99Ns, long overruns) {
        this(achievedRateHz, periodErrorP99Ns, tickTimeP99Ns, overruns, false, 0);
    }
}
