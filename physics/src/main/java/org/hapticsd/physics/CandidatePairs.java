package org.hapticsd.physics;

/**
 * The broadphase's output: body pairs, in arrays of a fixed capacity set from the {@link ContactBudget}. When a
 * step finds more pairs than fit, the extra ones are counted in {@link #dropped} instead of stored; a pair with a
 * priority body (a haptic tool) takes the place of one without.
 */
final class CandidatePairs {

    int count;
    int[] first = new int[0];
    int[] second = new int[0];
    /** Pairs found but not stored this step. */
    int dropped;

    /** Sets the capacity; allocates. Forgets the pairs. */
    void allocate(int capacity) {
        first = new int[capacity];
        second = new int[capacity];
        clear();
    }

    int capacity() {
        return first.length;
    }

    void clear() {
        count = 0;
        dropped = 0;
    }

    /**
     * Appends the pair if it fits. When full, a priority pair replaces the last pair without a priority body (the
     * pairs after it move up one place, so a sorted list stays sorted); any other pair is dropped.
     */
    void add(int bodyA, int bodyB, boolean[] priority) {
        if (count < first.length) {
            first[count] = bodyA;
            second[count] = bodyB;
            count++;
            return;
        }
        dropped++;
        if (!priority[bodyA] && !priority[bodyB]) {
            return;
        }
        int evict = count - 1;
        while (evict >= 0 && (priority[first[evict]] || priority[second[evict]])) {
            evict--;
        }
        if (evict < 0) {
            return;
        }
        System.arraycopy(first, evict + 1, first, evict, count - 1 - evict);
        System.arraycopy(second, evict + 1, second, evict, count - 1 - evict);
        first[count - 1] = bodyA;
        second[count - 1] = bodyB;
    }
}
