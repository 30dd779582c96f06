package org.hapticsd.physics.mass;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.hapticsd.physics.BoxShape;
import org.hapticsd.physics.CapsuleShape;
import org.hapticsd.physics.ConvexHullShape;
import org.hapticsd.physics.PlaneShape;
import org.hapticsd.physics.SphereShape;
import org.hapticsd.physics.TriangleMeshShape;
import org.hapticsd.physics.geometry.ConvexHull;
import org.hapticsd.physics.geometry.TriangleMesh;
import org.joml.Matrix3d;
import org.joml.Quaterniond;
import org.joml.Vector3d;
import org.junit.jupiter.api.Test;

class MassPropertiesCalculatorTest {

    /**
     * Closed forms against exact integrals of the same solid: each side is a few dozen roundings of values of
     * order 1 (at most 1.1e-16 relative each), so they agree to about 1e-14 relative; 1e-12 leaves a hundredfold
     * margin and still catches any wrong coefficient, which would be off by percent.
     */
    private static final double EXACT_RELATIVE = 1e-12;

    private static final double STEEL_KG_PER_M3 = 7850.0;

    @Test
    void shouldBlameTheSizeNotTheMassWhenTheVolumeDoesNotFitADouble() {
        // Found with a 1 kg ball of radius 1e300 m, refused as "massKg must be finite and > 0, was Infinity".
        for (double radiusM : new double[] {1e300, 1e-300}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> MassPropertiesCalculator.ofMass(new SphereShape(radiusM), 1.0));
            assertTrue(e.getMessage().startsWith("the shape's size is outside what its volume and inertia can be "
                + "computed for in double precision"), e.getMessage());
        }
    }

    @Test
    void shouldGiveBallTwoFifthsMassRadiusSquaredMatchingSliceIntegration() {
        double r = 0.02;
        MassProperties ball = MassPropertiesCalculator.sphere(r, STEEL_KG_PER_M3);
        double massKg = STEEL_KG_PER_M3 * 4.0 / 3.0 * Math.PI * r * r * r;
        assertRelative(massKg, ball.massKg(), EXACT_RELATIVE);
        assertRelative(0.4 * massKg * r * r, ball.ixxKgM2(), EXACT_RELATIVE);
        double[] slices = revolvedSolid(STEEL_KG_PER_M3, new double[] {-r, r}, z -> r * r - z * z);
        assertRelative(slices[0], ball.massKg(), EXACT_RELATIVE);
        assertRelative(slices[1], ball.ixxKgM2(), EXACT_RELATIVE);
        assertRelative(slices[2], ball.izzKgM2(), EXACT_RELATIVE);
        assertRelative(ball.ixxKgM2(), ball.iyyKgM2(), 0.0);
    }

    @Test
    void shouldGiveBoxInertiaOneTwelfthMassTimesSumOfSquaredEdges() {
        // Edges a = 0.1, b = 0.06, c = 0.02 m; aluminium.
        MassProperties box = MassPropertiesCalculator.ofDensity(new BoxShape(0.05, 0.03, 0.01), 2700.0);
        double massKg = 2700.0 * 0.1 * 0.06 * 0.02;
        assertRelative(massKg, box.massKg(), EXACT_RELATIVE);
        assertRelative(massKg / 12 * (0.06 * 0.06 + 0.02 * 0.02), box.ixxKgM2(), EXACT_RELATIVE);
        assertRelative(massKg / 12 * (0.1 * 0.1 + 0.02 * 0.02), box.iyyKgM2(), EXACT_RELATIVE);
        assertRelative(massKg / 12 * (0.1 * 0.1 + 0.06 * 0.06), box.izzKgM2(), EXACT_RELATIVE);
        assertEquals(0.0, box.ixyKgM2(), 0.0);
    }

    /**
     * The capsule's closed form (cylinder plus hemispheres shifted by 3r/8) against an independent integration over
     * discs along z: the squared disc radius is a polynomial of degree 2 in z on each of the three pieces, so mass,
     * {@code ∫ π R⁴/2} and {@code ∫ π (R⁴/4 + R² z²)} are polynomials of degree at most 4, which 3-point
     * Gauss–Legendre integrates exactly.
     */
    @Test
    void shouldMatchCapsuleToExactIntegrationOverDiscs() {
        double[][] cases = {{0.01, 0.03}, {0.02, 0.005}, {0.015, 0.0}, {0.001, 0.5}};
        for (double[] c : cases) {
            double r = c[0];
            double half = c[1];
            MassProperties capsule = MassPropertiesCalculator.ofDensity(new CapsuleShape(r, half), STEEL_KG_PER_M3);
            double[] slices = revolvedSolid(STEEL_KG_PER_M3, new double[] {-half - r, -half, half, half + r},
                z -> z > half ? r * r - (z - half) * (z - half) : z < -half ? r * r - (z + half) * (z + half) : r * r);
            String label = "capsule r=" + r + " halfLength=" + half;
            assertRelative(slices[0], capsule.massKg(), EXACT_RELATIVE, label);
            assertRelative(slices[1], capsule.ixxKgM2(), EXACT_RELATIVE, label);
            assertRelative(slices[1], capsule.iyyKgM2(), EXACT_RELATIVE, label);
            assertRelative(slices[2], capsule.izzKgM2(), EXACT_RELATIVE, label);
        }
        MassProperties ball = MassPropertiesCalculator.sphere(0.015, STEEL_KG_PER_M3);
        MassProperties shortCapsule = MassPropertiesCalculator.capsule(0.015, 0.0, STEEL_KG_PER_M3);
        assertRelative(ball.ixxKgM2(), shortCapsule.ixxKgM2(), EXACT_RELATIVE, "a capsule without cylinder is a ball");
    }

    @Test
    void shouldMatchAnalyticBoxWithTwelveTriangleMesh() {
        double hx = 0.04;
        double hy = 0.025;
        double hz = 0.01;
        TriangleMesh mesh = boxMesh(hx, hy, hz);
        assertEquals(12, mesh.triangleCount());
        MassProperties meshed = MassPropertiesCalculator.closedMesh(mesh, STEEL_KG_PER_M3);
        MassProperties analytic = MassPropertiesCalculator.box(hx, hy, hz, STEEL_KG_PER_M3);
        // The mesh is symmetric about its centre, so the centre is 0 up to rounding of centimetre values: 1e-15 m.
        assertSameBody(analytic, meshed, EXACT_RELATIVE, 1e-15);
    }

    @Test
    void shouldMatchBoxWithConvexHullOfItsCorners() {
        double[] corners = new double[24];
        for (int i = 0; i < 8; i++) {
            corners[3 * i] = (i & 1) == 0 ? -0.03 : 0.03;
            corners[3 * i + 1] = (i & 2) == 0 ? -0.02 : 0.02;
            corners[3 * i + 2] = (i & 4) == 0 ? -0.05 : 0.05;
        }
        MassProperties hull = MassPropertiesCalculator.ofDensity(new ConvexHullShape(ConvexHull.of(corners)), 1000.0);
        assertSameBody(MassPropertiesCalculator.box(0.03, 0.02, 0.05, 1000.0), hull, EXACT_RELATIVE, 1e-15);
    }

    /**
     * A translated and turned box mesh has its centre at the translation and the tensor {@code R I Rᵀ}. The mesh
     * vertices pass through one rotation (about 10 roundings each), so 1e-12 relative still holds.
     */
    @Test
    void shouldMoveCentreAndTurnTensorWithTheMesh() {
        double hx = 0.05;
        double hy = 0.02;
        double hz = 0.01;
        Quaterniond turn = new Quaterniond().rotationAxis(1.1, 0.3, -0.5, 0.8);
        Vector3d offsetM = new Vector3d(0.3, -0.2, 0.15);
        TriangleMesh box = boxMesh(hx, hy, hz);
        double[] moved = new double[3 * box.vertexCount()];
        Vector3d v = new Vector3d();
        for (int i = 0; i < box.vertexCount(); i++) {
            turn.transform(v.set(box.vertexX(i), box.vertexY(i), box.vertexZ(i))).add(offsetM);
            moved[3 * i] = v.x;
            moved[3 * i + 1] = v.y;
            moved[3 * i + 2] = v.z;
        }
        int[] triangles = new int[3 * box.triangleCount()];
        for (int t = 0; t < box.triangleCount(); t++) {
            for (int k = 0; k < 3; k++) {
                triangles[3 * t + k] = box.corner(t, k);
            }
        }
        MassProperties meshed = MassPropertiesCalculator.closedMesh(new TriangleMesh(moved, triangles), 1000.0);
        MassProperties analytic = MassPropertiesCalculator.box(hx, hy, hz, 1000.0);
        Matrix3d rotation = new Matrix3d().set(turn);
        Matrix3d expected = new Matrix3d(rotation).mul(analytic.inertiaKgM2(new Matrix3d()))
            .mul(new Matrix3d(rotation).transpose());
        Matrix3d actual = meshed.inertiaKgM2(new Matrix3d());
        double scale = analytic.ixxKgM2() + analytic.iyyKgM2() + analytic.izzKgM2();
        for (int col = 0; col < 3; col++) {
            for (int row = 0; row < 3; row++) {
                assertEquals(expected.get(col, row), actual.get(col, row), EXACT_RELATIVE * scale,
                    "entry " + row + "," + col);
            }
        }
        assertTrue(Math.abs(actual.m01) > 1e-3 * scale, "the turn must make the tensor non-diagonal");
        // Offsets of decimetres through one rotation and the centroid sums: a few ulps of 0.3 m, below 1e-15 m.
        assertEquals(offsetM.x, meshed.centreXM(), 1e-15);
        assertEquals(offsetM.y, meshed.centreYM(), 1e-15);
        assertEquals(offsetM.z, meshed.centreZM(), 1e-15);
        assertRelative(analytic.massKg(), meshed.massKg(), EXACT_RELATIVE);
    }

    /**
     * Tonon's worked example (J. Math. Stat. 1(1), 2005, §4). Reference values: the same integrals evaluated in exact
     * rational arithmetic from Tonon's formulas (Python fractions; rounded to double), which agree with this code to
     * 1e-12 relative; and the paper's printed values, which agree with the exact ones only to 2e-8 relative (e.g.
     * b = 194711.28938 printed, 194711.29259 exact), so that is the tolerance against the paper. The paper's
     * a′, b′, c′ are ∫yz, ∫xz and ∫xy dm, i.e. minus the tensor entries I_yz, I_xz, I_xy.
     */
    @Test
    void shouldReproduceTononTetrahedron() {
        double[] v = {8.33220, -11.86875, 0.93355, 0.75523, 5.00000, 16.37072, 52.61236, 5.00000, -5.38580,
            2.00000, 5.00000, 3.00000};
        MassProperties tetra = MassPropertiesCalculator.closedMesh(
            new TriangleMesh(v, new int[] {0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3}), 1.0);
        assertRelative(1873.2333642164654, tetra.massKg(), EXACT_RELATIVE);
        // Coordinates of order 10 through a few dozen roundings: error near 1e-14; 1e-12 is margin.
        assertEquals(15.9249475, tetra.centreXM(), 1e-12);
        assertEquals(0.7828125, tetra.centreYM(), 1e-12);
        assertEquals(3.7296175, tetra.centreZM(), 1e-12);
        assertRelative(43520.3332853933, tetra.ixxKgM2(), EXACT_RELATIVE);
        assertRelative(194711.2925907936, tetra.iyyKgM2(), EXACT_RELATIVE);
        assertRelative(191168.76488607793, tetra.izzKgM2(), EXACT_RELATIVE);
        assertRelative(-4417.661569685615, tetra.iyzKgM2(), EXACT_RELATIVE);
        assertRelative(46343.16738139439, tetra.ixzKgM2(), EXACT_RELATIVE);
        assertRelative(-11996.20139323408, tetra.ixyKgM2(), EXACT_RELATIVE);

        double paper = 2e-8;
        assertRelative(43520.33257, tetra.ixxKgM2(), paper);
        assertRelative(194711.28938, tetra.iyyKgM2(), paper);
        assertRelative(191168.76173, tetra.izzKgM2(), paper);
        assertRelative(4417.66150, -tetra.iyzKgM2(), paper);
        assertRelative(-46343.16662, -tetra.ixzKgM2(), paper);
        assertRelative(11996.20119, -tetra.ixyKgM2(), paper);
    }

    /** A non-convex L-shaped prism against the two boxes it is made of, combined by the parallel-axis theorem. */
    @Test
    void shouldIntegrateNonConvexPrismLikeTheBoxesItIsMadeOf() {
        double s = 0.01;
        double h = 0.004;
        double[][] outline = {{0, 0}, {2 * s, 0}, {2 * s, s}, {s, s}, {s, 2 * s}, {0, 2 * s}};
        double[] vertices = new double[36];
        for (int i = 0; i < 6; i++) {
            vertices[3 * i] = outline[i][0];
            vertices[3 * i + 1] = outline[i][1];
            vertices[3 * (i + 6)] = outline[i][0];
            vertices[3 * (i + 6) + 1] = outline[i][1];
            vertices[3 * (i + 6) + 2] = h;
        }
        int[] triangles = new int[3 * 20];
        int n = 0;
        // Caps fanned from the corner at the origin, from which the whole L is visible; the bottom reversed.
        for (int i = 1; i + 1 < 6; i++) {
            n = put(triangles, n, 6, 6 + i, 6 + i + 1);
            n = put(triangles, n, 0, i + 1, i);
        }
        for (int i = 0; i < 6; i++) {
            int j = (i + 1) % 6;
            n = put(triangles, n, i, j, 6 + j);
            n = put(triangles, n, i, 6 + j, 6 + i);
        }
        MassProperties prism = MassPropertiesCalculator.closedMesh(new TriangleMesh(vertices, triangles), 1000.0);

        MassProperties a = MassPropertiesCalculator.box(s, s / 2, h / 2, 1000.0);
        MassProperties b = MassPropertiesCalculator.box(s / 2, s / 2, h / 2, 1000.0);
        double[] centreA = {s, s / 2, h / 2};
        double[] centreB = {s / 2, 1.5 * s, h / 2};
        double massKg = a.massKg() + b.massKg();
        double[] g = new double[3];
        for (int k = 0; k < 3; k++) {
            g[k] = (a.massKg() * centreA[k] + b.massKg() * centreB[k]) / massKg;
        }
        Matrix3d expected = shifted(a, centreA, g).add(shifted(b, centreB, g));
        assertRelative(massKg, prism.massKg(), EXACT_RELATIVE);
        // Centre coordinates of about 0.01 m through a few dozen roundings: error near 1e-18 m; 1e-17 m is margin.
        assertEquals(g[0], prism.centreXM(), 1e-17);
        assertEquals(g[1], prism.centreYM(), 1e-17);
        assertEquals(g[2], prism.centreZM(), 1e-17);
        Matrix3d actual = prism.inertiaKgM2(new Matrix3d());
        double scale = expected.m00 + expected.m11 + expected.m22;
        for (int col = 0; col < 3; col++) {
            for (int row = 0; row < 3; row++) {
                assertEquals(expected.get(col, row), actual.get(col, row), EXACT_RELATIVE * scale,
                    "entry " + row + "," + col);
            }
        }
        assertTrue(Math.abs(actual.m01) > 0.05 * scale, "an L has a product of inertia in its plane");
    }

    /**
     * An icosphere of radius r (subdivided icosahedron, vertices on the sphere) lies between the ball of its
     * in-radius r_in (smallest distance from the centre to a face plane) and the ball of radius r, so its mass lies
     * between those balls' masses; so does ∫|x|² dm, and because the icosahedral symmetry makes the second moment
     * isotropic each moment is 2/3 of it, hence between the balls' moments. That brackets the error at level k by
     * {@code 1 − (r_in/r)⁵}, which shrinks fourfold per subdivision once the mesh is fine (the sagitta goes with the
     * squared edge; measured ratios 3.4, 3.8, 3.95, 3.99 from level 1 on). At level 5 (20 480 triangles) the bound is
     * 1.42e-3 and the actual error of I_xx 9.0e-4.
     */
    @Test
    void shouldConvergeIcosphereBetweenItsInscribedAndCircumscribedBalls() {
        double r = 0.03;
        double previousBound = Double.NaN;
        for (int level = 0; level <= 5; level++) {
            TriangleMesh mesh = icosphere(r, level);
            double inRadius = Double.POSITIVE_INFINITY;
            for (int t = 0; t < mesh.triangleCount(); t++) {
                inRadius = Math.min(inRadius, planeDistanceFromOrigin(mesh, t));
            }
            MassProperties sphere = MassPropertiesCalculator.closedMesh(mesh, STEEL_KG_PER_M3);
            MassProperties outer = MassPropertiesCalculator.sphere(r, STEEL_KG_PER_M3);
            MassProperties inner = MassPropertiesCalculator.sphere(inRadius, STEEL_KG_PER_M3);
            String label = "level " + level;
            assertTrue(inner.massKg() < sphere.massKg() && sphere.massKg() < outer.massKg(), label);
            for (double moment : new double[] {sphere.ixxKgM2(), sphere.iyyKgM2(), sphere.izzKgM2()}) {
                assertTrue(inner.ixxKgM2() < moment && moment < outer.ixxKgM2(), label + " moment " + moment);
            }
            // Isotropy and central symmetry hold to rounding: 1e-12 of the moment.
            assertEquals(sphere.ixxKgM2(), sphere.iyyKgM2(), 1e-12 * sphere.ixxKgM2(), label);
            assertEquals(sphere.ixxKgM2(), sphere.izzKgM2(), 1e-12 * sphere.ixxKgM2(), label);
            assertEquals(0.0, sphere.ixyKgM2(), 1e-12 * sphere.ixxKgM2(), label);
            assertEquals(0.0, sphere.centreXM(), 1e-12 * r, label);
            double bound = 1 - Math.pow(inRadius / r, 5);
            double error = (outer.ixxKgM2() - sphere.ixxKgM2()) / outer.ixxKgM2();
            assertTrue(error <= bound, label + " error " + error + " above its bound " + bound);
            if (level >= 3) {
                assertTrue(bound < previousBound / 3.5, label + " bound " + bound + " did not shrink about fourfold");
            }
            previousBound = bound;
        }
        assertTrue(previousBound < 1.5e-3, "level 5 bound " + previousBound);
    }

    @Test
    void shouldScaleToRequestedMassKeepingCentre() {
        MassProperties byMass = MassPropertiesCalculator.ofMass(new BoxShape(0.02, 0.03, 0.04), 0.5);
        MassProperties byDensity = MassPropertiesCalculator.box(0.02, 0.03, 0.04, 0.5 / (8 * 0.02 * 0.03 * 0.04));
        assertSameBody(byDensity, byMass, EXACT_RELATIVE, 0.0);
        TriangleMesh mesh = boxMesh(0.01, 0.01, 0.02);
        assertRelative(2.0, MassPropertiesCalculator.closedMeshOfMass(mesh, 2.0).massKg(), EXACT_RELATIVE);
    }

    @Test
    void shouldRejectOpenOrInvertedMeshesAndStaticShapesWithTheReason() {
        TriangleMesh box = boxMesh(0.01, 0.01, 0.01);
        int[] open = new int[33];
        int[] inverted = new int[36];
        for (int t = 0; t < 12; t++) {
            for (int k = 0; k < 3; k++) {
                if (t < 11) {
                    open[3 * t + k] = box.corner(t, k);
                }
                inverted[3 * t + k] = box.corner(t, 2 - k);
            }
        }
        double[] vertices = new double[24];
        for (int i = 0; i < 8; i++) {
            vertices[3 * i] = box.vertexX(i);
            vertices[3 * i + 1] = box.vertexY(i);
            vertices[3 * i + 2] = box.vertexZ(i);
        }
        // The twelfth triangle of boxMesh is the second half of the −z face: corners 0, 3, 1.
        assertEquals("mesh is not closed and consistently wound: edge 0→1 is used 1 time(s) and 1→0 0 time(s); they "
                + "must match",
            assertThrows(IllegalArgumentException.class,
                () -> MassPropertiesCalculator.closedMesh(new TriangleMesh(vertices, open), 1.0)).getMessage());
        String message = assertThrows(IllegalArgumentException.class,
            () -> MassPropertiesCalculator.closedMesh(new TriangleMesh(vertices, inverted), 1.0)).getMessage();
        assertTrue(message.startsWith("mesh encloses a non-positive volume (-8.0"), message);
        assertEquals("a PlaneShape is a half-space: static only, it has no mass properties",
            assertThrows(IllegalArgumentException.class, () -> MassPropertiesCalculator.ofDensity(
                new PlaneShape(new Vector3d(0, 0, 1)), 1.0)).getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> MassPropertiesCalculator.ofMass(
            new TriangleMeshShape(box), 1.0)).getMessage().startsWith("a TriangleMeshShape is static collision"));
        assertEquals("densityKgPerM3 must be finite and > 0, was 0.0", assertThrows(IllegalArgumentException.class,
            () -> MassPropertiesCalculator.ofDensity(new SphereShape(1.0), 0.0)).getMessage());
    }

    // -------------------------------------------------------------------------------------------------------------

    /** The twelve triangles of a box, from {@link ConvexHull#box}'s counter-clockwise quadrilaterals. */
    static TriangleMesh boxMesh(double hx, double hy, double hz) {
        ConvexHull box = ConvexHull.box(hx, hy, hz);
        double[] vertices = new double[24];
        for (int i = 0; i < 8; i++) {
            vertices[3 * i] = box.vertexX(i);
            vertices[3 * i + 1] = box.vertexY(i);
            vertices[3 * i + 2] = box.vertexZ(i);
        }
        int[] triangles = new int[36];
        int n = 0;
        for (int f = 0; f < 6; f++) {
            n = put(triangles, n, box.faceVertex(f, 0), box.faceVertex(f, 1), box.faceVertex(f, 2));
            n = put(triangles, n, box.faceVertex(f, 0), box.faceVertex(f, 2), box.faceVertex(f, 3));
        }
        return new TriangleMesh(vertices, triangles);
    }

    /** Icosahedron subdivided {@code level} times, each new vertex pushed out onto the sphere of {@code radiusM}. */
    static TriangleMesh icosphere(double radiusM, int level) {
        double phi = (1 + Math.sqrt(5)) / 2;
        double[] base = {-1, phi, 0, 1, phi, 0, -1, -phi, 0, 1, -phi, 0, 0, -1, phi, 0, 1, phi, 0, -1, -phi, 0, 1,
            -phi, phi, 0, -1, phi, 0, 1, -phi, 0, -1, -phi, 0, 1};
        int[] faces = {0, 11, 5, 0, 5, 1, 0, 1, 7, 0, 7, 10, 0, 10, 11, 1, 5, 9, 5, 11, 4, 11, 10, 2, 10, 7, 6, 7, 1,
            8, 3, 9, 4, 3, 4, 2, 3, 2, 6, 3, 6, 8, 3, 8, 9, 4, 9, 5, 2, 4, 11, 6, 2, 10, 8, 6, 7, 9, 8, 1};
        double[] vertices = Arrays.copyOf(base, base.length);
        int vertexCount = 12;
        for (int i = 0; i < 12; i++) {
            normalise(vertices, i, radiusM);
        }
        for (int l = 0; l < level; l++) {
            Map<Long, Integer> midpoints = new HashMap<>();
            int[] next = new int[4 * faces.length];
            double[] grown = Arrays.copyOf(vertices, vertices.length + 3 * faces.length);
            int n = 0;
            for (int t = 0; t < faces.length; t += 3) {
                int[] m = new int[3];
                for (int k = 0; k < 3; k++) {
                    int a = faces[t + k];
                    int b = faces[t + (k + 1) % 3];
                    long key = ((long) Math.min(a, b) << 32) | Math.max(a, b);
                    Integer existing = midpoints.get(key);
                    if (existing == null) {
                        for (int c = 0; c < 3; c++) {
                            grown[3 * vertexCount + c] = 0.5 * (grown[3 * a + c] + grown[3 * b + c]);
                        }
                        normalise(grown, vertexCount, radiusM);
                        existing = vertexCount++;
                        midpoints.put(key, existing);
                    }
                    m[k] = existing;
                }
                n = put(next, n, faces[t], m[0], m[2]);
                n = put(next, n, faces[t + 1], m[1], m[0]);
                n = put(next, n, faces[t + 2], m[2], m[1]);
                n = put(next, n, m[0], m[1], m[2]);
            }
            faces = next;
            vertices = Arrays.copyOf(grown, 3 * vertexCount);
        }
        TriangleMesh mesh = new TriangleMesh(vertices, faces);
        for (int t = 0; t < mesh.triangleCount(); t++) {
            assertTrue(planeDistanceFromOrigin(mesh, t) > 0, "icosphere triangle " + t + " wound inward");
        }
        return mesh;
    }

    private static double planeDistanceFromOrigin(TriangleMesh mesh, int t) {
        Vector3d a = new Vector3d(mesh.vertexX(mesh.corner(t, 0)), mesh.vertexY(mesh.corner(t, 0)),
            mesh.vertexZ(mesh.corner(t, 0)));
        Vector3d b = new Vector3d(mesh.vertexX(mesh.corner(t, 1)), mesh.vertexY(mesh.corner(t, 1)),
            mesh.vertexZ(mesh.corner(t, 1)));
        Vector3d c = new Vector3d(mesh.vertexX(mesh.corner(t, 2)), mesh.vertexY(mesh.corner(t, 2)),
            mesh.vertexZ(mesh.corner(t, 2)));
        Vector3d normal = new Vector3d(b).sub(a).cross(new Vector3d(c).sub(a)).normalize();
        return normal.dot(a);
    }

    private static void normalise(double[] vertices, int i, double radiusM) {
        double length = Math.sqrt(vertices[3 * i] * vertices[3 * i] + vertices[3 * i + 1] * vertices[3 * i + 1]
            + vertices[3 * i + 2] * vertices[3 * i + 2]);
        for (int c = 0; c < 3; c++) {
            vertices[3 * i + c] *= radiusM / length;
        }
    }

    /**
     * Mass, I_xx and I_zz of a solid of revolution about z with squared radius {@code radius2(z)}, integrated over
     * discs by 3-point Gauss–Legendre on each interval of {@code breaksM}: exact for integrands of degree ≤ 5.
     */
    private static double[] revolvedSolid(double densityKgPerM3, double[] breaksM,
                                          java.util.function.DoubleUnaryOperator radius2) {
        double[] nodes = {-Math.sqrt(0.6), 0.0, Math.sqrt(0.6)};
        double[] weights = {5.0 / 9.0, 8.0 / 9.0, 5.0 / 9.0};
        double mass = 0;
        double ixx = 0;
        double izz = 0;
        for (int i = 0; i + 1 < breaksM.length; i++) {
            double mid = 0.5 * (breaksM[i] + breaksM[i + 1]);
            double half = 0.5 * (breaksM[i + 1] - breaksM[i]);
            for (int k = 0; k < 3; k++) {
                double z = mid + half * nodes[k];
                double r2 = radius2.applyAsDouble(z);
                double w = half * weights[k] * densityKgPerM3 * Math.PI;
                mass += w * r2;
                // A disc of radius R at height z: ∫(y² + z²) dm = R⁴/4 + R² z² per π, and ∫(x² + y²) dm = R⁴/2.
                ixx += w * (r2 * r2 / 4 + r2 * z * z);
                izz += w * r2 * r2 / 2;
            }
        }
        return new double[] {mass, ixx, izz};
    }

    /** Inertia of {@code body} centred at {@code centre} about the point {@code g}: I + m (|d|² E − d dᵀ). */
    private static Matrix3d shifted(MassProperties body, double[] centre, double[] g) {
        double dx = centre[0] - g[0];
        double dy = centre[1] - g[1];
        double dz = centre[2] - g[2];
        double m = body.massKg();
        Matrix3d steiner = new Matrix3d(
            m * (dy * dy + dz * dz), -m * dx * dy, -m * dx * dz,
            -m * dx * dy, m * (dx * dx + dz * dz), -m * dy * dz,
            -m * dx * dz, -m * dy * dz, m * (dx * dx + dy * dy));
        return body.inertiaKgM2(new Matrix3d()).add(steiner);
    }

    private static void assertSameBody(MassProperties expected, MassProperties actual, double relative,
                                       double centreToleranceM) {
        assertRelative(expected.massKg(), actual.massKg(), relative, "mass");
        assertEquals(expected.centreXM(), actual.centreXM(), centreToleranceM);
        assertEquals(expected.centreYM(), actual.centreYM(), centreToleranceM);
        assertEquals(expected.centreZM(), actual.centreZM(), centreToleranceM);
        double scale = expected.ixxKgM2() + expected.iyyKgM2() + expected.izzKgM2();
        assertRelative(expected.ixxKgM2(), actual.ixxKgM2(), relative, "ixx");
        assertRelative(expected.iyyKgM2(), actual.iyyKgM2(), relative, "iyy");
        assertRelative(expected.izzKgM2(), actual.izzKgM2(), relative, "izz");
        assertEquals(expected.ixyKgM2(), actual.ixyKgM2(), relative * scale, "ixy");
        assertEquals(expected.ixzKgM2(), actual.ixzKgM2(), relative * scale, "ixz");
        assertEquals(expected.iyzKgM2(), actual.iyzKgM2(), relative * scale, "iyz");
    }

    private static void assertRelative(double expected, double actual, double relative) {
        assertRelative(expected, actual, relative, "");
    }

    private static void assertRelative(double expected, double actual, double relative, String label) {
        assertEquals(expected, actual, relative * Math.abs(expected), label);
    }

    private static int put(int[] array, int n, int a, int b, int c) {
        array[n] = a;
        array[n + 1] = b;
        array[n + 2] = c;
        return n + 3;
    }
}
