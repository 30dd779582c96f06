package org.hapticsd.physics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import org.hapticsd.physics.geometry.TriangleMesh;
import org.hapticsd.testsupport.JitPrimer;
import org.joml.Matrix3d;
import org.joml.Quaterniond;
import org.joml.Vector3d;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** A dynamic box on a static triangle-mesh floor: the world finds the triangles under it through the mesh's BVH. */
class MeshFloorTest {
    private static final double HALF_M = 0.05;
    private static final double MASS_KG = 1.0;

    /** A flat 20 × 20 grid of 1 dm squares (800 triangles) at z = 0, counter-clockwise seen from above. */
    static TriangleMesh gridFloor() {
        int n = 20;
        double cell = 0.1;
        double[] vertices = new double[3 * (n + 1) * (n + 1)];
        for (int j = 0; j <= n; j++) {
            for (int i = 0; i <= n; i++) {
                int v = j * (n + 1) + i;
                vertices[3 * v] = (i - n / 2.0) * cell;
                vertices[3 * v + 1] = (j - n / 2.0) * cell;
            }
        }
        int[] triangles = new int[6 * n * n];
        int t = 0;
        for (int j = 0; j < n; j++) {
            for (int i = 0; i < n; i++) {
                int v00 = j * (n + 1) + i;
                int v10 = v00 + 1;
                int v01 = v00 + n + 1;
                int v11 = v01 + 1;
                triangles[t++] = v00;
                triangles[t++] = v10;
                triangles[t++] = v11;
                triangles[t++] = v00;
                triangles[t++] = v11;
                triangles[t++] = v01;
            }
        }
        return new TriangleMesh(vertices, triangles);
    }

    static PhysicsWorld boxOnMeshFloor() {
        PhysicsWorld world = new PhysicsWorld(ContactSettings.defaults());
        world.addStaticBody("floor", new TriangleMeshShape(gridFloor()), new Vector3d(), new Quaterniond(),
            new Material(0.0, 0.5, 0.4));
        double i = MASS_KG * (2 * HALF_M) * (2 * HALF_M) / 6.0;
        // Dropped from 1 cm above the floor, straddling grid lines so that it rests on several triangles at once.
        world.addDynamicBody("box", new BoxShape(HALF_M, HALF_M, HALF_M), new Vector3d(0.03, 0.02, HALF_M + 0.01),
            new Quaterniond(), MASS_KG, new Matrix3d().scaling(i), new Material(0.0, 0.5, 0.4));
        world.setContactBudget(new ContactBudget(4, 32));
        return world;
    }

    /** The compiler's one-off allocations on the measuring thread, done before anything is measured. */
    @BeforeAll
    static void primeJit() {
        JitPrimer.primeClassPath();
    }

    @Test
    void shouldRestOnTheMeshFloorAtTheContactTolerance() {
        PhysicsWorld world = boxOnMeshFloor();
        for (int k = 0; k < 2000; k++) {
            world.step(0.001);
        }
        Vector3d p = world.bodyPosition(1, new Vector3d());
        // The static contact model settles a resting body at the contact tolerance d_tol (0.2 mm) of depth; allow
        // 0.1 mm either side for the discrete settling.
        assertEquals(HALF_M - ContactSettings.defaults().contactToleranceM(), p.z, 1e-4);
        assertEquals(0.03, p.x, 1e-6, "no drift sideways");
        assertEquals(0.02, p.y, 1e-6, "no drift sideways");
        assertTrue(world.contactCount() >= 4, "face contact: a point per corner, got " + world.contactCount());
        Vector3d f = world.contactForceOnBody(1, new Vector3d());
        // Contact force holds the weight; the LCP impulse per step is m·g·Δt within the residual.
        assertEquals(MASS_KG * 9.81, f.z, 1e-3 * MASS_KG * 9.81);
    }

    @Test
    void shouldStepAMeshSceneWithoutAllocating() {
        PhysicsWorld world = boxOnMeshFloor();
        Stepper stepper = new Stepper(world);
        int windows = stepper.warmUp();
        assertTrue(windows <= 20, "warm-up never reached an allocation-free window");
        assertEquals(0, stepper.run(10_000));
    }

    /** Measures allocation of steps; no string literals (C2 resolves a class's strings on the calling thread). */
    static final class Stepper {
        private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        private final PhysicsWorld world;

        Stepper(PhysicsWorld world) {
            this.world = world;
        }

        int warmUp() {
            for (int window = 1; window <= 20; window++) {
                if (run(5_000) == 0) {
                    return window;
                }
            }
            return 21;
        }

        long run(int steps) {
            long before = THREADS.getCurrentThreadAllocatedBytes();
            for (int k = 0; k < steps; k++) {
                world.step(0.001);
            }
            return THREADS.getCurrentThreadAllocatedBytes() - before;
        }
    }
}
