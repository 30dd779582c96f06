package org.hapticsd.physics;

import org.hapticsd.physics.broadphase.SweepAndPrune;

/**
 * The world's broadphase: {@link SweepAndPrune} behind the {@link CandidatePairFinder} seam. Sorting endpoints with
 * insertion sort exploits frame-to-frame coherence, so a step of a settled scene costs about one pass over the
 * bodies instead of the n²/2 bound tests of all-pairs.
 *
 * <p>Bodies are registered with the sweep the first time they appear (the only allocation, when the scene is
 * built); a body's movable flag is kept in step with the world's. Pairs come out sorted by (a, b), which the warm
 * start relies on.
 */
final class SweepAndPrunePairFinder implements CandidatePairFinder {
    private final SweepAndPrune sweep = new SweepAndPrune(16, 64);
    private boolean[] movableSeen = new boolean[0];
    private int[] pairA = new int[64];
    private int[] pairB = new int[64];

    @Override
    public void findPairs(double[] boundsM, boolean[] movable, int bodyCount, CandidatePairs dest) {
        register(movable, bodyCount);
        int count = sweep.findPairs(boundsM, pairA, pairB);
        if (count > pairA.length) {
            // More overlaps than ever before: grow once and sweep again (allocation only on a new maximum).
            sweep.ensurePairCapacity(count);
            pairA = new int[count];
            pairB = new int[count];
            count = sweep.findPairs(boundsM, pairA, pairB);
        }
        dest.clear();
        for (int i = 0; i < count; i++) {
            dest.add(pairA[i], pairB[i]);
        }
    }

    private void register(boolean[] movable, int bodyCount) {
        if (movableSeen.length < bodyCount) {
            boolean[] grown = new boolean[bodyCount];
            System.arraycopy(movableSeen, 0, grown, 0, movableSeen.length);
            movableSeen = grown;
        }
        while (sweep.bodyCount() < bodyCount) {
            int body = sweep.bodyCount();
            sweep.addBody(movable[body]);
            movableSeen[body] = movable[body];
        }
        for (int body = 0; body < bodyCount; body++) {
            if (movableSeen[body] != movable[body]) {
                sweep.setMovable(body, movable[body]);
                movableSeen[body] = movable[body];
            }
        }
    }
}
