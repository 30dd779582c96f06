package org.hapticsd.physics.geometry;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.Random;
import org.hapticsd.testsupport.JitPrimer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class TriangleBvhTest {

    /** The compiler's one-off allocations on the measuring thread, done before anything is measured. */
    @BeforeAll
    static void primeJit() {
        JitPrimer.primeClassPath();
    }

    @Test
    void shouldFindExactlyTheTrianglesBruteForceFindsForRandomBoxes() {
        Random random = new Random(11);
        for (TriangleMesh mesh : new TriangleMesh[] {randomSoup(random, 3000), terrain(40), stacked(37)}) {
            TriangleBvh bvh = new TriangleBvh(mesh);
            int[] out = new int[mesh.triangleCount()];
            int nonEmpty = 0;
            for (int q = 0; q < 2000; q++) {
                // Half the boxes anywhere, half containing a vertex of the mesh, so that sparse meshes get hits too.
                double[] box = randomBox(random);
                if (q % 2 == 1) {
                    int v = random.nextInt(mesh.vertexCount());
                    double[] at = {mesh.vertexX(v), mesh.vertexY(v), mesh.vertexZ(v)};
                    for (int k = 0; k < 3; k++) {
                        double half = 0.5 * (box[k + 3] - box[k]);
                        double centre = at[k] + half * (2 * random.nextDouble() - 1);
                        box[k] = centre - half;
                        box[k + 3] = centre + half;
                    }
                }
                int found = bvh.query(box[0], box[1], box[2], box[3], box[4], box[5], out);
                int[] actual = Arrays.copyOf(out, found);
                Arrays.sort(actual);
                assertArrayEquals(bruteForce(mesh, box), actual, "query " + q);
                nonEmpty += found > 0 ? 1 : 0;
            }
            assertTrue(nonEmpty >= 1000, "every box around a vertex must hit: " + nonEmpty);
        }
    }

    @Test
    void shouldCountTouchingBoundsAsOverlap() {
        TriangleMesh one = new TriangleMesh(new double[] {0, 0, 0, 1, 0, 0, 0, 1, 0}, new int[] {0, 1, 2});
        TriangleBvh bvh = new TriangleBvh(one);
        int[] out = new int[1];
        assertEquals(1, bvh.query(1.0, 0.5, 0.0, 2.0, 2.0, 1.0, out), "box face on the triangle's max x");
        assertEquals(0, bvh.query(Math.nextUp(1.0), 0.5, 0.0, 2.0, 2.0, 1.0, out), "one ulp beyond");
    }

    @Test
    void shouldBuildBalancedTreeWithSmallLeavesHoldingEveryTriangleOnce() {
        Random random = new Random(5);
        TriangleMesh mesh = randomSoup(random, 1000);
        TriangleBvh bvh = new TriangleBvh(mesh);
        int[] seen = new int[mesh.triangleCount()];
        int leaves = 0;
        for (int node = 0; node < bvh.nodeCount(); node++) {
            if (bvh.isLeaf(node)) {
                leaves++;
                assertTrue(bvh.leafTriangleCount(node) <= TriangleBvh.MAX_LEAF_TRIANGLES);
                for (int k = 0; k < bvh.leafTriangleCount(node); k++) {
                    seen[bvh.leafTriangle(node, k)]++;
                }
            } else {
                for (int child = bvh.leftChild(node); child <= bvh.leftChild(node) + 1; child++) {
                    for (int axis = 0; axis < 3; axis++) {
                        assertTrue(bvh.nodeBound(node, axis) <= bvh.nodeBound(child, axis));
                        assertTrue(bvh.nodeBound(node, 3 + axis) >= bvh.nodeBound(child, 3 + axis));
                    }
                }
            }
        }
        int[] once = new int[mesh.triangleCount()];
        Arrays.fill(once, 1);
        assertArrayEquals(once, seen);
        assertEquals(2 * leaves - 1, bvh.nodeCount(), "a full binary tree");
        // Median splits of 1000 triangles: 1000 → 500 → 250 → 125 → 63 → 32 → 16 → 8 → 4, eight levels.
        assertEquals(8, bvh.depth());
    }

    @Test
    void shouldReportTotalCountButWriteOnlyWhatFitsWhenOutputOverflows() {
        TriangleMesh mesh = terrain(10);
        TriangleBvh bvh = new TriangleBvh(mesh);
        int[] all = new int[mesh.triangleCount()];
        int total = bvh.query(-1, -1, -1, 2, 2, 2, all);
        assertEquals(mesh.triangleCount(), total);
        int[] small = new int[7];
        Arrays.fill(small, -1);
        assertEquals(total, bvh.query(-1, -1, -1, 2, 2, 2, small));
        // The first seven in traversal order, the same as in the full answer.
        assertArrayEquals(Arrays.copyOf(all, 7), small);
    }

    /**
     * After warm-up, 100 000 queries allocate exactly 0 bytes (HotSpot's per-thread TLAB accounting is exact). Warm
     * up in windows of 10 000 queries until one window allocates nothing, at most 20: JIT compilation of the query
     * charges its first allocations to this thread.
     */
    @Test
    void shouldAllocateNothingPerQuery() {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assertTrue(threads.isThreadAllocatedMemorySupported(), "this JVM cannot count allocated bytes");
        threads.setThreadAllocatedMemoryEnabled(true);
        Random random = new Random(17);
        QueryLoop loop = new QueryLoop(new TriangleBvh(randomSoup(random, 5000)), random);
        int windows = 0;
        long windowBytes = -1;
        while (windows < 20 && windowBytes != 0) {
            long before = threads.getCurrentThreadAllocatedBytes();
            loop.run(10_000);
            windowBytes = threads.getCurrentThreadAllocatedBytes() - before;
            windows++;
        }
        assertEquals(0L, windowBytes, "still allocating after " + windows + " warm-up windows");
        loop.found = 0;
        long before = threads.getCurrentThreadAllocatedBytes();
        loop.run(100_000);
        long after = threads.getCurrentThreadAllocatedBytes();
        assertEquals(0L, after - before, "bytes allocated by 100 000 queries");
        assertTrue(loop.found > 100_000, "queries must find triangles for the zero to mean anything");
    }

    /**
     * The measured loop, in a class without string literals: HotSpot resolves a class's string constants on the
     * thread that triggers its compilation, and that would be charged to the measurement.
     */
    private static final class QueryLoop {
        private final TriangleBvh bvh;
        private final double[] boxes = new double[6 * 1024];
        private final int[] out = new int[64];
        long found;

        QueryLoop(TriangleBvh bvh, Random random) {
            this.bvh = bvh;
            for (int i = 0; i < 1024; i++) {
                System.arraycopy(randomBox(random), 0, boxes, 6 * i, 6);
            }
        }

        void run(int queries) {
            for (int q = 0; q < queries; q++) {
                int b = 6 * (q & 1023);
                found += bvh.query(boxes[b], boxes[b + 1], boxes[b + 2], boxes[b + 3], boxes[b + 4], boxes[b + 5],
                    out);
            }
        }
    }

    // -------------------------------------------------------------------------------------------------------------

    /** Boxes of 1 to 20 % of the unit cube's edge, centred anywhere in and slightly around it. */
    private static double[] randomBox(Random random) {
        double[] box = new double[6];
        for (int k = 0; k < 3; k++) {
            double centre = -0.1 + 1.2 * random.nextDouble();
            double half = 0.005 + 0.095 * random.nextDouble();
            box[k] = centre - half;
            box[k + 3] = centre + half;
        }
        return box;
    }

    private static int[] bruteForce(TriangleMesh mesh, double[] box) {
        int[] hits = new int[mesh.triangleCount()];
        int n = 0;
        for (int t = 0; t < mesh.triangleCount(); t++) {
            boolean overlap = true;
            for (int k = 0; k < 3; k++) {
                double a = corner(mesh, t, 0, k);
                double b = corner(mesh, t, 1, k);
                double c = corner(mesh, t, 2, k);
                overlap &= Math.min(a, Math.min(b, c)) <= box[k + 3] && Math.max(a, Math.max(b, c)) >= box[k];
            }
            if (overlap) {
                hits[n++] = t;
            }
        }
        return Arrays.copyOf(hits, n);
    }

    private static double corner(TriangleMesh mesh, int t, int k, int axis) {
        int v = mesh.corner(t, k);
        return axis == 0 ? mesh.vertexX(v) : axis == 1 ? mesh.vertexY(v) : mesh.vertexZ(v);
    }

    /** Independent triangles of random size (up to 0.1) and place in the unit cube. */
    static TriangleMesh randomSoup(Random random, int count) {
        double[] vertices = new double[9 * count];
        int[] triangles = new int[3 * count];
        for (int t = 0; t < count; t++) {
            double size = 0.1 * random.nextDouble();
            double cx = random.nextDouble();
            double cy = random.nextDouble();
            double cz = random.nextDouble();
            for (int k = 0; k < 3; k++) {
                vertices[9 * t + 3 * k] = cx + size * random.nextGaussian();
                vertices[9 * t + 3 * k + 1] = cy + size * random.nextGaussian();
                vertices[9 * t + 3 * k + 2] = cz + size * random.nextGaussian();
                triangles[3 * t + k] = 3 * t + k;
            }
        }
        return new TriangleMesh(vertices, triangles);
    }

    /** A flat n × n grid on z = 0.5 over the unit square: many equal centroid coordinates. */
    static TriangleMesh terrain(int n) {
        double[] vertices = new double[3 * (n + 1) * (n + 1)];
        for (int j = 0; j <= n; j++) {
            for (int i = 0; i <= n; i++) {
                int v = j * (n + 1) + i;
                vertices[3 * v] = (double) i / n;
                vertices[3 * v + 1] = (double) j / n;
                vertices[3 * v + 2] = 0.5;
            }
        }
        int[] triangles = new int[6 * n * n];
        int k = 0;
        for (int j = 0; j < n; j++) {
            for (int i = 0; i < n; i++) {
                int v = j * (n + 1) + i;
                int[] quad = {v, v + 1, v + n + 2, v, v + n + 2, v + n + 1};
                System.arraycopy(quad, 0, triangles, k, 6);
                k += 6;
            }
        }
        return new TriangleMesh(vertices, triangles);
    }

    /** {@code count} copies of one triangle: every centroid equal, so only the index tie-break can split. */
    static TriangleMesh stacked(int count) {
        int[] triangles = new int[3 * count];
        for (int t = 0; t < count; t++) {
            triangles[3 * t] = 0;
            triangles[3 * t + 1] = 1;
            triangles[3 * t + 2] = 2;
        }
        return new TriangleMesh(new double[] {0.4, 0.4, 0.5, 0.6, 0.4, 0.5, 0.5, 0.6, 0.5}, triangles);
    }
}
