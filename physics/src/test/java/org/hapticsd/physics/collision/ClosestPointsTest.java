package org.hapticsd.physics.collision;

import static org.hapticsd.physics.collision.Contacts.LENGTH_M;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.joml.Vector3d;
import org.junit.jupiter.api.Test;

/** The closest-point kernels (Ericson §5.1.5, §5.1.9) on cases whose answers are known in closed form. */
class ClosestPointsTest {
    private final Vector3d c1 = new Vector3d();
    private final Vector3d c2 = new Vector3d();

    @Test
    void shouldFindCommonPerpendicularOfCrossingSegments() {
        // x axis segment and a y-direction segment 0.3 above it, crossing over (0.2, 0).
        double d2 = ClosestPoints.segmentSegment(-1, 0, 0, 1, 0, 0, 0.2, -1, 0.3, 0.2, 1, 0.3, c1, c2);
        assertEquals(0.09, d2, LENGTH_M);
        assertNear(c1, 0.2, 0, 0);
        assertNear(c2, 0.2, 0, 0.3);
    }

    @Test
    void shouldClampToEndsWhenSegmentsDoNotReachEachOther() {
        // Second segment starts beyond the first's end: closest points are (1, 0, 0) and (2, 0.5, 0).
        double d2 = ClosestPoints.segmentSegment(0, 0, 0, 1, 0, 0, 2, 0.5, 0, 3, 2, 0, c1, c2);
        assertEquals(1.0 + 0.25, d2, LENGTH_M);
        assertNear(c1, 1, 0, 0);
        assertNear(c2, 2, 0.5, 0);
    }

    @Test
    void shouldGiveTheLineDistanceForParallelSegments() {
        double d2 = ClosestPoints.segmentSegment(0, 0, 0, 1, 0, 0, 0.5, 0.2, 0, 2, 0.2, 0, c1, c2);
        assertEquals(0.04, d2, LENGTH_M);
        assertEquals(0.2, c2.y - c1.y, LENGTH_M);
        assertEquals(c1.x, c2.x, LENGTH_M);
    }

    @Test
    void shouldTreatPointSegmentsAsPoints() {
        double d2 = ClosestPoints.segmentSegment(0, 0, 1, 0, 0, 1, -1, 0, 0, 1, 0, 0, c1, c2);
        assertEquals(1.0, d2, LENGTH_M);
        assertNear(c2, 0, 0, 0);
        assertEquals(0.0, ClosestPoints.segmentSegment(0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, c1, c2), 0.0);
    }

    @Test
    void shouldNameEveryVoronoiRegionOfTheTriangle() {
        // Triangle a = (0, 0), b = (1, 0), c = (0, 1) in z = 0; each query lifted 0.5 above the plane.
        int[] regions = {
            region(0.2, 0.2), region(-0.5, -0.5), region(1.5, -0.2), region(-0.2, 1.5),
            region(0.5, -0.5), region(1, 1), region(-0.5, 0.5),
        };
        int[] expected = {
            ClosestPoints.REGION_FACE, ClosestPoints.REGION_VERTEX_A, ClosestPoints.REGION_VERTEX_B,
            ClosestPoints.REGION_VERTEX_C, ClosestPoints.REGION_EDGE_AB, ClosestPoints.REGION_EDGE_BC,
            ClosestPoints.REGION_EDGE_CA,
        };
        for (int i = 0; i < expected.length; i++) {
            assertEquals(expected[i], regions[i], "query " + i);
        }
        ClosestPoints.pointTriangle(1, 1, 0.5, 0, 0, 0, 1, 0, 0, 0, 1, 0, c1);
        assertEquals(0.5, c1.x, LENGTH_M);
        assertEquals(0.5, c1.y, LENGTH_M);
        assertEquals(0.0, c1.z, LENGTH_M);
    }

    private static void assertNear(Vector3d actual, double x, double y, double z) {
        // One division and a few products of values below 3: rounding below 1e-15.
        assertEquals(0.0, actual.distance(x, y, z), LENGTH_M, actual.toString());
    }

    private int region(double x, double y) {
        return ClosestPoints.pointTriangle(x, y, 0.5, 0, 0, 0, 1, 0, 0, 0, 1, 0, c1);
    }
}
