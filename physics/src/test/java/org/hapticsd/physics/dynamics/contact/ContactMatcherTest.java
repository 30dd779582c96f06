package org.hapticsd.physics.dynamics.contact;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.hapticsd.physics.ContactMode;
import org.hapticsd.physics.dynamics.ContactPoints;
import org.junit.jupiter.api.Test;

class ContactMatcherTest {

    /** Well inside {@link ContactMatcher#WARM_START_RADIUS_M}: a corner renamed by a sub-micrometre offset. */
    private static final double RENAMED_SHIFT_M = 1e-6;

    @Test
    void shouldMatchStoredPointsByPairAndFeatureWalkingForward() {
        ContactPoints stored = points(new int[][] {{0, 3, 1}, {0, 3, 2}, {1, 2, 7}, {4, 2, 5}});
        ContactMatcher matcher = new ContactMatcher();
        matcher.record(stored);

        ContactPoints next = points(new int[][] {{0, 3, 2}, {0, 3, 1}, {0, 3, 9}, {1, 1, 7}, {1, 2, 7}, {2, 4, 5},
            {3, 5, 1}});
        int[] previous = new int[next.count];
        matcher.beginLookup();
        matcher.matchPair(next, 0, 3, 0.0, ContactMode.LCP, previous);
        matcher.matchPair(next, 3, 4, 0.0, ContactMode.LCP, previous);
        matcher.matchPair(next, 4, 5, 0.0, ContactMode.LCP, previous);
        matcher.matchPair(next, 5, 6, 0.0, ContactMode.LCP, previous);
        matcher.matchPair(next, 6, 7, 0.0, ContactMode.LCP, previous);
        // The second point of the first pair, points within a pair in any order, an unknown feature, a pair that was
        // not in contact, a match, the pair (2, 4) stored as (4, 2) (keys use the lower index first), past the end.
        assertArrayEquals(new int[] {1, 0, -1, -1, 2, 3, -1}, previous);
    }

    @Test
    void shouldNeverMatchFeatureIdZeroById() {
        ContactMatcher matcher = new ContactMatcher();
        matcher.record(points(new int[][] {{0, 1, 0}}));
        ContactPoints next = points(new int[][] {{0, 1, 0}});
        int[] previous = {7};
        matcher.beginLookup();
        matcher.matchPair(next, 0, 1, 0.0, ContactMode.LCP, previous);
        assertEquals(-1, previous[0], "0 means no stable identity");
    }

    @Test
    void shouldNotContinueAPointOfAnotherMode() {
        // The pair (0, 1) was a penalty pair last step and is an LCP pair now: a stick point is not an impulse.
        ContactPoints stored = points(new int[][] {{0, 1, 3}});
        stored.mode[0] = ContactMode.PENALTY;
        ContactMatcher matcher = new ContactMatcher();
        matcher.record(stored);
        ContactPoints next = points(new int[][] {{0, 1, 3}});
        int[] previous = {7};
        matcher.beginLookup();
        matcher.matchPair(next, 0, 1, 0.0, ContactMode.LCP, previous);
        assertEquals(-1, previous[0], "another mode's point");
        matcher.beginLookup();
        matcher.matchPair(next, 0, 1, 0.0, ContactMode.PENALTY, previous);
        assertEquals(0, previous[0], "the same mode's point");
    }

    @Test
    void shouldContinueARenamedPointThatStayedInPlace() {
        // Body 2 over body 1: the lower body's lever arm is r_B. One corner keeps its id, the other is renamed.
        ContactMatcher matcher = new ContactMatcher();
        matcher.record(corners(new int[] {11, 12}, 0.0));

        ContactPoints next = corners(new int[] {11, 99}, RENAMED_SHIFT_M);
        int[] previous = new int[2];
        matcher.beginLookup();
        matcher.matchPair(next, 0, 2, ContactMatcher.WARM_START_RADIUS_M, ContactMode.LCP, previous);
        assertEquals(0, previous[0], "by id");
        assertEquals(1, previous[1], "by position");
    }

    @Test
    void shouldNotContinueAPointFartherThanTheRadiusOrPushingAnotherWay() {
        ContactMatcher matcher = new ContactMatcher();
        matcher.record(corners(new int[] {11, 12}, 0.0));

        ContactPoints moved = corners(new int[] {21, 22}, 2 * ContactMatcher.WARM_START_RADIUS_M);
        int[] previous = new int[2];
        matcher.beginLookup();
        matcher.matchPair(moved, 0, 2, ContactMatcher.WARM_START_RADIUS_M, ContactMode.LCP, previous);
        assertArrayEquals(new int[] {-1, -1}, previous, "beyond the radius");

        // In place, but the normal turned by 10° (more than the 5° of SAME_NORMAL_COS) about x.
        ContactPoints turned = corners(new int[] {21, 22}, 0.0);
        double angle = Math.toRadians(10.0);
        turned.normal[0].set(0.0, -Math.sin(angle), -Math.cos(angle));
        turned.normal[1].set(turned.normal[0]);
        matcher.beginLookup();
        matcher.matchPair(turned, 0, 2, ContactMatcher.WARM_START_RADIUS_M, ContactMode.LCP, previous);
        assertArrayEquals(new int[] {-1, -1}, previous, "another normal");
    }

    @Test
    void shouldGiveEachStoredPointToOnePointOnly() {
        ContactPoints stored = corners(new int[] {11, 12}, 0.0);
        ContactMatcher matcher = new ContactMatcher();
        matcher.record(stored);

        // Three points: a renamed copy of corner 11 listed first, corner 11 by id, and a second copy of 11.
        ContactPoints next = points(new int[][] {{2, 1, 31}, {2, 1, 11}, {2, 1, 32}});
        for (int i = 0; i < 3; i++) {
            next.normal[i].set(0, 0, -1);
            next.leverArmBM[i].set(stored.leverArmBM[0]).add(i * RENAMED_SHIFT_M, 0, 0);
        }
        int[] previous = new int[3];
        matcher.beginLookup();
        matcher.matchPair(next, 0, 3, ContactMatcher.WARM_START_RADIUS_M, ContactMode.LCP, previous);
        // The id match comes first, whatever the order; the only unclaimed stored point, corner 12, is 2 cm away.
        assertArrayEquals(new int[] {-1, 0, -1}, previous, "a stored point is continued once");
    }

    /**
     * Two corners of a 2 cm face between body 2 (A, above) and body 1 (B, below), normal −z, the lever arms
     * about B shifted by {@code shiftM} along x.
     */
    private static ContactPoints corners(int[] ids, double shiftM) {
        ContactPoints points = points(new int[][] {{2, 1, ids[0]}, {2, 1, ids[1]}});
        for (int i = 0; i < 2; i++) {
            points.normal[i].set(0, 0, -1);
            points.leverArmBM[i].set(-0.01 + 0.02 * i + shiftM, 0.01, 0.01);
            points.leverArmAM[i].set(-0.01 + 0.02 * i, 0.01, -0.01);
        }
        return points;
    }

    /** LCP points given as {bodyA, bodyB, featureId}, in the order listed. */
    private static ContactPoints points(int[][] rows) {
        ContactPoints points = new ContactPoints();
        points.ensureCapacity(rows.length);
        for (int i = 0; i < rows.length; i++) {
            points.bodyA[i] = rows[i][0];
            points.bodyB[i] = rows[i][1];
            points.featureId[i] = rows[i][2];
            points.mode[i] = ContactMode.LCP;
        }
        points.count = rows.length;
        return points;
    }
}
