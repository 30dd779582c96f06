package org.hapticsd.physics;

import org.hapticsd.physics.geometry.Aabb;

/**
 * The reference broadphase: tests the bounds of every pair with at least one movable body, O(n²). Correct and
 * allocation-free, and fine for the tens of bodies of a haptic scene; the world uses
 * {@link DynamicTreePairFinder}, whose output must equal this one's (see {@link CandidatePairFinder}). The double
 * loop emits pairs already sorted by (a, b).
 */
final class AllPairsCandidatePairFinder implements CandidatePairFinder {
    private PairFilter filter = PairFilter.ALL;

    @Override
    public void setPairFilter(PairFilter value) {
        filter = value;
    }

    @Override
    public void findPairs(double[] boundsM, boolean[] movable, boolean[] priority, int bodyCount,
                          CandidatePairs dest) {
        dest.clear();
        for (int a = 0; a < bodyCount; a++) {
            boolean movableA = movable[a];
            for (int b = a + 1; b < bodyCount; b++) {
                if ((movableA || movable[b]) && Aabb.overlap(boundsM, a, b) && filter.wanted(a, b)) {
                    dest.add(a, b, priority);
                }
            }
        }
    }
}
