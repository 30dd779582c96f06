package org.hapticsd.server.net;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.Comparator;
import java.util.Random;
import org.junit.jupiter.api.Test;

class PairKeySortTest {

    /**
     * Against a stable library sort of (key, value) by key: order, stability, negative and 64-bit keys; and input
     * already in order (the engine's usual layout, which the sort passes through untouched) or one swap away from it.
     */
    @Test
    void shouldSortLikeAStableSortByKey() {
        Random random = new Random(11);
        PairKeySort sort = new PairKeySort(5000);
        for (int trial = 0; trial < 300; trial++) {
            int n = random.nextInt(5000);
            long[] keys = new long[n];
            int[] values = new int[n];
            for (int i = 0; i < n; i++) {
                keys[i] = switch (trial % 6) {
                    case 1 -> random.nextLong(); // every byte, both signs
                    case 2 -> random.nextInt(5) - 2L; // few values, many repeats, −2..2
                    case 3 -> (long) (random.nextInt(3) - 1) << 32 | (random.nextInt(3) & 0xFFFF_FFFFL);
                    default -> (long) random.nextInt(200) << 32 | random.nextInt(200); // body pairs
                };
                values[i] = i;
            }
            if (trial % 6 >= 4) {
                Arrays.sort(keys);
            }
            if (trial % 6 == 5 && n >= 2) {
                // One pair of neighbours out of order: the first, the last or anywhere between, in turn.
                int at = switch (trial / 6 % 3) {
                    case 0 -> 0;
                    case 1 -> n - 2;
                    default -> random.nextInt(n - 1);
                };
                long swap = keys[at];
                keys[at] = keys[at + 1];
                keys[at + 1] = swap;
            }
            Integer[] order = new Integer[n];
            Arrays.setAll(order, i -> i);
            Arrays.sort(order, Comparator.comparingLong(i -> keys[i])); // stable
            long[] expectedKeys = new long[n];
            int[] expectedValues = new int[n];
            for (int i = 0; i < n; i++) {
                expectedKeys[i] = keys[order[i]];
                expectedValues[i] = order[i];
            }
            sort.sort(keys, values, n);
            assertArrayEquals(expectedKeys, keys, "keys, trial " + trial);
            assertArrayEquals(expectedValues, values, "values (equal keys in their first order), trial " + trial);
        }
    }

    @Test
    void shouldSortOnlyThePrefix() {
        long[] keys = {5, 3, 1, 0};
        int[] values = {0, 1, 2, 3};
        new PairKeySort(4).sort(keys, values, 2);
        assertArrayEquals(new long[] {3, 5, 1, 0}, keys);
        assertArrayEquals(new int[] {1, 0, 2, 3}, values);
    }

    @Test
    void shouldRefuseMoreKeysThanItsCapacity() {
        assertThrows(IllegalArgumentException.class, () -> new PairKeySort(2).sort(new long[3], new int[3], 3));
    }
}
