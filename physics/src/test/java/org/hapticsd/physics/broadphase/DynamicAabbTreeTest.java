package org.hapticsd.physics.broadphase;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.Random;
import org.hapticsd.testsupport.JitPrimer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The tree against a model that keeps every live box in a plain array: each query must report exactly the items a
 * brute-force scan of the live boxes finds, and {@link DynamicAabbTree#validate()} must hold after every batch of
 * random insertions, moves and removals. Boxes are compared exactly: the tree copies the coordinates it is given and
 * forms unions with {@code min}/{@code max}, which round nothing.
 */
class DynamicAabbTreeTest {

    /** The golden ratio: an AVL tree of height h has at least F(h + 2) ≥ φ^h leaves. */
    private static final double PHI = (1.0 + Math.sqrt(5.0)) / 2.0;

    /** The compiler's one-off allocations on the measuring thread, done before anything is measured. */
    @BeforeAll
    static void primeJit() {
        JitPrimer.primeClassPath();
    }

    @Test
    void shouldMatchBruteForceThroughRandomInsertsMovesAndRemovals() {
        Random random = new Random(0x7EE5);
        // A pool of 4 nodes: the growth path runs many times on the way to several hundred leaves.
        DynamicAabbTree tree = new DynamicAabbTree(4);
        Model model = new Model(4096);
        for (int i = 0; i < 300; i++) {
            model.insert(tree, randomBox(random, 100.0, 0.1, 5.0));
        }
        int[] hits = new int[4096];
        int queriesWithHits = 0;
        for (int batch = 0; batch < 100; batch++) {
            for (int op = 0; op < 60; op++) {
                double roll = random.nextDouble();
                if (model.size < 100 || (roll < 0.25 && model.size < 600)) {
                    model.insert(tree, randomBox(random, 100.0, 0.1, 5.0));
                } else if (roll < 0.5) {
                    model.remove(tree, model.randomLeaf(random));
                } else if (roll < 0.9) {
                    int leaf = model.randomLeaf(random);
                    model.move(tree, leaf, nudged(random, model.box(leaf), 0.5));
                } else {
                    model.move(tree, model.randomLeaf(random), randomBox(random, 100.0, 0.1, 5.0));
                }
            }
            model.check(tree, "batch " + batch);
            for (int q = 0; q < 20; q++) {
                double[] query = randomBox(random, 100.0, 5.0, 30.0);
                int found = tree.query(query[0], query[1], query[2], query[3], query[4], query[5], hits);
                assertArrayEquals(model.bruteForce(query), sorted(hits, found), "batch " + batch + " query " + q);
                queriesWithHits += found > 0 ? 1 : 0;
            }
        }
        assertTrue(queriesWithHits > 1000, "most queries must hit something to compare: " + queriesWithHits);
    }

    /**
     * {@link DynamicAabbTree#moveAll} rebuilds the hierarchy over every leaf: between batches of ordinary insertions,
     * moves and removals, a random share of the leaves (one, some, all) gets new boxes at once, and the tree must
     * then answer every query as the brute force does, keep its invariants and the AVL height bound, keep every leaf's
     * number, and go on taking ordinary operations.
     */
    @Test
    void shouldMatchBruteForceWhenManyLeavesMoveAtOnce() {
        Random random = new Random(0xB01D);
        DynamicAabbTree tree = new DynamicAabbTree(8);
        Model model = new Model(2048);
        for (int i = 0; i < 400; i++) {
            model.insert(tree, randomBox(random, 100.0, 0.1, 5.0));
        }
        int[] hits = new int[2048];
        int[] chosen = new int[2048];
        double[] boxes = new double[6 * 2048];
        for (int batch = 0; batch < 60; batch++) {
            int count = batch % 5 == 0 ? model.size : 1 + random.nextInt(model.size);
            shuffleLeaves(model, random);
            for (int k = 0; k < count; k++) {
                int leaf = model.leaves[k];
                double[] to = batch % 3 == 0 ? randomBox(random, 100.0, 0.1, 5.0) : nudged(random, model.box(leaf), 2.0);
                chosen[k] = leaf;
                System.arraycopy(to, 0, boxes, 6 * k, 6);
                model.boxOf[leaf] = to;
            }
            tree.moveAll(chosen, boxes, count);
            model.check(tree, "batch " + batch + ", " + count + " leaves moved at once");
            for (int q = 0; q < 20; q++) {
                double[] query = randomBox(random, 100.0, 5.0, 30.0);
                int found = tree.query(query[0], query[1], query[2], query[3], query[4], query[5], hits);
                assertArrayEquals(model.bruteForce(query), sorted(hits, found), "batch " + batch + " query " + q);
            }
            for (int op = 0; op < 40; op++) {
                double roll = random.nextDouble();
                if (roll < 0.3) {
                    model.insert(tree, randomBox(random, 100.0, 0.1, 5.0));
                } else if (roll < 0.6 && model.size > 50) {
                    model.remove(tree, model.randomLeaf(random));
                } else {
                    int leaf = model.randomLeaf(random);
                    model.move(tree, leaf, nudged(random, model.box(leaf), 0.5));
                }
            }
            model.check(tree, "batch " + batch + ", ordinary operations after the rebuild");
        }
    }

    /** Leaves whose centres coincide (a stack of identical boxes) and a single leaf still build a balanced tree. */
    @Test
    void shouldRebuildIdenticalBoxesAndASingleLeaf() {
        DynamicAabbTree tree = new DynamicAabbTree(4);
        Model model = new Model(256);
        for (int i = 0; i < 100; i++) {
            model.insert(tree, new double[] {0, 0, 0, 1, 1, 1});
        }
        int[] leaves = Arrays.copyOf(model.leaves, model.size);
        double[] boxes = new double[6 * leaves.length];
        for (int k = 0; k < leaves.length; k++) {
            double[] to = {2, 2, 2, 3, 3, 3};
            System.arraycopy(to, 0, boxes, 6 * k, 6);
            model.boxOf[leaves[k]] = to;
        }
        tree.moveAll(leaves, boxes, leaves.length);
        model.check(tree, "100 identical boxes");
        int[] hits = new int[256];
        assertEquals(100, tree.query(2.5, 2.5, 2.5, 2.5, 2.5, 2.5, hits));
        assertEquals(0, tree.query(0, 0, 0, 1, 1, 1, hits));

        DynamicAabbTree single = new DynamicAabbTree(4);
        int leaf = single.insert(7, 0, 0, 0, 1, 1, 1);
        single.moveAll(new int[] {leaf}, new double[] {5, 5, 5, 6, 6, 6}, 1);
        single.validate();
        assertEquals(1, single.query(5.5, 5.5, 5.5, 5.5, 5.5, 5.5, hits));
        assertEquals(7, hits[0]);
    }

    /** A rebuild takes its internal nodes from the ones it frees: it never grows the pool nor allocates. */
    @Test
    void shouldRebuildWithoutAllocating() {
        int n = 256;
        DynamicAabbTree tree = new DynamicAabbTree(2 * n - 1);
        Random random = new Random(3);
        int[] leaves = new int[n];
        double[] boxes = new double[6 * n];
        for (int i = 0; i < n; i++) {
            double[] box = randomBox(random, 30.0, 0.5, 3.0);
            leaves[i] = tree.insert(i, box[0], box[1], box[2], box[3], box[4], box[5]);
            System.arraycopy(box, 0, boxes, 6 * i, 6);
        }
        com.sun.management.ThreadMXBean threads = threads();
        long windowBytes = -1;
        for (int window = 0; window < 20 && windowBytes != 0; window++) {
            long before = threads.getCurrentThreadAllocatedBytes();
            Rebuilds.run(tree, leaves, boxes, random, 200);
            windowBytes = threads.getCurrentThreadAllocatedBytes() - before;
        }
        long before = threads.getCurrentThreadAllocatedBytes();
        Rebuilds.run(tree, leaves, boxes, random, 1_000);
        assertEquals(0L, threads.getCurrentThreadAllocatedBytes() - before, "bytes allocated by 1 000 rebuilds");
        tree.validate();
        assertEquals(n, tree.leafCount());
    }

    /**
     * The measured rebuilds, in a class without string literals: HotSpot resolves a class's string constants on the
     * thread whose call counts trigger the first C2 compilation of one of its methods, and charges that thread for
     * them (see {@code DynamicAabbTree.Checks}); in this test class the measured window caught 1,896 bytes of it.
     */
    private static final class Rebuilds {
        private Rebuilds() {
        }

        static void run(DynamicAabbTree tree, int[] leaves, double[] boxes, Random random, int rounds) {
            for (int round = 0; round < rounds; round++) {
                for (int b = 0; b < boxes.length; b += 6) {
                    double step = random.nextDouble() - 0.5;
                    for (int k = 0; k < 6; k++) {
                        boxes[b + k] += step;
                    }
                }
                tree.moveAll(leaves, boxes, leaves.length);
            }
        }
    }

    private static void shuffleLeaves(Model model, Random random) {
        for (int i = model.size - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int t = model.leaves[i];
            model.leaves[i] = model.leaves[j];
            model.leaves[j] = t;
        }
    }

    @Test
    void shouldKeepTheLeafNumberAndFollowTheBoxWhenMoved() {
        Random random = new Random(11);
        DynamicAabbTree tree = new DynamicAabbTree(16);
        Model model = new Model(512);
        for (int i = 0; i < 200; i++) {
            model.insert(tree, randomBox(random, 50.0, 0.1, 2.0));
        }
        int leaf = model.leaves[17];
        int item = model.itemOf[leaf];
        int[] hits = new int[512];
        for (int step = 0; step < 300; step++) {
            double[] from = model.box(leaf).clone();
            double[] to = step % 3 == 0 ? randomBox(random, 50.0, 0.1, 2.0) : nudged(random, from, 0.3);
            model.move(tree, leaf, to);
            for (int k = 0; k < 6; k++) {
                assertEquals(to[k], tree.bound(leaf, k), "the leaf keeps its number and holds the new box");
            }
            int found = tree.query(to[0], to[1], to[2], to[3], to[4], to[5], hits);
            assertTrue(Arrays.stream(hits, 0, found).anyMatch(h -> h == item), "found at its new box");
            if (!overlap(from, to)) {
                found = tree.query(from[0], from[1], from[2], from[3], from[4], from[5], hits);
                assertFalse(Arrays.stream(hits, 0, found).anyMatch(h -> h == item), "gone from its old box");
            }
            assertEquals(200, tree.leafCount());
        }
        model.check(tree, "after the moves");
    }

    /**
     * A tree of n leaves uses 2n − 1 nodes; sized for that, it must never grow however long leaves come and go:
     * every node number handed out stays below 2n − 1, and the churn allocates 0 bytes (HotSpot counts a thread's
     * allocation exactly). Warm-up windows until one allocates nothing, at most 20, absorb the JIT's own
     * allocations charged to this thread.
     */
    @Test
    void shouldReuseFreedNodesWithoutGrowing() {
        int n = 256;
        DynamicAabbTree tree = new DynamicAabbTree(2 * n - 1);
        Churn churn = new Churn(tree, n, new Random(5));
        com.sun.management.ThreadMXBean threads = threads();
        int windows = 0;
        long windowBytes = -1;
        while (windows < 20 && windowBytes != 0) {
            long before = threads.getCurrentThreadAllocatedBytes();
            churn.run(5_000);
            windowBytes = threads.getCurrentThreadAllocatedBytes() - before;
            windows++;
        }
        assertEquals(0L, windowBytes, "still allocating after " + windows + " warm-up windows");
        long before = threads.getCurrentThreadAllocatedBytes();
        churn.run(50_000);
        assertEquals(0L, threads.getCurrentThreadAllocatedBytes() - before, "bytes allocated by 50 000 operations");
        assertTrue(churn.largestNode < 2 * n - 1, "node " + churn.largestNode + " handed out from a pool of "
            + (2 * n - 1));
        assertTrue(churn.hits > 50_000, "the queries must find leaves for the zero to cover them: " + churn.hits);
        assertEquals(n, tree.leafCount());
        tree.validate();
    }

    @Test
    void shouldHandTheFreedLeafNumberToTheNextInsertion() {
        DynamicAabbTree tree = new DynamicAabbTree(64);
        int[] leaves = new int[20];
        for (int i = 0; i < leaves.length; i++) {
            leaves[i] = tree.insert(i, i, 0, 0, i + 1, 1, 1);
        }
        tree.remove(leaves[7]);
        tree.validate();
        int reused = tree.insert(99, 3, 3, 3, 4, 4, 4);
        assertEquals(leaves[7], reused, "the free list hands back the last node freed: the removed leaf");
        tree.validate();
    }

    /**
     * Every operation keeps every node balanced within one level (validate checks it), so the height is an AVL
     * tree's: one of height h has at least F(h + 2) ≥ φ^h leaves (Fibonacci), i.e. h ≤ log_φ n ≈ 1.44·log₂ n. The
     * bound is checked on its own, at every size from 1 to 1 000 leaves, sorted input included (a tree without
     * rotations would turn into a list).
     */
    @Test
    void shouldStayWithinTheAvlHeightBound() {
        DynamicAabbTree sortedTree = new DynamicAabbTree(1);
        DynamicAabbTree randomTree = new DynamicAabbTree(1);
        Random random = new Random(3);
        for (int i = 0; i < 1000; i++) {
            sortedTree.insert(i, i, 0, 0, i + 0.5, 1, 1);
            double[] box = randomBox(random, 100.0, 0.1, 5.0);
            randomTree.insert(i, box[0], box[1], box[2], box[3], box[4], box[5]);
            int n = i + 1;
            assertTrue(sortedTree.height() <= avlHeightBound(n), n + " sorted leaves, height " + sortedTree.height());
            assertTrue(randomTree.height() <= avlHeightBound(n), n + " random leaves, height " + randomTree.height());
        }
        sortedTree.validate();
        randomTree.validate();
        assertEquals(14, avlHeightBound(1000), "log_φ 1000 = 14.35");
    }

    /**
     * The cost rule makes a box off to the side of a row of boxes the sibling of the whole row, a subtree four
     * levels high, which leaves the new parent four levels out of balance: more than one rotation can mend.
     */
    @Test
    void shouldStayBalancedWhenANewBoxPairsWithAWholeSubtree() {
        DynamicAabbTree tree = new DynamicAabbTree(64);
        for (int i = 0; i < 20; i++) {
            tree.insert(i, i, 0, 0, i + 1, 1, 1);
        }
        tree.validate();
        tree.insert(20, 3, 3, 3, 4, 4, 4);
        tree.validate();
        assertTrue(tree.height() <= avlHeightBound(21), "height " + tree.height());
        int[] hits = new int[32];
        assertEquals(21, tree.query(0, 0, 0, 20, 4, 4, hits));
    }

    @Test
    void shouldHandleIdenticalBoxes() {
        DynamicAabbTree tree = new DynamicAabbTree(8);
        Model model = new Model(1024);
        double[] box = {1, 2, 3, 4, 5, 6};
        for (int i = 0; i < 500; i++) {
            model.insert(tree, box);
            if (i % 50 == 0) {
                model.check(tree, "inserting " + i);
            }
        }
        model.check(tree, "500 identical boxes");
        int[] hits = new int[1024];
        assertEquals(500, tree.query(4, 5, 6, 7, 8, 9, hits), "touching at one corner counts");
        assertEquals(0, tree.query(Math.nextUp(4.0), 5, 6, 7, 8, 9, hits), "one ulp apart does not");
        Random random = new Random(8);
        for (int i = 0; i < 250; i++) {
            model.remove(tree, model.randomLeaf(random));
        }
        model.check(tree, "250 removed");
        double[] elsewhere = {-6, -5, -4, -3, -2, -1};
        for (int i = 0; i < 250; i++) {
            model.move(tree, model.leaves[i], elsewhere);
        }
        model.check(tree, "all moved to another identical box");
        assertArrayEquals(model.bruteForce(elsewhere), sorted(hits, tree.query(-6, -5, -4, -3, -2, -1, hits)));
    }

    /**
     * Boxes of zero size: every surface area is 0, so every insertion cost ties. Points on a grid (a flat and a
     * collinear run among them, where even unions have no area) and repeated points.
     */
    @Test
    void shouldHandlePoints() {
        DynamicAabbTree tree = new DynamicAabbTree(8);
        Model model = new Model(2048);
        for (int x = 0; x < 10; x++) {
            for (int y = 0; y < 10; y++) {
                for (int z = 0; z < 10; z++) {
                    model.insert(tree, new double[] {x, y, z, x, y, z});
                }
            }
        }
        for (int i = 0; i < 100; i++) {
            model.insert(tree, new double[] {i, 0, 0, i, 0, 0});
            model.insert(tree, new double[] {5, 5, 5, 5, 5, 5});
        }
        model.check(tree, "points");
        int[] hits = new int[2048];
        double[][] queries = {{5, 5, 5, 5, 5, 5}, {0, 0, 0, 100, 0, 0}, {2, 2, 2, 3, 3, 3}, {-1, -1, -1, 0, 0, 0},
            {0.5, 0.5, 0.5, 0.6, 0.6, 0.6}};
        for (double[] q : queries) {
            int found = tree.query(q[0], q[1], q[2], q[3], q[4], q[5], hits);
            assertArrayEquals(model.bruteForce(q), sorted(hits, found), Arrays.toString(q));
        }
        assertEquals(101, tree.query(5, 5, 5, 5, 5, 5, hits), "the grid point and the 100 repeats at (5, 5, 5)");
        Random random = new Random(13);
        for (int i = 0; i < 600; i++) {
            model.remove(tree, model.randomLeaf(random));
        }
        model.check(tree, "600 points removed");
    }

    /**
     * Boxes many orders of magnitude larger than the rest, up to ones whose surface area overflows to infinity
     * (sides of 2e200 m): the insertion costs become infinite or NaN, and the tree must still be sound, balanced and
     * exact. A box that contains everything is cheapest as a sibling of the whole tree, which is the deepest test
     * of the rebalancing.
     */
    @Test
    void shouldHandleHugeBoxes() {
        Random random = new Random(21);
        DynamicAabbTree tree = new DynamicAabbTree(8);
        Model model = new Model(2048);
        double[] halfSidesM = {1e3, 1e150, 1e200, Double.MAX_VALUE / 4};
        for (int i = 0; i < 600; i++) {
            if (i % 25 == 24) {
                double half = halfSidesM[(i / 25) % halfSidesM.length];
                model.insert(tree, new double[] {-half, -half, -half, half, half, half});
            } else {
                model.insert(tree, randomBox(random, 100.0, 0.1, 5.0));
            }
            model.check(tree, "insertion " + i);
        }
        int[] hits = new int[2048];
        for (int q = 0; q < 50; q++) {
            double[] query = q % 10 == 0 ? new double[] {-1e300, -1e300, -1e300, 1e300, 1e300, 1e300}
                : randomBox(random, 100.0, 0.5, 20.0);
            int found = tree.query(query[0], query[1], query[2], query[3], query[4], query[5], hits);
            assertArrayEquals(model.bruteForce(query), sorted(hits, found), "query " + q);
        }
        for (int i = 0; i < 2000; i++) {
            int leaf = model.randomLeaf(random);
            if (i % 2 == 0) {
                model.remove(tree, leaf);
                model.insert(tree, i % 50 == 0 ? new double[] {-1e200, -1, -1, 1e200, 1, 1}
                    : randomBox(random, 100.0, 0.1, 5.0));
            } else {
                model.move(tree, leaf, nudged(random, model.box(leaf), 0.5));
            }
            if (i % 100 == 0) {
                model.check(tree, "churn " + i);
            }
        }
        model.check(tree, "after the churn");
    }

    /**
     * A box the tree refuses (NaN, infinite or inverted) must leave it exactly as it was: no leaf half removed by a
     * move, no node taken from the pool by an insertion.
     */
    @Test
    void shouldRejectBadBoxesAndStayIntact() {
        Random random = new Random(31);
        DynamicAabbTree tree = new DynamicAabbTree(1);
        Model model = new Model(256);
        double[][] bad = {{Double.NaN, 0, 0, 1, 1, 1}, {0, 0, 0, 1, Double.POSITIVE_INFINITY, 1},
            {Double.NEGATIVE_INFINITY, 0, 0, 1, 1, 1}, {0, 0, 2, 1, 1, 1}};
        for (double[] b : bad) {
            assertThrows(IllegalArgumentException.class, () -> tree.insert(0, b[0], b[1], b[2], b[3], b[4], b[5]));
        }
        tree.validate();
        assertEquals(0, model.insert(tree, new double[] {0, 0, 0, 1, 1, 1}),
            "the rejected insertions took no node: the first leaf is node 0");
        for (int i = 0; i < 100; i++) {
            model.insert(tree, randomBox(random, 20.0, 0.1, 3.0));
        }
        int leaf = model.leaves[42];
        for (double[] b : bad) {
            assertThrows(IllegalArgumentException.class, () -> tree.move(leaf, b[0], b[1], b[2], b[3], b[4], b[5]));
            model.check(tree, "after a rejected move to " + Arrays.toString(b));
        }
        assertThrows(IllegalArgumentException.class, () -> tree.move(-1, 0, 0, 0, 1, 1, 1));
        model.remove(tree, leaf);
        assertThrows(IllegalArgumentException.class, () -> tree.remove(leaf), "a freed node is no leaf");
        model.check(tree, "after the rejected removals");
    }

    @Test
    void shouldRefuseToRemoveAnInternalNode() {
        // Two leaves and their parent fill a pool of exactly three nodes, 0, 1 and 2.
        DynamicAabbTree tree = new DynamicAabbTree(3);
        int a = tree.insert(1, 0, 0, 0, 1, 1, 1);
        int b = tree.insert(2, 2, 0, 0, 3, 1, 1);
        int parent = 3 - a - b;
        assertThrows(IllegalArgumentException.class, () -> tree.remove(parent));
        assertThrows(IllegalArgumentException.class, () -> tree.move(parent, 0, 0, 0, 1, 1, 1));
        tree.validate();
        assertEquals(2, tree.leafCount());
        assertEquals(1, tree.height());
    }

    @Test
    void shouldCountHitsBeyondTheArrayAndWriteOnlyWhatFits() {
        DynamicAabbTree tree = new DynamicAabbTree(16);
        for (int i = 0; i < 30; i++) {
            tree.insert(100 + i, i, 0, 0, i + 1, 1, 1);
        }
        int[] hits = new int[5];
        Arrays.fill(hits, -7);
        assertEquals(30, tree.query(0, 0, 0, 30, 1, 1, hits));
        for (int h : hits) {
            assertTrue(h >= 100 && h < 130, "written hit " + h + " is an item");
        }
        assertEquals(5, Arrays.stream(hits).distinct().count());
        assertEquals(2, tree.query(9.5, 0.5, 0.5, 10, 0.5, 0.5, new int[0]), "boxes 9 and 10 meet at x = 10");
    }

    @Test
    void shouldTellOverlapAndContainmentIncludingTouching() {
        DynamicAabbTree tree = new DynamicAabbTree(4);
        assertEquals(-1, tree.height());
        assertEquals(0, tree.query(-1e9, -1e9, -1e9, 1e9, 1e9, 1e9, new int[4]));
        tree.validate();
        int a = tree.insert(1, 0, 0, 0, 1, 1, 1);
        assertEquals(0, tree.height(), "a single leaf is the root");
        int b = tree.insert(2, 1, 0, 0, 2, 1, 1);
        int c = tree.insert(3, 0, 0, Math.nextUp(1.0), 1, 1, 2);
        assertTrue(tree.overlap(a, b), "faces touching at x = 1");
        assertFalse(tree.overlap(a, c), "1 ulp apart on z");
        assertTrue(tree.contains(a, 0, 0, 0, 1, 1, 1), "a box contains itself");
        assertTrue(tree.contains(a, 0.25, 0.25, 0.25, 0.5, 0.5, 0.5));
        assertFalse(tree.contains(a, 0, 0, 0, 1, Math.nextUp(1.0), 1), "1 ulp out on y");
        tree.remove(a);
        tree.remove(b);
        tree.remove(c);
        assertEquals(-1, tree.height());
        assertEquals(0, tree.leafCount());
        tree.validate();
    }

    // -------------------------------------------------------------------------------------------------------------

    /** Remove-insert-move-query churn at a fixed leaf count, in a class without string literals. */
    private static final class Churn {
        private final DynamicAabbTree tree;
        private final int[] leaves;
        private final double[] boxes;
        private final int[] out = new int[64];
        private final Random random;
        int largestNode;
        long hits;

        Churn(DynamicAabbTree tree, int n, Random random) {
            this.tree = tree;
            this.random = random;
            leaves = new int[n];
            boxes = new double[6 * 1024];
            for (int i = 0; i < 1024; i++) {
                double[] box = randomBox(random, 30.0, 0.5, 3.0);
                System.arraycopy(box, 0, boxes, 6 * i, 6);
            }
            for (int i = 0; i < n; i++) {
                int b = 6 * i;
                leaves[i] = tree.insert(i, boxes[b], boxes[b + 1], boxes[b + 2], boxes[b + 3], boxes[b + 4],
                    boxes[b + 5]);
                largestNode = Math.max(largestNode, leaves[i]);
            }
        }

        void run(int operations) {
            for (int op = 0; op < operations; op++) {
                int i = random.nextInt(leaves.length);
                int b = 6 * random.nextInt(1024);
                if ((op & 1) == 0) {
                    tree.remove(leaves[i]);
                    leaves[i] = tree.insert(i, boxes[b], boxes[b + 1], boxes[b + 2], boxes[b + 3], boxes[b + 4],
                        boxes[b + 5]);
                    largestNode = Math.max(largestNode, leaves[i]);
                } else {
                    tree.move(leaves[i], boxes[b], boxes[b + 1], boxes[b + 2], boxes[b + 3], boxes[b + 4],
                        boxes[b + 5]);
                }
                hits += tree.query(boxes[b], boxes[b + 1], boxes[b + 2], boxes[b + 3], boxes[b + 4], boxes[b + 5],
                    out);
            }
        }
    }

    /** The live leaves, their items and boxes, kept apart from the tree. */
    private static final class Model {
        final int[] leaves;
        int size;
        /** Per node number: the item of the live leaf there, or −1. */
        final int[] itemOf;
        final double[][] boxOf;
        int nextItem;

        Model(int capacity) {
            leaves = new int[capacity];
            itemOf = new int[2 * capacity];
            boxOf = new double[2 * capacity][];
            Arrays.fill(itemOf, -1);
        }

        int insert(DynamicAabbTree tree, double[] box) {
            int item = nextItem++;
            int leaf = tree.insert(item, box[0], box[1], box[2], box[3], box[4], box[5]);
            assertEquals(-1, itemOf[leaf], "node " + leaf + " handed out while it holds a live leaf");
            itemOf[leaf] = item;
            boxOf[leaf] = box.clone();
            leaves[size++] = leaf;
            return leaf;
        }

        void remove(DynamicAabbTree tree, int leaf) {
            tree.remove(leaf);
            itemOf[leaf] = -1;
            boxOf[leaf] = null;
            for (int i = 0; i < size; i++) {
                if (leaves[i] == leaf) {
                    leaves[i] = leaves[--size];
                    return;
                }
            }
            throw new AssertionError("leaf " + leaf + " is not in the model");
        }

        void move(DynamicAabbTree tree, int leaf, double[] box) {
            tree.move(leaf, box[0], box[1], box[2], box[3], box[4], box[5]);
            boxOf[leaf] = box.clone();
        }

        double[] box(int leaf) {
            return boxOf[leaf];
        }

        int randomLeaf(Random random) {
            return leaves[random.nextInt(size)];
        }

        /** The items whose boxes overlap the query box, touching included, sorted. */
        int[] bruteForce(double[] query) {
            int[] items = new int[size];
            int n = 0;
            for (int i = 0; i < size; i++) {
                if (overlap(boxOf[leaves[i]], query)) {
                    items[n++] = itemOf[leaves[i]];
                }
            }
            return sorted(items, n);
        }

        /** Invariants, the leaf count, the height bound, and every live leaf's own box. */
        void check(DynamicAabbTree tree, String when) {
            tree.validate();
            assertEquals(size, tree.leafCount(), when);
            assertTrue(tree.height() <= avlHeightBound(size), when + ": height " + tree.height() + " for " + size
                + " leaves");
            for (int i = 0; i < size; i++) {
                int leaf = leaves[i];
                for (int k = 0; k < 6; k++) {
                    assertEquals(boxOf[leaf][k], tree.bound(leaf, k), when + ": leaf " + leaf + " bound " + k);
                }
            }
        }
    }

    /** log_φ n, rounded down: the tallest an AVL tree of n leaves can be (1e-9 absorbs the logarithms' rounding). */
    private static int avlHeightBound(int leaves) {
        return leaves == 0 ? -1 : (int) Math.floor(Math.log(leaves) / Math.log(PHI) + 1e-9);
    }

    private static double[] randomBox(Random random, double worldM, double minSideM, double maxSideM) {
        double[] box = new double[6];
        for (int k = 0; k < 3; k++) {
            double side = minSideM + (maxSideM - minSideM) * random.nextDouble();
            double min = (worldM - side) * random.nextDouble();
            box[k] = min;
            box[k + 3] = min + side;
        }
        return box;
    }

    private static double[] nudged(Random random, double[] box, double maxStepM) {
        double[] moved = box.clone();
        for (int k = 0; k < 3; k++) {
            double step = maxStepM * (2 * random.nextDouble() - 1);
            moved[k] += step;
            moved[k + 3] += step;
        }
        return moved;
    }

    private static boolean overlap(double[] a, double[] b) {
        return a[0] <= b[3] && b[0] <= a[3] && a[1] <= b[4] && b[1] <= a[4] && a[2] <= b[5] && b[2] <= a[5];
    }

    private static int[] sorted(int[] values, int count) {
        int[] copy = Arrays.copyOf(values, count);
        Arrays.sort(copy);
        return copy;
    }

    private static com.sun.management.ThreadMXBean threads() {
        com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assertTrue(threads.isThreadAllocatedMemorySupported(), "this JVM cannot count allocated bytes");
        threads.setThreadAllocatedMemoryEnabled(true);
        return threads;
    }
}
