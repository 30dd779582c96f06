package org.hapticsd.physics.collision;

import org.hapticsd.physics.geometry.Aabb;

/**
 * Lists the candidate pairs whose bounding boxes overlap, testing every moving body against every static body.
 *
 * <p>O(moving × static), which for one haptic tool is O(n) and cheaper than maintaining sorted endpoints.
 * Sweep-and-prune (Baraff 1992; Box2D's dynamic tree is the other common choice) replaces this class when
 * dynamic bodies make moving–moving pairs common; the contract stays the same: bounds in, pairs out, in a
 * deterministic order.
 */
public final class AllPairsBroadphase {

    private AllPairsBroadphase() {
    }

    /**
     * Writes each overlapping (moving, static) pair into {@code destBodyA[k]}, {@code destBodyB[k]} for
     * {@code k = 0 .. count-1}, moving bodies in the order given, and for each of them the static bodies in the
     * order given. Moving–moving and static–static pairs are not produced.
     *
     * @param boundsM bounds of every body, {@link Aabb#STRIDE} values per body index
     * @param destBodyA receives the moving body of each pair; length {@code >= movingCount × staticCount}
     * @param destBodyB receives the static body of each pair; same length
     * @return the number of pairs written
     */
    public static int findPairs(int[] movingBodies, int movingCount, int[] staticBodies, int staticCount,
                                double[] boundsM, int[] destBodyA, int[] destBodyB) {
        int pairCount = 0;
        for (int i = 0; i < movingCount; i++) {
            int a = movingBodies[i];
            for (int j = 0; j < staticCount; j++) {
                int b = staticBodies[j];
                if (Aabb.overlap(boundsM, a, b)) {
                    destBodyA[pairCount] = a;
                    destBodyB[pairCount] = b;
                    pairCount++;
                }
            }
        }
        return pairCount;
    }
}
