package org.hapticsd.physics.collision;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.List;

import org.hapticsd.physics.PlaneShape;
import org.hapticsd.physics.Shape;
import org.hapticsd.physics.TriangleMeshShape;
import org.hapticsd.physics.collision.PairScenes.Scene;
import org.hapticsd.physics.geometry.Transform;
import org.hapticsd.testsupport.JitPrimer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The narrowphase runs inside the 1 kHz loop, so after warm-up it must allocate nothing: HotSpot counts each
 * thread's allocated bytes exactly (TLAB accounting), so the bound is exactly 0 bytes over 100 000 calls cycling
 * through every supported pair in both orders, plus single-triangle and mesh-list calls.
 */
class NarrowphaseAllocationTest {
    private static final int SCENES_PER_PAIR = 4;
    private static final int WINDOW_CALLS = 20_000;
    private static final int MAX_WARM_UP_WINDOWS = 20;
    private static final int MEASURED_CALLS = 100_000;

    /** The compiler's one-off allocations on the measuring thread, done before anything is measured. */
    @BeforeAll
    static void primeJit() {
        JitPrimer.primeClassPath();
    }

    @Test
    void shouldAllocateNothingPerCollideCallAfterWarmUp() {
        com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assertTrue(threads.isThreadAllocatedMemorySupported(), "this JVM cannot count allocated bytes");
        threads.setThreadAllocatedMemoryEnabled(true);

        List<Scene> scenes = PairScenes.touching(SCENES_PER_PAIR, 0xa110cL);
        Narrowphase narrowphase = new Narrowphase();
        // A scene-change step: hull features are built here, not in the loop.
        narrowphase.prepare(PairScenes.HULL);
        CallDriver driver = new CallDriver(narrowphase, scenes);

        threads.getCurrentThreadAllocatedBytes();
        int windows = 0;
        long windowBytes = -1;
        while (windowBytes != 0 && windows < MAX_WARM_UP_WINDOWS) {
            long before = threads.getCurrentThreadAllocatedBytes();
            driver.run(WINDOW_CALLS);
            windowBytes = threads.getCurrentThreadAllocatedBytes() - before;
            windows++;
        }
        assertEquals(0L, windowBytes, "no warm-up window of " + WINDOW_CALLS + " calls was allocation-free in "
            + windows + " windows");
        driver.resetCounters();

        long beforeBytes = threads.getCurrentThreadAllocatedBytes();
        driver.run(MEASURED_CALLS);
        long afterBytes = threads.getCurrentThreadAllocatedBytes();

        assertEquals(0L, afterBytes - beforeBytes, "bytes allocated by " + MEASURED_CALLS + " collide calls");
        // Every scene touches, so the zero covers the contact-building paths, not just early-outs.
        assertEquals(MEASURED_CALLS, driver.hits, "collide calls that found contact");
        assertTrue(driver.triangleHits > 0, "collideTriangle never found contact");
        assertTrue(driver.meshHits > 0, "collideMesh never found contact");
        assertTrue(driver.points > MEASURED_CALLS, "points: " + driver.points);
        assertTrue(Double.isFinite(driver.checksum));
    }

    /**
     * The measured loop, in a class without string literals: when HotSpot queues a C2 compilation of a method it
     * first resolves the string constants of the method's class on the requesting thread (compileBroker.cpp,
     * {@code CompileBroker::compile_method}), a one-off allocation the narrowphase never made.
     */
    private static final class CallDriver {
        private final Narrowphase narrowphase;
        private final Shape[] shapeA;
        private final Transform[] poseA;
        private final Shape[] shapeB;
        private final Transform[] poseB;
        private final ContactManifold manifold = new ContactManifold();
        private final int[] allTriangles = {0, 1};
        private int next;
        long hits;
        long triangleHits;
        long meshHits;
        long points;
        double checksum;

        CallDriver(Narrowphase narrowphase, List<Scene> scenes) {
            this.narrowphase = narrowphase;
            int n = scenes.size();
            shapeA = new Shape[n];
            poseA = new Transform[n];
            shapeB = new Shape[n];
            poseB = new Transform[n];
            for (int i = 0; i < n; i++) {
                shapeA[i] = scenes.get(i).a();
                poseA[i] = scenes.get(i).poseA();
                shapeB[i] = scenes.get(i).b();
                poseB[i] = scenes.get(i).poseB();
            }
        }

        void resetCounters() {
            hits = 0;
            triangleHits = 0;
            meshHits = 0;
            points = 0;
        }

        void run(int calls) {
            for (int k = 0; k < calls; k++) {
                int i = next;
                next = next + 1 == shapeA.length ? 0 : next + 1;
                boolean hit = (k & 1) == 0
                    ? narrowphase.collide(shapeA[i], poseA[i], shapeB[i], poseB[i], manifold)
                    : narrowphase.collide(shapeB[i], poseB[i], shapeA[i], poseA[i], manifold);
                if (hit) {
                    hits++;
                }
                record();
                boolean movable = !(shapeA[i] instanceof PlaneShape) && !(shapeA[i] instanceof TriangleMeshShape);
                if (movable && k % 7 == 0) {
                    // The first floor triangle, through the scene's second pose as a world offset.
                    double z = poseB[i].position().z();
                    if (narrowphase.collideTriangle(shapeA[i], poseA[i], -1, -1, z, 1, -1, z, 1, 1, z, manifold)) {
                        triangleHits++;
                    }
                    record();
                }
                if (movable && k % 11 == 0) {
                    if (narrowphase.collideMesh(shapeA[i], poseA[i], PairScenes.MESH, poseB[i], allTriangles, 2,
                        manifold)) {
                        meshHits++;
                    }
                    record();
                }
            }
        }

        private void record() {
            points += manifold.pointCount();
            if (manifold.pointCount() > 0) {
                checksum += manifold.normal.x + manifold.maxDepthM() + manifold.point(0).y();
            }
        }
    }
}
