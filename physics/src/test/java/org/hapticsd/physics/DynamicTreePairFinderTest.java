package org.hapticsd.physics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.Random;
import org.hapticsd.physics.geometry.Aabb;
import org.hapticsd.testsupport.JitPrimer;
import org.joml.Quaterniond;
import org.joml.Vector3d;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The tree's pairs against {@link AllPairsCandidatePairFinder}'s, compared exactly every step: the same count, the
 * same pairs in the same order (the contract's: sorted by (a, b)), the same dropped count. All-pairs is the
 * reference because it is the contract written out as a double loop; its overflow rule (a priority pair takes the
 * place of the last pair without one) keeps the priority pairs and then the first ordinary pairs in key order,
 * which is what the tree's output must come to as well.
 */
class DynamicTreePairFinderTest {

    private static final double DT_S = 0.01;

    /** The compiler's one-off allocations on the measuring thread, done before anything is measured. */
    @BeforeAll
    static void primeJit() {
        JitPrimer.primeClassPath();
    }

    @Test
    void shouldMatchAllPairsEveryStepOfRandomScenes() {
        for (long seed = 1; seed <= 3; seed++) {
            Scene scene = new Scene(new Random(seed), 260);
            scene.populate(150);
            scene.add(Scene.TOOL);
            Comparison comparison = new Comparison(16 * 260 + 2 * 260);
            for (int step = 0; step < 600; step++) {
                if (step == 150 || step == 300) {
                    // Bodies added while the world runs: a tool among them at 300.
                    scene.populate(step == 150 ? 40 : 30);
                    if (step == 300) {
                        scene.add(Scene.TOOL);
                    }
                }
                if (step == 450) {
                    // Fewer bodies than registered: the finder starts over.
                    scene.count = 170;
                }
                if (step == 500) {
                    // A static box turns movable (scene set-up in a world; the finder starts over).
                    scene.makeMovable(scene.firstStaticBox());
                }
                scene.step(DT_S);
                comparison.check(scene, "seed " + seed + " step " + step);
            }
            assertEquals(0, comparison.droppedSteps, "the capacity is generous: nothing may be dropped");
            assertTrue(comparison.ordinaryPairs > 600 * 30, "pairs between moving bodies: " + comparison.ordinaryPairs);
            assertTrue(comparison.toolPairs > 600, "pairs of a tool: " + comparison.toolPairs);
        }
    }

    /**
     * A pile dropped as one (the 200 spheres: a 9 × 9 grid of 5 cm spheres 11 cm apart, three layers, over a
     * floor plane, falling from rest): every sphere leaves its fat box in the same steps, and the tree is rebuilt
     * rather than moved leaf by leaf. Its pairs must be all-pairs' every step, through the free fall and a landing
     * that stops the layers one after the other.
     */
    @Test
    void shouldMatchAllPairsWhenAPileFallsAsOne() {
        int spheres = 200;
        int count = spheres + 1;
        double[] boundsM = new double[Aabb.STRIDE * count];
        boolean[] movable = new boolean[count];
        boolean[] priority = new boolean[count];
        double inf = Double.POSITIVE_INFINITY;
        box(boundsM, 0, -inf, -inf, -inf, inf, inf, 0.0);
        double radiusM = 0.05;
        double[] startZ = new double[count];
        double[] x = new double[count];
        double[] y = new double[count];
        for (int s = 0; s < spheres; s++) {
            int body = s + 1;
            movable[body] = true;
            x[body] = -0.44 + 0.11 * (s % 9);
            y[body] = -0.44 + 0.11 * ((s / 9) % 9);
            startZ[body] = 0.1 + 0.11 * (s / 81);
        }
        DynamicTreePairFinder tree = new DynamicTreePairFinder();
        AllPairsCandidatePairFinder allPairs = new AllPairsCandidatePairFinder();
        CandidatePairs expected = new CandidatePairs();
        CandidatePairs actual = new CandidatePairs();
        expected.allocate(16 * count);
        actual.allocate(16 * count);
        long pairs = 0;
        for (int step = 0; step < 400; step++) {
            double t = 0.001 * step;
            for (int body = 1; body < count; body++) {
                // Free fall until the layer below stops it: layer k rests at z = r + 2r·k.
                int layer = (body - 1) / 81;
                double z = Math.max(startZ[body] - 0.5 * 9.81 * t * t, radiusM + 2 * radiusM * layer);
                box(boundsM, body, x[body] - radiusM, y[body] - radiusM, z - radiusM, x[body] + radiusM,
                    y[body] + radiusM, z + radiusM);
            }
            allPairs.findPairs(boundsM, movable, priority, count, expected);
            tree.findPairs(boundsM, movable, priority, count, actual);
            assertSame(expected, actual, "step " + step);
            pairs += actual.count;
        }
        assertTrue(tree.rebuilds() >= 5, "the falling pile must rebuild the tree: " + tree.rebuilds() + " rebuilds");
        assertTrue(pairs > 400 * 81, "the landed layers must touch the floor and each other: " + pairs + " pairs");
    }

    /**
     * Capacities from a tenth of the pairs to just under them, so that the kept set of fat pairs (twice the
     * capacity) overflows too, and the tools' pairs alone exceed the smallest: every step must still be all-pairs'
     * output, the dropped count exactly the pairs found and not written.
     */
    @Test
    void shouldMatchAllPairsWhenThePairsOverflow() {
        int[] capacities = {4, 40, 120, 250, 400};
        for (int capacity : capacities) {
            Scene scene = new Scene(new Random(40 + capacity), 200);
            scene.populate(180);
            scene.add(Scene.TOOL);
            scene.add(Scene.TOOL);
            Comparison comparison = new Comparison(capacity);
            for (int step = 0; step < 300; step++) {
                scene.step(DT_S);
                comparison.check(scene, "capacity " + capacity + " step " + step);
            }
            assertTrue(comparison.droppedSteps > 100, "capacity " + capacity + " must overflow: "
                + comparison.droppedSteps + " steps dropped pairs");
            if (capacity == 4) {
                assertTrue(comparison.toolOverflowSteps > 10, "the tools' pairs alone must overflow 4 places: "
                    + comparison.toolOverflowSteps + " steps");
            }
        }
    }

    /**
     * Bodies packed so that many fat boxes overlap but few bounds do: more fat pairs than the kept set holds (twice
     * the capacity) while every overlapping pair fits the capacity. Nothing may be dropped.
     */
    @Test
    void shouldWriteEveryPairThatFitsWhenOnlyTheFatPairsOverflow() {
        int n = 60;
        double[] boundsM = new double[n * Aabb.STRIDE];
        boolean[] movable = new boolean[n];
        boolean[] priority = new boolean[n];
        // Unit boxes 1 cm apart in a row: fat margins of 5 cm make each overlap its neighbours' fat boxes, 59 fat
        // pairs; the last two touch, the only overlapping pair, and the last to be looked for.
        for (int body = 0; body < n; body++) {
            movable[body] = true;
            double x = 1.01 * body;
            box(boundsM, body, x, 0, 0, x + 1, 1, 1);
        }
        box(boundsM, n - 1, 1.01 * (n - 2) + 1, 0, 0, 1.01 * (n - 2) + 2, 1, 1);
        CandidatePairs expected = new CandidatePairs();
        CandidatePairs actual = new CandidatePairs();
        expected.allocate(4);
        actual.allocate(4);
        DynamicTreePairFinder tree = new DynamicTreePairFinder();
        for (int step = 0; step < 3; step++) {
            new AllPairsCandidatePairFinder().findPairs(boundsM, movable, priority, n, expected);
            tree.findPairs(boundsM, movable, priority, n, actual);
            assertEquals(1, expected.count, "the last two boxes touch");
            assertSame(expected, actual, "step " + step);
        }
    }

    /** Six boxes all overlapping, one of them a tool, room for four pairs. */
    @Test
    void shouldKeepPriorityPairsWhenPairsOverflow() {
        int n = 6;
        double[] boundsM = new double[n * Aabb.STRIDE];
        boolean[] movable = new boolean[n];
        boolean[] priority = new boolean[n];
        for (int body = 0; body < n; body++) {
            movable[body] = true;
            box(boundsM, body, 0, 0, 0, 1, 1, 1);
        }
        priority[2] = true;
        CandidatePairs pairs = new CandidatePairs();
        pairs.allocate(4);
        new DynamicTreePairFinder().findPairs(boundsM, movable, priority, n, pairs);
        assertEquals(4, pairs.count);
        assertEquals(15 - 4, pairs.dropped, "all 6·5/2 pairs overlap");
        // Body 2 has five pairs and the buffer four places: all four hold one of its pairs, the first four in order.
        int[][] expected = {{0, 2}, {1, 2}, {2, 3}, {2, 4}};
        for (int k = 0; k < 4; k++) {
            assertEquals(expected[k][0], pairs.first[k], "pair " + k);
            assertEquals(expected[k][1], pairs.second[k], "pair " + k);
        }
    }

    /**
     * With the tools' pairs fewer than the capacity, every one is written however many other pairs there are, and
     * the other pairs fill what is left.
     */
    @Test
    void shouldKeepEveryToolPairAndFillTheRestWhenPairsOverflow() {
        Scene scene = new Scene(new Random(77), 200);
        scene.populate(180);
        int tool = scene.add(Scene.TOOL);
        DynamicTreePairFinder tree = new DynamicTreePairFinder();
        CandidatePairs pairs = new CandidatePairs();
        pairs.allocate(60);
        int stepsWithToolPairs = 0;
        for (int step = 0; step < 300; step++) {
            scene.step(DT_S);
            tree.findPairs(scene.boundsM, scene.movable, scene.priority, scene.count, pairs);
            long[] overlapping = bruteForce(scene);
            int toolPairs = 0;
            for (long key : overlapping) {
                toolPairs += (int) (key >>> 32) == tool || (int) key == tool ? 1 : 0;
            }
            assertTrue(overlapping.length > 60, "step " + step + " must overflow: " + overlapping.length);
            assertEquals(60, pairs.count, "step " + step);
            assertEquals(overlapping.length - 60, pairs.dropped, "step " + step);
            int written = 0;
            for (int k = 0; k < pairs.count; k++) {
                written += pairs.first[k] == tool || pairs.second[k] == tool ? 1 : 0;
            }
            assertEquals(toolPairs, written, "step " + step + ": every tool pair written");
            stepsWithToolPairs += toolPairs > 1 ? 1 : 0;
        }
        assertTrue(stepsWithToolPairs > 100, "the tool must meet bodies other than the floor: " + stepsWithToolPairs);
    }

    @Test
    void shouldNeverPairTwoBodiesThatCannotMove() {
        double[] boundsM = new double[3 * Aabb.STRIDE];
        boolean[] movable = {false, false, true};
        boolean[] priority = new boolean[3];
        Aabb.unbounded(boundsM, 0);
        box(boundsM, 1, 0, 0, 0, 1, 1, 1);
        box(boundsM, 2, 5, 5, 5, 6, 6, 6);
        DynamicTreePairFinder tree = new DynamicTreePairFinder();
        CandidatePairs pairs = new CandidatePairs();
        pairs.allocate(4);
        tree.findPairs(boundsM, movable, priority, 3, pairs);
        assertEquals(1, pairs.count, "only the half-space and the moving box");
        assertEquals(0, pairs.first[0]);
        assertEquals(2, pairs.second[0]);
        movable[1] = true;
        tree.findPairs(boundsM, movable, priority, 3, pairs);
        assertEquals(2, pairs.count);
        assertEquals(0, pairs.first[0]);
        assertEquals(1, pairs.second[0]);
        assertEquals(0, pairs.first[1]);
        assertEquals(2, pairs.second[1]);
    }

    @Test
    void shouldCountTouchingBoundsAndPickUpBodiesAddedLater() {
        double[] boundsM = new double[3 * Aabb.STRIDE];
        boolean[] movable = {true, false, true};
        boolean[] priority = new boolean[3];
        box(boundsM, 0, 0, 0, 0, 1, 1, 1);
        DynamicTreePairFinder tree = new DynamicTreePairFinder();
        CandidatePairs pairs = new CandidatePairs();
        pairs.allocate(4);
        tree.findPairs(boundsM, movable, priority, 1, pairs);
        assertEquals(0, pairs.count);
        box(boundsM, 1, 1, 0, 0, 2, 1, 1);
        box(boundsM, 2, 0, 1, Math.nextUp(1.0), 1, 2, 2);
        tree.findPairs(boundsM, movable, priority, 3, pairs);
        assertEquals(1, pairs.count, "faces touching at x = 1 pair; a gap of 1 ulp on z does not");
        assertEquals(0, pairs.first[0]);
        assertEquals(1, pairs.second[0]);
    }

    /**
     * After warm-up, 10 000 steps of a moving scene (with bodies leaving their fat boxes, a tool, a plane, and
     * pairs overflowing a small capacity in a second finder) allocate exactly 0 bytes: HotSpot counts a thread's
     * allocations exactly. Warm up in windows of 2 000 steps until one allocates nothing, at most 20: the JIT
     * charges some of its own work to the thread that triggers it.
     */
    @Test
    void shouldAllocateNothingPerStep() {
        com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assertTrue(threads.isThreadAllocatedMemorySupported(), "this JVM cannot count allocated bytes");
        threads.setThreadAllocatedMemoryEnabled(true);
        Scene scene = new Scene(new Random(23), 120);
        scene.populate(110);
        scene.add(Scene.TOOL);
        StepLoop loop = new StepLoop(scene);
        int windows = 0;
        long windowBytes = -1;
        while (windows < 20 && windowBytes != 0) {
            long before = threads.getCurrentThreadAllocatedBytes();
            loop.run(2_000);
            windowBytes = threads.getCurrentThreadAllocatedBytes() - before;
            windows++;
        }
        assertEquals(0L, windowBytes, "still allocating after " + windows + " warm-up windows");
        loop.pairs = 0;
        loop.dropped = 0;
        long before = threads.getCurrentThreadAllocatedBytes();
        loop.run(10_000);
        assertEquals(0L, threads.getCurrentThreadAllocatedBytes() - before, "bytes allocated by 10 000 steps");
        assertTrue(loop.pairs > 10_000 * 50L, "steps must find pairs for the zero to mean anything: " + loop.pairs);
        assertTrue(loop.dropped > 0, "the small capacity must overflow for the zero to cover it");
    }

    // -------------------------------------------------------------------------------------------------------------

    /** The measured loop, in a class without string literals (see TriangleBvhTest.QueryLoop for why). */
    private static final class StepLoop {
        private final Scene scene;
        private final DynamicTreePairFinder roomy = new DynamicTreePairFinder();
        private final DynamicTreePairFinder cramped = new DynamicTreePairFinder();
        private final CandidatePairs roomyPairs = new CandidatePairs();
        private final CandidatePairs crampedPairs = new CandidatePairs();
        long pairs;
        long dropped;

        StepLoop(Scene scene) {
            this.scene = scene;
            roomyPairs.allocate(18 * scene.capacity);
            crampedPairs.allocate(40);
        }

        void run(int steps) {
            for (int step = 0; step < steps; step++) {
                scene.step(DT_S);
                roomy.findPairs(scene.boundsM, scene.movable, scene.priority, scene.count, roomyPairs);
                cramped.findPairs(scene.boundsM, scene.movable, scene.priority, scene.count, crampedPairs);
                pairs += roomyPairs.count;
                dropped += crampedPairs.dropped;
            }
        }
    }

    /** Both finders on the same bounds each step, compared exactly. */
    private static final class Comparison {
        final DynamicTreePairFinder tree = new DynamicTreePairFinder();
        final AllPairsCandidatePairFinder allPairs = new AllPairsCandidatePairFinder();
        final CandidatePairs expected = new CandidatePairs();
        final CandidatePairs actual = new CandidatePairs();
        long ordinaryPairs;
        long toolPairs;
        int droppedSteps;
        /** Steps with more pairs of a tool than the capacity. */
        int toolOverflowSteps;

        Comparison(int capacity) {
            expected.allocate(capacity);
            actual.allocate(capacity);
        }

        void check(Scene scene, String when) {
            allPairs.findPairs(scene.boundsM, scene.movable, scene.priority, scene.count, expected);
            tree.findPairs(scene.boundsM, scene.movable, scene.priority, scene.count, actual);
            assertSame(expected, actual, when);
            long[] overlapping = bruteForce(scene);
            assertEquals(overlapping.length - expected.count, expected.dropped, when + ": the reference");
            droppedSteps += expected.dropped > 0 ? 1 : 0;
            int toolPairsFound = 0;
            for (long key : overlapping) {
                toolPairsFound += scene.priority[(int) (key >>> 32)] || scene.priority[(int) key] ? 1 : 0;
            }
            toolOverflowSteps += toolPairsFound > expected.capacity() ? 1 : 0;
            for (int k = 0; k < expected.count; k++) {
                int a = expected.first[k];
                int b = expected.second[k];
                if (scene.priority[a] || scene.priority[b]) {
                    toolPairs++;
                } else if (scene.kind[a] != Scene.PLANE && scene.kind[b] != Scene.PLANE) {
                    ordinaryPairs++;
                }
            }
        }
    }

    private static void assertSame(CandidatePairs expected, CandidatePairs actual, String when) {
        assertEquals(expected.count, actual.count, when + ": count");
        assertEquals(expected.dropped, actual.dropped, when + ": dropped");
        for (int k = 0; k < expected.count; k++) {
            if (expected.first[k] != actual.first[k] || expected.second[k] != actual.second[k]) {
                throw new AssertionError(when + ": pair " + k + " is " + actual.first[k] + "-" + actual.second[k]
                    + ", all-pairs has " + expected.first[k] + "-" + expected.second[k]);
            }
        }
    }

    /** Every pair the contract asks for, as {@code a << 32 | b}, sorted: the plain double loop. */
    private static long[] bruteForce(Scene scene) {
        long[] keys = new long[scene.count * (scene.count - 1) / 2 + 1];
        int n = 0;
        for (int a = 0; a < scene.count; a++) {
            for (int b = a + 1; b < scene.count; b++) {
                if ((scene.movable[a] || scene.movable[b]) && Aabb.overlap(scene.boundsM, a, b)) {
                    keys[n++] = (long) a << 32 | b;
                }
            }
        }
        return java.util.Arrays.copyOf(keys, n);
    }

    private static void box(double[] boundsM, int body, double minX, double minY, double minZ, double maxX,
                            double maxY, double maxZ) {
        int i = Aabb.STRIDE * body;
        boundsM[i] = minX;
        boundsM[i + 1] = minY;
        boundsM[i + 2] = minZ;
        boundsM[i + 3] = maxX;
        boundsM[i + 4] = maxY;
        boundsM[i + 5] = maxZ;
    }

    /**
     * Bounds of a scene in a 2 m cube: a floor and a wall (planes, infinite bounds), static boxes, spheres and
     * turning boxes of 3 to 15 cm half size drifting at up to 0.5 m/s and bouncing off the cube's faces, now and
     * then thrown somewhere else (a teleport), and tools on fast Lissajous paths (up to 3 m/s) through the middle.
     * Body kinds are drawn at random, so planes, static bodies and tools sit at arbitrary indices.
     */
    private static final class Scene {
        static final int PLANE = 0;
        static final int STATIC_BOX = 1;
        static final int SPHERE = 2;
        static final int BOX = 3;
        static final int TOOL = 4;
        static final double SIDE_M = 2.0;

        final int capacity;
        final Random random;
        int count;
        final int[] kind;
        final double[] boundsM;
        final boolean[] movable;
        final boolean[] priority;
        final Vector3d[] positionM;
        final Vector3d[] velocityMps;
        final Quaterniond[] orientation;
        final Vector3d[] spinRadps;
        final double[] halfM;
        final double[] phase;
        int planes;
        double timeS;

        Scene(Random random, int capacity) {
            this.random = random;
            this.capacity = capacity;
            kind = new int[capacity];
            boundsM = new double[capacity * Aabb.STRIDE];
            movable = new boolean[capacity];
            priority = new boolean[capacity];
            positionM = new Vector3d[capacity];
            velocityMps = new Vector3d[capacity];
            orientation = new Quaterniond[capacity];
            spinRadps = new Vector3d[capacity];
            halfM = new double[3 * capacity];
            phase = new double[capacity];
            for (int body = 0; body < capacity; body++) {
                positionM[body] = new Vector3d();
                velocityMps[body] = new Vector3d();
                orientation[body] = new Quaterniond();
                spinRadps[body] = new Vector3d();
            }
        }

        /** Adds bodies of random kinds: 2 planes in all, about 20 % static boxes, the rest spheres and boxes. */
        void populate(int bodies) {
            for (int i = 0; i < bodies; i++) {
                double roll = random.nextDouble();
                add(planes < 2 && roll < 0.05 ? PLANE : roll < 0.25 ? STATIC_BOX : roll < 0.65 ? SPHERE : BOX);
            }
        }

        int add(int bodyKind) {
            int body = count++;
            kind[body] = bodyKind;
            movable[body] = bodyKind != PLANE && bodyKind != STATIC_BOX;
            priority[body] = bodyKind == TOOL;
            planes += bodyKind == PLANE ? 1 : 0;
            positionM[body].set(SIDE_M * random.nextDouble(), SIDE_M * random.nextDouble(),
                SIDE_M * random.nextDouble());
            velocityMps[body].set(random.nextGaussian(), random.nextGaussian(), random.nextGaussian())
                .mul(movable[body] ? 0.3 : 0.0);
            orientation[body].identity().rotateXYZ(random.nextDouble() * 6, random.nextDouble() * 6,
                random.nextDouble() * 6);
            spinRadps[body].set(random.nextGaussian(), random.nextGaussian(), random.nextGaussian())
                .mul(bodyKind == BOX ? 3.0 : 0.0);
            for (int k = 0; k < 3; k++) {
                halfM[3 * body + k] = bodyKind == TOOL ? 0.05 : 0.03 + 0.12 * random.nextDouble();
            }
            phase[body] = 10 * random.nextDouble();
            writeBounds(body);
            return body;
        }

        /** The first static box, or −1. */
        int firstStaticBox() {
            for (int body = 0; body < count; body++) {
                if (kind[body] == STATIC_BOX) {
                    return body;
                }
            }
            return -1;
        }

        void makeMovable(int body) {
            kind[body] = BOX;
            movable[body] = true;
            velocityMps[body].set(0.3, -0.2, 0.1);
            spinRadps[body].set(1, 2, 3);
        }

        void step(double dtS) {
            timeS += dtS;
            for (int body = 0; body < count; body++) {
                if (!movable[body]) {
                    continue;
                }
                Vector3d p = positionM[body];
                if (kind[body] == TOOL) {
                    double t = timeS + phase[body];
                    p.set(1.0 + 0.9 * Math.sin(2.1 * t), 1.0 + 0.9 * Math.sin(1.3 * t), 0.5 + 0.45 * Math.sin(3.7 * t));
                } else {
                    if (random.nextInt(500) == 0) {
                        p.set(SIDE_M * random.nextDouble(), SIDE_M * random.nextDouble(), SIDE_M * random.nextDouble());
                    }
                    Vector3d v = velocityMps[body];
                    p.fma(dtS, v);
                    bounce(p, v);
                    Vector3d w = spinRadps[body];
                    orientation[body].rotateXYZ(w.x * dtS, w.y * dtS, w.z * dtS);
                }
                writeBounds(body);
            }
        }

        private static void bounce(Vector3d p, Vector3d v) {
            if (p.x < 0 || p.x > SIDE_M) {
                v.x = -v.x;
            }
            if (p.y < 0 || p.y > SIDE_M) {
                v.y = -v.y;
            }
            if (p.z < 0 || p.z > SIDE_M) {
                v.z = -v.z;
            }
        }

        private void writeBounds(int body) {
            int h = 3 * body;
            switch (kind[body]) {
                case PLANE -> Aabb.unbounded(boundsM, body);
                case SPHERE, TOOL -> Aabb.ofSphere(positionM[body], halfM[h], boundsM, body);
                default -> Aabb.ofOrientedBox(positionM[body], orientation[body], halfM[h], halfM[h + 1],
                    halfM[h + 2], boundsM, body);
            }
        }
    }
}
