package org.hapticsd.server.loop;

import java.util.List;
import java.util.concurrent.locks.LockSupport;
import org.agrona.concurrent.NanoClock;

/**
 * The three ways to wait for a tick deadline.
 *
 * <ul>
 *   <li>{@code spin}: busy-waits on the clock. Lowest jitter, burns one core.</li>
 *   <li>{@code sleep}: parks until the deadline. Cheapest, but Linux wakes a parked thread 50–100 µs late
 *       (the default timer slack is 50 µs), so at 1 kHz the period error is a tenth of the period.</li>
 *   <li>{@code hybrid} (default): parks until {@link #HYBRID_SPIN_WINDOW_NS} plus the recent tick time before
 *       the deadline, then spins the rest. Near-spin jitter at a fraction of its CPU.</li>
 * </ul>
 *
 * <p>Why hybrid's window grows with the tick: a parked thread now and then wakes late, by up to a few
 * milliseconds on a shared virtual machine (the idle vCPU is descheduled by the host). A wake-up late by W costs
 * a deadline when W exceeds the window plus the slack of the next tick, {@code window + period − tick}. With a
 * fixed window a heavy scene (a 600 µs step) is exposed to every wake-up later than 700 µs where a light one is
 * exposed only beyond 1.3 ms: measured on pile-200, 22–25 skipped deadlines in 10 s against the light default
 * scene's 13–16. Adding the recent tick time to the window keeps the margin at {@code window + period} for
 * every scene: a heavy scene spins longer instead of missing more deadlines, and a light scene parks as before.
 */
public final class WaitStrategies {
    /** Parking is stopped this long before the deadline: above the typical parkNanos overshoot on Linux. */
    public static final long HYBRID_SPIN_WINDOW_NS = 300_000L;

    /**
     * Hybrid's window under the real-time FIFO policy. Such a thread wakes at once when its timer fires (no timer
     * slack, no time-sharing thread ahead of it): measured on the 2-vCPU machine with three CPU hogs beside it,
     * parking to the deadline ({@code sleep}) woke with a period error p99 of 10–14 µs. The window covers that; it
     * does not grow with the tick (unlike {@link #HYBRID_SPIN_WINDOW_NS}), because a real-time thread that spins
     * most of its period approaches the kernel's throttle, and a heavy scene has nothing to gain from it here.
     */
    public static final long REAL_TIME_SPIN_WINDOW_NS = 100_000L;

    public static final WaitStrategy SPIN = new Spin();
    public static final WaitStrategy SLEEP = new Sleep();
    public static final WaitStrategy HYBRID = new Hybrid(false);

    private static final List<WaitStrategy> ALL = List.of(HYBRID, SPIN, SLEEP);

    private WaitStrategies() {
    }

    /** The strategy with this name; the message of the exception lists the valid names. */
    public static WaitStrategy named(String name) {
        for (WaitStrategy strategy : ALL) {
            if (strategy.name().equals(name)) {
                return strategy;
            }
        }
        throw new IllegalArgumentException("unknown wait strategy '" + name + "' (expected one of " + names() + ")");
    }

    public static List<String> names() {
        return ALL.stream().map(WaitStrategy::name).toList();
    }

    /**
     * How long hybrid parks with {@code remainingNs} to the deadline after ticks of {@code recentTickNs}: until
     * {@link #HYBRID_SPIN_WINDOW_NS} plus the tick time before the deadline, or 0 (spin) when that point has
     * passed.
     */
    static long hybridParkNs(long remainingNs, long recentTickNs) {
        return Math.max(0, remainingNs - HYBRID_SPIN_WINDOW_NS - Math.max(0, recentTickNs));
    }

    /** How long hybrid parks under the real-time policy with {@code remainingNs} to the deadline. */
    static long realTimeParkNs(long remainingNs) {
        return Math.max(0, remainingNs - REAL_TIME_SPIN_WINDOW_NS);
    }

    private static final class Spin implements WaitStrategy {
        @Override
        public void waitUntil(long deadlineNs, long recentTickNs, NanoClock clock) {
            while (deadlineNs - clock.nanoTime() > 0) {
                Thread.onSpinWait();
            }
        }

        @Override
        public String name() {
            return "spin";
        }

        @Override
        public boolean parks() {
            return false;
        }

        @Override
        public WaitStrategy underRealTimePolicy() {
            return null;
        }
    }

    private static final class Sleep implements WaitStrategy {
        @Override
        public void waitUntil(long deadlineNs, long recentTickNs, NanoClock clock) {
            long remainingNs;
            while ((remainingNs = deadlineNs - clock.nanoTime()) > 0) {
                LockSupport.parkNanos(remainingNs);
            }
        }

        @Override
        public String name() {
            return "sleep";
        }
    }

    private static final class Hybrid implements WaitStrategy {
        private static final WaitStrategy REAL_TIME = new Hybrid(true);

        private final boolean realTime;

        private Hybrid(boolean realTime) {
            this.realTime = realTime;
        }

        @Override
        public void waitUntil(long deadlineNs, long recentTickNs, NanoClock clock) {
            long remainingNs = deadlineNs - clock.nanoTime();
            long parkNs;
            while ((parkNs = realTime ? realTimeParkNs(remainingNs) : hybridParkNs(remainingNs, recentTickNs)) > 0) {
                LockSupport.parkNanos(parkNs);
                remainingNs = deadlineNs - clock.nanoTime();
            }
            while (remainingNs > 0) {
                Thread.onSpinWait();
                remainingNs = deadlineNs - clock.nanoTime();
            }
        }

        @Override
        public String name() {
            return "hybrid";
        }

        @Override
        public WaitStrategy underRealTimePolicy() {
            return REAL_TIME;
        }
    }
}
