package org.hapticsd.device.emulator;

/**
 * Gaps longer than a threshold, each with the time it ended: when a thread was not scheduled, or frames stopped.
 * Preallocated (a run that overflows it keeps counting but stops storing); one thread writes, and another reads
 * only after the writer has stopped (a thread join is the happens-before edge), so nothing here is volatile.
 */
public final class GapLog {
    private final long thresholdNs;
    private final long[] endNs;
    private final long[] gapNs;
    private int stored;
    private long count;
    private long longestNs;

    /** @param thresholdNs gaps longer than this are kept; @param capacity how many are stored */
    public GapLog(long thresholdNs, int capacity) {
        if (thresholdNs <= 0 || capacity <= 0) {
            throw new IllegalArgumentException("threshold and capacity must be > 0");
        }
        this.thresholdNs = thresholdNs;
        this.endNs = new long[capacity];
        this.gapNs = new long[capacity];
    }

    /** Records a gap of {@code gapNs} ending at {@code endNs}, if it is longer than the threshold. */
    public void record(long endNs, long gapNs) {
        if (gapNs > longestNs) {
            longestNs = gapNs;
        }
        if (gapNs <= thresholdNs) {
            return;
        }
        count++;
        if (stored < this.endNs.length) {
            this.endNs[stored] = endNs;
            this.gapNs[stored] = gapNs;
            stored++;
        }
    }

    public long thresholdNs() {
        return thresholdNs;
    }

    /** Gaps over the threshold, stored or not. */
    public long count() {
        return count;
    }

    /** Gaps stored: entries 0 to stored() - 1. */
    public int stored() {
        return stored;
    }

    public long endNs(int i) {
        return endNs[i];
    }

    public long gapNs(int i) {
        return gapNs[i];
    }

    /** The longest gap recorded, over the threshold or not. */
    public long longestNs() {
        return longestNs;
    }
}
