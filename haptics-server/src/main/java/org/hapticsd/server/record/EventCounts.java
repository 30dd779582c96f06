package org.hapticsd.server.record;

import org.hapticsd.server.loop.LoopEvents;

/**
 * How many ticks carried each {@link LoopEvents} bit: the end-of-recording summary, and what tests check a run
 * against. Filled one tick's bitmask at a time, by the recorder's writer thread as it writes records or from a
 * {@link Recording} read back; not thread-safe, so read it after the thread that fills it is done.
 */
public final class EventCounts {
    private final long[] counts = new long[LoopEvents.COUNT];
    private long ticks;

    /** Counts one tick's events. */
    public void add(int events) {
        ticks++;
        for (int i = 0; i < LoopEvents.COUNT; i++) {
            if ((events & (1 << i)) != 0) {
                counts[i]++;
            }
        }
    }

    /** Ticks counted, with or without events. */
    public long ticks() {
        return ticks;
    }

    /** Ticks that carried {@code event}, one of the {@link LoopEvents} constants (a single bit). */
    public long count(int event) {
        if (Integer.bitCount(event) != 1 || Integer.numberOfTrailingZeros(event) >= LoopEvents.COUNT) {
            throw new IllegalArgumentException("not a single LoopEvents bit: 0x" + Integer.toHexString(event));
        }
        return counts[Integer.numberOfTrailingZeros(event)];
    }

    /** {@code NAME count} for every event that occurred, in bit order, comma-separated; {@code none} without any. */
    public String summary() {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < LoopEvents.COUNT; i++) {
            if (counts[i] > 0) {
                if (text.length() > 0) {
                    text.append(", ");
                }
                text.append(LoopEvents.name(i)).append(' ').append(counts[i]);
            }
        }
        return text.length() == 0 ? "none" : text.toString();
    }
}
