package org.hapticsd.physics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.hapticsd.physics.dynamics.SolidInertia;
import org.joml.Matrix3d;
import org.joml.Quaterniond;
import org.joml.Vector3d;
import org.junit.jupiter.api.Test;

/**
 * {@link PhysicsWorld#applyForce}: a force at a point acts on a dynamic body for exactly the next step, as
 * {@code F/m} and {@code I⁻¹·((p − x) × F)} over {@code Δt} (semi-implicit Euler), and calls add up.
 */
class ApplyForceTest {

    private static final double DT_S = 0.001;
    private static final double MASS_KG = 2.0;
    private static final double HALF_M = 0.05;
    /** A handful of roundings of values near 1: exact to the last bits but not bit-exact. */
    private static final double EXACT = 1e-15;

    @Test
    void shouldAccelerateAFreeBodyByForceOverMassForOneStep() {
        PhysicsWorld world = weightless();
        int box = box(world);
        world.applyForce(box, new Vector3d(3.0, -1.0, 0.5), new Vector3d(0.0, 0.0, 1.0));
        world.step(DT_S);
        Vector3d v = world.bodyLinearVelocity(box, new Vector3d());
        assertEquals(3.0 / MASS_KG * DT_S, v.x, EXACT, "Δv_x = F_x·Δt/m");
        assertEquals(-1.0 / MASS_KG * DT_S, v.y, EXACT);
        assertEquals(0.5 / MASS_KG * DT_S, v.z, EXACT);
        assertEquals(0.0, world.bodyAngularVelocity(box, new Vector3d()).length(), 0.0, "through the centre: no turn");
        // The next step has no force: the velocity stays.
        world.step(DT_S);
        assertEquals(3.0 / MASS_KG * DT_S, world.bodyLinearVelocity(box, new Vector3d()).x, EXACT, "one step only");
    }

    @Test
    void shouldTurnTheBodyByTheMomentOfAnOffCentreForce() {
        PhysicsWorld world = weightless();
        int box = box(world);
        // 2 N along x at 0.05 m above the centre: τ = r × F = (0, 0, 0.05) × (2, 0, 0) = (0, 0.1, 0) N·m.
        world.applyForce(box, new Vector3d(2.0, 0.0, 0.0), new Vector3d(0.0, 0.0, 1.0 + HALF_M));
        world.step(DT_S);
        double inertiaKgM2 = MASS_KG * (2 * HALF_M) * (2 * HALF_M) / 6.0;
        Vector3d w = world.bodyAngularVelocity(box, new Vector3d());
        assertEquals(0.1 / inertiaKgM2 * DT_S, w.y, 1e-12, "Δω = I⁻¹·τ·Δt");
        assertEquals(0.0, w.x, 1e-18);
        assertEquals(0.0, w.z, 1e-18);
        assertEquals(2.0 / MASS_KG * DT_S, world.bodyLinearVelocity(box, new Vector3d()).x, EXACT);
    }

    @Test
    void shouldAddForcesAppliedWithinOneStep() {
        PhysicsWorld world = weightless();
        int box = box(world);
        Vector3d centre = new Vector3d(0.0, 0.0, 1.0);
        world.applyForce(box, new Vector3d(1.0, 0.0, 0.0), centre);
        world.applyForce(box, new Vector3d(1.0, 0.0, 0.0), centre);
        world.step(DT_S);
        assertEquals(2.0 / MASS_KG * DT_S, world.bodyLinearVelocity(box, new Vector3d()).x, EXACT);
    }

    @Test
    void shouldRefuseBodiesThatForcesDoNotMoveAndNonFiniteInput() {
        PhysicsWorld world = weightless();
        int floor = world.addStaticBody("floor", new PlaneShape(new Vector3d(0, 0, 1)), new Vector3d(),
            new Quaterniond());
        int box = box(world);
        Vector3d f = new Vector3d(1.0, 0.0, 0.0);
        assertThrows(IllegalArgumentException.class, () -> world.applyForce(floor, f, new Vector3d()));
        assertThrows(IllegalArgumentException.class,
            () -> world.applyForce(box, new Vector3d(Double.NaN, 0.0, 0.0), new Vector3d()));
        assertThrows(IllegalArgumentException.class,
            () -> world.applyForce(box, f, new Vector3d(0.0, Double.POSITIVE_INFINITY, 0.0)));
        assertThrows(IndexOutOfBoundsException.class, () -> world.applyForce(7, f, new Vector3d()));
    }

    private static PhysicsWorld weightless() {
        PhysicsWorld world = new PhysicsWorld(ContactSettings.defaults());
        world.setGravity(new Vector3d());
        return world;
    }

    private static int box(PhysicsWorld world) {
        return world.addDynamicBody("box", new BoxShape(HALF_M, HALF_M, HALF_M), new Vector3d(0.0, 0.0, 1.0),
            new Quaterniond(), MASS_KG, SolidInertia.box(MASS_KG, HALF_M, HALF_M, HALF_M, new Matrix3d()),
            Material.DEFAULT);
    }
}
