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
 *   <li>{@code hybrid} (default): parks until {@link #HYBRID_SPIN_WINDOW_NS} before the deadline, then spins
 *       the rest. Near-spin jitter at a fraction of its CPU.</li>
 * </ul>
 */
public final class WaitStrategies {
    /** Parking is stopped this long before the deadline: above the typical parkNanos overshoot on Linux. */
    public static final long HYBRID_SPIN_WINDOW_NS = 300_000L;

    public static final WaitStrategy SPIN = new Spin();
    public static final WaitStrategy SLEEP = new Sleep();
    public static final WaitStrategy HYBRID = new Hybrid(HYBRID_SPIN_WINDOW_NS);

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

    private static final class Spin implements WaitStrategy {
        @Override
        public void waitUntil(long deadlineNs, NanoClock clock) {
            while (deadlineNs - clock.nanoTime() > 0) {
                Thread.onSpinWait();
            }
        }

        @Override
        public String name() {
            return "spin";
        }
    }

    private static final class Sleep implements WaitStrategy {
        @Override
        public void waitUntil(long deadlineNs, NanoClock clock) {
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
        private final long spinWindowNs;

        Hybrid(long spinWindowNs) {
            this.spinWindowNs = spinWindowNs;
        }

        @Override
        public void waitUntil(long deadlineNs, NanoClock clock) {
            long remainingNs = deadlineNs - clock.nanoTime();
            while (remainingNs > spinWindowNs) {
                LockSupport.parkNanos(remainingNs - spinWindowNs);
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
    }
}
