package org.hapticsd.physics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.hapticsd.physics.dynamics.SolidInertia;
import org.joml.Matrix3d;
import org.joml.Quaterniond;
import org.joml.Vector3d;
import org.junit.jupiter.api.Test;

/** Contact modes per pair, body, group and scene: precedence pair > body > group > scene, and what NONE means. */
class ContactModePrecedenceTest {

    private static final double R_M = 0.05;

    private final PhysicsWorld world = new PhysicsWorld(ContactSettings.defaults());
    private final int floor = world.addStaticBody("floor", new PlaneShape(new Vector3d(0, 0, 1)), new Vector3d(),
            new Quaterniond());
    private final int ball = addBall(new Vector3d(0, 0, R_M - 1e-4));
    private final int other = addBall(new Vector3d(0.09, 0, R_M - 1e-4));

    @Test
    void shouldUseLcpForEveryPairByDefault() {
        assertEquals(ContactMode.LCP, world.contactMode(ball, floor));
        assertEquals(ContactMode.LCP, world.contactMode(ball, other));
        world.step(0.001);
        assertEquals(3, world.contactCount(), "ball–floor, other–floor, ball–other");
    }

    @Test
    void shouldNeitherDetectNorPushWhenModeIsNone() {
        world.setSceneContactMode(ContactMode.NONE);
        for (int i = 0; i < 300; i++) {
            world.step(0.001);
            assertEquals(0, world.contactCount(), "step " + i);
            assertEquals(new Vector3d(), world.contactForceOnBody(ball, new Vector3d()));
        }
        assertTrue(world.bodyPosition(ball, new Vector3d()).z < -0.3, "falls through the floor");
    }

    @Test
    void shouldLetBodyModeOverrideSceneModeAsInSpringheadsFloorExample() {
        // Springhead manual §7.7: everything off, then the floor on against everything.
        world.setSceneContactMode(ContactMode.NONE);
        world.setBodyContactMode(floor, ContactMode.LCP);
        assertEquals(ContactMode.LCP, world.contactMode(ball, floor));
        assertEquals(ContactMode.NONE, world.contactMode(ball, other));
        run(500);
        assertEquals(2, world.contactCount(), "both balls on the floor, not on each other");
        assertEquals(R_M, world.bodyPosition(ball, new Vector3d()).z, 1e-3, "rests on the floor");
    }

    @Test
    void shouldLetPairModeOverrideBodyMode() {
        world.setBodyContactMode(floor, ContactMode.LCP);
        world.setPairContactMode(ball, floor, ContactMode.NONE);
        assertEquals(ContactMode.NONE, world.contactMode(ball, floor));
        assertEquals(ContactMode.NONE, world.contactMode(floor, ball), "a pair has no order");
        assertEquals(ContactMode.LCP, world.contactMode(other, floor));
        world.clearPairContactMode(ball, floor);
        assertEquals(ContactMode.LCP, world.contactMode(ball, floor), "cleared: the body setting again");
    }

    @Test
    void shouldLetGroupModeOverrideSceneModeButNotBodyMode() {
        world.setBodyGroup(ball, 7);
        world.setBodyGroup(other, 7);
        world.setGroupContactMode(7, ContactMode.PENALTY);
        assertEquals(ContactMode.PENALTY, world.contactMode(ball, other), "group over scene");
        assertEquals(ContactMode.LCP, world.contactMode(ball, floor), "the floor is not in the group");
        world.setBodyContactMode(other, ContactMode.NONE);
        assertEquals(ContactMode.NONE, world.contactMode(ball, other), "body over group");
        world.setBodyGroup(other, 0);
        world.clearBodyContactMode(other);
        assertEquals(ContactMode.LCP, world.contactMode(ball, other), "no longer in a shared group");
    }

    @Test
    void shouldLetTheLaterCallWinBetweenTwoBodySettings() {
        world.setBodyContactMode(ball, ContactMode.NONE);
        world.setBodyContactMode(floor, ContactMode.PENALTY);
        assertEquals(ContactMode.PENALTY, world.contactMode(ball, floor));
        world.setBodyContactMode(ball, ContactMode.NONE);
        assertEquals(ContactMode.NONE, world.contactMode(ball, floor));
    }

    @Test
    void shouldResolveEachPointWithItsPairsMode() {
        world.setPairContactMode(ball, floor, ContactMode.PENALTY);
        world.step(0.001);
        for (int i = 0; i < world.contactCount(); i++) {
            Contact contact = world.contact(i);
            boolean ballOnFloor = contact.bodyA() == ball && contact.bodyB() == floor;
            assertEquals(ballOnFloor ? ContactMode.PENALTY : ContactMode.LCP, contact.mode(), contact.toString());
        }
    }

    @Test
    void shouldRenderToolAgainstStaticOrKinematicInPenaltyAndSkipOtherPairsWithoutDynamicBody() {
        int tool = world.addTool("tool", 0.01);
        int secondTool = world.addTool("second tool", 0.01);
        int platform = world.addKinematicBody("platform", new BoxShape(0.1, 0.1, 0.01), new Vector3d(),
                new Quaterniond(), Material.DEFAULT);
        assertEquals(ContactMode.PENALTY, world.contactMode(tool, floor), "a tool's wall is a rendered spring");
        assertEquals(ContactMode.PENALTY, world.contactMode(tool, platform));
        assertEquals(ContactMode.NONE, world.contactMode(tool, secondTool), "tools never touch each other");
        assertEquals(ContactMode.NONE, world.contactMode(platform, floor), "nothing to move");
        assertEquals(ContactMode.LCP, world.contactMode(tool, ball), "a dynamic body takes the configured mode");
        world.setBodyContactMode(tool, ContactMode.NONE);
        assertEquals(ContactMode.NONE, world.contactMode(tool, floor), "NONE switches even a tool off");
    }

    @Test
    void shouldRejectInvalidModeSettings() {
        assertThrows(IllegalArgumentException.class, () -> world.setPairContactMode(ball, ball, ContactMode.LCP));
        assertThrows(IllegalArgumentException.class, () -> world.setGroupContactMode(0, ContactMode.LCP));
        assertThrows(IllegalArgumentException.class, () -> world.setBodyGroup(ball, -1));
        assertThrows(NullPointerException.class, () -> world.setSceneContactMode(null));
        assertThrows(IndexOutOfBoundsException.class, () -> world.setBodyContactMode(9, ContactMode.LCP));
    }

    private int addBall(Vector3d positionM) {
        return world.addDynamicBody("ball", new SphereShape(R_M), positionM, new Quaterniond(), 1.0,
                SolidInertia.sphere(1.0, R_M, new Matrix3d()), Material.DEFAULT);
    }

    private void run(int steps) {
        for (int i = 0; i < steps; i++) {
            world.step(0.001);
        }
    }
}
