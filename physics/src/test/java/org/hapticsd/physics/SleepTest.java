package org.hapticsd.physics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;

import org.hapticsd.physics.dynamics.SolidInertia;
import org.hapticsd.testsupport.JitPrimer;
import org.joml.Matrix3d;
import org.joml.Quaterniond;
import org.joml.Vector3d;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Sleeping as an option ({@link SleepSettings}): when islands fall asleep, what they cost, and what wakes them. */
class SleepTest {

    private static final double DT_S = 0.001;
    private static final double HALF_M = 0.05;
    private static final double MASS_KG = 1.0;
    private static final double SLEEP_AFTER_S = 0.2;
    private static final Material MATERIAL = new Material(0.0, 0.5, 0.4);

    /** The compiler's one-off allocations on the measuring thread, done before anything is measured. */
    @BeforeAll
    static void primeJit() {
        JitPrimer.primeClassPath();
    }

    @Test
    void shouldNeverSleepWithTheDefaults() {
        Stack stack = new Stack(SleepSettings.off());
        stack.steps(3000);
        assertEquals(0, stack.world.sleepingBodyCount(), "bodies asleep after 3 s at rest with sleeping off");
        assertTrue(stack.world.profile().lastLcpRowCount() > 0, "the resting stack is still solved every step");
    }

    @Test
    void shouldPutARestingStackToSleepAsOneIslandAndThenCostNothing() {
        Stack stack = new Stack(SleepSettings.after(SLEEP_AFTER_S));
        int fellAsleepAt = stack.stepUntilAsleep(3000);
        // All three boxes touch, so they are one island: they fall asleep in the same step, not one by one.
        for (int box : stack.boxes) {
            assertTrue(stack.world.isBodyAsleep(box), "box " + box + " asleep at step " + fellAsleepAt);
        }
        // The stack lands and settles in well under a second; the island then needs SLEEP_AFTER_S of rest.
        assertTrue(fellAsleepAt >= SLEEP_AFTER_S / DT_S, "asleep after " + fellAsleepAt + " steps");

        Vector3d[] before = stack.positions();
        stack.steps(500);
        Vector3d[] after = stack.positions();
        for (int i = 0; i < before.length; i++) {
            assertEquals(before[i], after[i], "a sleeping box does not move, to the bit");
        }
        assertEquals(0, stack.world.profile().lastLcpRowCount(), "contact points solved while the stack sleeps");
        assertEquals(0, stack.world.contactCount(), "contacts computed while the stack sleeps");
    }

    @Test
    void shouldWakeTheIslandWhenTheToolTouchesItAndPushInTheSameStep() {
        Stack stack = new Stack(SleepSettings.after(SLEEP_AFTER_S));
        int tool = stack.tool;
        int top = stack.boxes[2];
        stack.stepUntilAsleep(3000);
        Vector3d topCentre = stack.world.bodyPosition(top, new Vector3d());
        double radiusM = 0.01;
        double speedMps = 0.05;
        // The tool approaches the top box's side along +x from 1 cm away.
        Vector3d toolM = new Vector3d(topCentre).add(-HALF_M - radiusM - 0.01, 0, 0);
        Vector3d toolVelocity = new Vector3d(speedMps, 0, 0);
        Vector3d topVelocity = new Vector3d();
        for (int step = 0; step < 1000; step++) {
            toolM.fma(DT_S, toolVelocity);
            stack.world.setToolState(tool, toolM, toolVelocity);
            stack.world.step(DT_S);
            if (stack.world.contactForceOnBody(tool, new Vector3d()).lengthSquared() > 0.0) {
                for (int box : stack.boxes) {
                    assertFalse(stack.world.isBodyAsleep(box), "box " + box + " at the tool's first contact");
                }
                // The box was awake for the contact, so the tool pushed it rather than a static wall.
                assertTrue(stack.world.bodyLinearVelocity(top, topVelocity).x > 0.0,
                        "top box velocity at the first contact " + topVelocity);
                return;
            }
        }
        throw new AssertionError("the tool never touched the top box");
    }

    @Test
    void shouldWakeTheWholeIslandStepByStepWhenOneBodyIsSetMoving() {
        Stack stack = new Stack(SleepSettings.after(SLEEP_AFTER_S));
        stack.stepUntilAsleep(3000);
        int bottom = stack.boxes[0];
        stack.world.setBodyVelocity(bottom, new Vector3d(0.2, 0, 0), new Vector3d());
        assertFalse(stack.world.isBodyAsleep(bottom), "the body whose velocity was set");
        assertTrue(stack.world.isBodyAsleep(stack.boxes[2]), "the top box, until the next step");
        stack.world.step(DT_S);
        for (int box : stack.boxes) {
            assertFalse(stack.world.isBodyAsleep(box), "box " + box + " one step after the bottom box was set moving");
        }
    }

    @Test
    void shouldKeepAnIslandTouchingTheToolAwake() {
        Stack stack = new Stack(SleepSettings.after(SLEEP_AFTER_S));
        Vector3d topCentre = new Vector3d(0, 0, 5 * HALF_M);
        // The tool rests on the top box, still: a user holding the stylus against the stack.
        double radiusM = 0.01;
        Vector3d toolM = new Vector3d(topCentre).add(0, 0, HALF_M + radiusM - 1e-3);
        for (int step = 0; step < 2000; step++) {
            stack.world.setToolState(stack.tool, toolM, new Vector3d());
            stack.world.step(DT_S);
        }
        assertEquals(0, stack.world.sleepingBodyCount(), "bodies asleep under the tool");
    }

    @Test
    void shouldLetAnIslandSleepWhileAnotherFarAwayStillMoves() {
        Stack stack = new Stack(SleepSettings.after(SLEEP_AFTER_S));
        double r = 0.05;
        int ball = stack.world.addDynamicBody("ball", new SphereShape(r), new Vector3d(1.0, 0, r - 1e-4),
                new Quaterniond(), MASS_KG, SolidInertia.sphere(MASS_KG, r, new Matrix3d()), MATERIAL);
        // Rolling without slipping at 0.3 m/s along +y (ω × r·ẑ = v): no friction needed, so it keeps rolling.
        stack.world.setBodyVelocity(ball, new Vector3d(0, 0.3, 0), new Vector3d(-0.3 / r, 0, 0));
        stack.stepUntilAsleep(3000);
        for (int box : stack.boxes) {
            assertTrue(stack.world.isBodyAsleep(box), "box " + box);
        }
        assertFalse(stack.world.isBodyAsleep(ball), "the rolling ball");
        assertTrue(stack.world.bodyLinearVelocity(ball, new Vector3d()).length() > 0.29, "the ball still rolls");
    }

    @Test
    void shouldWakeEveryBodyWhenSleepingIsTurnedOff() {
        Stack stack = new Stack(SleepSettings.after(SLEEP_AFTER_S));
        stack.stepUntilAsleep(3000);
        stack.world.setSleepSettings(SleepSettings.off());
        assertEquals(0, stack.world.sleepingBodyCount(), "asleep after turning sleeping off");
        stack.steps(10);
        assertTrue(stack.world.profile().lastLcpRowCount() > 0, "the stack is solved again");
    }

    @Test
    void shouldRejectNegativeOrNonFiniteSettings() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new SleepSettings(-1.0, 0.01, 0.05));
        assertEquals("afterS must be finite and >= 0, was -1.0", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new SleepSettings(0.5, Double.NaN, 0.05));
        assertThrows(IllegalArgumentException.class, () -> new SleepSettings(0.5, 0.01, Double.POSITIVE_INFINITY));
    }

    @Test
    void shouldAllocateNothingWhileIslandsFallAsleepAndWake() {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assertTrue(threads.isThreadAllocatedMemorySupported(), "this JVM cannot count allocated bytes");
        threads.setThreadAllocatedMemoryEnabled(true);
        Stack stack = new Stack(new SleepSettings(0.05, SleepSettings.DEFAULT_LINEAR_MPS,
                SleepSettings.DEFAULT_ANGULAR_RADPS));
        long threadId = Thread.currentThread().getId();
        Vector3d nudgeMps = new Vector3d(0, 0, 0.05);
        Vector3d noSpin = new Vector3d();
        long lastWindowBytes = Long.MAX_VALUE;
        int sleeps = 0;
        // Every 400 steps the bottom box is nudged: the island wakes, settles, and falls asleep again. Windows of
        // 4000 steps until one allocates nothing (the JIT compiles at its own pace; see ZeroAllocationTest).
        for (int window = 0; window < 20 && lastWindowBytes != 0; window++) {
            sleeps = 0;
            long startBytes = threads.getThreadAllocatedBytes(threadId);
            for (int step = 0; step < 4000; step++) {
                if (step % 400 == 0) {
                    stack.world.setBodyVelocity(stack.boxes[0], nudgeMps, noSpin);
                }
                boolean wasAsleep = stack.world.isBodyAsleep(stack.boxes[2]);
                stack.world.step(DT_S);
                if (!wasAsleep && stack.world.isBodyAsleep(stack.boxes[2])) {
                    sleeps++;
                }
            }
            lastWindowBytes = threads.getThreadAllocatedBytes(threadId) - startBytes;
        }
        assertEquals(0L, lastWindowBytes, "bytes allocated by 4000 steps of sleeping and waking");
        assertEquals(10, sleeps, "times the stack fell asleep in the measured window (once per nudge)");
    }

    /** A floor, three boxes stacked on it and a tool parked far away. */
    private static final class Stack {
        final PhysicsWorld world = new PhysicsWorld(ContactSettings.defaults());
        final int[] boxes = new int[3];
        final int tool;

        Stack(SleepSettings sleep) {
            world.addStaticBody("floor", new PlaneShape(new Vector3d(0, 0, 1)), new Vector3d(), new Quaterniond(),
                    MATERIAL);
            for (int i = 0; i < boxes.length; i++) {
                boxes[i] = world.addDynamicBody("box" + i, new BoxShape(HALF_M, HALF_M, HALF_M),
                        new Vector3d(0, 0, HALF_M * (1 + 2 * i) - 1e-4), new Quaterniond(), MASS_KG,
                        SolidInertia.box(MASS_KG, HALF_M, HALF_M, HALF_M, new Matrix3d()), MATERIAL);
            }
            tool = world.addTool("tool", 0.01, MATERIAL);
            world.setToolState(tool, new Vector3d(5, 5, 5), new Vector3d());
            world.setSleepSettings(sleep);
        }

        void steps(int n) {
            for (int i = 0; i < n; i++) {
                world.step(DT_S);
            }
        }

        /** Steps until the top box sleeps; returns the steps taken, failing after {@code limit}. */
        int stepUntilAsleep(int limit) {
            for (int step = 1; step <= limit; step++) {
                world.step(DT_S);
                if (world.isBodyAsleep(boxes[2])) {
                    return step;
                }
            }
            throw new AssertionError("the stack did not fall asleep in " + limit + " steps");
        }

        Vector3d[] positions() {
            Vector3d[] p = new Vector3d[boxes.length];
            for (int i = 0; i < boxes.length; i++) {
                p[i] = world.bodyPosition(boxes[i], new Vector3d());
            }
            return p;
        }
    }
}
