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
 * A body whose state overflows (absurd but finite inputs) is taken out of the simulation once, by name, and the world
 * goes on with the others: its NaN does not spread, and nothing is silent.
 */
class BodyStateLostTest {

    private static final double DT_S = 0.001;

    @Test
    void shouldTakeOutABodyWhoseStateOverflowsAndGoOnWithTheOthers() {
        PhysicsWorld world = new PhysicsWorld(ContactSettings.defaults());
        world.addStaticBody("floor", new PlaneShape(new Vector3d(0, 0, 1)), new Vector3d(), new Quaterniond());
        Matrix3d boxInertia = SolidInertia.box(1.0, 0.05, 0.02, 0.01, new Matrix3d());
        int spinner = world.addDynamicBody("spinner", new BoxShape(0.05, 0.02, 0.01), new Vector3d(0, 0, 0.5),
            new Quaterniond(), 1.0, boxInertia, Material.DEFAULT);
        Matrix3d ballInertia = SolidInertia.sphere(1.0, 0.05, new Matrix3d());
        int ball = world.addDynamicBody("ball", new SphereShape(0.05), new Vector3d(1, 0, 0.3), new Quaterniond(), 1.0,
            ballInertia, Material.DEFAULT);
        world.setBodyVelocity(spinner, new Vector3d(), new Vector3d(1e300, 1e300, 1e300));

        BodyStateLostException lost = assertThrows(BodyStateLostException.class, () -> world.step(DT_S));
        assertTrue(lost.getMessage().startsWith("body 'spinner': state no longer finite"), lost.getMessage());
        assertEquals(0.5, world.bodyPosition(spinner, new Vector3d()).z, 0.0, "back at the step's start");
        assertTrue(world.bodyOrientation(spinner, new Quaterniond()).isFinite());
        assertEquals(0.0, world.bodyAngularVelocity(spinner, new Vector3d()).length(), 0.0);

        // The others go on, and the lost body is not reported again.
        for (int i = 0; i < 1000; i++) {
            world.step(DT_S);
        }
        Vector3d ballAt = world.bodyPosition(ball, new Vector3d());
        assertTrue(ballAt.isFinite(), "ball " + ballAt);
        assertEquals(0.05, ballAt.z, 1e-3, "the ball fell onto the floor");
        assertEquals(0.5, world.bodyPosition(spinner, new Vector3d()).z, 0.0, "the lost body stays put");
    }

    @Test
    void shouldLetOtherBodiesMeetALostBodyAsAnObstacle() {
        PhysicsWorld world = new PhysicsWorld(ContactSettings.defaults());
        world.addStaticBody("floor", new PlaneShape(new Vector3d(0, 0, 1)), new Vector3d(), new Quaterniond());
        Matrix3d inertia = SolidInertia.sphere(1.0, 0.05, new Matrix3d());
        int under = world.addDynamicBody("under", new SphereShape(0.05), new Vector3d(0, 0, 0.3), new Quaterniond(),
            1.0, inertia, Material.DEFAULT);
        int above = world.addDynamicBody("above", new SphereShape(0.05), new Vector3d(0, 0, 0.5), new Quaterniond(),
            1.0, inertia, Material.DEFAULT);
        world.setBodyVelocity(under, new Vector3d(), new Vector3d(1e300, 1e300, 1e300));
        assertThrows(BodyStateLostException.class, () -> world.step(DT_S));
        for (int i = 0; i < 1000; i++) {
            world.step(DT_S);
        }
        // The sphere above fell 0.1 m onto the lost one, held at z = 0.3 m, and rests on it.
        assertEquals(0.4, world.bodyPosition(above, new Vector3d()).z, 1e-3);
        assertEquals(0.3, world.bodyPosition(under, new Vector3d()).z, 0.0);
    }
}
