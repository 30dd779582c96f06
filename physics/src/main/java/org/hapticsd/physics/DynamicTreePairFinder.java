package org.hapticsd.physics;

import java.util.Arrays;

import org.hapticsd.physics.broadphase.DynamicAabbTree;
import org.hapticsd.physics.geometry.Aabb;

/**
 * The world's broadphase: a {@link DynamicAabbTree} of fat boxes and the set of pairs whose fat boxes overlap, kept
 * from step to step (Box2D's and Bullet's scheme). Each body's leaf holds its bounds grown by a margin of
 * {@value #FAT_MARGIN_FRACTION} of its half size; a step moves only the leaves of bodies that left their fat box,
 * and queries the tree only for those. A settled scene therefore costs one containment test per body and one bounds
 * test per kept pair, and a moving one {@code O(log n)} per body that left its box: linear in the bodies, where
 * the sweep-and-prune it replaced, sorting on one axis, grew as the square of a pile's height (measured on the
 * 800-sphere pile: 0.85 ms per step for the sweep). When many bodies leave their boxes in the same step (a pile
 * dropped as one), the tree is rebuilt instead.
 *
 * <p>The output is exactly the contract's: the pairs whose <em>tight</em> bounds overlap, sorted by (a, b), each
 * once. The kept set holds every pair whose fat boxes overlap (a superset, since a fat box contains its body's
 * bounds) and is filtered by the tight bounds on the way out, so the result never depends on the history of the
 * tree, only on the bounds: the same pairs as an all-pairs test, in the same order.
 *
 * <p>Two kinds of body stay out of the tree: bodies with infinite bounds (planes), which pair with every body;
 * and priority bodies (the haptic tools), which move every tick and are queried with their tight bounds each step,
 * their pairs kept apart so that they are the last to be dropped. Bodies are registered when they first
 * appear; a change of a body's movable or priority flag rebuilds everything (scene set-up: allocates).
 *
 * <p>Nothing allocates once registered. The kept set holds {@value #KEPT_PER_CANDIDATE} times the destination's
 * capacity; pairs it cannot hold are looked for again on the next step, and until it has them all the output is
 * read from the tree directly, a query per body, so that it stays all-pairs' output. The output keeps every
 * priority pair ahead of the others, and {@link CandidatePairs#dropped} is exactly the overlapping pairs not
 * written.
 */
final class DynamicTreePairFinder implements CandidatePairFinder {

    /** Fat margin per side, as a fraction of the half of the body's largest bounds side. */
    static final double FAT_MARGIN_FRACTION = 0.1;
    /**
     * Room in the kept set per pair of the output: fat boxes overlap more often than bounds do (measured on the
     * settled 800-sphere pile: 1.3 kept pairs per output pair).
     */
    static final int KEPT_PER_CANDIDATE = 2;
    /**
     * When at least this many leaves, and at least {@value #BULK_MOVE_SHARE_PERCENT} % of the tree's, left their
     * fat boxes in one step, the tree is rebuilt over every leaf ({@link DynamicAabbTree#moveAll}) instead of moving
     * them one by one.
     */
    static final int BULK_MOVE_MIN = 16;
    static final int BULK_MOVE_SHARE_PERCENT = 25;

    private final DynamicAabbTree tree = new DynamicAabbTree(16);
    private int registered;
    private boolean[] movableSeen = new boolean[0];
    private boolean[] prioritySeen = new boolean[0];
    /** Per body: its leaf in the tree, or {@link DynamicAabbTree#NULL}. */
    private int[] leaf = new int[0];
    private int[] unboundedBodies = new int[0];
    private int unboundedCount;
    private int[] priorityBodies = new int[0];
    private int priorityCount;
    /** Per body: its pairs must be looked for (new, moved out of its fat box, or pairs dropped last step). */
    private boolean[] requery = new boolean[0];
    private int[] requeryList = new int[0];
    private int requeryCount;
    /** This step's leaves that left their fat boxes, and their new fat boxes (six bounds each). */
    private int[] movedLeaves = new int[0];
    private double[] movedBoxes = new double[0];
    /** Per body: the step ({@link #step}) in which its pairs were last looked for. */
    private long[] queriedAt = new long[0];
    private long step;
    /** Steps that rebuilt the tree ({@link #refitMovedLeaves}), for tests. */
    private long rebuilds;

    /** Pairs whose fat boxes overlap, {@code low << 32 | high}, sorted. */
    private long[] kept = new long[0];
    private int keptCount;
    private long[] fresh = new long[0];
    private int freshCount;
    private long[] priorityPairs = new long[0];
    private int priorityPairCount;
    private int[] hits = new int[0];
    /**
     * Whether this step's kept set could not take every pair it found: it lacks some, and the output is taken from
     * the tree instead.
     */
    private boolean keptOverflow;
    // The output cursor of write(): ordinary pairs are merged with the priority pairs as they come.
    private int outCount;
    private int outRoom;
    private int outPriority;
    private int outPriorityEnd;
    private long ordinaryFound;
    private PairFilter filter = PairFilter.ALL;

    /** Steps so far whose moved leaves were many enough to rebuild the tree instead of moving each. */
    long rebuilds() {
        return rebuilds;
    }

    @Override
    public void setPairFilter(PairFilter value) {
        filter = java.util.Objects.requireNonNull(value, "filter");
    }

    @Override
    public void findPairs(double[] boundsM, boolean[] movable, boolean[] priority, int bodyCount,
                          CandidatePairs dest) {
        if (flagsChanged(movable, priority, bodyCount)) {
            reset(bodyCount);
        }
        if (kept.length != KEPT_PER_CANDIDATE * dest.capacity()) {
            allocatePairs(dest.capacity());
        }
        while (registered < bodyCount) {
            register(boundsM, movable, priority, registered++);
        }
        keptOverflow = false;
        step++;
        refitMovedLeaves(boundsM, movable);
        if (requeryCount > 0) {
            removeStalePairs();
            queryRequeried(boundsM, movable);
            mergeFresh();
        }
        findPriorityPairs(boundsM, movable);
        write(boundsM, movable, dest);
    }

    /** Forgets every body and pair: the next {@link #findPairs} registers them again (its bodies were renumbered). */
    void forget() {
        reset(registered);
    }

    // ---- Registration (scene set-up) ---------------------------------------------------------------------

    private boolean flagsChanged(boolean[] movable, boolean[] priority, int bodyCount) {
        if (bodyCount < registered) {
            return true;
        }
        for (int body = 0; body < registered; body++) {
            if (movableSeen[body] != movable[body] || prioritySeen[body] != priority[body]) {
                return true;
            }
        }
        return false;
    }

    /** Forgets every body and pair; they are registered again. Allocates. */
    private void reset(int bodyCount) {
        for (int body = 0; body < registered; body++) {
            if (leaf[body] != DynamicAabbTree.NULL) {
                tree.remove(leaf[body]);
            }
        }
        registered = 0;
        unboundedCount = 0;
        priorityCount = 0;
        requeryCount = 0;
        keptCount = 0;
        ensureBodies(bodyCount);
    }

    private void ensureBodies(int bodyCount) {
        if (bodyCount <= leaf.length) {
            return;
        }
        int capacity = Math.max(bodyCount, 2 * leaf.length);
        movableSeen = Arrays.copyOf(movableSeen, capacity);
        prioritySeen = Arrays.copyOf(prioritySeen, capacity);
        leaf = Arrays.copyOf(leaf, capacity);
        unboundedBodies = Arrays.copyOf(unboundedBodies, capacity);
        priorityBodies = Arrays.copyOf(priorityBodies, capacity);
        requery = Arrays.copyOf(requery, capacity);
        requeryList = Arrays.copyOf(requeryList, capacity);
        movedLeaves = new int[capacity];
        movedBoxes = new double[Aabb.STRIDE * capacity];
        queriedAt = Arrays.copyOf(queriedAt, capacity);
        hits = new int[capacity];
        ensurePriorityPairs();
        tree.ensureCapacity(2 * capacity);
    }

    /** Room for each priority body against every body. */
    private void ensurePriorityPairs() {
        long needed = Math.max(1, priorityCount) * (long) leaf.length;
        if (priorityPairs.length < needed) {
            priorityPairs = new long[(int) Math.min(Integer.MAX_VALUE - 8, needed)];
        }
    }

    private void allocatePairs(int capacity) {
        long[] grown = new long[KEPT_PER_CANDIDATE * capacity];
        keptCount = Math.min(keptCount, grown.length);
        System.arraycopy(kept, 0, grown, 0, keptCount);
        kept = grown;
        fresh = new long[capacity];
        // Whatever did not fit the new capacity is looked for again.
        for (int body = 0; body < registered; body++) {
            markRequery(body);
        }
    }

    private void register(double[] boundsM, boolean[] movable, boolean[] priority, int body) {
        ensureBodies(body + 1);
        movableSeen[body] = movable[body];
        prioritySeen[body] = priority[body];
        leaf[body] = DynamicAabbTree.NULL;
        requery[body] = false;
        if (priority[body]) {
            priorityBodies[priorityCount++] = body;
            // A priority body's pairs are found afresh every step; it has nothing to look for now.
            ensurePriorityPairs();
            return;
        }
        if (finite(boundsM, body)) {
            leaf[body] = insertFat(boundsM, body, movable[body]);
        } else {
            unboundedBodies[unboundedCount++] = body;
        }
        markRequery(body);
    }

    private int insertFat(double[] boundsM, int body, boolean canMove) {
        int i = Aabb.STRIDE * body;
        double margin = canMove ? margin(boundsM, i) : 0.0;
        return tree.insert(body, boundsM[i] - margin, boundsM[i + 1] - margin, boundsM[i + 2] - margin,
            boundsM[i + 3] + margin, boundsM[i + 4] + margin, boundsM[i + 5] + margin);
    }

    private static double margin(double[] boundsM, int i) {
        double largestSide = Math.max(boundsM[i + 3] - boundsM[i],
            Math.max(boundsM[i + 4] - boundsM[i + 1], boundsM[i + 5] - boundsM[i + 2]));
        return FAT_MARGIN_FRACTION * 0.5 * largestSide;
    }

    private static boolean finite(double[] boundsM, int body) {
        int i = Aabb.STRIDE * body;
        for (int k = 0; k < Aabb.STRIDE; k++) {
            if (!Double.isFinite(boundsM[i + k])) {
                return false;
            }
        }
        return true;
    }

    // ---- Per step ----------------------------------------------------------------------------------------

    /**
     * A movable body that left its fat box gets a new one, and its pairs are looked for. Many at once (a pile
     * dropped as one: every sphere of a layer leaves its box in the same step) rebuild the tree instead: measured on
     * the 200-sphere pile as it falls, such a step spent 500–830 µs in the broadphase moving the leaves one by one.
     */
    private void refitMovedLeaves(double[] boundsM, boolean[] movable) {
        int moved = 0;
        for (int body = 0; body < registered; body++) {
            int node = leaf[body];
            if (node == DynamicAabbTree.NULL || !movable[body]) {
                continue;
            }
            int i = Aabb.STRIDE * body;
            if (tree.contains(node, boundsM[i], boundsM[i + 1], boundsM[i + 2], boundsM[i + 3], boundsM[i + 4],
                    boundsM[i + 5])) {
                continue;
            }
            // A body whose state went non-finite keeps its old box: it is broken, and the tree must stay sound.
            if (finite(boundsM, body)) {
                double margin = margin(boundsM, i);
                int m = Aabb.STRIDE * moved;
                movedBoxes[m] = boundsM[i] - margin;
                movedBoxes[m + 1] = boundsM[i + 1] - margin;
                movedBoxes[m + 2] = boundsM[i + 2] - margin;
                movedBoxes[m + 3] = boundsM[i + 3] + margin;
                movedBoxes[m + 4] = boundsM[i + 4] + margin;
                movedBoxes[m + 5] = boundsM[i + 5] + margin;
                movedLeaves[moved++] = node;
                markRequery(body);
            }
        }
        if (moved >= BULK_MOVE_MIN && 100L * moved >= (long) BULK_MOVE_SHARE_PERCENT * tree.leafCount()) {
            tree.moveAll(movedLeaves, movedBoxes, moved);
            rebuilds++;
            return;
        }
        for (int k = 0; k < moved; k++) {
            int m = Aabb.STRIDE * k;
            tree.move(movedLeaves[k], movedBoxes[m], movedBoxes[m + 1], movedBoxes[m + 2], movedBoxes[m + 3],
                movedBoxes[m + 4], movedBoxes[m + 5]);
        }
    }

    private void markRequery(int body) {
        if (!requery[body]) {
            requery[body] = true;
            requeryList[requeryCount++] = body;
        }
    }

    /** Drops the kept pairs of requeried bodies whose fat boxes no longer overlap. */
    private void removeStalePairs() {
        int write = 0;
        for (int k = 0; k < keptCount; k++) {
            long key = kept[k];
            int a = (int) (key >>> 32);
            int b = (int) key;
            if ((requery[a] || requery[b]) && !fatOverlap(a, b)) {
                continue;
            }
            kept[write++] = key;
        }
        keptCount = write;
    }

    private boolean fatOverlap(int a, int b) {
        int leafA = leaf[a];
        int leafB = leaf[b];
        return leafA == DynamicAabbTree.NULL || leafB == DynamicAabbTree.NULL || tree.overlap(leafA, leafB);
    }

    /**
     * Each requeried body's pairs: the tree leaves its fat box (infinite for a plane) overlaps, and every
     * unbounded body. A body whose pairs did not all fit stays requeried for the next step.
     */
    private void queryRequeried(double[] boundsM, boolean[] movable) {
        freshCount = 0;
        int stillRequeried = 0;
        for (int r = 0; r < requeryCount; r++) {
            int body = requeryList[r];
            boolean complete = queryOne(boundsM, movable, body);
            queriedAt[body] = step;
            if (complete) {
                requery[body] = false;
            } else {
                requeryList[stillRequeried++] = body;
            }
        }
        requeryCount = stillRequeried;
    }

    private boolean queryOne(double[] boundsM, boolean[] movable, int body) {
        int node = leaf[body];
        int found;
        if (node != DynamicAabbTree.NULL) {
            found = tree.query(tree.bound(node, 0), tree.bound(node, 1), tree.bound(node, 2), tree.bound(node, 3),
                tree.bound(node, 4), tree.bound(node, 5), hits);
        } else {
            int i = Aabb.STRIDE * body;
            found = tree.query(boundsM[i], boundsM[i + 1], boundsM[i + 2], boundsM[i + 3], boundsM[i + 4],
                boundsM[i + 5], hits);
        }
        boolean complete = true;
        for (int h = 0; h < Math.min(found, hits.length); h++) {
            int other = hits[h];
            // A body queried earlier in this step found this pair from its side (or, out of room, left the kept
            // set incomplete, and the output is then read from the tree): once is enough.
            if (queriedAt[other] != step) {
                complete &= addFresh(movable, body, other);
            }
        }
        for (int u = 0; u < unboundedCount; u++) {
            complete &= addFresh(movable, body, unboundedBodies[u]);
        }
        return complete;
    }

    /** Adds the pair unless it is the body itself or both cannot move; false when there was no room. */
    private boolean addFresh(boolean[] movable, int body, int other) {
        if (other == body || (!movable[body] && !movable[other])) {
            return true;
        }
        if (freshCount == fresh.length) {
            keptOverflow = true;
            return false;
        }
        fresh[freshCount++] = key(body, other);
        return true;
    }

    /** Sorts this step's new pairs, drops those already kept (and repeats), and merges the rest into the kept. */
    private void mergeFresh() {
        if (freshCount == 0) {
            return;
        }
        heapSort(fresh, freshCount);
        int unique = 0;
        int k = 0;
        for (int f = 0; f < freshCount; f++) {
            long key = fresh[f];
            if (unique > 0 && fresh[unique - 1] == key) {
                continue;
            }
            while (k < keptCount && kept[k] < key) {
                k++;
            }
            if (k < keptCount && kept[k] == key) {
                continue;
            }
            fresh[unique++] = key;
        }
        int room = kept.length - keptCount;
        if (unique > room) {
            // The kept set is full: the pairs that do not fit are dropped, and their bodies look again next step.
            for (int f = room; f < unique; f++) {
                markRequery((int) (fresh[f] >>> 32));
                markRequery((int) fresh[f]);
            }
            keptOverflow = true;
            unique = room;
        }
        int i = keptCount - 1;
        int j = unique - 1;
        for (int w = keptCount + unique - 1; j >= 0; w--) {
            kept[w] = i >= 0 && kept[i] > fresh[j] ? kept[i--] : fresh[j--];
        }
        keptCount += unique;
    }

    /** Every pair of a priority body whose tight bounds overlap another's, sorted. */
    private void findPriorityPairs(double[] boundsM, boolean[] movable) {
        priorityPairCount = 0;
        for (int p = 0; p < priorityCount; p++) {
            int body = priorityBodies[p];
            int i = Aabb.STRIDE * body;
            int found = tree.query(boundsM[i], boundsM[i + 1], boundsM[i + 2], boundsM[i + 3], boundsM[i + 4],
                boundsM[i + 5], hits);
            for (int h = 0; h < Math.min(found, hits.length); h++) {
                addPriorityPair(boundsM, movable, body, hits[h]);
            }
            for (int u = 0; u < unboundedCount; u++) {
                addPriorityPair(boundsM, movable, body, unboundedBodies[u]);
            }
            for (int q = p + 1; q < priorityCount; q++) {
                addPriorityPair(boundsM, movable, body, priorityBodies[q]);
            }
        }
        heapSort(priorityPairs, priorityPairCount);
    }

    private void addPriorityPair(double[] boundsM, boolean[] movable, int body, int other) {
        if ((!movable[body] && !movable[other]) || !Aabb.overlap(boundsM, body, other)
                || !filter.wanted(Math.min(body, other), Math.max(body, other))) {
            return;
        }
        // Sized for each priority body against every body: always room.
        priorityPairs[priorityPairCount++] = key(body, other);
    }

    /**
     * The ordinary pairs whose tight bounds overlap, in key order, merged with the priority pairs. When they do not
     * all fit, the priority pairs are written first and the others up to what is left, the first in key order. The
     * pairs found and not written are counted as dropped.
     *
     * <p>The ordinary pairs come from the kept set when it is complete; when it is not (it overflowed, or this step
     * found more new pairs than fit), from the tree itself, so that the output never depends on which pairs the
     * kept set happened to hold: writing the kept set then lost pairs that fit the output (found by
     * {@code DynamicTreePairFinderTest}: one overlapping pair among 59 fat ones, capacity 4, was not written).
     */
    private void write(double[] boundsM, boolean[] movable, CandidatePairs dest) {
        int capacity = dest.capacity();
        outPriorityEnd = Math.min(priorityPairCount, capacity);
        outPriority = 0;
        outRoom = capacity - outPriorityEnd;
        outCount = 0;
        ordinaryFound = 0;
        if (keptOverflow) {
            writeEveryOrdinaryPair(boundsM, movable, dest);
        } else {
            for (int k = 0; k < keptCount; k++) {
                long key = kept[k];
                if (Aabb.overlap(boundsM, (int) (key >>> 32), (int) key)) {
                    writeOrdinary(dest, key);
                }
            }
        }
        while (outPriority < outPriorityEnd) {
            put(dest, priorityPairs[outPriority++]);
        }
        dest.count = outCount;
        dest.dropped = (int) Math.min(Integer.MAX_VALUE, ordinaryFound + priorityPairCount - outCount);
    }

    /** Counts an ordinary pair and writes it if there is room, after the priority pairs that sort before it. */
    private void writeOrdinary(CandidatePairs dest, long key) {
        if (!filter.wanted((int) (key >>> 32), (int) key)) {
            return;
        }
        ordinaryFound++;
        if (outRoom == 0) {
            return;
        }
        while (outPriority < outPriorityEnd && priorityPairs[outPriority] < key) {
            put(dest, priorityPairs[outPriority++]);
        }
        put(dest, key);
        outRoom--;
    }

    /**
     * Every pair of non-priority bodies whose bounds overlap, in key order, straight from the tree: for each body
     * {@code a} in index order, the tree bodies {@code b > a} its tight bounds meet (a fat box contains its body's
     * bounds, so the query misses none) and the unbounded bodies after it, sorted; for an unbounded {@code a},
     * every body after it. Only while the kept set is incomplete: O(n log n + k log k), no allocation.
     */
    private void writeEveryOrdinaryPair(double[] boundsM, boolean[] movable, CandidatePairs dest) {
        for (int a = 0; a < registered; a++) {
            if (prioritySeen[a]) {
                continue;
            }
            int partners = 0;
            if (leaf[a] == DynamicAabbTree.NULL) {
                for (int b = a + 1; b < registered; b++) {
                    if (!prioritySeen[b] && ordinaryPair(boundsM, movable, a, b)) {
                        hits[partners++] = b;
                    }
                }
            } else {
                int i = Aabb.STRIDE * a;
                // Every hit is a distinct body, so they fit the array sized for the bodies.
                int found = tree.query(boundsM[i], boundsM[i + 1], boundsM[i + 2], boundsM[i + 3], boundsM[i + 4],
                    boundsM[i + 5], hits);
                for (int h = 0; h < found; h++) {
                    int b = hits[h];
                    if (b > a && ordinaryPair(boundsM, movable, a, b)) {
                        hits[partners++] = b;
                    }
                }
                for (int u = 0; u < unboundedCount; u++) {
                    int b = unboundedBodies[u];
                    if (b > a && ordinaryPair(boundsM, movable, a, b)) {
                        hits[partners++] = b;
                    }
                }
                if (outRoom > 0) {
                    heapSort(hits, partners);
                }
            }
            for (int p = 0; p < partners; p++) {
                writeOrdinary(dest, (long) a << 32 | hits[p]);
            }
        }
    }

    private static boolean ordinaryPair(double[] boundsM, boolean[] movable, int a, int b) {
        return (movable[a] || movable[b]) && Aabb.overlap(boundsM, a, b);
    }

    private void put(CandidatePairs dest, long key) {
        dest.first[outCount] = (int) (key >>> 32);
        dest.second[outCount] = (int) key;
        outCount++;
    }

    private static long key(int a, int b) {
        return a < b ? (long) a << 32 | b : (long) b << 32 | a;
    }

    /**
     * In place, O(n log n) in the worst case, allocation-free. {@code Arrays.sort} on primitives was rejected
     * because its run-merging path may allocate a work array for large, partly ordered inputs (a step's new pairs
     * come grouped by body).
     */
    private static void heapSort(long[] a, int n) {
        for (int root = n / 2 - 1; root >= 0; root--) {
            sift(a, root, n);
        }
        for (int end = n - 1; end > 0; end--) {
            long t = a[0];
            a[0] = a[end];
            a[end] = t;
            sift(a, 0, end);
        }
    }

    private static void sift(long[] a, int root, int n) {
        while (2 * root + 1 < n) {
            int child = 2 * root + 1;
            if (child + 1 < n && a[child] < a[child + 1]) {
                child++;
            }
            if (a[root] >= a[child]) {
                return;
            }
            long t = a[root];
            a[root] = a[child];
            a[child] = t;
            root = child;
        }
    }

    /** {@link #heapSort(long[], int)} for one body's partners. */
    private static void heapSort(int[] a, int n) {
        for (int root = n / 2 - 1; root >= 0; root--) {
            sift(a, root, n);
        }
        for (int end = n - 1; end > 0; end--) {
            int t = a[0];
            a[0] = a[end];
            a[end] = t;
            sift(a, 0, end);
        }
    }

    private static void sift(int[] a, int root, int n) {
        while (2 * root + 1 < n) {
            int child = 2 * root + 1;
            if (child + 1 < n && a[child] < a[child + 1]) {
                child++;
            }
            if (a[root] >= a[child]) {
                return;
            }
            int t = a[root];
            a[root] = a[child];
            a[child] = t;
            root = child;
        }
    }
}
