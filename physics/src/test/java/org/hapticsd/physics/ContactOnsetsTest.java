package org.hapticsd.physics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.hapticsd.physics.dynamics.SolidInertia;
import org.hapticsd.physics.dynamics.contact.ContactOnsets;
import org.joml.Matrix3d;
import org.joml.Quaterniond;
import org.joml.Vector3d;
import org.junit.jupiter.api.Test;

/**
 * {@link PhysicsWorld#contactOnsets()}: the step in which a ball first touches the floor lists that contact once,
 * with the speed it was falling at the start of the step; the steps after, while it rests, list nothing.
 */
class ContactOnsetsTest {

    private static final double DT_S = 0.001;
    private static final double RADIUS_M = 0.05;

    @Test
    void shouldListATouchOnceWithItsApproachSpeed() {
        PhysicsWorld world = new PhysicsWorld(ContactSettings.defaults());
        int floor = world.addStaticBody("floor", new PlaneShape(new Vector3d(0, 0, 1)), new Vector3d(),
            new Quaterniond(), new Material(0.0, 0.5, 0.5));
        int ball = world.addDynamicBody("ball", new SphereShape(RADIUS_M), new Vector3d(0.0, 0.0, RADIUS_M + 0.01),
            new Quaterniond(), 1.0, SolidInertia.sphere(1.0, RADIUS_M, new Matrix3d()), new Material(0.0, 0.5, 0.5));
        Vector3d velocity = new Vector3d();
        ContactOnsets onsets = world.contactOnsets();
        int touches = 0;
        for (int step = 0; step < 300; step++) {
            // The approach speed is read from the state before the step: the ball's speed as this step starts.
            double fallingMps = -world.bodyLinearVelocity(ball, velocity).z;
            world.step(DT_S);
            if (onsets.count() == 0) {
                continue;
            }
            touches++;
            assertEquals(1, onsets.count(), "one point of a sphere on a plane");
            assertEquals(ball, onsets.bodyA(0), "the ball is A (the dynamic body)");
            assertEquals(floor, onsets.bodyB(0));
            assertEquals(0, onsets.point(0), "its slot among the step's contacts");
            // A sphere on a plane: the approach speed is the fall speed, to the rounding of r × ω with ω = 0.
            assertEquals(fallingMps, onsets.approachSpeedMps(0), 1e-15, "approach speed at step " + step);
            assertTrue(fallingMps > 0.4, "it touches after falling 1 cm: " + fallingMps);
        }
        assertEquals(1, touches, "steps with an onset: the ball lands once and then rests");
        assertEquals(1, world.contactCount(), "it is still in contact");
    }
}
