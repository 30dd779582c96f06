package org.hapticsd.physics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;

import org.hapticsd.physics.dynamics.SolidInertia;
import org.hapticsd.testsupport.JitPrimer;
import org.joml.Matrix3d;
import org.joml.Quaterniond;
import org.joml.Vector3d;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Adding bodies grows the per-body arrays by half at a time, so building a scene of n bodies costs O(n): the bytes
 * it allocates are a bound per body, the same at 2,000 bodies as at 8,000. (Growing by one slot per body, as the
 * engine did, copies every array on every add: at 8,000 bodies that is 16 times the bytes of 2,000, not 4.)
 */
class BodyGrowthTest {

    private static final double RADIUS_M = 0.01;

    /** The compiler's one-off allocations on the measuring thread, done before anything is measured. */
    @BeforeAll
    static void primeJit() {
        JitPrimer.primeClassPath();
    }

    @Test
    void shouldAllocateABoundedAmountPerBodyAdded() {
        long small = bytesToBuild(2_000);
        long large = bytesToBuild(8_000);
        double perBodySmall = (double) small / 2_000;
        double perBodyLarge = (double) large / 8_000;
        // Measured: about 2.1 kB a body at both sizes (its objects, and the amortised copies of its slots).
        assertTrue(perBodyLarge < 4_000, perBodyLarge + " bytes per body at 8,000 bodies");
        assertEquals(1.0, perBodyLarge / perBodySmall, 0.35,
            "bytes per body at 8,000 bodies over those at 2,000: " + perBodyLarge + " / " + perBodySmall);
    }

    @Test
    void shouldKeepEveryBodyItsStateAcrossTheGrowth() {
        PhysicsWorld world = new PhysicsWorld(ContactSettings.defaults());
        Matrix3d inertia = SolidInertia.sphere(0.01, RADIUS_M, new Matrix3d());
        for (int k = 0; k < 1_000; k++) {
            world.addDynamicBody("s" + k, new SphereShape(RADIUS_M), new Vector3d(0.05 * k, 0, 1), new Quaterniond(),
                0.01, inertia, Material.DEFAULT);
        }
        world.addStaticBody("floor", new PlaneShape(new Vector3d(0, 0, 1)), new Vector3d(), new Quaterniond());
        for (int k = 0; k < 1_000; k++) {
            assertEquals("s" + k, world.bodyName(k));
            assertEquals(0.05 * k, world.bodyPosition(k, new Vector3d()).x, 0.0, "body " + k);
        }
        assertEquals("floor", world.bodyName(1_000));
        assertEquals(1_001, world.bodyCount());
    }

    private static long bytesToBuild(int spheres) {
        com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        Matrix3d inertia = SolidInertia.sphere(0.01, RADIUS_M, new Matrix3d());
        SphereShape shape = new SphereShape(RADIUS_M);
        Vector3d position = new Vector3d();
        Quaterniond orientation = new Quaterniond();
        long before = threads.getCurrentThreadAllocatedBytes();
        PhysicsWorld world = new PhysicsWorld(ContactSettings.defaults());
        for (int k = 0; k < spheres; k++) {
            world.addDynamicBody("s", shape, position.set(0.05 * k, 0, 1), orientation, 0.01, inertia,
                Material.DEFAULT);
        }
        long bytes = threads.getCurrentThreadAllocatedBytes() - before;
        assertEquals(spheres, world.bodyCount());
        return bytes;
    }
}
