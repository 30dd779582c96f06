package org.hapticsd.physics;

import static org.hapticsd.physics.SpherePlaneContactTest.assertVector;
import static org.hapticsd.physics.Tolerances.FORCE_RELATIVE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.joml.Quaterniond;
import org.joml.Vector3d;
import org.junit.jupiter.api.Test;

class PenaltyForceTest {

    private static final double TOOL_RADIUS_M = 0.01;
    private static final double DT_S = 0.001;

    @Test
    void shouldRenderStiffnessTimesDepthExactlyWithoutDamping() {
        double stiffnessNpm = 1500.0;
        PhysicsWorld world = new PhysicsWorld(new PenaltyContactSettings(stiffnessNpm, 0.0));
        world.addStaticBody("ramp", new PlaneShape(new Vector3d(0.2, -0.3, 1.0)), new Vector3d(0.01, 0.02, 0.03),
                new Quaterniond().rotationAxis(0.3, 1.0, 1.0, 0.0));
        int tool = world.addTool("tool", TOOL_RADIUS_M);
        Vector3d forceN = new Vector3d();
        Vector3d velocityMps = new Vector3d(0.05, -0.2, -0.1);
        for (int i = 0; i <= 20; i++) {
            // Walk the centre down through the plane: depths from below 0 to well inside.
            world.setToolState(tool, new Vector3d(0.01, 0.02, 0.045 - 0.002 * i), velocityMps);
            world.step(DT_S);
            if (world.contactCount() == 0) {
                continue;
            }
            Contact contact = world.contact(0);
            world.contactForceOnBody(tool, forceN);
            double expectedN = stiffnessNpm * contact.depthM();
            assertEquals(expectedN, forceN.length(), FORCE_RELATIVE * expectedN, "step " + i);
            assertEquals(expectedN, forceN.dot(contact.normal()), FORCE_RELATIVE * expectedN, "along the normal");
        }
        assertEquals(1, world.contactCount(), "the walk must end in contact for the loop to have tested something");
    }

    @Test
    void shouldAddDampingTimesPenetrationRate() {
        double stiffnessNpm = 1000.0;
        double dampingNspm = 2.0;
        PhysicsWorld world = floorWorld(stiffnessNpm, dampingNspm);
        int tool = 1;
        // 4 mm deep, moving down into the floor at 0.1 m/s and sideways at 0.3 m/s (sideways adds nothing).
        world.setToolState(tool, new Vector3d(0.0, 0.0, 0.006), new Vector3d(0.3, 0.0, -0.1));
        world.step(DT_S);

        Contact contact = world.contact(0);
        assertEquals(0.1, contact.normalSpeedMps(), 1e-15, "1e-15 m/s: one negation of a stored 0.1");
        double expectedN = stiffnessNpm * 0.004 + dampingNspm * 0.1;
        Vector3d forceN = world.contactForceOnBody(tool, new Vector3d());
        assertVector(new Vector3d(0, 0, expectedN), forceN, FORCE_RELATIVE * expectedN);
        assertVector(forceN, contact.forceN(), 0.0);
    }

    @Test
    void shouldRenderZeroNotPullWhenSeparatingFast() {
        PhysicsWorld world = floorWorld(1000.0, 2.0);
        int tool = 1;
        // k·d = 1 N, b·ḋ = 2·(-10) = -20 N: the clamp must give 0 N, not a 19 N pull into the floor.
        world.setToolState(tool, new Vector3d(0.0, 0.0, 0.009), new Vector3d(0.0, 0.0, 10.0));
        world.step(DT_S);

        assertEquals(1, world.contactCount(), "still penetrating, so still a contact");
        assertEquals(-10.0, world.contact(0).normalSpeedMps(), 0.0);
        Vector3d forceN = world.contactForceOnBody(tool, new Vector3d());
        assertEquals(0.0, forceN.length(), 0.0);
    }

    @Test
    void shouldNeverPullForAnyVelocity() {
        PhysicsWorld world = floorWorld(1000.0, 5.0);
        int tool = 1;
        Vector3d forceN = new Vector3d();
        for (int i = -50; i <= 50; i++) {
            world.setToolState(tool, new Vector3d(0.0, 0.0, 0.005), new Vector3d(0.0, 0.01 * i, 0.1 * i));
            world.step(DT_S);
            world.contactForceOnBody(tool, forceN);
            assertTrue(forceN.z >= 0.0, "force along the floor normal must be >= 0, was " + forceN.z);
        }
    }

    @Test
    void shouldSumForcesOfSeveralContactsInACorner() {
        double stiffnessNpm = 1000.0;
        PhysicsWorld world = new PhysicsWorld(new PenaltyContactSettings(stiffnessNpm, 0.0));
        world.addStaticBody("floor", new PlaneShape(new Vector3d(0, 0, 1)), new Vector3d(), new Quaterniond());
        world.addStaticBody("wall", new PlaneShape(new Vector3d(1, 0, 0)), new Vector3d(), new Quaterniond());
        int tool = world.addTool("tool", TOOL_RADIUS_M);
        // 6 mm into the wall, 3 mm into the floor.
        world.setToolState(tool, new Vector3d(0.004, 0.5, 0.007), new Vector3d());
        world.step(DT_S);

        assertEquals(2, world.contactCount());
        Vector3d sumN = new Vector3d();
        for (int i = 0; i < world.contactCount(); i++) {
            sumN.add(world.contact(i).forceN());
        }
        Vector3d forceN = world.contactForceOnBody(tool, new Vector3d());
        assertVector(new Vector3d(stiffnessNpm * 0.006, 0.0, stiffnessNpm * 0.003), forceN, FORCE_RELATIVE * 6.0);
        assertVector(sumN, forceN, 0.0);
    }

    @Test
    void shouldPushStaticBodyBackWithOppositeForceAndItsMoment() {
        double stiffnessNpm = 1000.0;
        PhysicsWorld world = floorWorld(stiffnessNpm, 0.0);
        int floor = 0;
        int tool = 1;
        world.setToolState(tool, new Vector3d(0.2, 0.0, 0.005), new Vector3d());
        world.step(DT_S);

        // 5 N up on the tool; 5 N down on the floor at (0.2, 0, 0): moment (0.2, 0, 0) × (0, 0, -5) = (0, 1, 0).
        assertVector(new Vector3d(0, 0, 5.0), world.contactForceOnBody(tool, new Vector3d()), FORCE_RELATIVE * 5.0);
        assertVector(new Vector3d(0, 0, -5.0), world.contactForceOnBody(floor, new Vector3d()),
                FORCE_RELATIVE * 5.0);
        assertVector(new Vector3d(0, 1.0, 0), world.contactTorqueOnBody(floor, new Vector3d()), 1e-12);
        assertEquals(new Vector3d(), world.contactTorqueOnBody(tool, new Vector3d()),
                "a normal force through the sphere centre has no moment: exactly zero");
    }

    @Test
    void shouldClearForcesWhenContactEnds() {
        PhysicsWorld world = floorWorld(1000.0, 0.0);
        int tool = 1;
        world.setToolState(tool, new Vector3d(0.0, 0.0, 0.005), new Vector3d());
        world.step(DT_S);
        world.setToolState(tool, new Vector3d(0.0, 0.0, 0.5), new Vector3d());
        world.step(DT_S);
        assertEquals(0, world.contactCount());
        assertEquals(new Vector3d(), world.contactForceOnBody(tool, new Vector3d()));
        assertEquals(new Vector3d(), world.contactForceOnBody(0, new Vector3d()));
        assertEquals(new Vector3d(), world.contactTorqueOnBody(0, new Vector3d()));
    }

    /** Floor plane z = 0 as body 0, tool of radius 1 cm as body 1. */
    private static PhysicsWorld floorWorld(double stiffnessNpm, double dampingNspm) {
        PhysicsWorld world = new PhysicsWorld(new PenaltyContactSettings(stiffnessNpm, dampingNspm));
        world.addStaticBody("floor", new PlaneShape(new Vector3d(0, 0, 1)), new Vector3d(), new Quaterniond());
        world.addTool("tool", TOOL_RADIUS_M);
        return world;
    }
}
