package org.hapticsd.physics;

/**
 * The fixed capacity of a world's contact storage: how many candidate pairs (bodies whose bounds overlap) and how
 * many contact points one step can hold. Every per-step buffer is allocated to it once, when the scene is built,
 * so memory grows with the number of bodies, not with the number of pairs of bodies, and no step allocates.
 *
 * <p>A step that finds more than the budget keeps running without allocating and drops the least important
 * entries, counted in {@link StepProfile#lastDroppedPairs()} and {@link StepProfile#lastDroppedPoints()}:
 * <ul>
 *   <li><b>pairs:</b> a tool's pairs are kept first (one takes the place of a pair without a tool); beyond that
 *       the first pairs in body order, sorted by (a, b);</li>
 *   <li><b>points:</b> a tool's points are kept first (they are the rendered force), then the deepest: the points
 *       kept are the deepest to a quarter of an octave of depth, and within that the earlier pairs.</li>
 * </ul>
 *
 * <p>{@link #forScene} is the default: a bound per moving body, {@value #PAIRS_PER_MOVING_BODY} pairs and
 * {@value #POINTS_PER_MOVING_BODY} points, which a body of similar size to its neighbours does not reach (twelve
 * equal spheres can touch one; the 800-sphere pile, settled, uses fewer than 5 pairs and 3 points per sphere), plus
 * room for each tool against every other body.
 *
 * @param maxPairs candidate pairs per step, {@code >= 1}
 * @param maxPoints contact points per step, {@code >= 1}
 */
public record ContactBudget(int maxPairs, int maxPoints) {

    /** Default candidate pairs per dynamic or non-tool kinematic body. */
    public static final int PAIRS_PER_MOVING_BODY = 16;
    /** Default contact points per dynamic or non-tool kinematic body: four box faces' worth of pairs. */
    public static final int POINTS_PER_MOVING_BODY = 32;
    /** Points one manifold can hold: a tool against a mesh may touch several triangles. */
    public static final int POINTS_PER_TOOL_PAIR = 8;

    /**
     * Heap bytes one pair of the budget costs (HotSpot, compressed references): the broadphase's kept set (two keys
     * of 8 bytes per pair) and new-pair buffer (one), the candidate's and the resolved pair's two bodies, and the
     * pair's mode.
     */
    public static final long BYTES_PER_PAIR = 44;
    /**
     * Heap bytes one point of the budget costs (HotSpot, compressed references): the point pool (six vectors and
     * the scalars), what each contact model keeps per point (the LCP row and its carried impulses, the penalty stick
     * point), the matcher's record (with the position and normal a point is matched by), the per-mode index lists,
     * the onset list and the {@link Contact} view; measured 1 545 bytes by {@code ContactBudgetTest}.
     */
    public static final long BYTES_PER_POINT = 1_552;

    public ContactBudget {
        if (maxPairs < 1 || maxPoints < 1) {
            throw new IllegalArgumentException("a contact budget needs at least 1 pair and 1 point, was " + maxPairs
                + " pairs and " + maxPoints + " points");
        }
    }

    /**
     * The default budget of a scene: {@value #PAIRS_PER_MOVING_BODY} pairs and {@value #POINTS_PER_MOVING_BODY}
     * points per dynamic or kinematic body that is not a tool, and per tool one pair and
     * {@value #POINTS_PER_TOOL_PAIR} points for each other body; at least 16 of each.
     *
     * @param bodies every body, tools included
     * @param staticBodies bodies that never move
     * @param tools haptic tools
     */
    public static ContactBudget forScene(int bodies, int staticBodies, int tools) {
        if (bodies < 0 || staticBodies < 0 || tools < 0 || staticBodies + tools > bodies) {
            throw new IllegalArgumentException("inconsistent body counts: " + bodies + " bodies, " + staticBodies
                + " static, " + tools + " tools");
        }
        long moving = bodies - staticBodies - tools;
        long toolPairs = (long) tools * Math.max(0, bodies - 1);
        long pairs = PAIRS_PER_MOVING_BODY * moving + toolPairs;
        long points = POINTS_PER_MOVING_BODY * moving + POINTS_PER_TOOL_PAIR * toolPairs;
        return new ContactBudget(clamp(pairs), clamp(points));
    }

    /** The heap the budget's buffers take, bytes (an estimate from {@link #BYTES_PER_PAIR} and per point). */
    public long bytes() {
        return BYTES_PER_PAIR * maxPairs + BYTES_PER_POINT * maxPoints;
    }

    /** Whether {@code need} fits: its pairs and its points each within this budget. */
    public boolean fits(ContactNeed need) {
        return need.pairs() <= maxPairs && need.points() <= maxPoints;
    }

    private static int clamp(long value) {
        return (int) Math.min(Integer.MAX_VALUE - 8, Math.max(16, value));
    }
}
