package org.hapticsd.physics;

import static org.hapticsd.physics.SpherePlaneContactTest.assertVector;
import static org.hapticsd.physics.Tolerances.DIRECTION;
import static org.hapticsd.physics.Tolerances.LENGTH_M;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.joml.Quaterniond;
import org.joml.Quaterniondc;
import org.joml.Vector3d;
import org.joml.Vector3dc;
import org.junit.jupiter.api.Test;

/**
 * Sphere (radius 1 cm) against a box of half extents 10 × 5 × 2 cm, axis-aligned and turned. Offsets and
 * expected values are written in the box frame and turned into the world with the box orientation.
 */
class SphereBoxContactTest {

    private static final double TOOL_RADIUS_M = 0.01;
    private static final double HALF_X_M = 0.1;
    private static final double HALF_Y_M = 0.05;
    private static final double HALF_Z_M = 0.02;
    private static final Vector3d BOX_POSITION_M = new Vector3d(0.1, 0.0, 0.05);
    private static final Quaterniondc TURNED = new Quaterniond().rotationAxis(0.7, 1.0, 2.0, 3.0);

    private final PhysicsWorld world = new PhysicsWorld(new PenaltyContactSettings(1000.0, 0.0));
    private int tool;

    @Test
    void shouldPushOutOfFaceAlongFaceNormal() {
        Contact contact = touch(new Quaterniond(), new Vector3d(0.0, 0.0, HALF_Z_M + 0.004));
        assertEquals(0.006, contact.depthM(), LENGTH_M);
        assertVector(new Vector3d(0, 0, 1), contact.normal(), DIRECTION);
        assertVector(world(new Quaterniond(), new Vector3d(0.0, 0.0, HALF_Z_M)), contact.point(), LENGTH_M);
    }

    @Test
    void shouldPushAwayFromEdgeAlongTheLineToTheClosestEdgePoint() {
        // 3 mm past the +x face and 4 mm above the +z face: 5 mm from the edge, direction (0.6, 0, 0.8).
        Contact contact = touch(new Quaterniond(), new Vector3d(HALF_X_M + 0.003, 0.01, HALF_Z_M + 0.004));
        assertEquals(0.005, contact.depthM(), LENGTH_M);
        assertVector(new Vector3d(0.6, 0, 0.8), contact.normal(), DIRECTION);
        assertVector(world(new Quaterniond(), new Vector3d(HALF_X_M, 0.01, HALF_Z_M)), contact.point(), LENGTH_M);
    }

    @Test
    void shouldPushAwayFromCornerAlongTheLineToTheCorner() {
        // Offset (2, 3, 6)·1 mm past the corner: 7 mm away, direction (2, 3, 6)/7.
        Contact contact = touch(new Quaterniond(),
                new Vector3d(HALF_X_M + 0.002, -(HALF_Y_M + 0.003), HALF_Z_M + 0.006));
        assertEquals(0.003, contact.depthM(), LENGTH_M);
        assertVector(new Vector3d(2.0 / 7.0, -3.0 / 7.0, 6.0 / 7.0), contact.normal(), DIRECTION);
        assertVector(world(new Quaterniond(), new Vector3d(HALF_X_M, -HALF_Y_M, HALF_Z_M)), contact.point(),
                LENGTH_M);
    }

    @Test
    void shouldReportNoContactNearCornerWhenBoundsOverlapButSphereMissesTheBox() {
        // 8 mm past two faces: within the tool's bounding box reach (1 cm per axis) but 11.3 mm from the edge.
        Contact contact = touchOrNull(new Quaterniond(),
                new Vector3d(HALF_X_M + 0.008, HALF_Y_M + 0.008, 0.0));
        assertEquals(null, contact);
    }

    @Test
    void shouldReportNoContactAtExactlyTouchingFace() {
        // Dyadic sizes make the arithmetic exact: centre at 0.75, face at 0.5, radius 0.25 gives depth 0.
        PhysicsWorld exact = new PhysicsWorld(new PenaltyContactSettings(1000.0, 0.0));
        exact.addStaticBody("box", new BoxShape(0.5, 0.5, 0.5), new Vector3d(), new Quaterniond());
        int exactTool = exact.addTool("tool", 0.25);
        exact.setToolState(exactTool, new Vector3d(0.0, 0.0, 0.75), new Vector3d());
        exact.step(0.001);
        assertEquals(0, exact.contactCount());
    }

    @Test
    void shouldExitThroughFaceOfLeastPenetrationWhenCentreIsInside() {
        // Inside: 1 cm from +x, 5 cm from ±y, 2 cm from ±z: +x is the nearest exit.
        Contact contact = touch(new Quaterniond(), new Vector3d(0.09, 0.0, 0.0));
        assertEquals(TOOL_RADIUS_M + 0.01, contact.depthM(), LENGTH_M);
        assertVector(new Vector3d(1, 0, 0), contact.normal(), DIRECTION);
        assertVector(world(new Quaterniond(), new Vector3d(HALF_X_M, 0.0, 0.0)), contact.point(), LENGTH_M);
    }

    @Test
    void shouldExitThroughNegativeFaceWhenCentreIsNearIt() {
        // Inside: 10 mm from -y, 15 mm from +z, 10 cm from ±x: -y is the nearest exit.
        Contact contact = touch(new Quaterniond(), new Vector3d(0.0, -0.04, 0.005));
        assertEquals(TOOL_RADIUS_M + 0.01, contact.depthM(), LENGTH_M);
        assertVector(new Vector3d(0, -1, 0), contact.normal(), DIRECTION);
        assertVector(world(new Quaterniond(), new Vector3d(0.0, -HALF_Y_M, 0.005)), contact.point(), LENGTH_M);
    }

    @Test
    void shouldExitThroughPositiveThinFaceWhenCentreIsAtBoxCentre() {
        // At the centre the thinnest half extent (z, 2 cm) wins, and a centre on the mid-plane exits on +.
        Contact contact = touch(new Quaterniond(), new Vector3d());
        assertEquals(TOOL_RADIUS_M + HALF_Z_M, contact.depthM(), LENGTH_M);
        assertVector(new Vector3d(0, 0, 1), contact.normal(), DIRECTION);
    }

    @Test
    void shouldTurnFaceContactWithTheBox() {
        Contact contact = touch(TURNED, new Vector3d(0.03, -0.02, HALF_Z_M + 0.004));
        assertEquals(0.006, contact.depthM(), LENGTH_M);
        assertVector(TURNED.transform(new Vector3d(0, 0, 1), new Vector3d()), contact.normal(), DIRECTION);
        assertVector(world(TURNED, new Vector3d(0.03, -0.02, HALF_Z_M)), contact.point(), LENGTH_M);
    }

    @Test
    void shouldTurnEdgeContactWithTheBox() {
        Contact contact = touch(TURNED, new Vector3d(-(HALF_X_M + 0.003), 0.0, HALF_Z_M + 0.004));
        assertEquals(0.005, contact.depthM(), LENGTH_M);
        assertVector(TURNED.transform(new Vector3d(-0.6, 0, 0.8), new Vector3d()), contact.normal(), DIRECTION);
        assertVector(world(TURNED, new Vector3d(-HALF_X_M, 0.0, HALF_Z_M)), contact.point(), LENGTH_M);
    }

    @Test
    void shouldTurnInsideContactWithTheBox() {
        Contact contact = touch(TURNED, new Vector3d(0.0, 0.035, 0.0));
        // 15 mm from +y, 20 mm from ±z: +y is the exit.
        assertEquals(TOOL_RADIUS_M + 0.015, contact.depthM(), LENGTH_M);
        assertVector(TURNED.transform(new Vector3d(0, 1, 0), new Vector3d()), contact.normal(), DIRECTION);
        assertVector(world(TURNED, new Vector3d(0.0, HALF_Y_M, 0.0)), contact.point(), LENGTH_M);
    }

    @Test
    void shouldTouchStaticSphereAlongTheLineOfCentres() {
        PhysicsWorld spheres = new PhysicsWorld(new PenaltyContactSettings(1000.0, 0.0));
        spheres.addStaticBody("ball", new SphereShape(0.05), new Vector3d(), new Quaterniond());
        int sphereTool = spheres.addTool("tool", TOOL_RADIUS_M);
        spheres.setToolState(sphereTool, new Vector3d(0.03, 0.04, 0.0), new Vector3d());
        spheres.step(0.001);
        Contact contact = spheres.contact(0);
        assertEquals(0.01, contact.depthM(), LENGTH_M);
        assertVector(new Vector3d(0.6, 0.8, 0), contact.normal(), DIRECTION);
        assertVector(new Vector3d(0.03, 0.04, 0), contact.point(), LENGTH_M);
    }

    private Contact touch(Quaterniondc orientation, Vector3dc offsetInBoxM) {
        Contact contact = touchOrNull(orientation, offsetInBoxM);
        assertEquals(1, world.contactCount());
        return contact;
    }

    private Contact touchOrNull(Quaterniondc orientation, Vector3dc offsetInBoxM) {
        world.addStaticBody("box", new BoxShape(HALF_X_M, HALF_Y_M, HALF_Z_M), BOX_POSITION_M, orientation);
        tool = world.addTool("tool", TOOL_RADIUS_M);
        world.setToolState(tool, world(orientation, offsetInBoxM), new Vector3d());
        world.step(0.001);
        return world.contactCount() == 0 ? null : world.contact(0);
    }

    private static Vector3d world(Quaterniondc orientation, Vector3dc inBoxM) {
        return orientation.transform(inBoxM, new Vector3d()).add(BOX_POSITION_M);
    }
}
