package org.hapticsd.physics.dynamics.contact;

import java.util.Arrays;

/**
 * The contact points of the current step that continue no point of the last step ({@link ContactMatcher}'s −1): a
 * touch begins there. Published after the narrowphase, before any model has changed a velocity, with the speed at
 * which the surfaces were closing at the start of the step, so that whatever reacts to impacts (a contact model, a
 * haptic effect that plays a transient on the tool) reads the same list. Preallocated; the world refills it each
 * step.
 */
public final class ContactOnsets {

    private int count;
    private int[] point = new int[0];
    private int[] bodyA = new int[0];
    private int[] bodyB = new int[0];
    private double[] approachSpeedMps = new double[0];

    /** Number of onsets this step. */
    public int count() {
        return count;
    }

    /** The point slot of onset {@code k} in this step's contacts ({@code PhysicsWorld.contact(int)}). */
    public int point(int k) {
        return point[k];
    }

    /** Body A of onset {@code k} (the normal points from B toward A). */
    public int bodyA(int k) {
        return bodyA[k];
    }

    /** Body B of onset {@code k}. */
    public int bodyB(int k) {
        return bodyB[k];
    }

    /**
     * {@code −(v_A − v_B)·n} at the point at the start of the step, m/s: positive while the surfaces close (the
     * impact speed of a collision), negative or zero for a touch that began at rest or separating.
     */
    public double approachSpeedMps(int k) {
        return approachSpeedMps[k];
    }

    /** Empties the list. */
    public void clear() {
        count = 0;
    }

    /** Appends an onset; never grows past {@link #reserve}'s capacity during a step. */
    public void add(int slot, int a, int b, double speedMps) {
        point[count] = slot;
        bodyA[count] = a;
        bodyB[count] = b;
        approachSpeedMps[count] = speedMps;
        count++;
    }

    /** Makes room for {@code capacity} onsets. Allocates only when growing. */
    public void reserve(int capacity) {
        if (capacity > point.length) {
            point = Arrays.copyOf(point, capacity);
            bodyA = Arrays.copyOf(bodyA, capacity);
            bodyB = Arrays.copyOf(bodyB, capacity);
            approachSpeedMps = Arrays.copyOf(approachSpeedMps, capacity);
        }
    }
}
