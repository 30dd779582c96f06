package org.hapticsd.physics.dynamics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ContactMemoryTest {

    /** Well inside {@link ContactMemory#WARM_START_RADIUS_M}: a corner renamed by a sub-micrometre offset. */
    private static final double RENAMED_SHIFT_M = 1e-6;

    @Test
    void shouldRestoreStoredPointsByPairAndFeatureWalkingForward() {
        ContactPoints stored = points(new int[][] {{0, 3, 1}, {0, 3, 2}, {1, 2, 7}, {4, 2, 5}});
        stored.normalImpulseNs[0] = 0.1;
        stored.normalImpulseNs[1] = 0.2;
        stored.normalImpulseNs[2] = 0.3;
        stored.normalImpulseNs[3] = 0.4;
        ContactMemory memory = new ContactMemory();
        memory.record(stored);

        ContactPoints next = points(new int[][] {{0, 3, 2}, {0, 3, 1}, {0, 3, 9}, {1, 1, 7}, {1, 2, 7}, {2, 4, 5},
            {3, 5, 1}});
        fill(next, 9.0);
        memory.beginLookup();
        memory.restorePair(next, 0, 3, 0.0);
        memory.restorePair(next, 3, 4, 0.0);
        memory.restorePair(next, 4, 5, 0.0);
        memory.restorePair(next, 5, 6, 0.0);
        memory.restorePair(next, 6, 7, 0.0);
        assertEquals(0.2, next.normalImpulseNs[0], 0.0, "second point of the first pair");
        assertEquals(0.1, next.normalImpulseNs[1], 0.0, "points within a pair in any order");
        assertEquals(0.0, next.normalImpulseNs[2], 0.0, "unknown feature starts from zero");
        assertEquals(0.0, next.normalImpulseNs[3], 0.0, "a pair that was not in contact");
        assertEquals(0.3, next.normalImpulseNs[4], 0.0);
        // Pair keys use (lower, higher) index: the stored (4, 2) is the pair (2, 4).
        assertEquals(0.4, next.normalImpulseNs[5], 0.0);
        assertEquals(0.0, next.normalImpulseNs[6], 0.0, "past the end");
    }

    @Test
    void shouldNeverMatchFeatureIdZeroById() {
        ContactMemory memory = new ContactMemory();
        ContactPoints stored = points(new int[][] {{0, 1, 0}});
        stored.normalImpulseNs[0] = 0.5;
        memory.record(stored);
        ContactPoints next = points(new int[][] {{0, 1, 0}});
        memory.beginLookup();
        memory.restorePair(next, 0, 1, 0.0);
        assertEquals(0.0, next.normalImpulseNs[0], 0.0, "0 means no stable identity");
    }

    @Test
    void shouldRestoreImpulsesAndStickDisplacement() {
        ContactPoints stored = points(new int[][] {{0, 1, 3}});
        stored.normalImpulseNs[0] = 0.5;
        stored.frictionImpulseNs[0].set(0.1, 0.2, 0.3);
        stored.stickDisplacementM[0].set(1e-4, 2e-4, 0.0);
        ContactMemory memory = new ContactMemory();
        memory.record(stored);
        ContactPoints next = points(new int[][] {{0, 1, 3}});
        memory.beginLookup();
        memory.restorePair(next, 0, 1, 0.0);
        assertEquals(0.5, next.normalImpulseNs[0], 0.0);
        assertEquals(stored.frictionImpulseNs[0], next.frictionImpulseNs[0]);
        assertEquals(stored.stickDisplacementM[0], next.stickDisplacementM[0]);
    }

    @Test
    void shouldContinueARenamedPointThatStayedInPlace() {
        // Body 2 over body 1: the lower body's lever arm is r_B. One corner keeps its id, the other is renamed.
        ContactPoints stored = corners(new int[] {11, 12}, 0.0);
        stored.normalImpulseNs[0] = 0.3;
        stored.normalImpulseNs[1] = 0.4;
        stored.frictionImpulseNs[1].set(0.01, -0.02, 0.0);
        ContactMemory memory = new ContactMemory();
        memory.record(stored);

        ContactPoints next = corners(new int[] {11, 99}, RENAMED_SHIFT_M);
        memory.beginLookup();
        memory.restorePair(next, 0, 2, ContactMemory.WARM_START_RADIUS_M);
        assertEquals(0.3, next.normalImpulseNs[0], 0.0, "by id");
        assertEquals(0.4, next.normalImpulseNs[1], 0.0, "by position");
        assertEquals(stored.frictionImpulseNs[1], next.frictionImpulseNs[1]);
    }

    @Test
    void shouldNotContinueAPointFartherThanTheRadiusOrPushingAnotherWay() {
        ContactPoints stored = corners(new int[] {11, 12}, 0.0);
        stored.normalImpulseNs[0] = 0.3;
        stored.normalImpulseNs[1] = 0.4;
        ContactMemory memory = new ContactMemory();
        memory.record(stored);

        ContactPoints moved = corners(new int[] {21, 22}, 2 * ContactMemory.WARM_START_RADIUS_M);
        memory.beginLookup();
        memory.restorePair(moved, 0, 2, ContactMemory.WARM_START_RADIUS_M);
        assertEquals(0.0, moved.normalImpulseNs[0], 0.0, "beyond the radius");
        assertEquals(0.0, moved.normalImpulseNs[1], 0.0, "beyond the radius");

        // In place, but the normal turned by 10° (more than the 5° of SAME_NORMAL_COS) about x.
        ContactPoints turned = corners(new int[] {21, 22}, 0.0);
        double angle = Math.toRadians(10.0);
        turned.normal[0].set(0.0, -Math.sin(angle), -Math.cos(angle));
        turned.normal[1].set(turned.normal[0]);
        memory.beginLookup();
        memory.restorePair(turned, 0, 2, ContactMemory.WARM_START_RADIUS_M);
        assertEquals(0.0, turned.normalImpulseNs[0], 0.0, "another normal");
        assertEquals(0.0, turned.normalImpulseNs[1], 0.0, "another normal");
    }

    @Test
    void shouldGiveEachStoredImpulseToOnePointOnly() {
        ContactPoints stored = corners(new int[] {11, 12}, 0.0);
        stored.normalImpulseNs[0] = 0.3;
        stored.normalImpulseNs[1] = 0.4;
        ContactMemory memory = new ContactMemory();
        memory.record(stored);

        // Three points: a renamed copy of corner 11 listed first, corner 11 by id, and a second copy of 11.
        ContactPoints next = points(new int[][] {{2, 1, 31}, {2, 1, 11}, {2, 1, 32}});
        for (int i = 0; i < 3; i++) {
            next.normal[i].set(0, 0, -1);
            next.leverArmBM[i].set(stored.leverArmBM[0]).add(i * RENAMED_SHIFT_M, 0, 0);
        }
        memory.beginLookup();
        memory.restorePair(next, 0, 3, ContactMemory.WARM_START_RADIUS_M);
        assertEquals(0.0, next.normalImpulseNs[0], 0.0, "the id match comes first, whatever the order");
        assertEquals(0.3, next.normalImpulseNs[1], 0.0);
        // The only unclaimed stored point, corner 12, is 2 cm away.
        assertEquals(0.0, next.normalImpulseNs[2], 0.0, "a stored impulse is given once");
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

    private static void fill(ContactPoints points, double impulseNs) {
        for (int i = 0; i < points.count; i++) {
            points.normalImpulseNs[i] = impulseNs;
        }
    }

    /** Points given as {bodyA, bodyB, featureId}, in the order listed. */
    private static ContactPoints points(int[][] rows) {
        ContactPoints points = new ContactPoints();
        points.ensureCapacity(rows.length);
        for (int i = 0; i < rows.length; i++) {
            points.bodyA[i] = rows[i][0];
            points.bodyB[i] = rows[i][1];
            points.featureId[i] = rows[i][2];
        }
        points.count = rows.length;
        return points;
    }
}
