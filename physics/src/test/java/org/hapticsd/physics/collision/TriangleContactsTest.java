package org.hapticsd.physics.collision;

import static org.hapticsd.physics.collision.Contacts.DIRECTION;
import static org.hapticsd.physics.collision.Contacts.LENGTH_M;
import static org.hapticsd.physics.collision.Contacts.assertNormal;
import static org.hapticsd.physics.collision.Contacts.assertPoint;
import static org.hapticsd.physics.collision.Contacts.assertSameContact;
import static org.hapticsd.physics.collision.Contacts.pose;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.hapticsd.physics.BoxShape;
import org.hapticsd.physics.CapsuleShape;
import org.hapticsd.physics.ConvexHullShape;
import org.hapticsd.physics.PlaneShape;
import org.hapticsd.physics.Shape;
import org.hapticsd.physics.SphereShape;
import org.hapticsd.physics.TriangleMeshShape;
import org.hapticsd.physics.geometry.Transform;
import org.hapticsd.physics.geometry.TriangleMesh;
import org.joml.Quaterniond;
import org.joml.Vector3d;
import org.junit.jupiter.api.Test;

/**
 * Shapes against one triangle (face, edge and vertex regions; one-sidedness) and against a triangle mesh (merging
 * the triangles' manifolds into the contact polygon).
 */
class TriangleContactsTest {
    private static final double DEPTH_M = 0.001;
    private static final double HALF_PI = Math.PI / 2;

    private final Narrowphase narrowphase = new Narrowphase();
    private final ContactManifold manifold = new ContactManifold();
    private final SphereShape ball = new SphereShape(0.1);
    private final CapsuleShape capsule = new CapsuleShape(0.05, 0.1);
    private final BoxShape box = new BoxShape(0.1, 0.1, 0.05);
    /** Floor of two triangles over [−1, 1]², sharing the diagonal y = x, facing +z. */
    private final TriangleMeshShape floor = new TriangleMeshShape(new TriangleMesh(
        new double[] {-1, -1, 0, 1, -1, 0, 1, 1, 0, -1, 1, 0}, new int[] {0, 1, 2, 0, 2, 3}));

    /** Triangle (−1, −1, 0), (1, −1, 0), (0, 1, 0), counter-clockwise seen from +z. */
    private boolean triangle(Shape a, Transform poseA) {
        return narrowphase.collideTriangle(a, poseA, -1, -1, 0, 1, -1, 0, 0, 1, 0, manifold);
    }

    @Test
    void shouldPushSphereAlongFaceNormalOverTheFace() {
        assertTrue(triangle(ball, pose(0.1, 0, 0.09)));
        assertEquals(1, manifold.pointCount());
        assertNormal(manifold, 0, 0, 1, DIRECTION);
        assertPoint(manifold, 0.1, 0, 0, 0.01, LENGTH_M);
    }

    @Test
    void shouldPushSphereAwayFromEdgeInTheEdgeRegion() {
        // Beyond edge y = −1: closest point (0.2, −1, 0), offset (0, −0.03, 0.04) of length 0.05.
        assertTrue(triangle(ball, pose(0.2, -1.03, 0.04)));
        assertNormal(manifold, 0, -0.6, 0.8, DIRECTION);
        assertPoint(manifold, 0.2, -1, 0, 0.05, LENGTH_M);
    }

    @Test
    void shouldPushSphereAwayFromVertexInTheVertexRegion() {
        // Offset (−0.02, −0.02, 0.01) from vertex (−1, −1, 0): in its Voronoi region, distance 0.03.
        assertTrue(triangle(ball, pose(-1.02, -1.02, 0.01)));
        assertNormal(manifold, -2.0 / 3, -2.0 / 3, 1.0 / 3, DIRECTION);
        assertPoint(manifold, -1, -1, 0, 0.07, LENGTH_M);
    }

    @Test
    void shouldIgnoreSphereBehindOrAboveTheTriangle() {
        assertFalse(triangle(ball, pose(0, 0, -0.01)), "centre behind the face: one-sided, no contact");
        assertFalse(triangle(ball, pose(0, 0, 0.101)), "clear of the face");
        assertFalse(triangle(ball, pose(0.2, -1.07, 0.08)), "clear of the edge: distance 0.106");
    }

    @Test
    void shouldIgnoreDegenerateTriangle() {
        assertFalse(narrowphase.collideTriangle(ball, pose(0, 0, 0.05), 0, 0, 0, 1, 0, 0, 2, 0, 0, manifold));
        assertFalse(narrowphase.collideTriangle(box, pose(0, 0, 0.05), 0, 0, 0, 1, 0, 0, 2, 0, 0, manifold));
    }

    @Test
    void shouldTouchAtTwoPointsWhenCapsuleLiesOnTriangle() {
        assertTrue(triangle(capsule, pose(0, -0.3, 0.045, HALF_PI, 0, 1, 0)));
        assertEquals(2, manifold.pointCount());
        assertNormal(manifold, 0, 0, 1, DIRECTION);
        assertPoint(manifold, -0.1, -0.3, 0, 0.005, LENGTH_M);
        assertPoint(manifold, 0.1, -0.3, 0, 0.005, LENGTH_M);
    }

    @Test
    void shouldClipCapsuleLineContactAtTriangleEdge() {
        // Core along y from −1.1 to −0.9 lying across the edge y = −1: the contact runs from the edge to the end.
        assertTrue(triangle(capsule, pose(0, -1.0, 0.045, HALF_PI, 1, 0, 0)));
        assertEquals(2, manifold.pointCount());
        assertNormal(manifold, 0, 0, 1, DIRECTION);
        assertPoint(manifold, 0, -1.0, 0, 0.005, LENGTH_M);
        assertPoint(manifold, 0, -0.9, 0, 0.005, LENGTH_M);
    }

    @Test
    void shouldPushCapsuleAwayFromTriangleEdgeBesideIt() {
        // Core along x beside the edge y = −1, 0.03 out and 0.03 up: distance 0.03·√2 to the edge.
        assertTrue(triangle(capsule, pose(0, -1.03, 0.03, HALF_PI, 0, 1, 0)));
        assertEquals(1, manifold.pointCount());
        double c = Math.sqrt(0.5);
        assertNormal(manifold, 0, -c, c, DIRECTION);
        assertEquals(0.05 - 0.03 * Math.sqrt(2.0), manifold.depth(0), LENGTH_M);
        assertEquals(-1.0, manifold.point(0).y(), LENGTH_M);
        assertEquals(0.0, manifold.point(0).z(), LENGTH_M);
    }

    @Test
    void shouldPushCapsuleUpWhenItsEndPokesThroughTheTriangle() {
        // Standing capsule, lower ball centre 0.01 below the face, core middle well in front: pushed up, depth
        // radius + 0.01.
        assertTrue(triangle(capsule, pose(0.1, -0.2, 0.09)));
        assertNormal(manifold, 0, 0, 1, DIRECTION);
        assertEquals(1, manifold.pointCount());
        assertPoint(manifold, 0.1, -0.2, 0, 0.06, LENGTH_M);
        assertFalse(triangle(capsule, pose(0.1, -0.2, -0.01)), "core middle behind: one-sided, no contact");
    }

    @Test
    void shouldTouchAtFourCornersWhenBoxRestsOnTriangle() {
        assertTrue(triangle(box, pose(0, -0.3, 0.05 - DEPTH_M)));
        assertEquals(4, manifold.pointCount());
        assertNormal(manifold, 0, 0, 1, DIRECTION);
        for (int sx = -1; sx <= 1; sx += 2) {
            for (int sy = -1; sy <= 1; sy += 2) {
                assertPoint(manifold, sx * 0.1, -0.3 + sy * 0.1, 0, DEPTH_M, LENGTH_M);
            }
        }
        assertFalse(triangle(box, pose(0, -0.3, -0.01)), "centre behind: one-sided, no contact");
        assertFalse(triangle(box, pose(0, -0.3, 0.05 + DEPTH_M)));
    }

    @Test
    void shouldClipBoxFaceToTriangleWhereBoxOverhangsAnEdge() {
        // Box footprint x in [−0.1, 0.1], y in [−1.05, −0.85] over the edge y = −1: the contact polygon is the
        // part of the footprint with y >= −1.
        assertTrue(triangle(box, pose(0, -0.95, 0.05 - DEPTH_M)));
        assertEquals(4, manifold.pointCount());
        assertNormal(manifold, 0, 0, 1, DIRECTION);
        assertPoint(manifold, -0.1, -1.0, 0, DEPTH_M, LENGTH_M);
        assertPoint(manifold, 0.1, -1.0, 0, DEPTH_M, LENGTH_M);
        assertPoint(manifold, -0.1, -0.85, 0, DEPTH_M, LENGTH_M);
        assertPoint(manifold, 0.1, -0.85, 0, DEPTH_M, LENGTH_M);
    }

    @Test
    void shouldTouchAtOneVertexWhenTetrahedronStandsOnTriangle() {
        double s = 0.05;
        Quaterniond q = new Quaterniond().rotationTo(new Vector3d(1, -1, -1).normalize(), new Vector3d(0, 0, -1));
        Transform standing = Contacts.pose(new Vector3d(0.02, -0.3, s * Math.sqrt(3.0) - DEPTH_M), q);
        assertTrue(triangle(new ConvexHullShape(Hulls.tetrahedron(s)), standing));
        assertEquals(1, manifold.pointCount());
        assertNormal(manifold, 0, 0, 1, DIRECTION);
        assertPoint(manifold, 0.02, -0.3, 0, DEPTH_M, LENGTH_M);
    }

    @Test
    void shouldTouchAtFourCornersWhenBoxRestsOnTwoTriangleFloor() {
        // The shared diagonal crosses the box's footprint at (−0.07, −0.07) and (0.11, 0.11), on two of its edges;
        // those cut points lie on the polygon's sides and are dropped, leaving the corners.
        Transform resting = pose(0.03, 0.01, 0.05 - DEPTH_M);
        assertTrue(narrowphase.collide(box, resting, floor, pose(0, 0, 0), manifold));
        assertFourFloorCorners(0.03, 0.01);

        assertTrue(narrowphase.collideMesh(box, resting, floor, pose(0, 0, 0), new int[] {0, 1}, 2, manifold));
        assertFourFloorCorners(0.03, 0.01);
    }

    @Test
    void shouldTouchAtFourCornersWhereverBoxRestsOnTwoTriangleFloor() {
        // Positions and turns where the diagonal cuts the footprint through sides, through corners or not at all,
        // and depths from a nanometre up: the cut points must never survive as extra points, including when their
        // depth rounds one ulp deeper than the corners'.
        BoxShape plate = new BoxShape(0.1, 0.07, 0.05);
        double[] depths = {1e-9, 1e-6, 0.003};
        for (int k = 0; k < 24; k++) {
            double angle = 0.13 * k;
            double x = 0.02 * (k % 5) - 0.04;
            double y = 0.015 * (k % 7) - 0.045;
            double depthM = depths[k % 3];
            assertTrue(narrowphase.collide(plate, pose(x, y, 0.05 - depthM, angle, 0, 0, 1), floor, pose(0, 0, 0),
                manifold), "pose " + k);
            assertEquals(4, manifold.pointCount(), "pose " + k + ": " + Contacts.describe(manifold));
            assertNormal(manifold, 0, 0, 1, DIRECTION);
            double c = Math.cos(angle);
            double s = Math.sin(angle);
            for (int sx = -1; sx <= 1; sx += 2) {
                for (int sy = -1; sy <= 1; sy += 2) {
                    double px = x + c * sx * 0.1 - s * sy * 0.07;
                    double py = y + s * sx * 0.1 + c * sy * 0.07;
                    // The depth 0.05 − (0.05 − d) loses the digits of 0.05 below d: relative error 1e-16·0.05/d.
                    assertPoint(manifold, px, py, 0, depthM, LENGTH_M);
                }
            }
        }
    }

    @Test
    void shouldKeepBoxCentredOnTheFloorPlaneInContact() {
        // Half the box below the floor: its centre is on the plane, which still counts as the front side.
        assertTrue(narrowphase.collide(box, pose(0.01, 0.02, 0.0), floor, pose(0, 0, 0), manifold));
        assertEquals(4, manifold.pointCount());
        assertEquals(0.05, manifold.depth(0), LENGTH_M);
    }

    @Test
    void shouldKeepOnlyListedTrianglesInMeshContact() {
        // Only the first listed index counts (count 1): triangle 1, the side y >= x of the diagonal.
        Transform resting = pose(0.03, 0.01, 0.05 - DEPTH_M);
        assertTrue(narrowphase.collideMesh(box, resting, floor, pose(0, 0, 0), new int[] {1, 0}, 1, manifold));
        // Footprint x in [−0.07, 0.13], y in [−0.09, 0.11]; y >= x keeps corner (−0.07, 0.11) and the cuts at
        // (−0.07, −0.07) and (0.11, 0.11): a triangle.
        assertEquals(3, manifold.pointCount());
        assertPoint(manifold, -0.07, 0.11, 0, DEPTH_M, LENGTH_M);
        assertPoint(manifold, -0.07, -0.07, 0, DEPTH_M, LENGTH_M);
        assertPoint(manifold, 0.11, 0.11, 0, DEPTH_M, LENGTH_M);
    }

    @Test
    void shouldGiveOnePointWhenSphereRestsOnTheSharedEdge() {
        assertTrue(narrowphase.collide(ball, pose(0.2, 0.2, 0.1 - DEPTH_M), floor, pose(0, 0, 0), manifold));
        assertEquals(1, manifold.pointCount());
        assertNormal(manifold, 0, 0, 1, DIRECTION);
        assertPoint(manifold, 0.2, 0.2, 0, DEPTH_M, LENGTH_M);
    }

    @Test
    void shouldMoveMeshContactWithTheSceneUnderARigidMotion() {
        Quaterniond r = new Quaterniond().rotationAxis(0.6, 1.0, -0.3, 0.2);
        Vector3d t = new Vector3d(-0.4, 0.1, 0.3);
        Transform resting = pose(0.03, 0.01, 0.05 - DEPTH_M, 0.2, 0, 0, 1);
        assertTrue(narrowphase.collide(box, resting, floor, pose(0, 0, 0), manifold));
        ContactManifold expected = Contacts.moved(manifold, r, t);
        assertTrue(narrowphase.collide(box, Contacts.moved(resting, r, t), floor, Contacts.moved(pose(0, 0, 0), r, t),
            manifold));
        // One more rotation and a translation of 0.5 m: rounding ~1e-15, under 1e-12. Ids too: the same triangle
        // features touch.
        assertSameContact(expected, manifold, LENGTH_M, true);
    }

    @Test
    void shouldRejectPlanesAndMeshesAgainstTriangles() {
        assertThrows(IllegalArgumentException.class, () -> narrowphase.collideTriangle(
            new PlaneShape(new Vector3d(0, 0, 1)), pose(0, 0, 0), -1, -1, 0, 1, -1, 0, 0, 1, 0, manifold));
        assertThrows(IllegalArgumentException.class, () -> narrowphase.collideMesh(floor, pose(0, 0, 0), floor,
            pose(0, 0, 0), new int[] {0}, 1, manifold));
    }

    private void assertFourFloorCorners(double x, double y) {
        assertEquals(4, manifold.pointCount(), Contacts.describe(manifold));
        assertNormal(manifold, 0, 0, 1, DIRECTION);
        for (int sx = -1; sx <= 1; sx += 2) {
            for (int sy = -1; sy <= 1; sy += 2) {
                assertPoint(manifold, x + sx * 0.1, y + sy * 0.1, 0, DEPTH_M, LENGTH_M);
            }
        }
    }
}
