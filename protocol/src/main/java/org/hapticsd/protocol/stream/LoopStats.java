package org.hapticsd.protocol.stream;

/**
 * The haptic loop's statistics in a STATE, over the server's reporting window (the last second).
 *
 * @param achievedRateHz   ticks per second actually run
 * @param periodErrorP99Ns 99th percentile of |actual tick period − nominal period|, ns (0..2^32-1)
 * @param tickTimeP99Ns    99th percentile of the time one tick took to compute, ns
 * @param overruns         ticks since start that missed their deadline
 */
public record LoopStats(float achievedRateHz, long periodErrorP99Ns, long tickTimeP99Ns, long overruns) {
    public LoopStats {
        Checks.u32("periodErrorP99Ns", periodErrorP99Ns);
        Checks.u32("tickTimeP99Ns", tickTimeP99Ns);
        Checks.u32("overruns", overruns);
    }
}
