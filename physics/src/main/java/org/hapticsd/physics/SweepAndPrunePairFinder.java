package org.hapticsd.physics;

import org.hapticsd.physics.broadphase.SweepAndPrune;

/**
 * The world's broadphase: {@link SweepAndPrune} behind the {@link CandidatePairFinder} seam. Sorting endpoints with
 * insertion sort exploits frame-to-frame coherence, so a step of a settled scene costs about one pass over the
 * bodies instead of the n²/2 bound tests of all-pairs.
 *
 * <p>Bodies are registered with the sweep the first time they appear (the only allocation, when the scene is
 * built); a body's movable flag is kept in step with the world's. Pairs come out sorted by (a, b), which the warm
 * start relies on, straight into the destination, whose capacity the sweep's pair buffer matches.
 */
final class SweepAndPrunePairFinder implements CandidatePairFinder {
    private final SweepAndPrune sweep = new SweepAndPrune(16, 0);
    private boolean[] movableSeen = new boolean[0];

    @Override
    public void findPairs(double[] boundsM, boolean[] movable, boolean[] priority, int bodyCount,
                          CandidatePairs dest) {
        register(movable, bodyCount);
        // Scene set-up: the first sweep after the budget was set sizes the sweep's buffer to the destination.
        if (sweep.pairCapacity() != dest.capacity()) {
            sweep.setPairCapacity(dest.capacity());
        }
        int found = sweep.findPairs(boundsM, priority, dest.first, dest.second);
        dest.count = sweep.lastStored();
        dest.dropped = found - dest.count;
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
