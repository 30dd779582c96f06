package org.hapticsd.physics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.HashSet;
import java.util.Set;

import org.hapticsd.physics.dynamics.SolidInertia;
import org.hapticsd.physics.dynamics.contact.ContactOnsets;
import org.hapticsd.testsupport.JitPrimer;
import org.joml.Matrix3d;
import org.joml.Quaterniond;
import org.joml.Vector3d;
import org.junit.jupiter.api.Test;

/**
 * A step split over two threads ({@link PhysicsWorld#setStepLanes}): the same bits on every run, a pile that settles
 * as on one lane, every contact reported once, the steps that must stay on one lane, no allocation on either thread,
 * and the second thread's end.
 */
class StepLanesTest {

    private static final double DT_S = 1e-3;
    private static final double RADIUS_M = 0.025;
    private static final double MASS_KG = 0.1;
    private static final int PER_SIDE = BoxPile.PER_SIDE;
    private static final int SPHERES = BoxPile.SPHERES;
    private static final int STATICS = BoxPile.STATICS;
    private static final double HALF_INSIDE_M = BoxPile.HALF_INSIDE_M;

    @Test
    void shouldGiveTheSameBitsOnEveryRun() {
        PhysicsWorld first = pile(2);
        PhysicsWorld second = pile(2);
        int split = 0;
        for (int step = 1; step <= 1500; step++) {
            first.step(DT_S);
            second.step(DT_S);
            split += first.lastStepSplit() ? 1 : 0;
            if (step % 100 == 0) {
                assertEquals(hash(first), hash(second), "state after step " + step);
            }
        }
        // Precondition: the steps did split (the pile never asked for one lane).
        assertEquals(1500, split, "split steps");
        assertEquals(first.contactCount(), second.contactCount());
        first.setStepLanes(1);
        second.setStepLanes(1);
    }

    @Test
    void shouldSettleThePileAsOneLaneDoes() {
        PhysicsWorld oneLane = pile(1);
        PhysicsWorld twoLanes = pile(2);
        for (int step = 0; step < 2500; step++) {
            oneLane.step(DT_S);
            twoLanes.step(DT_S);
        }
        assertTrue(twoLanes.lastStepSplit(), "the last step split");
        // Not the same bits: the rows are solved in another order.
        assertNotEquals(hash(oneLane), hash(twoLanes));
        Vector3d p = new Vector3d();
        Vector3d v = new Vector3d();
        double heightOne = 0.0;
        double heightTwo = 0.0;
        double fastestMps = 0.0;
        for (int body = STATICS; body < STATICS + SPHERES; body++) {
            heightOne += oneLane.bodyPosition(body, p).z;
            twoLanes.bodyPosition(body, p);
            heightTwo += p.z;
            assertTrue(Math.abs(p.x) <= HALF_INSIDE_M - RADIUS_M + 1e-3 && Math.abs(p.y) <= HALF_INSIDE_M - RADIUS_M
                    + 1e-3 && p.z >= RADIUS_M - 1e-3, "sphere " + body + " inside the box: " + p);
            fastestMps = Math.max(fastestMps, twoLanes.bodyLinearVelocity(body, v).length());
        }
        // The mean height of the settled pile within 1 mm of one lane's; nothing still moving faster than 1 cm/s.
        assertEquals(heightOne / SPHERES, heightTwo / SPHERES, 1e-3, "mean height");
        assertTrue(fastestMps < 0.01, "fastest sphere " + fastestMps + " m/s");
        assertTrue(maxDepthM(twoLanes) <= 1.5 * maxDepthM(oneLane) + 1e-5,
                "deepest point " + maxDepthM(twoLanes) + " m against one lane's " + maxDepthM(oneLane));
        // The floor carries what the walls do not of the pile's weight, summed over both lanes' points: within 2 %
        // of one lane's figure.
        Vector3d floorOne = new Vector3d();
        Vector3d floorTwo = new Vector3d();
        Vector3d torque = new Vector3d();
        oneLane.contactWrenchOnBody(0, floorOne, torque);
        twoLanes.contactWrenchOnBody(0, floorTwo, torque);
        assertTrue(-floorTwo.z > 0.5 * SPHERES * MASS_KG * 9.81, "floor force " + floorTwo.z + " N");
        assertEquals(floorOne.z, floorTwo.z, 0.02 * Math.abs(floorOne.z), "floor force, N");
        twoLanes.setStepLanes(1);
    }

    @Test
    void shouldReportEveryContactOnceWithItsOnsets() {
        PhysicsWorld world = pile(2);
        Set<String> seen = new HashSet<>();
        int onsetsSeen = 0;
        for (int step = 0; step < 600; step++) {
            world.step(DT_S);
            assertTrue(world.lastStepSplit(), "step " + step + " split");
            seen.clear();
            for (int i = 0; i < world.contactCount(); i++) {
                Contact c = world.contact(i);
                int low = Math.min(c.bodyA(), c.bodyB());
                int high = Math.max(c.bodyA(), c.bodyB());
                assertTrue(seen.add(low + "-" + high + "-" + c.featureId() + "-" + c.point()),
                        "contact " + i + " listed twice at step " + step);
            }
            ContactOnsets onsets = world.contactOnsets();
            for (int k = 0; k < onsets.count(); k++) {
                Contact c = world.contact(onsets.point(k));
                assertEquals(onsets.bodyA(k), c.bodyA(), "onset " + k + " body A");
                assertEquals(onsets.bodyB(k), c.bodyB(), "onset " + k + " body B");
                onsetsSeen++;
            }
        }
        // The pile lands during these steps: its contacts begin then.
        assertTrue(onsetsSeen >= SPHERES, "onsets " + onsetsSeen);
        world.setStepLanes(1);
    }

    @Test
    void shouldStepOnOneLaneWhenTheStepCannotSplit() {
        PhysicsWorld world = pile(2);
        for (int step = 0; step < 50; step++) {
            world.step(DT_S);
        }
        assertTrue(world.lastStepSplit());
        // The real-time loop's steps: a sweep deadline, or one that may be dropped.
        world.step(DT_S, world.nanoTime() + 1_000_000_000L);
        assertFalse(world.lastStepSplit(), "a step with a sweep deadline");
        world.step(DT_S, world.nanoTime() + 1_000_000_000L, world.nanoTime() + 1_000_000_000L);
        assertFalse(world.lastStepSplit(), "a step that may be dropped");
        world.step(DT_S);
        assertTrue(world.lastStepSplit(), "a plain step again");
        world.setSleepSettings(SleepSettings.after(0.5));
        world.step(DT_S);
        assertFalse(world.lastStepSplit(), "sleeping on");
        world.setSleepSettings(SleepSettings.off());
        world.step(DT_S);
        assertTrue(world.lastStepSplit(), "sleeping off again");
        world.setStepLanes(1);
        world.step(DT_S);
        assertFalse(world.lastStepSplit(), "one lane set");

        PhysicsWorld few = new PhysicsWorld(ContactSettings.defaults());
        few.addStaticBody("floor", new PlaneShape(new Vector3d(0.0, 0.0, 1.0)), new Vector3d(), new Quaterniond());
        Matrix3d inertia = SolidInertia.sphere(MASS_KG, RADIUS_M, new Matrix3d());
        for (int i = 0; i < StepLanes.MIN_DYNAMIC_BODIES - 1; i++) {
            few.addDynamicBody("s" + i, new SphereShape(RADIUS_M), new Vector3d(0.06 * i, 0.0, RADIUS_M),
                    new Quaterniond(), MASS_KG, inertia, Material.DEFAULT);
        }
        few.setStepLanes(2);
        few.step(DT_S);
        assertFalse(few.lastStepSplit(), "fewer than " + StepLanes.MIN_DYNAMIC_BODIES + " dynamic bodies");
        few.setStepLanes(1);
    }

    @Test
    void shouldStepOnOneLaneWhenThePointsPassTheBudget() {
        PhysicsWorld world = pile(2);
        // Room for a third of what the landed pile needs: those steps run on one lane, which drops the least
        // important points by the budget's rule and counts them.
        world.setContactBudget(new ContactBudget(4 * SPHERES, SPHERES));
        int oneLane = 0;
        for (int step = 0; step < 1500; step++) {
            world.step(DT_S);
            if (!world.lastStepSplit()) {
                oneLane++;
                assertTrue(world.profile().lastDroppedPoints() > 0 || world.profile().lastDroppedPairs() > 0,
                        "step " + step + " on one lane dropped nothing");
            }
        }
        assertTrue(oneLane > 0, "no step passed the budget");
        assertTrue(world.contactCount() <= SPHERES);
        world.setStepLanes(1);
    }

    @Test
    void shouldCutAgainWhenABodyCrossesTheCut() {
        PhysicsWorld world = pile(2);
        for (int step = 0; step < 1500; step++) {
            world.step(DT_S);
        }
        // The highest sphere thrown over the pile to the opposite corner: it passes the cut's band.
        int thrown = STATICS;
        Vector3d p = new Vector3d();
        for (int body = STATICS; body < STATICS + SPHERES; body++) {
            if (world.bodyPosition(body, p).z > world.bodyPosition(thrown, new Vector3d()).z) {
                thrown = body;
            }
        }
        world.bodyPosition(thrown, p);
        world.setBodyVelocity(thrown, new Vector3d(-2.0 * Math.signum(p.x), -2.0 * Math.signum(p.y), 1.5),
                new Vector3d());
        int oneLane = 0;
        for (int step = 0; step < 1000; step++) {
            world.step(DT_S);
            oneLane += world.lastStepSplit() ? 0 : 1;
        }
        assertTrue(oneLane >= 1, "no step fell back to one lane to cut again");
        assertTrue(oneLane <= 10, oneLane + " steps on one lane");
        assertTrue(world.lastStepSplit(), "split again after the new cut");
        world.bodyPosition(thrown, p);
        assertTrue(p.isFinite() && Math.abs(p.x) < HALF_INSIDE_M && Math.abs(p.y) < HALF_INSIDE_M,
                "thrown sphere stayed in the box: " + p);
        world.setStepLanes(1);
    }

    @Test
    void shouldAllocateNothingOnEitherLaneOnceWarm() throws InterruptedException {
        JitPrimer.primeClassPath();
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        threads.setThreadAllocatedMemoryEnabled(true);
        PhysicsWorld world = pile(2);
        Thread lane1 = laneThread();
        long[] before = new long[2];
        long[] after = new long[2];
        long lastWindow = -1;
        // Warm up until a window of 1,000 steps allocates nothing on either thread (the pools grow while the pile
        // lands, and the compilers settle).
        for (int window = 0; window < 20 && lastWindow != 0; window++) {
            bytes(threads, lane1, before);
            for (int step = 0; step < 1000; step++) {
                world.step(DT_S);
            }
            bytes(threads, lane1, after);
            lastWindow = after[0] - before[0] + after[1] - before[1];
        }
        assertEquals(0L, lastWindow, "no warm-up window was allocation-free");
        bytes(threads, lane1, before);
        int split = 0;
        for (int step = 0; step < 5000; step++) {
            world.step(DT_S);
            split += world.lastStepSplit() ? 1 : 0;
        }
        bytes(threads, lane1, after);
        assertEquals(0L, after[0] - before[0], "bytes allocated by the stepping thread");
        assertEquals(0L, after[1] - before[1], "bytes allocated by lane 1");
        assertEquals(5000, split, "split steps");
        world.setStepLanes(1);
        lane1.join(2000);
        assertFalse(lane1.isAlive(), "lane 1 stopped");
    }

    @Test
    void shouldEndTheSecondThreadWithOneLaneAndRefuseOtherCounts() throws InterruptedException {
        PhysicsWorld world = pile(2);
        world.step(DT_S);
        Thread lane1 = laneThread();
        assertTrue(lane1.isAlive());
        assertEquals(2, world.stepLanes());
        world.setStepLanes(1);
        lane1.join(2000);
        assertFalse(lane1.isAlive(), "lane 1 stopped");
        assertEquals(1, world.stepLanes());
        world.step(DT_S);
        assertFalse(world.lastStepSplit());
        assertThrows(IllegalArgumentException.class, () -> world.setStepLanes(0));
        assertThrows(IllegalArgumentException.class, () -> world.setStepLanes(3));
    }

    private static Thread laneThread() {
        Thread found = null;
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().equals("physics-lane-1") && t.isAlive()) {
                assertTrue(found == null, "one lane-1 thread alive at a time in this test");
                found = t;
            }
        }
        assertTrue(found != null, "no lane-1 thread");
        return found;
    }

    private static void bytes(com.sun.management.ThreadMXBean threads, Thread lane1, long[] dest) {
        dest[0] = threads.getThreadAllocatedBytes(Thread.currentThread().getId());
        dest[1] = threads.getThreadAllocatedBytes(lane1.getId());
    }

    private static double maxDepthM(PhysicsWorld world) {
        double deepest = 0.0;
        for (int i = 0; i < world.contactCount(); i++) {
            deepest = Math.max(deepest, world.contact(i).depthM());
        }
        return deepest;
    }

    /** Positions and velocities of every body, bit for bit. */
    private static long hash(PhysicsWorld world) {
        long h = 17;
        Vector3d v = new Vector3d();
        for (int body = 0; body < world.bodyCount(); body++) {
            world.bodyPosition(body, v);
            h = 31 * h + Double.doubleToLongBits(v.x) + 7 * Double.doubleToLongBits(v.y)
                    + 13 * Double.doubleToLongBits(v.z);
            world.bodyLinearVelocity(body, v);
            h = 31 * h + Double.doubleToLongBits(v.x) + 7 * Double.doubleToLongBits(v.y)
                    + 13 * Double.doubleToLongBits(v.z);
        }
        return h;
    }

    /** {@link BoxPile}'s 196 spheres of 5 cm and 0.1 kg, the steps on {@code lanes} lanes. */
    static PhysicsWorld pile(int lanes) {
        PhysicsWorld world = BoxPile.build(ContactSettings.defaults(), RADIUS_M, MASS_KG);
        world.setStepLanes(lanes);
        return world;
    }
}
