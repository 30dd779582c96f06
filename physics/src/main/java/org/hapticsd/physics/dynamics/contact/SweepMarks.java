package org.hapticsd.physics.dynamics.contact;

import java.util.Arrays;

/**
 * Per body, what the LCP sweeps note about its motion during a step: the stamp of the visit at which it was last
 * marked as moved, the change it received since, and whether its pseudo-velocity may be non-zero. One LCP model owns
 * its own; the lanes of a split step ({@code PhysicsWorld.setStepLanes}) share one, so that a row of one lane sees
 * the moves the rows of another made to a body they both touch.
 */
public final class SweepMarks {

    /** Per body, the visit stamp at which it was last marked as moved (see {@link LcpContactModel#sweep}). */
    int[] changedAtVisit = new int[0];
    /** Per body, the sum of the impulse changes it received since it was last marked, N·s. */
    double[] unmarkedChangeNs = new double[0];
    /** Per body, whether its pseudo-velocity may be non-zero during the position sweeps. */
    boolean[] pseudoMoving = new boolean[0];

    /** Makes room for {@code bodies} bodies. Allocates only when growing. */
    public void reserve(int bodies) {
        if (bodies > pseudoMoving.length) {
            pseudoMoving = Arrays.copyOf(pseudoMoving, bodies);
            changedAtVisit = Arrays.copyOf(changedAtVisit, bodies);
            unmarkedChangeNs = Arrays.copyOf(unmarkedChangeNs, bodies);
        }
    }
}
