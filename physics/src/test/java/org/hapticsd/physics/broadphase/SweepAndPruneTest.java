package org.hapticsd.physics.broadphase;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.Random;
import org.hapticsd.physics.geometry.Aabb;
import org.junit.jupiter.api.Test;

class SweepAndPruneTest {

    @Test
    void shouldReportExactlyTheBruteForcePairsEveryStepOfRandomMotion() {
        for (int sweepAxis = 0; sweepAxis < 3; sweepAxis++) {
            Random random = new Random(100 + sweepAxis);
            Scene scene = new Scene(random, 150);
            SweepAndPrune sap = new SweepAndPrune(150, 16, sweepAxis);
            for (int body = 0; body < scene.count; body++) {
                sap.addBody(scene.movable[body]);
            }
            int[] a = new int[4096];
            int[] b = new int[4096];
            long pairsSeen = 0;
            for (int step = 0; step < 400; step++) {
                scene.move(random);
                int found = sap.findPairs(scene.boundsM, a, b);
                if (found > sap.pairCapacity()) {
                    // Overflow: the documented remedy, outside the real-time path, then the same step again.
                    sap.ensurePairCapacity(found);
                    found = sap.findPairs(scene.boundsM, a, b);
                }
                long[] expected = bruteForce(scene);
                assertArrayEquals(expected, packed(a, b, found), "axis " + sweepAxis + " step " + step);
                pairsSeen += found;
            }
            assertTrue(pairsSeen > 400 * 20, "the scene must be busy for the comparison to mean much: " + pairsSeen);
        }
    }

    @Test
    void shouldNeverPairTwoBodiesThatCannotMove() {
        SweepAndPrune sap = new SweepAndPrune(3, 4);
        sap.addBody(false);
        sap.addBody(false);
        sap.addBody(true);
        double[] boundsM = new double[3 * Aabb.STRIDE];
        Aabb.unbounded(boundsM, 0);
        box(boundsM, 1, 0, 0, 0, 1, 1, 1);
        box(boundsM, 2, 5, 5, 5, 6, 6, 6);
        int[] a = new int[4];
        int[] b = new int[4];
        assertEquals(1, sap.findPairs(boundsM, a, b), "only the half-space and the moving box");
        assertEquals(0, a[0]);
        assertEquals(2, b[0]);
        sap.setMovable(1, true);
        assertEquals(2, sap.findPairs(boundsM, a, b));
        assertArrayEquals(new int[] {0, 0}, Arrays.copyOf(a, 2));
        assertArrayEquals(new int[] {1, 2}, Arrays.copyOf(b, 2));
    }

    @Test
    void shouldCountTouchingBoundsAndPickUpBodiesAddedLater() {
        SweepAndPrune sap = new SweepAndPrune(1, 4);
        sap.addBody(true);
        double[] boundsM = new double[3 * Aabb.STRIDE];
        box(boundsM, 0, 0, 0, 0, 1, 1, 1);
        int[] a = new int[4];
        int[] b = new int[4];
        assertEquals(0, sap.findPairs(boundsM, a, b));
        sap.addBody(false);
        sap.addBody(true);
        box(boundsM, 1, 1, 0, 0, 2, 1, 1);
        box(boundsM, 2, 0, 1, Math.nextUp(1.0), 1, 2, 2);
        assertEquals(1, sap.findPairs(boundsM, a, b), "faces touching at x = 1 pair; a gap of 1 ulp on z does not");
        assertEquals(0, a[0]);
        assertEquals(1, b[0]);
    }

    @Test
    void shouldKeepPriorityPairsWhenPairsOverflow() {
        SweepAndPrune sap = new SweepAndPrune(6, 4);
        double[] boundsM = new double[6 * Aabb.STRIDE];
        for (int body = 0; body < 6; body++) {
            sap.addBody(true);
            box(boundsM, body, 0, 0, 0, 1, 1, 1);
        }
        boolean[] priority = new boolean[6];
        priority[2] = true;
        int[] a = new int[4];
        int[] b = new int[4];
        assertEquals(15, sap.findPairs(boundsM, priority, a, b), "all 6·5/2 pairs overlap");
        assertEquals(4, sap.lastStored());
        // Body 2 has five pairs and the buffer four places: all four hold one of its pairs, still sorted.
        for (int k = 0; k < 4; k++) {
            assertTrue(a[k] == 2 || b[k] == 2, "pair " + a[k] + "-" + b[k] + " has no priority body");
            if (k > 0) {
                assertTrue(((long) a[k - 1] << 32 | b[k - 1]) < ((long) a[k] << 32 | b[k]), "sorted");
            }
        }
    }

    @Test
    void shouldReportTotalCountAndSortedSubsetWhenPairsOverflow() {
        SweepAndPrune sap = new SweepAndPrune(6, 3);
        double[] boundsM = new double[6 * Aabb.STRIDE];
        for (int body = 0; body < 6; body++) {
            sap.addBody(true);
            box(boundsM, body, 0, 0, 0, 1, 1, 1);
        }
        int[] a = new int[15];
        int[] b = new int[15];
        assertEquals(15, sap.findPairs(boundsM, a, b), "all 6·5/2 pairs overlap");
        for (int k = 1; k < 3; k++) {
            assertTrue(((long) a[k - 1] << 32 | b[k - 1]) < ((long) a[k] << 32 | b[k]), "sorted");
        }
        sap.ensurePairCapacity(15);
        assertEquals(15, sap.findPairs(boundsM, a, b));
        assertEquals(0, a[0]);
        assertEquals(1, b[0]);
        assertEquals(4, a[14]);
        assertEquals(5, b[14]);
    }

    /**
     * 2 000 boxes in a row along x, each overlapping only its neighbours: the sweep compares about one pair per body
     * (bounded here by 2 per body), and with every box shifted a little per step the insertion sort makes no swaps;
     * an all-pairs test would make 2 000 · 1 999 / 2 ≈ 2 million comparisons.
     */
    @Test
    void shouldDoLinearWorkForSparseCoherentScene() {
        int n = 2000;
        SweepAndPrune sap = new SweepAndPrune(n, 2 * n);
        double[] boundsM = new double[n * Aabb.STRIDE];
        Random random = new Random(9);
        int[] shuffled = new int[n];
        for (int i = 0; i < n; i++) {
            shuffled[i] = i;
        }
        for (int i = n - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int t = shuffled[i];
            shuffled[i] = shuffled[j];
            shuffled[j] = t;
        }
        for (int body = 0; body < n; body++) {
            sap.addBody(true);
        }
        int[] a = new int[2 * n];
        int[] b = new int[2 * n];
        for (int step = 0; step < 5; step++) {
            for (int body = 0; body < n; body++) {
                // Body at slot shuffled[body] along x, 1.2 long at spacing 1: overlaps its two neighbours.
                double x = shuffled[body] + 0.01 * step;
                box(boundsM, body, x, 0, 0, x + 1.2, 1, 1);
            }
            assertEquals(n - 1, sap.findPairs(boundsM, a, b));
            assertTrue(sap.lastTests() <= 2L * n, "tests " + sap.lastTests());
            if (step > 0) {
                assertEquals(0, sap.lastSwaps(), "coherent motion must not reorder");
            }
        }
    }

    /**
     * After warm-up, 100 000 steps of a moving scene allocate exactly 0 bytes. Warm up in windows of 2 000 steps
     * until one window allocates nothing, at most 20: JIT compilation charges its first allocations to this thread.
     */
    @Test
    void shouldAllocateNothingPerStep() {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assertTrue(threads.isThreadAllocatedMemorySupported(), "this JVM cannot count allocated bytes");
        threads.setThreadAllocatedMemoryEnabled(true);
        Random random = new Random(23);
        Scene scene = new Scene(random, 60);
        SweepAndPrune sap = new SweepAndPrune(60, 1024);
        for (int body = 0; body < scene.count; body++) {
            sap.addBody(scene.movable[body]);
        }
        StepLoop loop = new StepLoop(sap, scene);
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
        long before = threads.getCurrentThreadAllocatedBytes();
        loop.run(100_000);
        long after = threads.getCurrentThreadAllocatedBytes();
        assertEquals(0L, after - before, "bytes allocated by 100 000 steps");
        assertTrue(loop.pairs > 100_000, "steps must find pairs for the zero to mean anything");
        assertTrue(loop.swaps > 0, "bodies must reorder for the zero to cover the sort");
    }

    /** The measured loop, in a class without string literals (see TriangleBvhTest.QueryLoop for why). */
    private static final class StepLoop {
        private final SweepAndPrune sap;
        private final Scene scene;
        private final int[] a = new int[1024];
        private final int[] b = new int[1024];
        long pairs;
        long swaps;

        StepLoop(SweepAndPrune sap, Scene scene) {
            this.sap = sap;
            this.scene = scene;
        }

        void run(int steps) {
            for (int step = 0; step < steps; step++) {
                scene.moveDeterministically();
                pairs += sap.findPairs(scene.boundsM, a, b);
                swaps += sap.lastSwaps();
            }
        }
    }

    // -------------------------------------------------------------------------------------------------------------

    /**
     * Boxes of edge 0.3 to 1.5 in a 10 m cube, about 70 % movable, drifting and bouncing off the walls; body 0 is a
     * static half-space with infinite bounds.
     */
    private static final class Scene {
        final int count;
        final boolean[] movable;
        final double[] boundsM;
        final double[] velocity;

        Scene(Random random, int count) {
            this.count = count;
            movable = new boolean[count];
            boundsM = new double[count * Aabb.STRIDE];
            velocity = new double[3 * count];
            Aabb.unbounded(boundsM, 0);
            for (int body = 1; body < count; body++) {
                movable[body] = random.nextDouble() < 0.7;
                for (int k = 0; k < 3; k++) {
                    double size = 0.3 + 1.2 * random.nextDouble();
                    double min = (10 - size) * random.nextDouble();
                    boundsM[Aabb.STRIDE * body + k] = min;
                    boundsM[Aabb.STRIDE * body + 3 + k] = min + size;
                    velocity[3 * body + k] = movable[body] ? 0.05 * (2 * random.nextDouble() - 1) : 0;
                }
            }
        }

        void move(Random random) {
            for (int body = 1; body < count; body++) {
                if (movable[body] && random.nextInt(50) == 0) {
                    velocity[3 * body + random.nextInt(3)] = 0.05 * (2 * random.nextDouble() - 1);
                }
            }
            moveDeterministically();
        }

        void moveDeterministically() {
            for (int body = 1; body < count; body++) {
                for (int k = 0; k < 3; k++) {
                    int i = Aabb.STRIDE * body;
                    double v = velocity[3 * body + k];
                    if (boundsM[i + k] + v < 0 || boundsM[i + 3 + k] + v > 10) {
                        v = -v;
                        velocity[3 * body + k] = v;
                    }
                    boundsM[i + k] += v;
                    boundsM[i + 3 + k] += v;
                }
            }
        }
    }

    private static long[] bruteForce(Scene scene) {
        long[] pairs = new long[scene.count * scene.count];
        int n = 0;
        for (int a = 0; a < scene.count; a++) {
            for (int b = a + 1; b < scene.count; b++) {
                if ((scene.movable[a] || scene.movable[b]) && Aabb.overlap(scene.boundsM, a, b)) {
                    pairs[n++] = (long) a << 32 | b;
                }
            }
        }
        return Arrays.copyOf(pairs, n);
    }

    private static long[] packed(int[] a, int[] b, int count) {
        long[] pairs = new long[count];
        for (int k = 0; k < count; k++) {
            pairs[k] = (long) a[k] << 32 | b[k];
        }
        return pairs;
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
}
