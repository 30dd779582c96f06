package org.hapticsd.physics.geometry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.joml.Quaterniond;
import org.joml.Vector3d;
import org.junit.jupiter.api.Test;

class ConvexHullOfTest {

    /**
     * Box planes from {@link ConvexHull#of} and {@link ConvexHull#box} both come from Newell's sums over the same
     * four corners, possibly starting at a different corner: four products of coordinates below 1 summed in another
     * order and normalised, a few ulps (1.1e-16 each) apart. 1e-14 leaves a margin of ten.
     */
    private static final double PLANE_TOLERANCE = 1e-14;

    @Test
    void shouldBuildBoxWithSixQuadrilateralsFromCornersInteriorPointsAndDuplicates() {
        double hx = 0.3;
        double hy = 0.2;
        double hz = 0.1;
        ConvexHull box = ConvexHull.box(hx, hy, hz);
        Random random = new Random(7);
        double[] points = new double[3 * (8 + 8 + 40 + 6 + 12)];
        int n = 0;
        // Interior points first, so that the corners are not simply the first points seen.
        for (int i = 0; i < 40; i++) {
            n = put(points, n, hx * (2 * random.nextDouble() - 1), hy * (2 * random.nextDouble() - 1),
                hz * (2 * random.nextDouble() - 1));
        }
        for (int pass = 0; pass < 2; pass++) {
            for (int i = 0; i < 8; i++) {
                n = put(points, n, box.vertexX(i), box.vertexY(i), box.vertexZ(i));
            }
        }
        // Face centres and edge midpoints: on the surface, so they must vanish as vertices.
        n = put(points, n, hx, 0, 0);
        n = put(points, n, -hx, 0, 0);
        n = put(points, n, 0, hy, 0);
        n = put(points, n, 0, -hy, 0);
        n = put(points, n, 0, 0, hz);
        n = put(points, n, 0, 0, -hz);
        for (int s = 0; s < 4; s++) {
            double a = (s & 1) == 0 ? -1 : 1;
            double b = (s & 2) == 0 ? -1 : 1;
            n = put(points, n, 0, a * hy, b * hz);
            n = put(points, n, a * hx, 0, b * hz);
            n = put(points, n, a * hx, b * hy, 0);
        }

        ConvexHull hull = ConvexHull.of(points);

        assertEquals(8, hull.vertexCount());
        assertEquals(6, hull.faceCount());
        assertEquals(12, hull.edgeCount());
        for (int f = 0; f < 6; f++) {
            assertEquals(4, hull.faceVertexCount(f), "face " + f + " corners");
        }
        for (int i = 0; i < 8; i++) {
            assertEquals(hx, Math.abs(hull.vertexX(i)), 0.0, "corners are input points, copied exactly");
            assertEquals(hy, Math.abs(hull.vertexY(i)), 0.0);
            assertEquals(hz, Math.abs(hull.vertexZ(i)), 0.0);
        }
        Vector3d expected = new Vector3d();
        Vector3d actual = new Vector3d();
        for (int f = 0; f < 6; f++) {
            box.faceNormal(f, expected);
            int match = -1;
            for (int g = 0; g < 6; g++) {
                if (hull.faceNormal(g, actual).distance(expected) < PLANE_TOLERANCE) {
                    match = g;
                }
            }
            assertTrue(match >= 0, "no hull face with the normal of box face " + f + " " + expected);
            assertEquals(box.faceOffsetM(f), hull.faceOffsetM(match), PLANE_TOLERANCE);
        }
        assertValidHull(hull, points, ConvexHull.toleranceM(points));
    }

    @Test
    void shouldBuildTetrahedronWithFourTrianglesWoundOutward() {
        double[] points = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
        ConvexHull hull = ConvexHull.of(points);
        assertEquals(4, hull.vertexCount());
        assertEquals(4, hull.faceCount());
        assertEquals(6, hull.edgeCount());
        // Each face plane, and the distance of the opposite corner below it: 1/√3 for the slanted face, 1 for
        // the three faces on the coordinate planes. Exact inputs; the slanted normal is (1, 1, 1)/√3 to 1 ulp.
        Vector3d normal = new Vector3d();
        int slanted = 0;
        for (int f = 0; f < 4; f++) {
            hull.faceNormal(f, normal);
            if (normal.x > 0 && normal.y > 0 && normal.z > 0) {
                slanted++;
                assertEquals(1.0 / Math.sqrt(3.0), hull.faceOffsetM(f), 1e-15);
            } else {
                assertEquals(0.0, hull.faceOffsetM(f), 1e-15);
                assertEquals(-1.0, normal.x + normal.y + normal.z, 1e-15, "outward normal of a coordinate face");
            }
        }
        assertEquals(1, slanted);
        assertValidHull(hull, points, ConvexHull.toleranceM(points));
    }

    /**
     * Every input point inside or on every face plane, to 2 × {@code toleranceM}: a point is dropped only within
     * {@code toleranceM} of the triangle planes of its time, and the hull only grows afterwards; on a sphere the
     * faces around a point differ by a few degrees, so its height above a later plane stays within about
     * {@code toleranceM} (1/cos of half the angle between them); merging, which can tilt a plane by up to
     * {@code toleranceM} at a corner, does not occur for points in general position. The second
     * {@code toleranceM} is margin for the first argument being an estimate, not a proof.
     */
    @Test
    void shouldEncloseEveryPointOfRandomSphereCloud() {
        Random random = new Random(42);
        int n = 2000;
        double radiusM = 0.05;
        double[] points = new double[3 * n];
        Vector3d direction = new Vector3d();
        for (int i = 0; i < n; i++) {
            direction.set(random.nextGaussian(), random.nextGaussian(), random.nextGaussian()).normalize();
            // One point in four inside, within 0.9 of the radius: the hull of 1500 random sphere points leaves no
            // empty cap wider than about 0.15 rad (√(4 ln N / N)), so its faces stay beyond 0.98 of the radius.
            double r = i % 4 == 0 ? 0.9 * radiusM * random.nextDouble() : radiusM;
            put(points, 3 * i, r * direction.x, r * direction.y, r * direction.z);
        }
        ConvexHull hull = ConvexHull.of(points);
        double toleranceM = ConvexHull.toleranceM(points);
        assertValidHull(hull, points, 2 * toleranceM);
        // Points on a sphere are in convex position: none of the 1500 sphere points can be dropped unless it lies
        // within the tolerance of a face, which for random points has probability of order 1e-9.
        assertEquals(1500, hull.vertexCount());
    }

    @Test
    void shouldBuildBoxFromLatticeFullOfCoplanarAndCollinearPoints() {
        int k = 5;
        double[] points = new double[3 * k * k * k];
        int n = 0;
        // Visit the lattice in a scrambled but fixed order (7 is coprime with 125).
        for (int m = 0; m < k * k * k; m++) {
            int i = (7 * m) % (k * k * k);
            n = put(points, n, 0.01 * (i % k), 0.01 * ((i / k) % k), 0.01 * (i / (k * k)));
        }
        ConvexHull hull = ConvexHull.of(points);
        assertEquals(8, hull.vertexCount());
        assertEquals(6, hull.faceCount());
        assertEquals(12, hull.edgeCount());
        assertValidHull(hull, points, 2 * ConvexHull.toleranceM(points));
    }

    @Test
    void shouldBuildPrismWithPolygonalCapsFromTwoRings() {
        int sides = 16;
        double[] points = new double[3 * 2 * sides];
        int n = 0;
        for (int ring = 0; ring < 2; ring++) {
            for (int i = 0; i < sides; i++) {
                double angle = 2 * Math.PI * i / sides;
                n = put(points, n, 0.02 * Math.cos(angle), 0.02 * Math.sin(angle), ring == 0 ? -0.03 : 0.03);
            }
        }
        ConvexHull hull = ConvexHull.of(points);
        assertEquals(2 * sides, hull.vertexCount());
        assertEquals(sides + 2, hull.faceCount(), "16 side quadrilaterals and 2 caps");
        assertEquals(3 * sides, hull.edgeCount());
        int caps = 0;
        for (int f = 0; f < hull.faceCount(); f++) {
            caps += hull.faceVertexCount(f) == sides ? 1 : 0;
        }
        assertEquals(2, caps);
        assertValidHull(hull, points, 2 * ConvexHull.toleranceM(points));
    }

    /** Corners of a turned box stored as float32, as an STL file would: the noise (≈ 3e-9 m) must not split faces. */
    @Test
    void shouldMergeFacesOfTurnedBoxWhoseCornersWereRoundedToFloat() {
        Quaterniond turn = new Quaterniond().rotationAxis(0.9, 1.0, -2.0, 0.5);
        double[] points = new double[24];
        Vector3d corner = new Vector3d();
        for (int i = 0; i < 8; i++) {
            turn.transform((i & 1) == 0 ? -0.04 : 0.04, (i & 2) == 0 ? -0.025 : 0.025, (i & 4) == 0 ? -0.01 : 0.01,
                corner);
            put(points, 3 * i, (float) corner.x, (float) corner.y, (float) corner.z);
        }
        ConvexHull hull = ConvexHull.of(points);
        assertEquals(8, hull.vertexCount());
        assertEquals(6, hull.faceCount());
        assertEquals(12, hull.edgeCount());
        assertValidHull(hull, points, 2 * ConvexHull.toleranceM(points));
    }

    @Test
    void shouldKeepEulerCharacteristicTwoForRandomClouds() {
        Random random = new Random(3);
        for (int trial = 0; trial < 50; trial++) {
            int n = 4 + random.nextInt(200);
            double[] points = new double[3 * n];
            for (int i = 0; i < 3 * n; i++) {
                // Coarse values on a grid of 1/8 make coplanar and duplicate points common.
                points[i] = trial % 2 == 0 ? random.nextDouble() : Math.floor(8 * random.nextDouble()) / 8;
            }
            ConvexHull hull;
            try {
                hull = ConvexHull.of(points);
            } catch (IllegalArgumentException degenerate) {
                // Few coarse points can be coplanar; that case has its own test.
                continue;
            }
            assertEquals(2, hull.vertexCount() - hull.edgeCount() + hull.faceCount(), "V - E + F, trial " + trial);
            assertValidHull(hull, points, 2 * ConvexHull.toleranceM(points));
        }
    }

    /**
     * Points of a lattice on a cube's surface, each moved by noise between 1e-8 and 1e-5 of the cube's size, i.e.
     * from well inside to well beyond the tolerance (3.5e-6 here): the regime where a hull built with
     * tolerance-based visibility folds faces inside out. Every hull must stay closed, convex and enclosing.
     */
    @Test
    void shouldStayConvexAndClosedForNearlyCoplanarNoisyClouds() {
        Random random = new Random(2);
        for (int trial = 0; trial < 300; trial++) {
            int n = 8 + random.nextInt(300);
            double[] points = new double[3 * n];
            for (int i = 0; i < n; i++) {
                double[] p = new double[3];
                int face = random.nextInt(6);
                p[face / 2] = (face & 1) == 0 ? -1 : 1;
                p[(face / 2 + 1) % 3] = random.nextInt(5) / 2.0 - 1;
                p[(face / 2 + 2) % 3] = random.nextInt(5) / 2.0 - 1;
                double noise = Math.pow(10, -5 - 3 * random.nextDouble());
                for (int k = 0; k < 3; k++) {
                    points[3 * i + k] = p[k] + noise * random.nextGaussian();
                }
            }
            ConvexHull hull = ConvexHull.of(points);
            assertValidHull(hull, points, 2 * ConvexHull.toleranceM(points));
        }
    }

    @Test
    void shouldRejectDegenerateInputNamingTheFault() {
        assertEquals("a convex hull needs at least 4 points, got 3",
            assertThrows(IllegalArgumentException.class,
                () -> ConvexHull.of(new double[] {0, 0, 0, 1, 0, 0, 0, 1, 0})).getMessage());
        assertEquals("points must be x, y, z triples, got 13 numbers, which is not a multiple of 3",
            assertThrows(IllegalArgumentException.class, () -> ConvexHull.of(new double[13])).getMessage());
        assertEquals("point 2 has a non-finite coordinate y = NaN",
            assertThrows(IllegalArgumentException.class, () -> ConvexHull.of(
                new double[] {0, 0, 0, 1, 0, 0, 0, Double.NaN, 0, 0, 0, 1})).getMessage());
        double[] square = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0.5, 0.5, 0};
        String coplanar = assertThrows(IllegalArgumentException.class, () -> ConvexHull.of(square)).getMessage();
        assertTrue(coplanar.startsWith("all 5 points are coplanar within the hull tolerance "), coplanar);
        double[] line = {0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3};
        String collinear = assertThrows(IllegalArgumentException.class, () -> ConvexHull.of(line)).getMessage();
        assertTrue(collinear.startsWith("all 4 points are collinear within the hull tolerance "), collinear);
        double[] same = {1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3};
        String coincide = assertThrows(IllegalArgumentException.class, () -> ConvexHull.of(same)).getMessage();
        assertTrue(coincide.startsWith("all 4 points coincide within the hull tolerance "), coincide);
    }

    @Test
    void shouldScaleToleranceWithTheCloudNotItsPosition() {
        double[] unitCube = {0, 0, 0, 1, 1, 1};
        // 1e-6 · √3 plus the rounding term 64 ε · (1 + 1 + 1).
        assertEquals(1e-6 * Math.sqrt(3.0) + 192 * Math.ulp(1.0), ConvexHull.toleranceM(unitCube), 1e-22);
    }

    /**
     * The structural invariants of a closed convex polyhedron, checked independently of how it was built: every
     * edge used once in each direction (closed and consistently wound), Euler's V − E + F = 2, and, to within
     * {@code outsideM}: every face convex and wound counter-clockwise about its outward normal, every vertex on or
     * below every plane, every input point inside. Faces merged from nearly coplanar triangles are planar and
     * convex only to the tolerance, hence the allowance; for exact input (boxes, lattices) it is rounding only.
     */
    static void assertValidHull(ConvexHull hull, double[] points, double outsideM) {
        Map<Long, Integer> directedEdges = new HashMap<>();
        for (int f = 0; f < hull.faceCount(); f++) {
            int count = hull.faceVertexCount(f);
            for (int k = 0; k < count; k++) {
                long key = ((long) hull.faceVertex(f, k) << 32) | hull.faceVertex(f, (k + 1) % count);
                directedEdges.merge(key, 1, Integer::sum);
            }
        }
        for (Map.Entry<Long, Integer> edge : directedEdges.entrySet()) {
            long key = edge.getKey();
            long twin = (key << 32) | (key >>> 32);
            assertEquals(1, edge.getValue(), "directed edge used more than once");
            assertEquals(1, directedEdges.getOrDefault(twin, 0), "directed edge without its opposite");
        }
        assertEquals(directedEdges.size() / 2, hull.edgeCount());
        assertEquals(2, hull.vertexCount() - hull.edgeCount() + hull.faceCount(), "Euler characteristic");

        Vector3d normal = new Vector3d();
        Vector3d a = new Vector3d();
        Vector3d b = new Vector3d();
        Vector3d c = new Vector3d();
        Vector3d outward = new Vector3d();
        for (int f = 0; f < hull.faceCount(); f++) {
            hull.faceNormal(f, normal);
            int count = hull.faceVertexCount(f);
            for (int k = 0; k < count; k++) {
                // Convex and counter-clockwise about the outward normal: every corner of the face lies on the inner
                // side of each edge's in-plane outward normal (b − a) × n, to the same tolerance as the points.
                hull.vertex(hull.faceVertex(f, k), a);
                hull.vertex(hull.faceVertex(f, (k + 1) % count), b);
                b.sub(a, outward).cross(normal).normalize();
                for (int j = 0; j < count; j++) {
                    hull.vertex(hull.faceVertex(f, j), c);
                    double sideM = outward.dot(c.sub(a));
                    if (!(sideM <= outsideM)) {
                        fail("face " + f + " is not convex and counter-clockwise: corner " + j + " lies " + sideM
                            + " m outside edge " + k);
                    }
                }
            }
            for (int v = 0; v < hull.vertexCount(); v++) {
                double distanceM = normal.dot(hull.vertex(v, a)) - hull.faceOffsetM(f);
                if (!(distanceM <= outsideM)) {
                    fail("vertex " + v + " is " + distanceM + " m outside face " + f);
                }
            }
            for (int i = 0; i < points.length; i += 3) {
                double distanceM = normal.x * points[i] + normal.y * points[i + 1] + normal.z * points[i + 2]
                    - hull.faceOffsetM(f);
                if (!(distanceM <= outsideM)) {
                    fail("point " + i / 3 + " is " + distanceM + " m outside face " + f);
                }
            }
        }
    }

    private static int put(double[] points, int n, double x, double y, double z) {
        points[n] = x;
        points[n + 1] = y;
        points[n + 2] = z;
        return n + 3;
    }
}
