package org.hapticsd.physics;

/**
 * The broadphase as the world uses it: bounds in, overlapping pairs out. The world uses
 * {@link DynamicTreePairFinder}; {@link AllPairsCandidatePairFinder} is the O(n²) reference that tests compare
 * against, output for output.
 *
 * <p>Contract, which the warm start relies on: every pair {@code (a, b)} with {@code a < b}, at least one of the
 * two movable, whose bounds overlap (touching counts: the exact decision is the narrowphase's), each exactly once,
 * sorted by {@code a} then {@code b}; deterministic for equal inputs; no allocation. Static–static pairs never
 * appear. When there are more pairs than {@code dest} holds, the pairs stored are a sorted subset in which a pair
 * with a priority body has taken the place of one without, and the rest are counted in
 * {@link CandidatePairs#dropped}.
 */
interface CandidatePairFinder {

    /** Whether a pair is wanted at all: pairs the world never tests (contact mode NONE) take no room. */
    @FunctionalInterface
    interface PairFilter {
        PairFilter ALL = (a, b) -> true;

        boolean wanted(int a, int b);
    }

    /**
     * Sets which pairs are output and counted (default: all). A pair the filter refuses is neither written nor
     * counted as dropped: a column of spheres in contact mode NONE filled the budget with pairs that were then thrown
     * away, and the pairs that mattered were dropped (a tester).
     */
    void setPairFilter(PairFilter filter);

    /**
     * @param boundsM world bounds of every body, {@code geometry.Aabb.STRIDE} values per body index
     *     ({@code minX, minY, minZ, maxX, maxY, maxZ}; infinite for a plane)
     * @param movable per body: {@code false} only for static bodies, whose bounds never change
     * @param priority per body: whether its pairs are kept first when the pairs overflow (the haptic tools)
     * @param bodyCount number of bodies; the arrays may be longer
     * @param dest cleared, then filled with the pairs
     */
    void findPairs(double[] boundsM, boolean[] movable, boolean[] priority, int bodyCount, CandidatePairs dest);
}
