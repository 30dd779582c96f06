package org.hapticsd.physics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.hapticsd.physics.dynamics.SolidInertia;
import org.joml.Matrix3d;
import org.joml.Quaterniond;
import org.joml.Vector3d;
import org.junit.jupiter.api.Test;

/**
 * {@link PhysicsWorld#setMaxStepDistance}: a 5 mm ball shot at 50 m/s (5 cm a step at 1 kHz) at a 2 mm plate passes
 * through it between two steps; held to its radius a step, it meets the plate and stays on its side. A body under
 * the limit moves exactly as without it.
 */
class MaxStepDistanceTest {

    private static final double DT_S = 0.001;
    private static final double RADIUS_M = 0.005;
    private static final double MASS_KG = 0.002;

    private record Shot(PhysicsWorld world, int ball) {
    }

    private static Shot shot(double speedMps, double limitM) {
        PhysicsWorld world = new PhysicsWorld(ContactSettings.defaults());
        world.setGravity(new Vector3d());
        // The plate's faces at x = 0.099 and 0.101.
        world.addStaticBody("plate", new BoxShape(0.001, 0.1, 0.1), new Vector3d(0.1, 0.0, 0.0), new Quaterniond(),
            Material.DEFAULT);
        // From x = 0.012 at 5 cm a step the ball is at 0.062 and then at 0.112: clear of the plate both times.
        int ball = world.addDynamicBody("ball", new SphereShape(RADIUS_M), new Vector3d(0.012, 0.0, 0.0),
            new Quaterniond(), MASS_KG, SolidInertia.sphere(MASS_KG, RADIUS_M, new Matrix3d()), Material.DEFAULT);
        if (limitM != Double.POSITIVE_INFINITY) {
            world.setMaxStepDistance(ball, limitM);
        }
        world.setBodyVelocity(ball, new Vector3d(speedMps, 0.0, 0.0), new Vector3d());
        for (int i = 0; i < 100; i++) {
            world.step(DT_S);
        }
        return new Shot(world, ball);
    }

    @Test
    void aBallHeldToItsRadiusAStepCannotPassThroughAThinPlate() {
        Shot free = shot(50.0, Double.POSITIVE_INFINITY);
        assertTrue(free.world.bodyPosition(free.ball, new Vector3d()).x > 0.2, "without the limit it tunnels");

        Shot held = shot(50.0, RADIUS_M);
        assertEquals(RADIUS_M, held.world.maxStepDistanceM(held.ball));
        double x = held.world.bodyPosition(held.ball, new Vector3d()).x;
        // Found deeper than the contact tolerance (0.2 mm), a contact is pushed out to it.
        double toleranceM = ContactSettings.defaults().contactToleranceM();
        assertEquals(0.099 - RADIUS_M + toleranceM, x, 1e-6, "stopped against the plate's near face");
    }

    @Test
    void aBodyUnderTheLimitMovesAsWithout() {
        Shot free = shot(1.0, Double.POSITIVE_INFINITY);
        Shot held = shot(1.0, RADIUS_M);
        assertEquals(free.world.bodyPosition(free.ball, new Vector3d()),
            held.world.bodyPosition(held.ball, new Vector3d()), "1 mm a step is under 5 mm: the same bits");
        assertEquals(free.world.bodyLinearVelocity(free.ball, new Vector3d()),
            held.world.bodyLinearVelocity(held.ball, new Vector3d()));
    }

    @Test
    void theLimitIsPositiveAndForDynamicBodies() {
        PhysicsWorld world = new PhysicsWorld(ContactSettings.defaults());
        int tool = world.addTool("tool", RADIUS_M);
        assertThrows(IllegalArgumentException.class, () -> world.setMaxStepDistance(tool, 0.01));
        int ball = world.addDynamicBody("ball", new SphereShape(RADIUS_M), new Vector3d(), new Quaterniond(),
            MASS_KG, SolidInertia.sphere(MASS_KG, RADIUS_M, new Matrix3d()), Material.DEFAULT);
        assertEquals(Double.POSITIVE_INFINITY, world.maxStepDistanceM(ball));
        assertThrows(IllegalArgumentException.class, () -> world.setMaxStepDistance(ball, 0.0));
        assertThrows(IllegalArgumentException.class, () -> world.setMaxStepDistance(ball, Double.NaN));
    }
}
