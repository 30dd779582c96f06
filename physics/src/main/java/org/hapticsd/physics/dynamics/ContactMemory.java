package org.hapticsd.physics.dynamics;

import java.util.Arrays;

/**
 * What each contact point of the last step leaves to the next: its LCP impulses (the warm start of sequential
 * impulses, Catto 2005) and its penalty stick displacement, keyed by (lower body index, higher body index,
 * feature id).
 *
 * <p>Matching without hashing: the broadphase lists pairs sorted by (lower, higher) index and the narrowphase keeps
 * that order, so the points of both steps are sorted by pair. {@link #find} walks a cursor forward through the
 * stored points as the narrowphase walks forward through the new ones (a merge), then scans the few points (at
 * most {@code ContactManifold.MAX_POINTS}) of the matching pair for the feature id. Deterministic, O(points), and
 * nothing to clear. A point with feature id 0 has no stable identity and starts from zero.
 */
public final class ContactMemory {

    private int count;
    private long[] pairKey = new long[0];
    private int[] featureId = new int[0];
    private double[] normalImpulseNs = new double[0];
    /** x, y, z per point. */
    private double[] frictionImpulseNs = new double[0];
    /** x, y, z per point. */
    private double[] stickDisplacementM = new double[0];
    private int cursor;

    /** Rewinds the cursor; call before the first {@link #find} of a step. */
    public void beginLookup() {
        cursor = 0;
    }

    /**
     * The stored point of the pair ({@code lowBody}, {@code highBody}) with this feature id, or -1. Successive calls
     * within a step must come in non-decreasing pair order.
     */
    public int find(int lowBody, int highBody, int feature) {
        if (feature == 0) {
            return -1;
        }
        long key = key(lowBody, highBody);
        while (cursor < count && pairKey[cursor] < key) {
            cursor++;
        }
        for (int i = cursor; i < count && pairKey[i] == key; i++) {
            if (featureId[i] == feature) {
                return i;
            }
        }
        return -1;
    }

    /** Copies what stored point {@code stored} left into slot {@code i} of {@code contacts}. */
    public void restore(int stored, ContactPoints contacts, int i) {
        contacts.normalImpulseNs[i] = normalImpulseNs[stored];
        int k = 3 * stored;
        contacts.frictionImpulseNs[i].set(frictionImpulseNs[k], frictionImpulseNs[k + 1], frictionImpulseNs[k + 2]);
        contacts.stickDisplacementM[i].set(stickDisplacementM[k], stickDisplacementM[k + 1],
                stickDisplacementM[k + 2]);
    }

    /** Makes room for {@code points} stored points. Allocates only when growing. */
    public void reserve(int points) {
        if (points > featureId.length) {
            pairKey = Arrays.copyOf(pairKey, points);
            featureId = Arrays.copyOf(featureId, points);
            normalImpulseNs = Arrays.copyOf(normalImpulseNs, points);
            frictionImpulseNs = Arrays.copyOf(frictionImpulseNs, 3 * points);
            stickDisplacementM = Arrays.copyOf(stickDisplacementM, 3 * points);
        }
    }

    /** Replaces the stored points with those of {@code contacts}. Allocates only when it holds more than ever. */
    public void record(ContactPoints contacts) {
        int n = contacts.count;
        if (n > featureId.length) {
            reserve(Math.max(n, 2 * featureId.length));
        }
        for (int i = 0; i < n; i++) {
            int a = contacts.bodyA[i];
            int b = contacts.bodyB[i];
            pairKey[i] = key(Math.min(a, b), Math.max(a, b));
            featureId[i] = contacts.featureId[i];
            normalImpulseNs[i] = contacts.normalImpulseNs[i];
            int k = 3 * i;
            frictionImpulseNs[k] = contacts.frictionImpulseNs[i].x;
            frictionImpulseNs[k + 1] = contacts.frictionImpulseNs[i].y;
            frictionImpulseNs[k + 2] = contacts.frictionImpulseNs[i].z;
            stickDisplacementM[k] = contacts.stickDisplacementM[i].x;
            stickDisplacementM[k + 1] = contacts.stickDisplacementM[i].y;
            stickDisplacementM[k + 2] = contacts.stickDisplacementM[i].z;
        }
        count = n;
    }

    /** Forgets every stored point (the scene changed). */
    public void clear() {
        count = 0;
    }

    private static long key(int lowBody, int highBody) {
        return ((long) lowBody << 32) | (highBody & 0xffffffffL);
    }
}
