package org.hapticsd.physics.collision;

import static org.hapticsd.physics.collision.Contacts.LENGTH_M;
import static org.hapticsd.physics.collision.Contacts.assertPoint;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The point reduction: polygon vertices kept, points on its sides and coincident points dropped, deepest kept. */
class ContactCandidatesTest {
    private final ContactCandidates candidates = new ContactCandidates(32);
    private final ContactManifold manifold = new ContactManifold();

    @Test
    void shouldKeepCornersAndDropPointsOnTheSides() {
        add(0, 0, 0.001, 1);
        add(0.5, 0, 0.001, 2);
        add(1, 0, 0.001, 3);
        add(1, 1, 0.001, 4);
        add(1, 0.25, 0.001, 5);
        add(0, 1, 0.001, 6);
        add(0.3, 0.4, 0.0005, 7);
        candidates.writeHullTo(0, 0, 1, manifold);
        assertEquals(4, manifold.pointCount(), Contacts.describe(manifold));
        assertPoint(manifold, 0, 0, 0, 0.001, LENGTH_M);
        assertPoint(manifold, 1, 0, 0, 0.001, LENGTH_M);
        assertPoint(manifold, 1, 1, 0, 0.001, LENGTH_M);
        assertPoint(manifold, 0, 1, 0, 0.001, LENGTH_M);
    }

    @Test
    void shouldKeepTheDeepestPointEvenInsideThePolygon() {
        add(0, 0, 0.001, 1);
        add(1, 0, 0.001, 2);
        add(0, 1, 0.001, 3);
        add(0.2, 0.2, 0.004, 4);
        candidates.writeHullTo(0, 0, 1, manifold);
        assertEquals(4, manifold.pointCount());
        assertPoint(manifold, 0.2, 0.2, 0, 0.004, LENGTH_M);
    }

    @Test
    void shouldMergeCoincidentPointsKeepingTheDeeper() {
        add(0, 0, 0.001, 1);
        add(0, 0, 0.003, 2);
        add(1, 0, 0.001, 3);
        add(0, 1, 0.001, 4);
        candidates.writeHullTo(0, 0, 1, manifold);
        assertEquals(3, manifold.pointCount());
        int i = Contacts.pointNear(manifold, 0, 0, 0, LENGTH_M);
        assertEquals(0.003, manifold.depth(i), LENGTH_M);
        assertEquals(2, manifold.featureId(i));
    }

    @Test
    void shouldSampleEightSpreadPointsFromSixteen() {
        // A regular 16-gon, all equally deep: farthest-point sampling from vertex 0 (the first of the deepest) keeps
        // every other vertex. The expected points are the same doubles as the inputs.
        for (int k = 0; k < 16; k++) {
            double angle = Math.PI * k / 8;
            candidates.add(Math.cos(angle), Math.sin(angle), 0, 0.001, k + 1, 0, 0, 1);
        }
        candidates.writeHullTo(0, 0, 1, manifold);
        assertEquals(8, manifold.pointCount());
        for (int k = 0; k < 16; k += 2) {
            double angle = Math.PI * k / 8;
            assertPoint(manifold, Math.cos(angle), Math.sin(angle), 0, 0.001, LENGTH_M);
        }
    }

    private void add(double x, double y, double depthM, int id) {
        candidates.add(x, y, 0, depthM, id, 0, 0, 1);
    }
}
