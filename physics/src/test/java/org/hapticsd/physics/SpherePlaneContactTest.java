package org.hapticsd.physics;

import static org.hapticsd.physics.Tolerances.DIRECTION;
import static org.hapticsd.physics.Tolerances.LENGTH_M;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.joml.Quaterniond;
import org.joml.Vector3d;
import org.joml.Vector3dc;
import org.junit.jupiter.api.Test;

class SpherePlaneContactTest {

    private static final double TOOL_RADIUS_M = 0.01;
    private static final Vector3d AT_REST = new Vector3d();

    private final PhysicsWorld world = new PhysicsWorld(new PenaltyContactSettings(1000.0, 0.0));

    @Test
    void shouldMeasureDepthAlongFloorNormalAndPutPointUnderCentre() {
        int floor = world.addStaticBody("floor", new PlaneShape(new Vector3d(0, 0, 1)), new Vector3d(),
                new Quaterniond());
        int tool = world.addTool("tool", TOOL_RADIUS_M);
        world.setToolState(tool, new Vector3d(0.3, -0.2, 0.004), AT_REST);

        world.step(0.001);

        assertEquals(1, world.contactCount());
        Contact contact = world.contact(0);
        assertEquals(tool, contact.bodyA());
        assertEquals(floor, contact.bodyB());
        assertEquals(0.006, contact.depthM(), LENGTH_M);
        assertVector(new Vector3d(0, 0, 1), contact.normal(), DIRECTION);
        assertVector(new Vector3d(0.3, -0.2, 0.0), contact.point(), LENGTH_M);
    }

    @Test
    void shouldPushAlongTiltedPlaneNormalAndProjectCentreOntoThePlane() {
        double tilt = Math.toRadians(30.0);
        Vector3d planePositionM = new Vector3d(0.1, 0.2, 0.3);
        world.addStaticBody("ramp", new PlaneShape(new Vector3d(0, 0, 1)), planePositionM,
                // rotationAxis, not rotationX: JOML 1.10.8's Quaterniond.rotationX writes cos into z instead of w
                // (JOML-CI/JOML#355).
                new Quaterniond().rotationAxis(tilt, 1.0, 0.0, 0.0));
        int tool = world.addTool("tool", TOOL_RADIUS_M);
        // +z turned 30° about x is (0, -sin 30°, cos 30°); (1, 0, 0) lies in the plane.
        Vector3d normal = new Vector3d(0.0, -Math.sin(tilt), Math.cos(tilt));
        Vector3d pointOnPlaneM = new Vector3d(planePositionM).add(0.05, 0.0, 0.0);
        world.setToolState(tool, new Vector3d(normal).mul(0.002).add(pointOnPlaneM), AT_REST);

        world.step(0.001);

        assertEquals(1, world.contactCount());
        Contact contact = world.contact(0);
        assertEquals(TOOL_RADIUS_M - 0.002, contact.depthM(), LENGTH_M);
        assertVector(normal, contact.normal(), DIRECTION);
        assertVector(pointOnPlaneM, contact.point(), LENGTH_M);
    }

    @Test
    void shouldUseNormalisedNormalWhenShapeIsGivenALongNormal() {
        world.addStaticBody("wall", new PlaneShape(new Vector3d(-5, 0, 0)), new Vector3d(0.2, 0, 0),
                new Quaterniond());
        int tool = world.addTool("tool", TOOL_RADIUS_M);
        world.setToolState(tool, new Vector3d(0.195, 0.0, 0.0), AT_REST);

        world.step(0.001);

        Contact contact = world.contact(0);
        assertEquals(0.005, contact.depthM(), LENGTH_M);
        assertVector(new Vector3d(-1, 0, 0), contact.normal(), DIRECTION);
        assertVector(new Vector3d(0.2, 0, 0), contact.point(), LENGTH_M);
    }

    @Test
    void shouldKeepPushingOutAlongNormalWhenCentreIsBehindThePlane() {
        world.addStaticBody("floor", new PlaneShape(new Vector3d(0, 0, 1)), new Vector3d(), new Quaterniond());
        int tool = world.addTool("tool", TOOL_RADIUS_M);
        world.setToolState(tool, new Vector3d(0.0, 0.1, -0.05), AT_REST);

        world.step(0.001);

        Contact contact = world.contact(0);
        assertEquals(0.06, contact.depthM(), LENGTH_M, "a half-space: depth is radius plus the distance behind");
        assertVector(new Vector3d(0, 0, 1), contact.normal(), DIRECTION);
        assertVector(new Vector3d(0.0, 0.1, 0.0), contact.point(), LENGTH_M);
    }

    @Test
    void shouldReportNoContactWhenSeparated() {
        world.addStaticBody("floor", new PlaneShape(new Vector3d(0, 0, 1)), new Vector3d(), new Quaterniond());
        int tool = world.addTool("tool", TOOL_RADIUS_M);
        world.setToolState(tool, new Vector3d(0.0, 0.0, 0.011), AT_REST);

        world.step(0.001);

        assertEquals(0, world.contactCount());
        assertEquals(new Vector3d(), world.contactForceOnBody(tool, new Vector3d()));
    }

    @Test
    void shouldReportNoContactAtExactlyTouchingDistance() {
        // Centre exactly one radius above the plane: the depth evaluates to exactly 0 (0.01 - 0.01), and a
        // contact requires depth > 0, so touching is not a contact and renders no force.
        world.addStaticBody("floor", new PlaneShape(new Vector3d(0, 0, 1)), new Vector3d(), new Quaterniond());
        int tool = world.addTool("tool", TOOL_RADIUS_M);
        world.setToolState(tool, new Vector3d(0.0, 0.0, TOOL_RADIUS_M), new Vector3d(0.0, 0.0, -1.0));

        world.step(0.001);

        assertEquals(0, world.contactCount());
        assertEquals(new Vector3d(), world.contactForceOnBody(tool, new Vector3d()));
    }

    static void assertVector(Vector3dc expected, Vector3dc actual, double tolerance) {
        assertEquals(expected.x(), actual.x(), tolerance, "x");
        assertEquals(expected.y(), actual.y(), tolerance, "y");
        assertEquals(expected.z(), actual.z(), tolerance, "z");
    }
}
