package org.hapticsd.physics;

import java.util.Arrays;

/** A growable list of body pairs, the broadphase's output. Grows by doubling; never shrinks. */
final class CandidatePairs {

    int count;
    int[] first = new int[16];
    int[] second = new int[16];

    void clear() {
        count = 0;
    }

    void add(int bodyA, int bodyB) {
        if (count == first.length) {
            first = Arrays.copyOf(first, 2 * count);
            second = Arrays.copyOf(second, 2 * count);
        }
        first[count] = bodyA;
        second[count] = bodyB;
        count++;
    }
}
