package org.hapticsd.physics.collision;

import static org.hapticsd.physics.collision.Contacts.DIRECTION;
import static org.hapticsd.physics.collision.Contacts.LENGTH_M;
import static org.hapticsd.physics.collision.Contacts.assertNormal;
import static org.hapticsd.physics.collision.Contacts.assertPoint;
import static org.hapticsd.physics.collision.Contacts.pose;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.hapticsd.physics.BoxShape;
import org.hapticsd.physics.CapsuleShape;
import org.hapticsd.physics.PlaneShape;
import org.hapticsd.physics.SphereShape;
import org.hapticsd.physics.geometry.Transform;
import org.joml.Vector3d;
import org.junit.jupiter.api.Test;

/**
 * Capsule contacts against spheres, capsules, planes and boxes: the side and cap regions, crossing and parallel
 * cores, and the two-point line contacts of a capsule lying on a plane, a box face or another capsule.
 */
class CapsuleContactsTest {
    private static final double HALF_PI = Math.PI / 2;

    private final Narrowphase narrowphase = new Narrowphase();
    private final ContactManifold manifold = new ContactManifold();
    /** Core from z = −0.1 to +0.1 (body frame), radius 0.05. */
    private final CapsuleShape capsule = new CapsuleShape(0.05, 0.1);
    private final SphereShape ball = new SphereShape(0.05);

    @Test
    void shouldPushSphereSidewaysOffCapsuleSide() {
        assertTrue(narrowphase.collide(ball, pose(0.09, 0, 0.03), capsule, pose(0, 0, 0), manifold));
        assertEquals(1, manifold.pointCount());
        assertNormal(manifold, 1, 0, 0, DIRECTION);
        assertPoint(manifold, 0.05, 0, 0.03, 0.01, LENGTH_M);
    }

    @Test
    void shouldPushSphereAlongAxisOffCapsuleCap() {
        // Cap centre at z = 0.1; sphere centre 0.09 above it: depth 0.05 + 0.05 − 0.09.
        assertTrue(narrowphase.collide(ball, pose(0, 0, 0.19), capsule, pose(0, 0, 0), manifold));
        assertNormal(manifold, 0, 0, 1, DIRECTION);
        assertPoint(manifold, 0, 0, 0.15, 0.01, LENGTH_M);
    }

    @Test
    void shouldFollowCapsuleTurnedAboutY() {
        // Turned 90° about y the core runs along x; the sphere sits above its middle.
        Transform lying = pose(0.2, 0, 0, HALF_PI, 0, 1, 0);
        assertTrue(narrowphase.collide(ball, pose(0.25, 0, 0.098), capsule, lying, manifold));
        assertNormal(manifold, 0, 0, 1, DIRECTION);
        assertPoint(manifold, 0.25, 0, 0.05, 0.002, LENGTH_M);
        assertFalse(narrowphase.collide(ball, pose(0.25, 0, 0.101), capsule, lying, manifold));
    }

    @Test
    void shouldTouchAtOnePointWhenCoresCross() {
        // A along x at height 0.099, B along y at the origin: cores cross 0.099 apart, radii sum 0.1.
        Transform a = pose(0.01, 0.02, 0.099, HALF_PI, 0, 1, 0);
        Transform b = pose(0.01, 0.02, 0, HALF_PI, 1, 0, 0);
        assertTrue(narrowphase.collide(capsule, a, capsule, b, manifold));
        assertEquals(1, manifold.pointCount());
        assertNormal(manifold, 0, 0, 1, DIRECTION);
        assertPoint(manifold, 0.01, 0.02, 0.05, 0.001, LENGTH_M);
    }

    @Test
    void shouldTouchAtOverlapEndsWhenParallelCapsulesLieOnEachOther() {
        // Both along x, A shifted +0.05 in x: the overlap of the cores is x in [−0.05, 0.1] (A from −0.05 to 0.15,
        // B from −0.1 to 0.1). A lies 0.097 above B: depth 0.003 at both ends.
        Transform a = pose(0.05, 0, 0.097, HALF_PI, 0, 1, 0);
        Transform b = pose(0, 0, 0, HALF_PI, 0, 1, 0);
        assertTrue(narrowphase.collide(capsule, a, capsule, b, manifold));
        assertEquals(2, manifold.pointCount());
        assertNormal(manifold, 0, 0, 1, DIRECTION);
        assertPoint(manifold, -0.05, 0, 0.05, 0.003, LENGTH_M);
        assertPoint(manifold, 0.1, 0, 0.05, 0.003, LENGTH_M);
    }

    @Test
    void shouldMeasureEachOverlapEndWhenCapsulesAreSlightlyTilted() {
        // A short capsule (core ±0.05) tilted by 0.005 rad about y (inside the 0.01 parallel band) above the middle
        // of B (core ±0.1): both of A's core ends are over B, at heights 0.097 ∓ 0.05·sin(tilt). The shared normal
        // is exactly +z (the middle of the overlap is straight above B's core), so each end's depth is
        // 0.1 − its height, and the points lie on B's top line below A's ends.
        double tilt = 0.005;
        CapsuleShape shortCapsule = new CapsuleShape(0.05, 0.05);
        Transform a = pose(0, 0, 0.097, HALF_PI + tilt, 0, 1, 0);
        Transform b = pose(0, 0, 0, HALF_PI, 0, 1, 0);
        assertTrue(narrowphase.collide(shortCapsule, a, capsule, b, manifold));
        assertEquals(2, manifold.pointCount());
        assertNormal(manifold, 0, 0, 1, DIRECTION);
        double x = 0.05 * Math.cos(tilt);
        double rise = 0.05 * Math.sin(tilt);
        assertPoint(manifold, x, 0, 0.05, 0.003 + rise, LENGTH_M);
        assertPoint(manifold, -x, 0, 0.05, 0.003 - rise, LENGTH_M);
    }

    @Test
    void shouldTouchAtBothEndsWhenCapsuleLiesOnPlane() {
        Transform lying = pose(0.3, -0.2, 0.048, HALF_PI, 1, 0, 0);
        PlaneShape floor = new PlaneShape(new Vector3d(0, 0, 1));
        assertTrue(narrowphase.collide(capsule, lying, floor, pose(0, 0, 0), manifold));
        assertEquals(2, manifold.pointCount());
        assertNormal(manifold, 0, 0, 1, DIRECTION);
        // Turned 90° about x the core runs along y.
        assertPoint(manifold, 0.3, -0.3, 0, 0.002, LENGTH_M);
        assertPoint(manifold, 0.3, -0.1, 0, 0.002, LENGTH_M);
    }

    @Test
    void shouldTouchAtLowerEndWhenCapsuleStandsOnTiltedPlane() {
        // Plane through (0, 0, 1) turned 0.4 rad about y; the capsule stands along the plane normal, its lower
        // ball 0.047 above the plane: one point, depth 0.003.
        Transform plane = pose(0, 0, 1, 0.4, 0, 1, 0);
        Vector3d n = new Vector3d(Math.sin(0.4), 0, Math.cos(0.4));
        Vector3d centre = new Vector3d(n).mul(0.1 + 0.047).add(0, 0, 1);
        Transform standing = pose(centre.x, centre.y, centre.z, 0.4, 0, 1, 0);
        assertTrue(narrowphase.collide(capsule, standing, new PlaneShape(new Vector3d(0, 0, 1)), plane, manifold));
        assertEquals(1, manifold.pointCount());
        assertNormal(manifold, n.x, n.y, n.z, DIRECTION);
        assertPoint(manifold, 0, 0, 1, 0.003, LENGTH_M);
    }

    @Test
    void shouldTouchAtTwoPointsWhenCapsuleLiesOnBoxFace() {
        BoxShape box = new BoxShape(0.3, 0.3, 0.1);
        Transform lying = pose(0.05, 0.02, 0.1 + 0.045, HALF_PI, 0, 1, 0);
        assertTrue(narrowphase.collide(capsule, lying, box, pose(0, 0, 0), manifold));
        assertEquals(2, manifold.pointCount());
        assertNormal(manifold, 0, 0, 1, DIRECTION);
        assertPoint(manifold, -0.05, 0.02, 0.1, 0.005, LENGTH_M);
        assertPoint(manifold, 0.15, 0.02, 0.1, 0.005, LENGTH_M);
    }

    @Test
    void shouldClipLineContactAtBoxEdgeWhenCapsuleOverhangs() {
        // Core from x = 0.25 to 0.45 over a box ending at x = 0.3: the line contact runs from 0.25 to the edge.
        BoxShape box = new BoxShape(0.3, 0.3, 0.1);
        Transform lying = pose(0.35, 0, 0.1 + 0.045, HALF_PI, 0, 1, 0);
        assertTrue(narrowphase.collide(capsule, lying, box, pose(0, 0, 0), manifold));
        assertEquals(2, manifold.pointCount());
        assertNormal(manifold, 0, 0, 1, DIRECTION);
        assertPoint(manifold, 0.25, 0, 0.1, 0.005, LENGTH_M);
        assertPoint(manifold, 0.3, 0, 0.1, 0.005, LENGTH_M);
    }

    @Test
    void shouldPushCapsuleOffBoxEdgeAlongTheDiagonal() {
        // Core along y, parallel to the box's top +x edge, beside and above it at 45°: one edge point.
        BoxShape box = new BoxShape(0.3, 0.3, 0.1);
        double offset = 0.048 / Math.sqrt(2.0);
        Transform beside = pose(0.3 + offset, 0, 0.1 + offset, HALF_PI, 1, 0, 0);
        assertTrue(narrowphase.collide(capsule, beside, box, pose(0, 0, 0), manifold));
        assertEquals(1, manifold.pointCount());
        double c = Math.sqrt(0.5);
        assertNormal(manifold, c, 0, c, DIRECTION);
        assertEquals(0.002, manifold.depth(0), LENGTH_M);
        assertEquals(0.3, manifold.point(0).x(), LENGTH_M);
        assertEquals(0.1, manifold.point(0).z(), LENGTH_M);
    }

    @Test
    void shouldPushCoreOutThroughNearestFaceWhenCapsuleIsInsideBox() {
        // Standing capsule whose core reaches 0.02 below the box top: least penetration is up through the top face,
        // depth 0.02 + radius.
        BoxShape box = new BoxShape(0.3, 0.3, 0.1);
        assertTrue(narrowphase.collide(capsule, pose(0.1, 0.05, 0.18), box, pose(0, 0, 0), manifold));
        assertNormal(manifold, 0, 0, 1, DIRECTION);
        assertEquals(1, manifold.pointCount());
        assertPoint(manifold, 0.1, 0.05, 0.1, 0.07, LENGTH_M);
    }

    @Test
    void shouldReportNothingWhenCapsuleIsClearOfBox() {
        BoxShape box = new BoxShape(0.3, 0.3, 0.1);
        assertFalse(narrowphase.collide(capsule, pose(0.05, 0.02, 0.1 + 0.051, HALF_PI, 0, 1, 0), box,
            pose(0, 0, 0), manifold));
        assertFalse(narrowphase.collide(capsule, pose(0.3 + 0.036, 0, 0.1 + 0.036, HALF_PI, 1, 0, 0), box,
            pose(0, 0, 0), manifold));
    }
}
