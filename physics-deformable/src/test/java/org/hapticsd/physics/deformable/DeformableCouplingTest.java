package org.hapticsd.physics.deformable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import org.hapticsd.physics.BodyStateLostException;
import org.hapticsd.physics.ContactSettings;
import org.hapticsd.physics.Material;
import org.hapticsd.physics.PhysicsWorld;
import org.hapticsd.physics.PlaneShape;
import org.hapticsd.physics.SphereShape;
import org.hapticsd.physics.deformable.MassSpringSpec.Integrator;
import org.hapticsd.testsupport.JitPrimer;
import org.joml.Matrix3d;
import org.joml.Quaterniond;
import org.joml.Vector3d;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A mass–spring body inside the world's step (seams.md §B): its nodes rest on a plane with their weight on it,
 * push a free rigid body with momentum conserved, and push the tool, which feels exactly the coupling's force.
 */
class DeformableCouplingTest {
    private static final double DT_S = 0.001;
    private static final double NODE_KG = 0.05;
    private static final double RADIUS_M = 0.01;
    private static final double K_NPM = 2000.0;
    private static final double B_NSPM = 2.0;

    /** Four nodes on a 0.1 m square, six springs (edges and diagonals), centre at {@code (cx, cy, z)}. */
    private static MassSpringSpec square(double cx, double z, double[] gravity, Integrator integrator) {
        double[] rest = {cx - 0.05, -0.05, z, cx + 0.05, -0.05, z, cx + 0.05, 0.05, z, cx - 0.05, 0.05, z};
        int[] springs = {0, 1, 1, 2, 2, 3, 3, 0, 0, 2, 1, 3};
        double[] k = {500, 500, 500, 500, 500, 500};
        return new MassSpringSpec(new double[] {NODE_KG, NODE_KG, NODE_KG, NODE_KG}, rest, springs, k,
            MassSpringSpec.restDistances(rest, springs), new boolean[4], gravity, 0.05, integrator, 4, 1);
    }

    /** The compiler's one-off allocations on the measuring thread, done before anything is measured. */
    @BeforeAll
    static void primeJit() {
        JitPrimer.primeClassPath();
    }

    @Test
    void shouldRestOnAPlaneWithItsWeightOnIt() {
        for (Integrator integrator : new Integrator[] {Integrator.NEWMARK, Integrator.MODAL,
            Integrator.SYMPLECTIC_EULER}) {
            PhysicsWorld world = new PhysicsWorld(ContactSettings.defaults());
            int floor = world.addStaticBody("floor", new PlaneShape(new Vector3d(0, 0, 1)), new Vector3d(),
                new Quaterniond());
            MassSpringBody sheet = new MassSpringBody("sheet", square(0.0, 0.03, new double[] {0, 0, -9.8}, integrator),
                RADIUS_M);
            world.addDeformable(sheet, K_NPM, B_NSPM);
            for (int k = 0; k < 3000; k++) {
                world.step(DT_S);
            }
            // Each node sinks until the coupling carries its weight: z = r − m·g/k. The contact force is sampled at the
            // start of the step, so a resting node reports the velocity −g·Δt/2 of the kick still to come, and the
            // coupling's damping adds b·g·Δt/2 to the force: the depth is deeper by b·g·Δt/(2·k) = 4.9 µm here
            // (Newmark and modal; symplectic Euler rests exactly).
            for (int node = 0; node < 4; node++) {
                assertEquals(RADIUS_M - NODE_KG * 9.8 / K_NPM, sheet.position(node, 2), 6e-6, integrator + " node " + node);
            }
            assertEquals(4, world.deformableContactCount(0));
            // The plane carries the sheet's weight.
            Vector3d onFloor = world.contactForceOnBody(floor, new Vector3d());
            assertEquals(-4 * NODE_KG * 9.8, onFloor.z, 1e-6, integrator + " " + onFloor);
        }
    }

    @Test
    void shouldPushAFreeBodyConservingMomentum() {
        PhysicsWorld world = new PhysicsWorld(ContactSettings.defaults());
        world.setGravity(new Vector3d());
        double ballKg = 0.3;
        // A ball of 6 cm radius in the path of the nodes at y = ±5 cm.
        int ball = world.addDynamicBody("ball", new SphereShape(0.06), new Vector3d(0.18, 0, 0), new Quaterniond(),
            ballKg, new Matrix3d().scaling(0.4 * ballKg * 0.06 * 0.06), Material.DEFAULT);
        MassSpringBody sheet = new MassSpringBody("sheet", square(0.0, 0.0, new double[3], Integrator.NEWMARK),
            RADIUS_M);
        double[] position = new double[12];
        double[] velocity = new double[12];
        for (int node = 0; node < 4; node++) {
            for (int axis = 0; axis < 3; axis++) {
                position[3 * node + axis] = sheet.position(node, axis);
            }
            velocity[3 * node] = 0.4;
        }
        sheet.setState(position, velocity);
        world.addDeformable(sheet, K_NPM, B_NSPM);
        double before = 4 * NODE_KG * 0.4;
        int touching = 0;
        for (int k = 0; k < 600; k++) {
            world.step(DT_S);
            touching += world.deformableContactCount(0) > 0 ? 1 : 0;
        }
        assertTrue(touching > 0, "the sheet reached the ball");
        assertEquals(0, world.deformableContactCount(0), "and left it");
        double after = ballKg * world.bodyLinearVelocity(ball, new Vector3d()).x;
        for (int node = 0; node < 4; node++) {
            after += NODE_KG * sheet.velocity(node, 0);
        }
        assertTrue(world.bodyLinearVelocity(ball, new Vector3d()).x > 0.1, "the ball was pushed");
        assertEquals(before, after, 1e-12 * before, "momentum along x, N·s");
    }

    @Test
    void shouldPushTheToolWithTheCouplingsForce() {
        PhysicsWorld world = new PhysicsWorld(ContactSettings.defaults());
        world.setGravity(new Vector3d());
        int tool = world.addTool("tool", 0.005);
        MassSpringBody chain = new MassSpringBody("chain", TautChain.spec(Integrator.MODAL, 0), RADIUS_M);
        world.addDeformable(chain, K_NPM, 0.0);
        // The tool centre 2 mm below node 10's sphere surface plus its own radius: 2 mm of overlap along z.
        double depthM = 0.002;
        Vector3d at = new Vector3d(10 * TautChain.SPACING_M, 0, -(RADIUS_M + 0.005 - depthM));
        world.setToolState(tool, at, new Vector3d());
        world.step(DT_S);
        Vector3d onTool = world.contactForceOnBody(tool, new Vector3d());
        assertEquals(1, world.deformableContactCount(0));
        assertEquals(0.0, onTool.x, 1e-12);
        assertEquals(0.0, onTool.y, 1e-12);
        assertEquals(-K_NPM * depthM, onTool.z, 1e-9, "the node pushes the tool down with k·d");
        assertTrue(chain.velocity(10, 2) > 0.0, "and the node is pushed up");
    }

    /** A tester's spring of rest length 1e300 sent the nodes to NaN, silently; now the step names the body once. */
    @Test
    void shouldTakeOutADeformableBodyWhoseNodesOverflow() {
        PhysicsWorld world = new PhysicsWorld(ContactSettings.defaults());
        world.addStaticBody("floor", new PlaneShape(new Vector3d(0, 0, 1)), new Vector3d(), new Quaterniond());
        int ball = world.addDynamicBody("ball", new SphereShape(0.03), new Vector3d(1.0, 0, 0.5), new Quaterniond(),
            0.3, new Matrix3d().scaling(1e-4), Material.DEFAULT);
        double[] rest = {0, 0, 0.2, 0.1, 0, 0.2};
        MassSpringSpec spec = new MassSpringSpec(new double[] {NODE_KG, NODE_KG}, rest, new int[] {0, 1},
            new double[] {500}, new double[] {1e300}, new boolean[2], new double[] {0, 0, -9.81}, 0.0,
            Integrator.NEWMARK, 1, 1);
        world.addDeformable(new MassSpringBody("absurd", spec, RADIUS_M), K_NPM, B_NSPM);
        BodyStateLostException lost = null;
        int steps = 0;
        while (lost == null && steps < 100) {
            steps++;
            try {
                world.step(DT_S);
            } catch (BodyStateLostException e) {
                lost = e;
            }
        }
        assertTrue(lost != null, "no step reported the body in 100 steps");
        assertTrue(lost.getMessage().startsWith("deformable body 'absurd': state no longer finite"), lost.getMessage());
        for (int i = 0; i < 500; i++) {
            world.step(DT_S);
        }
        assertTrue(world.bodyPosition(ball, new Vector3d()).isFinite(), "the rest goes on");
        assertEquals(0.03, world.bodyPosition(ball, new Vector3d()).z, 1e-3, "the ball fell onto the floor");
    }

    @Test
    void shouldNotAllocateWhileSteppingWithADeformableBody() {
        PhysicsWorld world = new PhysicsWorld(ContactSettings.defaults());
        world.addStaticBody("floor", new PlaneShape(new Vector3d(0, 0, 1)), new Vector3d(), new Quaterniond());
        world.addDynamicBody("ball", new SphereShape(0.03), new Vector3d(0.0, 0, 0.03), new Quaterniond(), 0.3,
            new Matrix3d().scaling(0.4 * 0.3 * 0.03 * 0.03), Material.DEFAULT);
        world.addDeformable(new MassSpringBody("sheet", square(0.0, 0.08, new double[] {0, 0, -9.8},
            Integrator.MODAL_TRUNCATED), RADIUS_M), K_NPM, B_NSPM);
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        // Warm up until a whole window allocates nothing (C2 compiles late methods and resolves their constants on
        // this thread when it chooses), as ZeroAllocationTest does; then measure.
        long window;
        int windows = 0;
        do {
            long before = threads.getCurrentThreadAllocatedBytes();
            for (int k = 0; k < 2000; k++) {
                world.step(DT_S);
            }
            window = threads.getCurrentThreadAllocatedBytes() - before;
            windows++;
        } while (window != 0 && windows < 20);
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int k = 0; k < 10_000; k++) {
            world.step(DT_S);
        }
        assertEquals(0, threads.getCurrentThreadAllocatedBytes() - before, "bytes allocated in 10,000 steps");
        assertTrue(world.deformableContactCount(0) > 0, "the sheet lies on the ball and the floor");
    }
}
