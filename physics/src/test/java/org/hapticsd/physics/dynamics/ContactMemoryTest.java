package org.hapticsd.physics.dynamics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ContactMemoryTest {

    @Test
    void shouldFindStoredPointsByPairAndFeatureWalkingForward() {
        ContactPoints stored = points(new int[][] {{0, 3, 1}, {0, 3, 2}, {1, 2, 7}, {4, 2, 5}});
        stored.normalImpulseNs[0] = 0.1;
        stored.normalImpulseNs[1] = 0.2;
        stored.normalImpulseNs[2] = 0.3;
        stored.normalImpulseNs[3] = 0.4;
        ContactMemory memory = new ContactMemory();
        memory.record(stored);

        memory.beginLookup();
        assertEquals(1, memory.find(0, 3, 2), "second point of the first pair");
        assertEquals(0, memory.find(0, 3, 1), "points within a pair in any order");
        assertEquals(-1, memory.find(0, 3, 9), "unknown feature");
        assertEquals(-1, memory.find(1, 1, 7), "a pair that was not in contact");
        assertEquals(2, memory.find(1, 2, 7));
        // Pair keys use (lower, higher) index: the stored (4, 2) is the pair (2, 4).
        assertEquals(3, memory.find(2, 4, 5));
        assertEquals(-1, memory.find(3, 5, 1), "past the end");
    }

    @Test
    void shouldNeverMatchFeatureIdZero() {
        ContactMemory memory = new ContactMemory();
        memory.record(points(new int[][] {{0, 1, 0}}));
        memory.beginLookup();
        assertEquals(-1, memory.find(0, 1, 0), "0 means no stable identity");
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
        memory.restore(memory.find(0, 1, 3), next, 0);
        assertEquals(0.5, next.normalImpulseNs[0], 0.0);
        assertEquals(stored.frictionImpulseNs[0], next.frictionImpulseNs[0]);
        assertEquals(stored.stickDisplacementM[0], next.stickDisplacementM[0]);
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
