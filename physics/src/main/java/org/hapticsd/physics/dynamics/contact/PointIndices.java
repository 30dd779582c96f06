package org.hapticsd.physics.dynamics.contact;

import java.util.Arrays;

/**
 * A preallocated list of contact point slots: the points of one model in one step, in the narrowphase's order
 * (pair order, so a model that iterates them keeps the arithmetic order the single point list had).
 */
public final class PointIndices {

    private int[] slots = new int[0];
    private int count;

    /** Number of points. */
    public int count() {
        return count;
    }

    /** The slot of the {@code k}-th point, {@code 0 <= k < count()}. */
    public int get(int k) {
        return slots[k];
    }

    /** Empties the list, keeping its storage. */
    public void clear() {
        count = 0;
    }

    /** Appends a slot; never grows past {@link #reserve}'s capacity during a step. */
    public void add(int slot) {
        slots[count++] = slot;
    }

    /** Makes room for {@code capacity} slots. Allocates only when growing. */
    public void reserve(int capacity) {
        if (capacity > slots.length) {
            slots = Arrays.copyOf(slots, capacity);
        }
    }
}
