package org.hapticsd.physics;

import static org.hapticsd.physics.Tolerances.FORCE_RELATIVE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.hapticsd.physics.dynamics.SolidInertia;
import org.joml.Matrix3d;
import org.joml.Quaterniond;
import org.joml.Vector3d;
import org.junit.jupiter.api.Test;

/**
 * The haptic tool among dynamic bodies: what it renders against walls, and how it pushes and feels a box in each
 * contact mode. {@link PhysicsWorld#contactForceOnBody} on the tool is the force the server renders.
 */
class ToolContactTest {

    private static final double DT_S = 0.001;
    private static final double G_MPS2 = 9.81;
    private static final double TOOL_RADIUS_M = 0.01;
    private static final double HALF_M = 0.05;
    private static final double MASS_KG = 1.0;
    private static final double MU = 0.3;

    @Test
    void shouldRenderStiffnessTimesDepthOnStaticPlaneInAnLcpScene() {
        // The scene mode stays the default LCP: a tool against a static body is resolved as PENALTY regardless.
        double stiffnessNpm = 1500.0;
        PhysicsWorld world = new PhysicsWorld(ContactSettings.defaults()
                .withPenalty(new PenaltyContactSettings(stiffnessNpm, 0.0)));
        world.addStaticBody("floor", new PlaneShape(new Vector3d(0, 0, 1)), new Vector3d(), new Quaterniond());
        int tool = world.addTool("tool", TOOL_RADIUS_M);
        world.setToolState(tool, new Vector3d(0.0, 0.0, 0.004), new Vector3d(0.3, 0.0, -0.2));
        world.step(DT_S);
        Contact contact = world.contact(0);
        assertEquals(ContactMode.PENALTY, contact.mode(), "a tool against a wall is always a rendered spring");
        double expectedN = stiffnessNpm * 0.006;
        Vector3d forceN = world.contactForceOnBody(tool, new Vector3d());
        assertEquals(expectedN, forceN.z, FORCE_RELATIVE * expectedN, "k·d, frictionless by default");
        assertEquals(0.0, Math.hypot(forceN.x, forceN.y), 0.0, "no friction from the default material");
    }

    @Test
    void shouldPushBoxInLcpModeAndFeelFrictionAsTheReaction() {
        Pushing pushing = new Pushing(ContactMode.LCP);
        pushing.run(1000);
        Vector3d boxVelocity = pushing.world.bodyLinearVelocity(pushing.box, new Vector3d());
        // The tool is an infinite mass: after the push has begun, the box moves with it along the normal.
        assertEquals(Pushing.SPEED_MPS, boxVelocity.x, 1e-6, "box follows the tool");
        // Each step friction takes μ·m·g·Δt from the box and the tool's impulse gives it back: the force on the tool
        // is −μ·m·g along x (the impulse over Δt), to the solver's residual (1e-9 relative).
        Vector3d toolForceN = pushing.world.contactForceOnBody(pushing.tool, new Vector3d());
        assertEquals(-MU * MASS_KG * G_MPS2, toolForceN.x, 1e-9 * MASS_KG * G_MPS2, "reaction on the tool");
        pushing.assertNewtonsThirdLaw();
    }

    @Test
    void shouldPushBoxInPenaltyModeWithEqualAndOppositeSpringForces() {
        Pushing pushing = new Pushing(ContactMode.PENALTY);
        pushing.run(1000);
        assertTrue(pushing.world.bodyPosition(pushing.box, new Vector3d()).x > 0.05, "the box was pushed along");
        Vector3d toolForceN = pushing.world.contactForceOnBody(pushing.tool, new Vector3d());
        assertTrue(toolForceN.x < 0.0, "the box pushes back on the tool: " + toolForceN);
        for (int i = 0; i < pushing.world.contactCount(); i++) {
            Contact contact = pushing.world.contact(i);
            if (contact.bodyA() == pushing.tool) {
                assertEquals(ContactMode.PENALTY, contact.mode());
            }
        }
        pushing.assertNewtonsThirdLaw();
        // Averaged over the last 200 ms the spring delivers what friction takes, μ·m·g: 2 % for the spring's
        // ripple (its oscillation is damped by b but not gone between steps).
        double sumN = 0.0;
        for (int i = 0; i < 200; i++) {
            pushing.run(1);
            sumN += pushing.world.contactForceOnBody(pushing.tool, new Vector3d()).x;
        }
        assertEquals(-MU * MASS_KG * G_MPS2, sumN / 200.0, 0.02 * MU * MASS_KG * G_MPS2, "mean reaction");
    }

    @Test
    void shouldMoveBoxWithAScriptedKinematicPusher() {
        PhysicsWorld world = new PhysicsWorld(ContactSettings.defaults());
        world.addStaticBody("floor", new PlaneShape(new Vector3d(0, 0, 1)), new Vector3d(), new Quaterniond());
        int box = world.addDynamicBody("box", new BoxShape(HALF_M, HALF_M, HALF_M), new Vector3d(0, 0, HALF_M - 1e-4),
                new Quaterniond(), MASS_KG, SolidInertia.box(MASS_KG, HALF_M, HALF_M, HALF_M, new Matrix3d()),
                Material.DEFAULT);
        int pusher = world.addKinematicBody("pusher", new SphereShape(0.02), new Vector3d(-0.1, 0, HALF_M),
                new Quaterniond(), Material.DEFAULT);
        double speedMps = 0.05;
        Vector3d positionM = new Vector3d();
        Vector3d velocityMps = new Vector3d(speedMps, 0, 0);
        for (int i = 0; i < 2000; i++) {
            positionM.set(-0.1 + speedMps * i * DT_S, 0, HALF_M);
            world.setKinematicState(pusher, positionM, new Quaterniond(), velocityMps, new Vector3d());
            world.step(DT_S);
        }
        // Frictionless floor, e = 0: once reached the box keeps the pusher's speed exactly (one LCP row).
        assertEquals(speedMps, world.bodyLinearVelocity(box, new Vector3d()).x, 1e-9, "box speed");
        assertEquals(positionM, world.bodyPosition(pusher, new Vector3d()), "contacts never move a kinematic body");
    }

    /** A box on a floor with friction μ, pushed at mid-height along +x by a tool moving at constant speed. */
    private static final class Pushing {
        static final double SPEED_MPS = 0.2;
        final PhysicsWorld world;
        final int box;
        final int tool;
        private int step;

        Pushing(ContactMode toolBoxMode) {
            world = new PhysicsWorld(ContactSettings.defaults()
                    .withPenalty(new PenaltyContactSettings(3000.0, 20.0)));
            // Contacts use the mean of the two materials: a floor of 2μ and a frictionless box give μ on the floor
            // and a frictionless contact with the (default, frictionless) tool.
            world.addStaticBody("floor", new PlaneShape(new Vector3d(0, 0, 1)), new Vector3d(), new Quaterniond(),
                    new Material(0.0, 2 * MU, 2 * MU));
            box = world.addDynamicBody("box", new BoxShape(HALF_M, HALF_M, HALF_M),
                    new Vector3d(0, 0, HALF_M - 1e-4), new Quaterniond(), MASS_KG,
                    SolidInertia.box(MASS_KG, HALF_M, HALF_M, HALF_M, new Matrix3d()), Material.DEFAULT);
            tool = world.addTool("tool", TOOL_RADIUS_M);
            world.setPairContactMode(tool, box, toolBoxMode);
        }

        void run(int steps) {
            for (int i = 0; i < steps; i++) {
                double xM = -HALF_M - TOOL_RADIUS_M - 0.01 + SPEED_MPS * step * DT_S;
                world.setToolState(tool, new Vector3d(xM, 0, HALF_M), new Vector3d(SPEED_MPS, 0, 0));
                world.step(DT_S);
                step++;
            }
        }

        /** The tool's force is exactly the opposite of what its contacts exert on the box. */
        void assertNewtonsThirdLaw() {
            Vector3d onBoxFromToolN = new Vector3d();
            for (int i = 0; i < world.contactCount(); i++) {
                Contact contact = world.contact(i);
                if (contact.bodyA() == tool) {
                    assertEquals(box, contact.bodyB());
                    onBoxFromToolN.sub(contact.forceN());
                }
            }
            Vector3d toolForceN = world.contactForceOnBody(tool, new Vector3d());
            assertTrue(toolForceN.lengthSquared() > 0.0, "the tool touches the box");
            assertEquals(toolForceN, onBoxFromToolN.negate(), "tool force = −(force of the tool on the box)");
        }
    }
}
