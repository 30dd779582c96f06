package org.hapticsd.physics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.hapticsd.physics.dynamics.SolidInertia;
import org.joml.Matrix3d;
import org.joml.Quaterniond;
import org.joml.Vector3d;
import org.junit.jupiter.api.Test;

/**
 * {@link PhysicsWorld#lockRotation}: a sphere launched along a rough floor rolls once friction has spun it up
 * (then keeps 5/7 of its speed), while the same sphere with its rotation locked slides and stops after
 * {@code v²/(2·μ·g)}, never turning. Torques and off-centre forces move a locked body without turning it.
 */
class RotationLockTest {

    private static final double DT_S = 0.001;
    private static final double MASS_KG = 0.01;
    private static final double RADIUS_M = 0.005;
    private static final double MU = 0.4;
    private static final double G_MPS2 = 9.81;
    private static final double SPEED_MPS = 0.5;

    private record Scene(PhysicsWorld world, int sphere) {
    }

    private static Scene launched(boolean locked) {
        PhysicsWorld world = new PhysicsWorld(ContactSettings.defaults());
        world.addStaticBody("floor", new PlaneShape(new Vector3d(0, 0, 1)), new Vector3d(), new Quaterniond(),
            new Material(0.0, MU, MU));
        int sphere = world.addDynamicBody("ball", new SphereShape(RADIUS_M), new Vector3d(0, 0, RADIUS_M),
            new Quaterniond(), MASS_KG, SolidInertia.sphere(MASS_KG, RADIUS_M, new Matrix3d()),
            new Material(0.0, MU, MU));
        if (locked) {
            world.lockRotation(sphere);
        }
        world.setBodyVelocity(sphere, new Vector3d(SPEED_MPS, 0, 0), new Vector3d());
        return new Scene(world, sphere);
    }

    private static void run(Scene s, double seconds) {
        for (int i = 0; i < Math.round(seconds / DT_S); i++) {
            s.world.step(DT_S);
        }
    }

    @Test
    void aFreeSphereRollsOnAtFiveSeventhsOfItsSpeed() {
        Scene s = launched(false);
        assertFalse(s.world.isRotationLocked(s.sphere));
        run(s, 1.0);
        double vx = s.world.bodyLinearVelocity(s.sphere, new Vector3d()).x;
        assertEquals(5.0 / 7.0 * SPEED_MPS, vx, 0.02 * SPEED_MPS, "rolling without slipping");
        assertTrue(s.world.bodyAngularVelocity(s.sphere, new Vector3d()).length() > 0.5 * vx / RADIUS_M);
    }

    @Test
    void aLockedSphereSlidesToAStopAfterVSquaredOverTwoMuG() {
        Scene s = launched(true);
        assertTrue(s.world.isRotationLocked(s.sphere));
        run(s, 1.0);
        Vector3d x = s.world.bodyPosition(s.sphere, new Vector3d());
        double stopM = SPEED_MPS * SPEED_MPS / (2.0 * MU * G_MPS2);
        assertEquals(stopM, x.x, 0.02 * stopM, "the slide's stopping distance");
        assertEquals(0.0, s.world.bodyLinearVelocity(s.sphere, new Vector3d()).length(), 1e-6, "stopped");
        assertEquals(0.0, s.world.bodyAngularVelocity(s.sphere, new Vector3d()).length(), 0.0, "never turned");
        assertEquals(1.0, Math.abs(s.world.bodyOrientation(s.sphere, new Quaterniond()).w), 0.0, "never turned");
    }

    @Test
    void anOffCentreForceMovesALockedBodyWithoutTurningIt() {
        PhysicsWorld world = new PhysicsWorld(ContactSettings.defaults());
        world.setGravity(new Vector3d());
        int body = world.addDynamicBody("box", new BoxShape(0.01, 0.01, 0.01), new Vector3d(), new Quaterniond(),
            MASS_KG, SolidInertia.box(MASS_KG, 0.01, 0.01, 0.01, new Matrix3d()), Material.DEFAULT);
        world.lockRotation(body);
        for (int i = 0; i < 100; i++) {
            world.applyForce(body, new Vector3d(0.0, 0.1, 0.0), new Vector3d(0.01, 0.0, 0.0));
            world.step(DT_S);
        }
        // v = F·t/m = 0.1 · 0.1 / 0.01.
        assertEquals(1.0, world.bodyLinearVelocity(body, new Vector3d()).y, 1e-9);
        assertEquals(0.0, world.bodyAngularVelocity(body, new Vector3d()).length(), 0.0);
    }

    @Test
    void onlyADynamicBodyCanBeLocked() {
        PhysicsWorld world = new PhysicsWorld(ContactSettings.defaults());
        int tool = world.addTool("tool", RADIUS_M);
        assertThrows(IllegalArgumentException.class, () -> world.lockRotation(tool));
        assertFalse(world.isRotationLocked(tool));
    }
}
