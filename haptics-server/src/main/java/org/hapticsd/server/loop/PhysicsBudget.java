package org.hapticsd.server.loop;

import java.util.Arrays;

/**
 * Whether the physics step keeps within its share of the tick, judged one window of steps at a time.
 *
 * <p>The budget is {@link #BUDGET_FRACTION} of the tick period: the rest of the tick reads and writes the device,
 * renders, runs the safety layer and publishes, and a step that takes the whole period leaves the loop overrunning
 * even though physics alone "fits". A window (a second's ticks) is over budget when its 99th-percentile step time
 * exceeds the budget, i.e. when more than 1 % of its steps ran long: one slow step (a collection, a burst of
 * contacts) is not a verdict, a scene too heavy for the rate is. A window also ends after a second of the loop's
 * time, however few steps it has: a loop far behind its rate (300 ticks a second with a 2000-sphere pile) took 3 s
 * to fill a window of 1000 steps, and at 4 kHz 22 s, so the verdict came long after the loop had gone SAFE.
 *
 * <p>The 99th percentile is exact (nearest rank) and costs no allocation: a min-heap keeps the window's
 * {@code k} slowest steps, where the {@code k}-th slowest of {@code n} is the value at rank ⌈0.99 n⌉ (a window cut
 * short by time has fewer steps, so its percentile is found among the kept ones, sorted in a scratch copy). Loop
 * thread only.
 */
public final class PhysicsBudget {
    /** The physics step's share of the tick period. */
    public static final double BUDGET_FRACTION = 0.8;
    /** physicsLoadPercent saturates here: it travels as a u8 in the stream's STATE. */
    public static final int MAX_LOAD_PERCENT = 255;
    /** A window ends after this much of the loop's time even when it has fewer steps than a second's ticks. */
    static final long WINDOW_NS = 1_000_000_000L;

    private final long periodNs;
    private final long budgetNs;
    private final int windowSteps;
    /** Min-heap of the slowest steps of the window under way; its root is the smallest of them. */
    private final long[] slowest;
    private final long[] sorted;
    private int heapSize;
    private int stepsInWindow;
    private long windowStartNs;

    private boolean overBudget;
    private long stepP99Ns;
    private long windowMaxNs;
    private long runningMaxNs;

    /**
     * @param periodNs    the tick period
     * @param windowSteps steps per verdict (the loop uses one second's ticks)
     */
    public PhysicsBudget(long periodNs, int windowSteps) {
        if (periodNs <= 0 || windowSteps <= 0) {
            throw new IllegalArgumentException("periodNs and windowSteps must be > 0, got " + periodNs + ", "
                + windowSteps);
        }
        this.periodNs = periodNs;
        this.budgetNs = Math.round(periodNs * BUDGET_FRACTION);
        this.windowSteps = windowSteps;
        int rank = (int) Math.ceil(0.99 * windowSteps);
        this.slowest = new long[windowSteps - rank + 1];
        this.sorted = new long[slowest.length];
    }

    /** One second's ticks at the given period, at least one. */
    public static PhysicsBudget perSecond(long periodNs) {
        return new PhysicsBudget(periodNs, (int) Math.max(1, Math.round(1e9 / periodNs)));
    }

    /**
     * Records one physics step's time; returns true when it closed a window whose verdict differs from the last. The
     * window ends after its steps.
     */
    public boolean record(long stepNs) {
        return record(stepNs, 0L);
    }

    /**
     * As {@link #record(long)}, and the window also ends once a second has passed since its first step.
     *
     * @param nowNs the loop's clock at this step
     */
    public boolean record(long stepNs, long nowNs) {
        if (stepsInWindow == 0) {
            windowStartNs = nowNs;
        }
        offer(stepNs);
        runningMaxNs = Math.max(runningMaxNs, stepNs);
        if (++stepsInWindow < windowSteps && nowNs - windowStartNs < WINDOW_NS) {
            return false;
        }
        stepP99Ns = percentile99();
        windowMaxNs = runningMaxNs;
        heapSize = 0;
        stepsInWindow = 0;
        runningMaxNs = 0;
        boolean was = overBudget;
        overBudget = stepP99Ns > budgetNs;
        return overBudget != was;
    }

    /** The window's step at rank ⌈0.99 n⌉ of its n steps: the (n − rank + 1)-th slowest, which the heap holds. */
    private long percentile99() {
        int n = stepsInWindow;
        int fromTop = n - (int) Math.ceil(0.99 * n) + 1;
        if (fromTop == heapSize) {
            return slowest[0];
        }
        System.arraycopy(slowest, 0, sorted, 0, heapSize);
        Arrays.sort(sorted, 0, heapSize);
        return sorted[heapSize - fromTop];
    }

    private void offer(long v) {
        long[] h = slowest;
        if (heapSize < h.length) {
            int i = heapSize++;
            while (i > 0) {
                int parent = (i - 1) >>> 1;
                if (h[parent] <= v) {
                    break;
                }
                h[i] = h[parent];
                i = parent;
            }
            h[i] = v;
        } else if (v > h[0]) {
            int i = 0;
            int n = heapSize;
            while (true) {
                int child = 2 * i + 1;
                if (child >= n) {
                    break;
                }
                if (child + 1 < n && h[child + 1] < h[child]) {
                    child++;
                }
                if (h[child] >= v) {
                    break;
                }
                h[i] = h[child];
                i = child;
            }
            h[i] = v;
        }
    }

    /** The last finished window's verdict; false before the first window ends. */
    public boolean overBudget() {
        return overBudget;
    }

    /** The last finished window's 99th-percentile step time; 0 before the first window ends. */
    public long stepP99Ns() {
        return stepP99Ns;
    }

    /** The last finished window's slowest step; 0 before the first window ends. */
    public long windowMaxNs() {
        return windowMaxNs;
    }

    public long budgetNs() {
        return budgetNs;
    }

    /** {@link #stepP99Ns()} as a percentage of the tick period, rounded, at most {@link #MAX_LOAD_PERCENT}. */
    public int loadPercent() {
        return (int) Math.min(MAX_LOAD_PERCENT, Math.round(100.0 * stepP99Ns / periodNs));
    }
}
