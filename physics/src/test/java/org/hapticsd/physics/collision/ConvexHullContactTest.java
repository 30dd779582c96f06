package org.hapticsd.physics.collision;

import static org.hapticsd.physics.collision.Contacts.DIRECTION;
import static org.hapticsd.physics.collision.Contacts.LENGTH_M;
import static org.hapticsd.physics.collision.Contacts.assertNormal;
import static org.hapticsd.physics.collision.Contacts.assertPoint;
import static org.hapticsd.physics.collision.Contacts.assertSameContact;
import static org.hapticsd.physics.collision.Contacts.copy;
import static org.hapticsd.physics.collision.Contacts.pose;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;

import org.hapticsd.physics.BoxShape;
import org.hapticsd.physics.CapsuleShape;
import org.hapticsd.physics.ConvexHullShape;
import org.hapticsd.physics.PlaneShape;
import org.hapticsd.physics.Shape;
import org.hapticsd.physics.SphereShape;
import org.hapticsd.physics.geometry.ConvexHull;
import org.hapticsd.physics.geometry.Transform;
import org.joml.Quaterniond;
import org.joml.Vector3d;
import org.junit.jupiter.api.Test;

/**
 * Convex hull contacts. The hull of a box must behave exactly as the box, which checks the general SAT and clipping
 * against the analytic box routines over many poses; other hulls are checked against analytic manifolds (polygon
 * faces, vertices, crossing edges) and the many-sided face against the point reduction.
 */
class ConvexHullContactTest {
    /**
     * The box routine projects radii, the hull routine projects vertices: the same separations up to a few 1e-16 m,
     * and the same clipped points once the same features are chosen. 1e-9 m is the brief's bound for "the same
     * contact" and a million times the rounding.
     */
    private static final double SAME_AS_BOX_M = 1e-9;
    private static final double DEPTH_M = 0.001;

    private final Narrowphase narrowphase = new Narrowphase();
    private final ContactManifold manifold = new ContactManifold();
    private final ContactManifold other = new ContactManifold();

    @Test
    void shouldMatchBoxBoxContactWhenEitherBoxIsGivenAsItsHull() {
        BoxShape a = new BoxShape(0.1, 0.07, 0.05);
        BoxShape b = new BoxShape(0.12, 0.09, 0.06);
        ConvexHullShape hullA = new ConvexHullShape(ConvexHull.box(0.1, 0.07, 0.05));
        ConvexHullShape hullB = new ConvexHullShape(ConvexHull.box(0.12, 0.09, 0.06));
        Random random = new Random(20240611L);
        int contacts = 0;
        int[] pointCounts = new int[ContactManifold.MAX_POINTS + 1];
        for (int trial = 0; trial < 400; trial++) {
            Transform poseA = randomPose(random, 0.2);
            Transform poseB = randomPose(random, 0.05);
            boolean hit = narrowphase.collide(a, poseA, b, poseB, manifold);
            ContactManifold boxBox = copy(manifold);
            assertEquals(hit, narrowphase.collide(a, poseA, hullB, poseB, manifold), "box–hull, trial " + trial);
            if (hit) {
                assertSameContact(boxBox, manifold, SAME_AS_BOX_M, true);
            }
            assertEquals(hit, narrowphase.collide(hullA, poseA, hullB, poseB, other), "hull–hull, trial " + trial);
            if (hit) {
                assertSameContact(boxBox, other, SAME_AS_BOX_M, true);
                contacts++;
                pointCounts[boxBox.pointCount()]++;
            }
        }
        // The comparison means something only if it covered contacts of several kinds.
        assertTrue(contacts >= 100, "only " + contacts + " of 400 random poses touched");
        assertTrue(pointCounts[1] > 0 && pointCounts[2] + pointCounts[3] + pointCounts[4] > 0,
            "point counts seen: " + Arrays.toString(pointCounts));
    }

    @Test
    void shouldMatchBoxBoxContactForTheRestingShapesWhenBoxesAreHulls() {
        BoxShape cube = new BoxShape(0.1, 0.1, 0.1);
        BoxShape slab = new BoxShape(0.5, 0.5, 0.1);
        ConvexHullShape cubeHull = new ConvexHullShape(ConvexHull.box(0.1, 0.1, 0.1));
        ConvexHullShape slabHull = new ConvexHullShape(ConvexHull.box(0.5, 0.5, 0.1));
        double root2 = Math.sqrt(2.0);
        Transform[] poses = {
            pose(0.02, -0.03, 0.2 - DEPTH_M),
            pose(0.02, -0.03, 0.2 - DEPTH_M, Math.PI / 4, 0, 0, 1),
            pose(0.03, 0.02, 0.1 + 0.1 * root2 - DEPTH_M, Math.PI / 4, 1, 0, 0),
        };
        for (Transform poseA : poses) {
            assertTrue(narrowphase.collide(cube, poseA, slab, pose(0, 0, 0), manifold));
            assertTrue(narrowphase.collide(cubeHull, poseA, slabHull, pose(0, 0, 0), other));
            assertSameContact(manifold, other, SAME_AS_BOX_M, true);
        }
        // Crossing edges: one point from the closest points of the edges.
        Transform lower = pose(0, 0, 0, Math.PI / 4, 0, 1, 0);
        Transform upper = pose(0, 0, 2 * 0.1 * root2 - DEPTH_M, Math.PI / 4, 1, 0, 0);
        assertTrue(narrowphase.collide(cube, upper, cube, lower, manifold));
        assertTrue(narrowphase.collide(cubeHull, upper, cubeHull, lower, other));
        assertEquals(1, other.pointCount());
        assertSameContact(manifold, other, SAME_AS_BOX_M, true);
    }

    @Test
    void shouldMatchSphereBoxContactWhenBoxIsGivenAsItsHull() {
        BoxShape box = new BoxShape(0.1, 0.06, 0.04);
        ConvexHullShape hull = new ConvexHullShape(ConvexHull.box(0.1, 0.06, 0.04));
        SphereShape ball = new SphereShape(0.03);
        Transform poseB = pose(0.01, 0.02, -0.03, 0.7, 0.2, 1.0, -0.4);
        double[][] centresInBoxFrame = {
            {0.02, 0.01, 0.06},     // face region (+z)
            {0.115, 0.0, 0.05},     // edge region (+x, +z)
            {0.11, 0.07, 0.05},     // vertex region
            {0.08, 0.0, 0.01},      // inside, nearest face +x
            {-0.02, -0.05, 0.0},    // inside, nearest face −y
        };
        for (double[] c : centresInBoxFrame) {
            Vector3d centre = poseB.toWorld(new Vector3d(c[0], c[1], c[2]), new Vector3d());
            Transform poseA = pose(centre.x, centre.y, centre.z);
            assertTrue(narrowphase.collide(ball, poseA, box, poseB, manifold));
            assertTrue(narrowphase.collide(ball, poseA, hull, poseB, other));
            assertSameContact(manifold, other, LENGTH_M, false);
        }
        Vector3d far = poseB.toWorld(new Vector3d(0.14, 0.0, 0.0), new Vector3d());
        assertFalse(narrowphase.collide(ball, pose(far.x, far.y, far.z), hull, poseB, other));
    }

    @Test
    void shouldMatchCapsuleBoxContactWhenBoxIsGivenAsItsHull() {
        BoxShape box = new BoxShape(0.3, 0.3, 0.1);
        ConvexHullShape hull = new ConvexHullShape(ConvexHull.box(0.3, 0.3, 0.1));
        CapsuleShape capsule = new CapsuleShape(0.05, 0.1);
        double offset = 0.048 / Math.sqrt(2.0);
        Transform[] poses = {
            pose(0.05, 0.02, 0.145, Math.PI / 2, 0, 1, 0),
            pose(0.35, 0, 0.145, Math.PI / 2, 0, 1, 0),
            pose(0.3 + offset, 0, 0.1 + offset, Math.PI / 2, 1, 0, 0),
            pose(0.1, 0.05, 0.18),
            pose(0.2, -0.1, 0.16, 0.3, 1, 1, 0),
        };
        for (Transform poseA : poses) {
            assertTrue(narrowphase.collide(capsule, poseA, box, pose(0, 0, 0), manifold));
            assertTrue(narrowphase.collide(capsule, poseA, hull, pose(0, 0, 0), other));
            assertSameContact(manifold, other, LENGTH_M, true);
        }
    }

    @Test
    void shouldTouchAtEveryBottomCornerWhenHexagonalPrismRestsOnPlane() {
        ConvexHullShape hexagon = new ConvexHullShape(Hulls.prism(6, 0.05, 0.02));
        assertTrue(narrowphase.collide(hexagon, pose(0.1, 0.2, 0.02 - DEPTH_M), new PlaneShape(new Vector3d(0, 0, 1)),
            pose(0, 0, 0), manifold));
        assertEquals(6, manifold.pointCount());
        assertNormal(manifold, 0, 0, 1, DIRECTION);
        for (int i = 0; i < 6; i++) {
            double angle = Math.PI * i / 3;
            assertPoint(manifold, 0.1 + 0.05 * Math.cos(angle), 0.2 + 0.05 * Math.sin(angle), 0, DEPTH_M, LENGTH_M);
        }
    }

    @Test
    void shouldSpreadEightPointsEvenlyWhenSixteenSidedFaceRestsOnPlane() {
        // 16 corners below the plane, 8 slots: farthest-point sampling from corner 0 takes every other corner.
        ConvexHullShape disc = new ConvexHullShape(Hulls.prism(16, 0.05, 0.01));
        assertTrue(narrowphase.collide(disc, pose(0, 0, 0.01 - DEPTH_M), new PlaneShape(new Vector3d(0, 0, 1)),
            pose(0, 0, 0), manifold));
        assertEquals(8, manifold.pointCount());
        for (int k = 0; k < 8; k++) {
            double angle = Math.PI * k / 4;
            assertPoint(manifold, 0.05 * Math.cos(angle), 0.05 * Math.sin(angle), 0, DEPTH_M, LENGTH_M);
        }
    }

    @Test
    void shouldSpreadEightPointsEvenlyWhenSixteenSidedFaceRestsOnBox() {
        ConvexHullShape disc = new ConvexHullShape(Hulls.prism(16, 0.05, 0.01));
        assertTrue(narrowphase.collide(disc, pose(0, 0, 0.11 - DEPTH_M), new BoxShape(0.2, 0.2, 0.1), pose(0, 0, 0),
            manifold));
        assertEquals(8, manifold.pointCount());
        assertNormal(manifold, 0, 0, 1, DIRECTION);
        for (int k = 0; k < 8; k++) {
            double angle = Math.PI * k / 4;
            assertPoint(manifold, 0.05 * Math.cos(angle), 0.05 * Math.sin(angle), 0.1, DEPTH_M, LENGTH_M);
        }
    }

    @Test
    void shouldTouchAtOctagonCornersWhenOctagonalPrismStandsOnBox() {
        ConvexHullShape octagon = new ConvexHullShape(Hulls.prism(8, 0.05, 0.03));
        Shape box = new BoxShape(0.2, 0.2, 0.1);
        assertTrue(narrowphase.collide(octagon, pose(0.04, -0.02, 0.13 - DEPTH_M), box, pose(0, 0, 0), manifold));
        assertEquals(8, manifold.pointCount());
        assertNormal(manifold, 0, 0, 1, DIRECTION);
        for (int i = 0; i < 8; i++) {
            double angle = Math.PI * i / 4;
            assertPoint(manifold, 0.04 + 0.05 * Math.cos(angle), -0.02 + 0.05 * Math.sin(angle), 0.1, DEPTH_M,
                LENGTH_M);
        }
    }

    @Test
    void shouldTouchAtThreeCornersWhenTriangularPrismStandsOnHullBox() {
        ConvexHullShape wedge = new ConvexHullShape(Hulls.prism(3, 0.05, 0.03));
        ConvexHullShape block = new ConvexHullShape(ConvexHull.box(0.2, 0.2, 0.1));
        assertTrue(narrowphase.collide(wedge, pose(0, 0, 0.13 - DEPTH_M), block, pose(0, 0, 0), manifold));
        assertEquals(3, manifold.pointCount());
        for (int i = 0; i < 3; i++) {
            double angle = 2 * Math.PI * i / 3;
            assertPoint(manifold, 0.05 * Math.cos(angle), 0.05 * Math.sin(angle), 0.1, DEPTH_M, LENGTH_M);
        }
    }

    @Test
    void shouldTouchAtOneVertexWhenTetrahedronStandsOnAVertex() {
        double s = 0.05;
        ConvexHullShape tetrahedron = new ConvexHullShape(Hulls.tetrahedron(s));
        Quaterniond q = new Quaterniond().rotationTo(new Vector3d(1, -1, -1).normalize(), new Vector3d(0, 0, -1));
        Transform standing = pose(new Vector3d(0.03, 0.01, 0.1 + s * Math.sqrt(3.0) - DEPTH_M), q);
        assertTrue(narrowphase.collide(tetrahedron, standing, new BoxShape(0.2, 0.2, 0.1), pose(0, 0, 0), manifold));
        assertEquals(1, manifold.pointCount());
        assertNormal(manifold, 0, 0, 1, DIRECTION);
        assertPoint(manifold, 0.03, 0.01, 0.1, DEPTH_M, LENGTH_M);
    }

    @Test
    void shouldTouchAtOnePointWhenTetrahedronEdgesCross() {
        // The tetrahedron's top edge (s, s, s)–(−s, −s, s) runs along (1, 1, 0) at z = s, its bottom edge
        // (s, −s, −s)–(−s, s, −s) along (1, −1, 0) at z = −s: stacked, they cross at right angles at (0, 0, s).
        double s = 0.05;
        ConvexHullShape tetrahedron = new ConvexHullShape(Hulls.tetrahedron(s));
        assertTrue(narrowphase.collide(tetrahedron, pose(0.0, 0.0, 2 * s - DEPTH_M), tetrahedron, pose(0, 0, 0),
            manifold));
        assertEquals(1, manifold.pointCount());
        assertNormal(manifold, 0, 0, 1, DIRECTION);
        assertPoint(manifold, 0, 0, s, DEPTH_M, LENGTH_M);
        assertFalse(narrowphase.collide(tetrahedron, pose(0.0, 0.0, 2 * s + DEPTH_M), tetrahedron, pose(0, 0, 0),
            manifold));
    }

    @Test
    void shouldPushSphereAlongTetrahedronFaceNormal() {
        double s = 0.05;
        ConvexHullShape tetrahedron = new ConvexHullShape(Hulls.tetrahedron(s));
        // Face (s,s,s), (s,−s,−s), (−s,s,−s) has outward normal (1, 1, −1)/√3 and its centroid at (s, s, −s)/3.
        Vector3d n = new Vector3d(1, 1, -1).normalize();
        Vector3d foot = new Vector3d(s / 3, s / 3, -s / 3);
        Vector3d centre = new Vector3d(n).mul(0.02 - DEPTH_M).add(foot);
        assertTrue(narrowphase.collide(new SphereShape(0.02), pose(centre.x, centre.y, centre.z), tetrahedron,
            pose(0, 0, 0), manifold));
        assertNormal(manifold, n.x, n.y, n.z, DIRECTION);
        assertPoint(manifold, foot.x, foot.y, foot.z, DEPTH_M, LENGTH_M);
    }

    private static Transform randomPose(Random random, double spreadM) {
        Vector3d position = new Vector3d(spreadM * (2 * random.nextDouble() - 1),
            spreadM * (2 * random.nextDouble() - 1), spreadM * (2 * random.nextDouble() - 1));
        Quaterniond q = new Quaterniond().rotationAxis(Math.PI * random.nextDouble(), random.nextGaussian(),
            random.nextGaussian(), random.nextGaussian());
        return pose(position, q);
    }
}
