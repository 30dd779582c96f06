package org.hapticsd.physics.collision;

import static org.hapticsd.physics.collision.Contacts.DIRECTION;
import static org.hapticsd.physics.collision.Contacts.LENGTH_M;
import static org.hapticsd.physics.collision.Contacts.assertNormal;
import static org.hapticsd.physics.collision.Contacts.assertPoint;
import static org.hapticsd.physics.collision.Contacts.assertSameContact;
import static org.hapticsd.physics.collision.Contacts.pose;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;

import org.hapticsd.physics.BoxShape;
import org.hapticsd.physics.geometry.Transform;
import org.joml.Quaterniond;
import org.joml.Vector3d;
import org.junit.jupiter.api.Test;

/**
 * Box–box contact: the manifold shapes of Springhead's model (four corners, octagon, edge line, corner) with their
 * analytic positions and depths, separation along face and edge axes, invariance under a rigid motion of the
 * scene, and feature ids that stay fixed while a box rests.
 */
class BoxBoxContactTest {
    private static final double ROOT2 = Math.sqrt(2.0);
    private static final double DEPTH_M = 0.001;

    private final Narrowphase narrowphase = new Narrowphase();
    private final ContactManifold manifold = new ContactManifold();
    private final BoxShape cube = new BoxShape(0.1, 0.1, 0.1);
    private final BoxShape slab = new BoxShape(0.5, 0.5, 0.1);

    @Test
    void shouldTouchAtFourCornersWhenBoxRestsFlatOnLargerBox() {
        BoxShape small = new BoxShape(0.1, 0.08, 0.05);
        Transform top = pose(0.02, -0.03, 0.1 + 0.05 - DEPTH_M);
        assertTrue(narrowphase.collide(small, top, slab, pose(0, 0, 0), manifold));

        assertEquals(4, manifold.pointCount());
        assertNormal(manifold, 0, 0, 1, DIRECTION);
        for (int sx = -1; sx <= 1; sx += 2) {
            for (int sy = -1; sy <= 1; sy += 2) {
                assertPoint(manifold, 0.02 + sx * 0.1, -0.03 + sy * 0.08, 0.1, DEPTH_M, LENGTH_M);
            }
        }
    }

    @Test
    void shouldTouchAtOctagonWhenEqualSquaresAreTurned45Degrees() {
        // Squares of half side h, one turned 45° about z: their intersection is the regular octagon with
        // vertices (±h, ±(√2 − 1)h) and (±(√2 − 1)h, ±h).
        double h = 0.1;
        BoxShape plate = new BoxShape(h, h, 0.05);
        Transform top = pose(0, 0, 0.1 + 0.05 - DEPTH_M, Math.PI / 4, 0, 0, 1);
        assertTrue(narrowphase.collide(plate, top, cube, pose(0, 0, 0), manifold));

        assertEquals(8, manifold.pointCount());
        assertNormal(manifold, 0, 0, 1, DIRECTION);
        double k = (ROOT2 - 1.0) * h;
        for (int s = -1; s <= 1; s += 2) {
            for (int t = -1; t <= 1; t += 2) {
                assertPoint(manifold, s * h, t * k, 0.1, DEPTH_M, LENGTH_M);
                assertPoint(manifold, s * k, t * h, 0.1, DEPTH_M, LENGTH_M);
            }
        }
    }

    @Test
    void shouldTouchAtTwoEdgeEndsWhenBoxRestsOnAnEdge() {
        // Turned 45° about x, the cube's lowest edge runs along x, √2·h below its centre.
        Transform top = pose(0.03, 0.02, 0.1 + 0.1 * ROOT2 - DEPTH_M, Math.PI / 4, 1, 0, 0);
        assertTrue(narrowphase.collide(cube, top, slab, pose(0, 0, 0), manifold));

        assertEquals(2, manifold.pointCount());
        assertNormal(manifold, 0, 0, 1, DIRECTION);
        assertPoint(manifold, 0.03 - 0.1, 0.02, 0.1, DEPTH_M, LENGTH_M);
        assertPoint(manifold, 0.03 + 0.1, 0.02, 0.1, DEPTH_M, LENGTH_M);
    }

    @Test
    void shouldTouchAtOneCornerWhenBoxStandsOnACorner() {
        // Body diagonal (−1, −1, −1) turned to point straight down: that corner is √3·h below the centre.
        Quaterniond q = new Quaterniond().rotationTo(new Vector3d(-1, -1, -1).normalize(), new Vector3d(0, 0, -1));
        Transform top = pose(new Vector3d(-0.04, 0.05, 0.1 + Math.sqrt(3.0) * 0.1 - DEPTH_M), q);
        assertTrue(narrowphase.collide(cube, top, slab, pose(0, 0, 0), manifold));

        assertEquals(1, manifold.pointCount());
        assertNormal(manifold, 0, 0, 1, DIRECTION);
        // The corner's horizontal position carries the rounding of rotationTo (a few 1e-17), well within 1e-12.
        assertPoint(manifold, -0.04, 0.05, 0.1, DEPTH_M, LENGTH_M);
    }

    @Test
    void shouldTouchAtOnePointWhenEdgesCross() {
        // Lower cube turned 45° about y: top edge along y at z = √2·h. Upper cube turned 45° about x: bottom edge
        // along x, √2·h below its centre. The edges cross at (0, 0, √2·h), overlapping by DEPTH_M.
        Transform lower = pose(0, 0, 0, Math.PI / 4, 0, 1, 0);
        Transform upper = pose(0, 0, 2 * 0.1 * ROOT2 - DEPTH_M, Math.PI / 4, 1, 0, 0);
        assertTrue(narrowphase.collide(cube, upper, cube, lower, manifold));

        assertEquals(1, manifold.pointCount());
        assertNormal(manifold, 0, 0, 1, DIRECTION);
        assertPoint(manifold, 0, 0, 0.1 * ROOT2, DEPTH_M, LENGTH_M);
    }

    @Test
    void shouldSeparateAlongEdgeAxisWhenOnlyTheEdgesAreApart() {
        // The crossing edges of the previous case 1 mm apart: every face axis still overlaps (by 71 mm or more),
        // only the edge cross product separates.
        Transform lower = pose(0, 0, 0, Math.PI / 4, 0, 1, 0);
        Transform upper = pose(0, 0, 2 * 0.1 * ROOT2 + DEPTH_M, Math.PI / 4, 1, 0, 0);
        assertFalse(narrowphase.collide(cube, upper, cube, lower, manifold));
        assertEquals(0, manifold.pointCount());
    }

    @Test
    void shouldReportNothingWhenBoxesAreApartOrJustTouch() {
        assertFalse(narrowphase.collide(cube, pose(0, 0, 0.2 + DEPTH_M), slab, pose(0, 0, 0), manifold));
        // Exactly touching is not penetrating (the margin is 0): no point of depth 0.
        assertFalse(narrowphase.collide(cube, pose(0, 0, 0.2), slab, pose(0, 0, 0), manifold));
    }

    @Test
    void shouldTouchAtFourCornersWhenEqualBoxesStandInAColumn() {
        // Equal cubes, the upper 0.1 µm off and turned by 1e-5 rad: every corner lies within 1.5 µm of a side
        // plane of the lower face, so clipping cuts corners into pairs of points a fraction of a micrometre apart
        // and crosses nearly parallel edges: 8 points before the sliver vertices were dropped. The contact polygon
        // is the square, to the micrometre.
        Transform top = pose(1e-7, 5e-8, 0.2 - DEPTH_M, 1e-5, 0, 0, 1);
        assertTrue(narrowphase.collide(cube, top, cube, pose(0, 0, 0), manifold));

        assertEquals(4, manifold.pointCount(), Contacts.describe(manifold));
        // Each corner moves by the offset plus the turn, 0.1·1e-5·√2 m: 2 µm bounds both.
        double cornerM = 2e-6;
        for (int sx = -1; sx <= 1; sx += 2) {
            for (int sy = -1; sy <= 1; sy += 2) {
                Contacts.pointNear(manifold, sx * 0.1, sy * 0.1, 0.1, cornerM);
            }
        }
    }

    @Test
    void shouldReportNothingWhenEqualBoxesJustTouchInAColumn() {
        // The eighth and ninth boxes of scenes/stack.yaml: their faces touch at depth 0 after rounding, while the
        // edge pair x × y, which spans the same vertical axis, rounds to an overlap of 1e-17 m. The edge fallback
        // used to report that as one point at a corner, a support at one corner that tips the upper box.
        BoxShape box = new BoxShape(0.01, 0.01, 0.01);
        assertFalse(narrowphase.collide(box, pose(0.04, 0.0, 0.10), box, pose(0.04, 0.0, 0.12), manifold),
            Contacts.describe(manifold));
        assertEquals(0, manifold.pointCount());
    }

    @Test
    void shouldMoveManifoldWithTheSceneUnderARigidMotion() {
        Quaterniond r = new Quaterniond().rotationAxis(0.9, 0.3, -0.5, 0.8);
        Vector3d t = new Vector3d(0.3, -0.2, 0.7);
        BoxShape[] shapes = {new BoxShape(0.1, 0.1, 0.05), cube, cube};
        Transform[][] cases = {
            {pose(0.02, -0.03, 0.15 - DEPTH_M, 0.3, 0, 0, 1), pose(0, 0, 0)},
            {pose(0.03, 0.02, 0.1 + 0.1 * ROOT2 - DEPTH_M, Math.PI / 4, 1, 0, 0), pose(0, 0, 0)},
            {pose(0, 0, 2 * 0.1 * ROOT2 - DEPTH_M, Math.PI / 4, 1, 0, 0), pose(0, 0, 0, Math.PI / 4, 0, 1, 0)},
        };
        for (int c = 0; c < cases.length; c++) {
            Transform[] poses = cases[c];
            BoxShape lower = c == 2 ? cube : slab;
            assertTrue(narrowphase.collide(shapes[c], poses[0], lower, poses[1], manifold), "case " + c);
            ContactManifold expected = Contacts.moved(manifold, r, t);
            assertTrue(narrowphase.collide(shapes[c], Contacts.moved(poses[0], r, t), lower,
                Contacts.moved(poses[1], r, t), manifold));
            // The motion adds one more rotation and a translation of 0.8 m: rounding grows to ~1e-15, under 1e-12.
            assertSameContact(expected, manifold, LENGTH_M, true);
        }
    }

    @Test
    void shouldKeepFeatureIdsWhileBoxSlidesOnAFace() {
        BoxShape small = new BoxShape(0.1, 0.1, 0.05);
        int[] before = ids(small, pose(0.02, -0.03, 0.15 - DEPTH_M, 0.2, 0, 0, 1));
        int[] after = ids(small, pose(0.02 + 1e-4, -0.03 - 2e-4, 0.15 - DEPTH_M * 1.1, 0.2 + 1e-3, 0, 0, 1));
        assertEquals(4, before.length);
        assertTrue(Arrays.equals(before, after), Arrays.toString(before) + " vs " + Arrays.toString(after));
        assertEquals(4, Arrays.stream(before).distinct().count(), "ids must be unique within a manifold");
        assertTrue(Arrays.stream(before).noneMatch(id -> id == 0), "0 means no identity");
    }

    @Test
    void shouldKeepOctagonFeatureIdsUniqueAndStable() {
        BoxShape plate = new BoxShape(0.1, 0.1, 0.05);
        int[] before = ids(plate, cube, pose(0, 0, 0.15 - DEPTH_M, Math.PI / 4, 0, 0, 1));
        int[] after = ids(plate, cube, pose(1e-4, 0, 0.15 - DEPTH_M, Math.PI / 4 + 1e-3, 0, 0, 1));
        assertEquals(8, before.length);
        assertEquals(8, Arrays.stream(before).distinct().count());
        assertTrue(Arrays.equals(before, after), Arrays.toString(before) + " vs " + Arrays.toString(after));
    }

    private int[] ids(BoxShape a, Transform poseA) {
        return ids(a, slab, poseA);
    }

    private int[] ids(BoxShape a, BoxShape b, Transform poseA) {
        assertTrue(narrowphase.collide(a, poseA, b, pose(0, 0, 0), manifold));
        int[] ids = new int[manifold.pointCount()];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = manifold.featureId(i);
        }
        Arrays.sort(ids);
        return ids;
    }
}
