package org.hapticsd.server.net;

import java.util.Arrays;

/**
 * Sorts long keys ascending (signed order), each carrying an int, in linear time and without allocating: a stable
 * least-significant-byte radix sort into buffers of a fixed capacity, over only the bytes in which the keys differ
 * (two for the pairs of a scene of fewer than 256 bodies, where a general sort would make eight passes).
 *
 * <p>For {@link EventLog}: it sorted a tick's contact pairs by insertion and found each pair in the last tick's list
 * by binary search, 40–60 µs a tick for a settled 200-sphere pile (450 contacts), a seventh of the loop's tick.
 */
final class PairKeySort {
    private static final int RADIX = 256;

    private final long[] keyBuffer;
    private final int[] valueBuffer;
    private final int[] counts = new int[RADIX];

    PairKeySort(int capacity) {
        this.keyBuffer = new long[capacity];
        this.valueBuffer = new int[capacity];
    }

    /**
     * Sorts {@code keys[0..n)} ascending, moving {@code values[i]} with {@code keys[i]}; equal keys keep their order.
     */
    void sort(long[] keys, int[] values, int n) {
        if (n > keyBuffer.length) {
            throw new IllegalArgumentException(n + " keys, capacity " + keyBuffer.length);
        }
        // Keys already in order are the common case (the engine lays its points out in sorted pair order): one
        // pass says so, and nothing moves.
        int ordered = 1;
        while (ordered < n && keys[ordered - 1] <= keys[ordered]) {
            ordered++;
        }
        if (ordered >= n) {
            return;
        }
        long[] fromKeys = keys;
        int[] fromValues = values;
        long[] toKeys = keyBuffer;
        int[] toValues = valueBuffer;
        // The bits in which some key differs from the first: a byte without any is the same in every key.
        long differing = 0;
        for (int i = 1; i < n; i++) {
            differing |= keys[i] ^ keys[0];
        }
        for (int shift = 0; shift < Long.SIZE; shift += Byte.SIZE) {
            if ((differing >>> shift & 0xFF) == 0) {
                continue;
            }
            // The top byte carries the sign: flipping its high bit puts negative keys first.
            int flip = shift == Long.SIZE - Byte.SIZE ? 0x80 : 0;
            Arrays.fill(counts, 0);
            for (int i = 0; i < n; i++) {
                counts[digit(fromKeys[i], shift, flip)]++;
            }
            int position = 0;
            for (int d = 0; d < RADIX; d++) {
                int count = counts[d];
                counts[d] = position;
                position += count;
            }
            for (int i = 0; i < n; i++) {
                int at = counts[digit(fromKeys[i], shift, flip)]++;
                toKeys[at] = fromKeys[i];
                toValues[at] = fromValues[i];
            }
            long[] swapKeys = fromKeys;
            fromKeys = toKeys;
            toKeys = swapKeys;
            int[] swapValues = fromValues;
            fromValues = toValues;
            toValues = swapValues;
        }
        if (fromKeys != keys) {
            System.arraycopy(fromKeys, 0, keys, 0, n);
            System.arraycopy(fromValues, 0, values, 0, n);
        }
    }

    private static int digit(long key, int shift, int flip) {
        return (int) (key >>> shift) & 0xFF ^ flip;
    }
}
