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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What every contact model must do, run on each mode that has one (a new mode's model is tested here the day its
 * constant exists): create no energy while bodies rest, allocate nothing per step once its buffers are reserved,
 * and give the same bits twice. The scene: a box resting on the floor and a ball that lands on it, all pairs in the
 * mode under test.
 */
class ContactModelConformanceTest {

    private static final double DT_S = 0.001;
    private static final double G_MPS2 = 9.81;
    private static final double BOX_HALF_M = 0.05;
    private static final double BOX_KG = 1.0;
    private static final double BALL_RADIUS_M = 0.02;
    private static final double BALL_KG = 0.1;

    /** The compiler's one-off allocations on the measuring thread, done before anything is measured. */
    @BeforeAll
    static void primeJit() {
        JitPrimer.primeClassPath();
    }

    @ParameterizedTest
    @EnumSource(value = ContactMode.class, names = "NONE", mode = EnumSource.Mode.EXCLUDE)
    void shouldCreateNoEnergyWhileABoxRests(ContactMode mode) {
        PhysicsWorld world = world(mode, false);
        int box = world.bodyCount() - 1;
        double startJ = energyJ(world, box, BOX_KG);
        double highestJ = startJ;
        for (int step = 0; step < 2000; step++) {
            world.step(DT_S);
            highestJ = Math.max(highestJ, energyJ(world, box, BOX_KG));
        }
        // Kinetic plus gravitational energy may only fall (springs store, damping and friction take): 1e-9 J, a
        // billionth of the box's 0.49 J of height energy, is the rounding of the sums, not a creation.
        assertTrue(highestJ <= startJ + 1e-9, mode + ": energy rose from " + startJ + " to " + highestJ + " J");
        assertTrue(world.contactCount() > 0, mode + ": the box is not on the floor");
    }

    @ParameterizedTest
    @EnumSource(value = ContactMode.class, names = "NONE", mode = EnumSource.Mode.EXCLUDE)
    void shouldAllocateNothingPerStepOnceReserved(ContactMode mode) {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assertTrue(threads.isThreadAllocatedMemorySupported(), "this JVM cannot count allocated bytes");
        threads.setThreadAllocatedMemoryEnabled(true);
        Stepper stepper = new Stepper(world(mode, true), threads);
        long bytes = -1;
        // Warm-up windows until one allocates nothing (C2 compiles at a time of its choosing), at most 20.
        for (int window = 0; window < 20 && bytes != 0; window++) {
            bytes = stepper.bytesAllocatedBy(500);
        }
        assertEquals(0L, bytes, mode + ": no warm-up window was allocation-free");
        assertEquals(0L, stepper.bytesAllocatedBy(3000), mode + ": bytes allocated by 3000 steps");
    }

    @ParameterizedTest
    @EnumSource(value = ContactMode.class, names = "NONE", mode = EnumSource.Mode.EXCLUDE)
    void shouldGiveTheSameBitsTwice(ContactMode mode) {
        assertEquals(hash(world(mode, true)), hash(world(mode, true)), mode.toString());
    }

    /** The floor, the box resting 0.1 mm deep and, if asked, the ball 5 cm above it falling onto it. */
    private static PhysicsWorld world(ContactMode mode, boolean withBall) {
        PhysicsWorld world = new PhysicsWorld(ContactSettings.defaults());
        world.setSceneContactMode(mode);
        Material material = new Material(0.3, 0.6, 0.5);
        world.addStaticBody("floor", new PlaneShape(new Vector3d(0, 0, 1)), new Vector3d(), new Quaterniond(),
                material);
        if (withBall) {
            world.addDynamicBody("ball", new SphereShape(BALL_RADIUS_M),
                    new Vector3d(0.01, 0.0, 2 * BOX_HALF_M + BALL_RADIUS_M + 0.05), new Quaterniond(), BALL_KG,
                    SolidInertia.sphere(BALL_KG, BALL_RADIUS_M, new Matrix3d()), material);
        }
        world.addDynamicBody("box", new BoxShape(BOX_HALF_M, BOX_HALF_M, BOX_HALF_M),
                new Vector3d(0.0, 0.0, BOX_HALF_M - 1e-4), new Quaterniond(), BOX_KG,
                SolidInertia.box(BOX_KG, BOX_HALF_M, BOX_HALF_M, BOX_HALF_M, new Matrix3d()), material);
        return world;
    }

    /** ½·m·v² + ½·ω·L + m·g·z of one body, J. */
    private static double energyJ(PhysicsWorld world, int body, double massKg) {
        Vector3d v = world.bodyLinearVelocity(body, new Vector3d());
        Vector3d w = world.bodyAngularVelocity(body, new Vector3d());
        Vector3d l = world.bodyAngularMomentum(body, new Vector3d());
        double z = world.bodyPosition(body, new Vector3d()).z;
        return 0.5 * massKg * v.lengthSquared() + 0.5 * w.dot(l) + massKg * G_MPS2 * z;
    }

    private static long hash(PhysicsWorld world) {
        long hash = 0xcbf29ce484222325L;
        Vector3d v = new Vector3d();
        for (int step = 0; step < 1500; step++) {
            world.step(DT_S);
            for (int body = 0; body < world.bodyCount(); body++) {
                world.bodyPosition(body, v);
                hash = (hash ^ Double.doubleToRawLongBits(v.x + 3 * v.y + 7 * v.z)) * 0x100000001b3L;
                world.bodyAngularVelocity(body, v);
                hash = (hash ^ Double.doubleToRawLongBits(v.x + 3 * v.y + 7 * v.z)) * 0x100000001b3L;
            }
        }
        return hash;
    }

    /** The measured loop, in a class without string literals (see ZeroAllocationTest.TickDriver for why). */
    private static final class Stepper {
        private final PhysicsWorld world;
        private final com.sun.management.ThreadMXBean threads;
        private final Vector3d forceN = new Vector3d();

        Stepper(PhysicsWorld world, com.sun.management.ThreadMXBean threads) {
            this.world = world;
            this.threads = threads;
        }

        long bytesAllocatedBy(int steps) {
            long before = threads.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < steps; i++) {
                world.step(DT_S);
                world.contactForceOnBody(0, forceN);
            }
            return threads.getCurrentThreadAllocatedBytes() - before;
        }
    }
}
