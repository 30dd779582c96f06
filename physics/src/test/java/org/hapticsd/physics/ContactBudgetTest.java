package org.hapticsd.physics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.hapticsd.physics.dynamics.SolidInertia;
import org.hapticsd.testsupport.JitPrimer;
import org.joml.Matrix3d;
import org.joml.Quaterniond;
import org.joml.Vector3d;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The contact storage is sized by a {@link ContactBudget}, linear in the bodies, and a step beyond it drops the
 * least important pairs and points, counted, without allocating or throwing.
 */
class ContactBudgetTest {

    private static final double RADIUS_M = 0.01;
    private static final double DT_S = 0.001;

    /** The compiler's one-off allocations on the measuring thread, done before anything is measured. */
    @BeforeAll
    static void primeJit() {
        JitPrimer.primeClassPath();
    }

    @Test
    void shouldSizeTheDefaultBudgetPerBodyNotPerPair() {
        // The 800-sphere pile: floor, four walls, 800 spheres and the tool.
        ContactBudget budget = ContactBudget.forScene(806, 5, 1);
        assertEquals(16 * 800 + 805, budget.maxPairs());
        assertEquals(32 * 800 + 8 * 805, budget.maxPoints());
        // The buffers of a pair-bound sizing (806·805/2 pairs × 8 points) would take 3.6 GB; this budget 48 MB.
        assertTrue(budget.bytes() < 50L << 20, "bytes " + budget.bytes());
        ContactBudget twice = ContactBudget.forScene(1606, 5, 1);
        assertEquals(2.0, (double) twice.bytes() / budget.bytes(), 0.01, "linear in the bodies");
    }

    @Test
    void shouldAllocateWhatTheBudgetEstimates() {
        com.sun.management.ThreadMXBean threads = threads();
        PhysicsWorld world = new PhysicsWorld(ContactSettings.defaults());
        world.addStaticBody("floor", new PlaneShape(new Vector3d(0, 0, 1)), new Vector3d(), new Quaterniond());
        world.setContactBudget(new ContactBudget(1, 1));
        world.step(DT_S);
        ContactBudget budget = new ContactBudget(20_000, 50_000);
        long before = threads.getCurrentThreadAllocatedBytes();
        world.setContactBudget(budget);
        // The broadphase sizes its share on the next step.
        world.step(DT_S);
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertEquals(budget.bytes(), allocated, 0.02 * budget.bytes(),
            allocated + " bytes allocated, estimate " + budget.bytes());
    }

    @Test
    void shouldRejectAnEmptyBudget() {
        assertThrows(IllegalArgumentException.class, () -> new ContactBudget(0, 10));
        assertThrows(IllegalArgumentException.class, () -> new ContactBudget(10, 0));
    }

    @Test
    void shouldCountTheNeedOfALatticeAlongItsLongestAxis() {
        // Spheres 1 mm closer than touching on a lattice, long along each axis in turn (the sweep's axis): every
        // pair of lattice neighbours (26 per inner sphere) has overlapping bounds, and only the six face neighbours
        // touch. The floor's bounds (a plane's are infinite) meet every sphere's, and the bottom layer sinks 0.1 mm.
        int[][] shapes = {{23, 3, 2}, {2, 17, 3}, {3, 2, 19}, {6, 6, 6}};
        for (int[] dims : shapes) {
            PhysicsWorld world = new PhysicsWorld(ContactSettings.defaults());
            world.addStaticBody("floor", new PlaneShape(new Vector3d(0, 0, 1)), new Vector3d(), new Quaterniond());
            Matrix3d inertia = SolidInertia.sphere(0.01, RADIUS_M, new Matrix3d());
            double spacingM = 2 * RADIUS_M - 1e-3;
            for (int i = 0; i < dims[0]; i++) {
                for (int j = 0; j < dims[1]; j++) {
                    for (int k = 0; k < dims[2]; k++) {
                        Vector3d centre = new Vector3d(i * spacingM, j * spacingM, RADIUS_M - 1e-4 + k * spacingM);
                        world.addDynamicBody("s" + i + "_" + j + "_" + k, new SphereShape(RADIUS_M), centre,
                            new Quaterniond(), 0.01, inertia, Material.DEFAULT);
                    }
                }
            }
            long spheres = (long) dims[0] * dims[1] * dims[2];
            long neighbours = 0;
            for (int dx = -1; dx <= 1; dx++) {
                for (int dy = -1; dy <= 1; dy++) {
                    for (int dz = -1; dz <= 1; dz++) {
                        if (dx != 0 || dy != 0 || dz != 0) {
                            neighbours += (long) (dims[0] - Math.abs(dx)) * (dims[1] - Math.abs(dy))
                                * (dims[2] - Math.abs(dz));
                        }
                    }
                }
            }
            long faceNeighbours = (long) (dims[0] - 1) * dims[1] * dims[2] + (long) dims[0] * (dims[1] - 1) * dims[2]
                + (long) dims[0] * dims[1] * (dims[2] - 1);
            long bottomLayer = (long) dims[0] * dims[1];
            assertEquals(new ContactNeed(neighbours / 2 + spheres, faceNeighbours + bottomLayer), world.contactNeed(),
                "lattice " + dims[0] + "x" + dims[1] + "x" + dims[2]);
        }
    }

    @Test
    void shouldMeasureTheNeedOfTheCurrentPoses() {
        Sunk sunk = new Sunk(10, null);
        // Each sphere's bounds and the parked tool's meet the floor's (a plane's are infinite); the spheres are 5 cm
        // apart, the tool 1 m up.
        assertEquals(new ContactNeed(11, 10), sunk.world.contactNeed());
    }

    @Test
    void shouldKeepTheDeepestPointsWhenThePointsOverflow() {
        int spheres = 12;
        int kept = 5;
        Sunk full = new Sunk(spheres, null);
        Sunk budgeted = new Sunk(spheres, new ContactBudget(64, kept));
        full.world.step(DT_S);
        budgeted.world.step(DT_S);

        assertEquals(spheres, full.world.contactCount());
        assertEquals(kept, budgeted.world.contactCount());
        assertEquals(spheres - kept, budgeted.world.profile().lastDroppedPoints());
        assertEquals(0, budgeted.world.profile().lastDroppedPairs());
        // The depths are 1.5× apart, more than the quarter octave the importance resolves: exactly the deepest five.
        List<Double> depths = new ArrayList<>();
        for (int i = 0; i < spheres; i++) {
            depths.add(full.world.contact(i).depthM());
        }
        depths.sort(Collections.reverseOrder());
        double shallowestKeptM = depths.get(kept - 1);
        int previousBody = -1;
        for (int i = 0; i < kept; i++) {
            Contact c = budgeted.world.contact(i);
            assertTrue(c.depthM() >= shallowestKeptM, "kept a point " + c.depthM() + " m deep");
            // Still in pair order: the warm start's merge relies on it.
            int body = Math.min(c.bodyA(), c.bodyB()) == 0 ? Math.max(c.bodyA(), c.bodyB()) : -1;
            assertTrue(body > previousBody, "points out of pair order at " + i);
            previousBody = body;
        }
    }

    @Test
    void shouldKeepTheToolsPointsWhenThePointsOverflow() {
        Sunk full = new Sunk(12, null);
        Sunk budgeted = new Sunk(12, new ContactBudget(64, 3));
        full.pressTool();
        budgeted.pressTool();
        full.world.step(DT_S);
        budgeted.world.step(DT_S);

        assertEquals(3, budgeted.world.contactCount());
        assertEquals(10, budgeted.world.profile().lastDroppedPoints(), "13 points found");
        // The tool's point is shallower than every sphere's, yet kept: its force is what the device renders.
        Vector3d expectedN = full.world.contactForceOnBody(full.tool, new Vector3d());
        assertTrue(expectedN.z > 0.0, "the tool must press the block: " + expectedN);
        assertEquals(expectedN, budgeted.world.contactForceOnBody(budgeted.tool, new Vector3d()));
    }

    @Test
    void shouldKeepTheToolsPairsWhenThePairsOverflow() {
        Sunk full = new Sunk(12, null);
        Sunk budgeted = new Sunk(12, new ContactBudget(4, 64));
        full.pressTool();
        budgeted.pressTool();
        full.world.step(DT_S);
        budgeted.world.step(DT_S);

        // 12 sphere–floor pairs, the tool against the block and against the floor (its bounds are infinite): the
        // tool's two and two others kept.
        assertEquals(4, budgeted.world.profile().lastCandidatePairCount());
        assertEquals(10, budgeted.world.profile().lastDroppedPairs());
        assertEquals(full.world.contactForceOnBody(full.tool, new Vector3d()),
            budgeted.world.contactForceOnBody(budgeted.tool, new Vector3d()));
    }

    /**
     * A tester: 100 spheres in one column in contact mode NONE were dropped pairs on most steps, and 1000 kinematic
     * boxes at one pose were refused at load for 500,501 overlapping pairs: pairs that are never tested took the
     * budget's room. Ten spheres at one point, every sphere pair NONE, each on the floor: the ten sphere–floor pairs
     * are all the scene needs, and a budget of 12 pairs keeps them all (it dropped 43 of 55 before).
     */
    @Test
    void shouldGiveNoRoomToPairsThatAreNeverTested() {
        PhysicsWorld world = new PhysicsWorld(ContactSettings.defaults());
        world.addStaticBody("floor", new PlaneShape(new Vector3d(0, 0, 1)), new Vector3d(), new Quaterniond());
        Matrix3d inertia = SolidInertia.sphere(0.01, RADIUS_M, new Matrix3d());
        int first = world.bodyCount();
        for (int k = 0; k < 10; k++) {
            world.addDynamicBody("s" + k, new SphereShape(RADIUS_M), new Vector3d(0, 0, RADIUS_M - 1e-4),
                new Quaterniond(), 0.01, inertia, Material.DEFAULT);
        }
        for (int a = first; a < first + 10; a++) {
            for (int b = a + 1; b < first + 10; b++) {
                world.setPairContactMode(a, b, ContactMode.NONE);
            }
        }
        world.addKinematicBody("k1", new BoxShape(0.1, 0.1, 0.1), new Vector3d(2, 0, 0), new Quaterniond(),
            Material.DEFAULT);
        world.addKinematicBody("k2", new BoxShape(0.1, 0.1, 0.1), new Vector3d(2, 0, 0), new Quaterniond(),
            Material.DEFAULT);
        assertEquals(new ContactNeed(10, 10), world.contactNeed(), "the sphere-floor pairs only");
        world.setContactBudget(new ContactBudget(12, 64));
        world.step(DT_S);
        assertEquals(0, world.profile().lastDroppedPairs());
        assertEquals(10, world.profile().lastCandidatePairCount());
        assertEquals(10, world.contactCount());
    }

    @Test
    void shouldRunOverBudgetWithoutAllocatingOrThrowing() {
        com.sun.management.ThreadMXBean threads = threads();
        Sunk budgeted = new Sunk(12, new ContactBudget(6, 4));
        budgeted.pressTool();
        PhysicsWorld world = budgeted.world;
        for (int i = 0; i < 20_000; i++) {
            world.step(DT_S);
        }
        long before = threads.getCurrentThreadAllocatedBytes();
        int droppedTicks = 0;
        for (int i = 0; i < 5_000; i++) {
            budgeted.pressTool();
            world.step(DT_S);
            if (world.profile().lastDroppedPoints() > 0 || world.profile().lastDroppedPairs() > 0) {
                droppedTicks++;
            }
        }
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertEquals(0L, allocated, "bytes allocated by 5000 steps over budget");
        assertEquals(5_000, droppedTicks, "every step was over budget");
    }

    private static com.sun.management.ThreadMXBean threads() {
        com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assertTrue(threads.isThreadAllocatedMemorySupported(), "this JVM cannot count allocated bytes");
        threads.setThreadAllocatedMemoryEnabled(true);
        return threads;
    }

    /**
     * Spheres sunk into a floor (body 0) to depths 1.5× apart, in an order unrelated to their indices, 5 cm
     * apart; a static block the tool can press, shallower than every sphere.
     */
    private static final class Sunk {
        final PhysicsWorld world = new PhysicsWorld(ContactSettings.defaults());
        final int tool;
        final Vector3d toolAtM = new Vector3d(0.0, -0.1, 0.02 + RADIUS_M - 1e-6);
        final Vector3d still = new Vector3d();

        Sunk(int spheres, ContactBudget budget) {
            world.addStaticBody("floor", new PlaneShape(new Vector3d(0, 0, 1)), new Vector3d(), new Quaterniond());
            Matrix3d inertia = SolidInertia.sphere(0.01, RADIUS_M, new Matrix3d());
            for (int k = 0; k < spheres; k++) {
                int rank = (7 * k + 3) % spheres;
                double depthM = 1e-5 * Math.pow(1.5, rank);
                world.addDynamicBody("s" + k, new SphereShape(RADIUS_M), new Vector3d(0.05 * k, 0, RADIUS_M - depthM),
                    new Quaterniond(), 0.01, inertia, Material.DEFAULT);
            }
            world.addStaticBody("block", new BoxShape(0.01, 0.01, 0.01), new Vector3d(0.0, -0.1, 0.01),
                new Quaterniond());
            tool = world.addTool("tool", RADIUS_M);
            world.setToolState(tool, new Vector3d(0.0, -0.1, 1.0), still);
            if (budget != null) {
                world.setContactBudget(budget);
            }
        }

        /** The tool 1 µm into the block's top face. */
        void pressTool() {
            world.setToolState(tool, toolAtM, still);
        }
    }
}
