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
 * {@link PhysicsWorld#prime()} does the first step's set-up (contact storage, the broadphase's tree and pairs) ahead
 * of it, and changes nothing the steps compute.
 */
class PrimeTest {

    private static final double DT_S = 0.001;

    /** The compiler's one-off allocations on the measuring thread, done before anything is measured. */
    @BeforeAll
    static void primeJit() {
        JitPrimer.primeClassPath();
    }

    @Test
    void shouldLeaveTheFirstStepNothingToAllocate() {
        com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assertTrue(threads.isThreadAllocatedMemorySupported(), "this JVM cannot count allocated bytes");
        threads.setThreadAllocatedMemoryEnabled(true);
        long threadId = Thread.currentThread().getId();
        // A throwaway world first, so that classes load and initialise (which allocates) outside the measurement.
        pile().step(DT_S);

        PhysicsWorld primed = pile();
        primed.prime();
        long before = threads.getThreadAllocatedBytes(threadId);
        primed.step(DT_S);
        long primedBytes = threads.getThreadAllocatedBytes(threadId) - before;

        PhysicsWorld plain = pile();
        before = threads.getThreadAllocatedBytes(threadId);
        plain.step(DT_S);
        long plainBytes = threads.getThreadAllocatedBytes(threadId) - before;

        // Without it the first step allocates the contact storage (a budget of 16 pairs and 32 points per sphere,
        // 3.0 MB measured for 60) and the broadphase's arrays; with it, nothing. 1 KiB leaves room for what the JVM
        // itself might charge to the thread (a deoptimisation's bookkeeping), a thousand times below the other.
        assertTrue(plainBytes > (1 << 20), "the unprimed first step allocated only " + plainBytes + " bytes");
        assertTrue(primedBytes < 1024, "the primed first step allocated " + primedBytes + " bytes");
    }

    @Test
    void shouldGiveTheSameBitsAsAWorldNotPrimed() {
        PhysicsWorld primed = pile();
        primed.prime();
        primed.prime();
        PhysicsWorld plain = pile();
        for (int k = 0; k < 600; k++) {
            primed.step(DT_S);
            plain.step(DT_S);
        }
        Vector3d a = new Vector3d();
        Vector3d b = new Vector3d();
        Quaterniond qa = new Quaterniond();
        Quaterniond qb = new Quaterniond();
        for (int body = 0; body < plain.bodyCount(); body++) {
            assertEquals(plain.bodyPosition(body, b), primed.bodyPosition(body, a), "position of body " + body);
            assertEquals(plain.bodyOrientation(body, qb), primed.bodyOrientation(body, qa), "orientation " + body);
            assertEquals(plain.bodyLinearVelocity(body, b), primed.bodyLinearVelocity(body, a), "velocity " + body);
            assertEquals(plain.bodyAngularVelocity(body, b), primed.bodyAngularVelocity(body, a), "spin " + body);
        }
        int touching = plain.profile().lastLcpRowCount();
        // The comparison means something only if the spheres have landed and press on each other by then.
        assertTrue(touching > 60, "LCP rows at the end: " + touching);
    }

    /** 60 spheres of 5 cm dropped in three layers onto a floor, close enough to land on each other. */
    private static PhysicsWorld pile() {
        PhysicsWorld world = new PhysicsWorld(ContactSettings.defaults());
        world.addStaticBody("floor", new PlaneShape(new Vector3d(0, 0, 1)), new Vector3d(), new Quaterniond());
        Matrix3d inertia = SolidInertia.sphere(1.0, 0.05, new Matrix3d());
        for (int i = 0; i < 60; i++) {
            int layer = i / 20;
            int row = (i % 20) / 5;
            int column = i % 5;
            // Offsets of a millimetre or two break the grid's symmetry, as the scene generator's seeded shifts do.
            Vector3d at = new Vector3d(0.1 * column + 0.001 * (i % 3), 0.1 * row + 0.0015 * (i % 2),
                0.05 + 0.095 * layer);
            world.addDynamicBody("s" + i, new SphereShape(0.05), at, new Quaterniond(), 1.0, inertia,
                Material.DEFAULT);
        }
        return world;
    }
}
