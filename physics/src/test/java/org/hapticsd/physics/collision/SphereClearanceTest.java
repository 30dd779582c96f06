package org.hapticsd.physics.collision;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.hapticsd.physics.BoxShape;
import org.hapticsd.physics.CapsuleShape;
import org.hapticsd.physics.ContactSettings;
import org.hapticsd.physics.ConvexHullShape;
import org.hapticsd.physics.Material;
import org.hapticsd.physics.PhysicsWorld;
import org.hapticsd.physics.PlaneShape;
import org.hapticsd.physics.SphereShape;
import org.hapticsd.physics.TriangleMeshShape;
import org.hapticsd.physics.geometry.ConvexHull;
import org.hapticsd.physics.geometry.MeshShapes;
import org.hapticsd.physics.geometry.TriangleMesh;
import org.joml.Quaterniond;
import org.joml.Vector3d;
import org.junit.jupiter.api.Test;

/**
 * {@link SphereClearance}: each shape's half-space against closed-form distances, the hull against the box it equals,
 * the mesh's one side, and the capacity's choice.
 */
class SphereClearanceTest {

    private static final double R = 0.005;
    private static final double TOL = 1e-12;

    private static PhysicsWorld world() {
        return new PhysicsWorld(ContactSettings.defaults());
    }

    private static void assertNormal(double x, double y, double z, SphereClearance c, int i) {
        assertEquals(x, c.normalX(i), 1e-12, "n.x");
        assertEquals(y, c.normalY(i), 1e-12, "n.y");
        assertEquals(z, c.normalZ(i), 1e-12, "n.z");
    }

    @Test
    void aPlaneGivesItsOwnPlaneRaisedByTheRadiusWithinReachOnly() {
        PhysicsWorld w = world();
        int floor = w.addStaticBody("floor", new PlaneShape(new Vector3d(0, 0, 1)), new Vector3d(0, 0, 0.1),
            new Quaterniond());
        SphereClearance c = new SphereClearance(w, new int[] {floor}, 4);
        assertEquals(1, c.query(new Vector3d(0.3, -0.2, 0.13), R, 0.03));
        assertNormal(0, 0, 1, c, 0);
        assertEquals(0.1 + R, c.offsetM(0), TOL);
        assertEquals(0.03 - R, c.gapM(0), TOL);
        assertEquals(floor, c.body(0));
        assertEquals(0, c.query(new Vector3d(0.3, -0.2, 0.13), R, 0.02), "25 mm away, 20 mm of reach");
        // Below the plane: inside its half-space, whatever the reach, pushed back up.
        assertEquals(1, c.query(new Vector3d(0, 0, 0.05), R, 0.0));
        assertEquals(-0.05 - R, c.gapM(0), TOL);
        assertNormal(0, 0, 1, c, 0);
    }

    @Test
    void aBoxGivesTheTangentPlaneAtItsClosestPointAndItsExitFaceFromInside() {
        PhysicsWorld w = world();
        int box = w.addStaticBody("box", new BoxShape(0.02, 0.03, 0.01), new Vector3d(1, 2, 3),
            new Quaterniond().rotateZ(Math.PI / 2));
        SphereClearance c = new SphereClearance(w, new int[] {box}, 4);
        // Rotated a quarter turn about z: the box spans x in 1 ± 0.03, y in 2 ± 0.02, z in 3 ± 0.01.
        // Off the edge at x = 1.03, z = 3.01, by (3 mm, 4 mm): 5 mm from it.
        c.query(new Vector3d(1.033, 2.0, 3.014), R, 1.0);
        assertEquals(1, c.count());
        assertEquals(0.005 - R, c.gapM(0), TOL);
        assertNormal(0.6, 0, 0.8, c, 0);
        assertEquals(0.6 * 1.03 + 0.8 * 3.01 + R, c.offsetM(0), 1e-12);
        // Inside, 2 mm under the top face and farther from every other: the top face's plane.
        c.query(new Vector3d(1.0, 2.0, 3.008), R, 0.0);
        assertNormal(0, 0, 1, c, 0);
        assertEquals(-0.002 - R, c.gapM(0), TOL);
        assertEquals(3.01 + R, c.offsetM(0), 1e-12);
    }

    @Test
    void aSphereAndACapsuleGiveTheirClosestPointsTangentPlanes() {
        PhysicsWorld w = world();
        int ball = w.addStaticBody("ball", new SphereShape(0.1), new Vector3d(), new Quaterniond());
        int rod = w.addKinematicBody("rod", new CapsuleShape(0.01, 0.05), new Vector3d(1, 0, 0),
            new Quaterniond().rotateY(Math.PI / 2), Material.DEFAULT);
        SphereClearance c = new SphereClearance(w, new int[] {ball, rod}, 4);
        c.query(new Vector3d(0.06, 0.08, 0.0), R, 1.0);
        assertEquals(2, c.count());
        assertEquals(ball, c.body(0));
        assertEquals(0.1 - 0.1 - R, c.gapM(0), TOL);
        assertNormal(0.6, 0.8, 0, c, 0);
        assertEquals(0.1 + R, c.offsetM(0), TOL);
        // The rod's axis lies along x from 0.95 to 1.05; its side from (1.02, 0, 0.03) is 30 − 10 mm away.
        c.query(new Vector3d(1.02, 0.0, 0.03), R, 0.05);
        assertEquals(1, c.count());
        assertEquals(rod, c.body(0));
        assertEquals(0.02 - R, c.gapM(0), TOL);
        assertNormal(0, 0, 1, c, 0);
        // Beyond its end cap, along the axis.
        c.query(new Vector3d(1.08, 0.0, 0.0), R, 0.05);
        assertEquals(0.03 - 0.01 - R, c.gapM(0), TOL);
        assertNormal(1, 0, 0, c, 0);
    }

    @Test
    void aHullGivesWhatTheBoxItEqualsGives() {
        PhysicsWorld w = world();
        Quaterniond turn = new Quaterniond().rotateXYZ(0.3, -0.7, 1.1);
        Vector3d at = new Vector3d(0.2, -0.1, 0.4);
        int box = w.addStaticBody("box", new BoxShape(0.02, 0.03, 0.04), at, turn);
        int hull = w.addStaticBody("hull", new ConvexHullShape(ConvexHull.box(0.02, 0.03, 0.04)), at, turn);
        SphereClearance fromBox = new SphereClearance(w, new int[] {box}, 4);
        SphereClearance fromHull = new SphereClearance(w, new int[] {hull}, 4);
        SplittableRandom random = new SplittableRandom(7);
        int inside = 0;
        for (int k = 0; k < 2000; k++) {
            Vector3d p = new Vector3d(random.nextDouble(-0.08, 0.08), random.nextDouble(-0.08, 0.08),
                random.nextDouble(-0.08, 0.08)).add(at);
            assertEquals(1, fromBox.query(p, R, 1.0));
            assertEquals(1, fromHull.query(p, R, 1.0));
            if (fromBox.gapM(0) < -R) {
                inside++;
            }
            assertEquals(fromBox.gapM(0), fromHull.gapM(0), 1e-12, "gap at " + p);
            assertEquals(fromBox.offsetM(0), fromHull.offsetM(0), 1e-12, "offset at " + p);
            assertEquals(fromBox.normalX(0), fromHull.normalX(0), 1e-9, "n.x at " + p);
            assertEquals(fromBox.normalY(0), fromHull.normalY(0), 1e-9, "n.y at " + p);
            assertEquals(fromBox.normalZ(0), fromHull.normalZ(0), 1e-9, "n.z at " + p);
        }
        assertTrue(inside > 50, "some points inside, got " + inside);
    }

    /** A 0.2 m square in the plane z = 0, its two triangles facing +z. */
    private static TriangleMesh square() {
        return new TriangleMesh(new double[] {-0.1, -0.1, 0, 0.1, -0.1, 0, 0.1, 0.1, 0, -0.1, 0.1, 0},
            new int[] {0, 1, 2, 0, 2, 3});
    }

    @Test
    void aMeshGivesEachTriangleInReachFromItsFrontOnly() {
        PhysicsWorld w = world();
        int mesh = w.addStaticBody("mesh", new TriangleMeshShape(square()), new Vector3d(0, 0, 0.5),
            new Quaterniond());
        SphereClearance c = new SphereClearance(w, new int[] {mesh}, 4);
        c.query(new Vector3d(0.02, 0.02, 0.51), R, 0.01);
        // Both triangles are 10 mm below a centre over their shared diagonal; the second lies in the first's plane,
        // behind it, and is left out.
        assertEquals(1, c.count());
        assertEquals(0.01 - R, c.gapM(0), TOL);
        assertNormal(0, 0, 1, c, 0);
        assertEquals(0.5 + R, c.offsetM(0), TOL);
        assertEquals(0, c.query(new Vector3d(0.02, 0.03, 0.49), R, 0.01), "behind the triangles: nothing");
        // Past the square's edge: the edge's tangent plane, tilted, from the triangle that has the edge; the other
        // triangle's bounds overlap the query's box, but its nearest point, on the diagonal, is 73 mm away.
        c.query(new Vector3d(0.103, 0.0, 0.504), R, 0.01);
        assertEquals(1, c.count());
        assertEquals(0.005 - R, c.gapM(0), TOL);
        assertNormal(0.6, 0, 0.8, c, 0);
    }

    @Test
    void aFullQueryKeepsTheNearestPieces() {
        PhysicsWorld w = world();
        int[] floors = new int[5];
        for (int i = 0; i < floors.length; i++) {
            floors[i] = w.addStaticBody("floor" + i, new PlaneShape(new Vector3d(0, 0, 1)),
                new Vector3d(0, 0, -0.01 * (i + 1)), new Quaterniond());
        }
        // Added farthest last; a capacity of 2 keeps the two nearest whatever the order.
        int[] order = {floors[4], floors[0], floors[3], floors[1], floors[2]};
        SphereClearance c = new SphereClearance(w, order, 2);
        assertEquals(2, c.query(new Vector3d(), R, 1.0));
        double a = Math.min(c.gapM(0), c.gapM(1));
        double b = Math.max(c.gapM(0), c.gapM(1));
        assertEquals(0.01 - R, a, TOL);
        assertEquals(0.02 - R, b, TOL);
        assertEquals(3, c.dropped());
        assertEquals(0.03 - R, c.coveredReachM(), TOL, "no farther than the nearest piece left out");
        c.query(new Vector3d(), R, 0.012);
        assertEquals(0.012, c.coveredReachM(), 0.0, "the reach asked, when nothing within it was left out");
    }

    @Test
    void aMeshTooDenseForTheReachIsAskedWithLessAndSaysSo() {
        PhysicsWorld w = world();
        // A 0.2 m square floor of 40 × 40 cells, 3,200 triangles facing +z, in the plane z = 0.
        int mesh = w.addStaticBody("grid", new TriangleMeshShape(MeshShapes.grid(40, 0.005)), new Vector3d(),
            new Quaterniond());
        SphereClearance c = new SphereClearance(w, new int[] {mesh}, 16);
        // A reach of 0.1 m would take in all 3,200 triangles; within 5 mm cells, 256 fit a box about 28 mm across.
        c.query(new Vector3d(0.001, 0.002, 0.01), R, 0.1);
        assertTrue(c.coveredReachM() > 0.0 && c.coveredReachM() < 0.03, "covered " + c.coveredReachM());
        // Over a flat grid only the triangles the centre is over give a plane: the floor's; their coplanar
        // neighbours lie behind it.
        assertTrue(c.count() >= 1 && c.count() <= 2, "pieces " + c.count());
        for (int i = 0; i < c.count(); i++) {
            assertEquals(0.01 - R, c.gapM(i), TOL);
            assertNormal(0, 0, 1, c, i);
        }
    }

    @Test
    void aDynamicBodyIsNoObstacle() {
        PhysicsWorld w = world();
        int ball = w.addDynamicBody("ball", new SphereShape(0.01), new Vector3d(), new Quaterniond(), 1.0,
            new org.joml.Matrix3d().scaling(4e-5), Material.DEFAULT);
        assertThrows(IllegalArgumentException.class, () -> new SphereClearance(w, new int[] {ball}, 4));
        assertThrows(IllegalArgumentException.class, () -> new SphereClearance(w, new int[] {}, 0));
    }
}
