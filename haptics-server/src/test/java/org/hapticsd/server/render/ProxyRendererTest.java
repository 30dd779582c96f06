package org.hapticsd.server.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.hapticsd.physics.BoxShape;
import org.hapticsd.physics.ContactSettings;
import org.hapticsd.physics.Material;
import org.hapticsd.physics.PhysicsWorld;
import org.hapticsd.physics.PlaneShape;
import org.hapticsd.physics.SphereShape;
import org.hapticsd.physics.TriangleMeshShape;
import org.hapticsd.physics.geometry.MeshShapes;
import org.hapticsd.physics.geometry.TriangleMesh;
import org.joml.Quaterniond;
import org.joml.Vector3d;
import org.junit.jupiter.api.Test;

/**
 * {@link ProxyRenderer}: the stiff-wall conformance (the proxy's force equals the penalty contact's on a flat wall),
 * zero force in free space, no pass-through of a thin plate or a one-sided mesh wall, a concave corner, sliding round
 * a ball, the friction cone, a start inside a body, and a kinematic body moved into the proxy.
 */
class ProxyRendererTest {

    private static final double R = 0.005;
    /** The engine's default penalty spring, which the twin world of the wall test uses too. */
    private static final double K = ContactSettings.defaults().penalty().stiffnessNpm();
    private static final double B = ContactSettings.defaults().penalty().dampingNspm();
    private static final double DT = 1e-3;

    private static PhysicsWorld world() {
        return new PhysicsWorld(ContactSettings.defaults());
    }

    private static ProxyRenderer proxy(PhysicsWorld world, int... obstacles) {
        return new ProxyRenderer(world, obstacles, R, K, B, Material.DEFAULT);
    }

    private static int floor(PhysicsWorld w, double z, Material material) {
        return w.addStaticBody("floor" + w.bodyCount(), new PlaneShape(new Vector3d(0, 0, 1)), new Vector3d(0, 0, z),
            new Quaterniond(), material);
    }

    @Test
    void inFreeSpaceTheProxyIsTheGoalAndTheForceIsExactlyZero() {
        PhysicsWorld w = world();
        ProxyRenderer p = proxy(w, floor(w, 0.0, Material.DEFAULT));
        Vector3d goal = new Vector3d();
        Vector3d v = new Vector3d(0.1, -0.2, 0.05);
        for (int tick = 0; tick < 200; tick++) {
            goal.set(0.01 * Math.sin(tick * 0.1), 0.02 * Math.cos(tick * 0.07), 0.006 + 0.01 * (1 + Math.sin(tick)));
            p.update(goal, v, DT);
            assertEquals(goal, p.positionM(), "tick " + tick);
            assertEquals(new Vector3d(), p.forceN(), "tick " + tick);
            assertFalse(p.touching());
        }
    }

    /**
     * The stiff-wall suite: on a flat frictionless wall the proxy renders the penalty contact's {@code k·d + b·ḋ}
     * exactly, compared here with the tool's own contact in a twin world stepped at the same positions.
     */
    @Test
    void onAFlatWallTheForceIsThePenaltyContactsForceForTheSameDepthAndSpeed() {
        PhysicsWorld w = world();
        ProxyRenderer p = proxy(w, floor(w, 0.0, Material.DEFAULT));
        PhysicsWorld twin = world();
        floor(twin, 0.0, Material.DEFAULT);
        int tool = twin.addTool("tool", R);
        Vector3d goal = new Vector3d(0, 0, 0.02);
        Vector3d velocity = new Vector3d();
        Vector3d direct = new Vector3d();
        p.update(goal, velocity, DT);
        int touching = 0;
        for (int tick = 0; tick < 400; tick++) {
            double z = 0.006 - 0.02 * Math.sin(Math.PI * tick / 400.0);
            double x = 0.001 * tick;
            velocity.set(x - goal.x, 0, z - goal.z).div(DT);
            goal.set(x, 0.0, z);
            p.update(goal, velocity, DT);
            twin.setToolState(tool, goal, velocity);
            twin.step(DT);
            twin.contactForceOnBody(tool, direct);
            assertEquals(direct.x, p.forceN().x(), 1e-12, "tick " + tick);
            assertEquals(direct.y, p.forceN().y(), 1e-12, "tick " + tick);
            assertEquals(direct.z, p.forceN().z(), 1e-9 * Math.max(1.0, direct.z), "tick " + tick);
            double depth = R - z;
            if (depth > 0) {
                touching++;
                assertEquals(R, p.positionM().z(), 1e-15, "the proxy rests on the wall, tick " + tick);
                assertEquals(x, p.positionM().x(), 1e-15, "frictionless: no lag along the wall, tick " + tick);
                assertTrue(p.forceN().z() >= 0.0, "pushes only");
            }
        }
        assertTrue(touching > 300, "touching ticks " + touching);
    }

    @Test
    void aThinPlateStopsTheProxyHoweverFarTheHandGoes() {
        PhysicsWorld w = world();
        int plate = w.addStaticBody("plate", new BoxShape(0.05, 0.05, 0.001), new Vector3d(), new Quaterniond());
        ProxyRenderer p = proxy(w, plate);
        Vector3d goal = new Vector3d(0.01, -0.02, 0.02);
        Vector3d v = new Vector3d(0, 0, -1.0);
        for (int tick = 0; tick < 80; tick++) {
            goal.z = 0.02 - 0.001 * tick;  // a metre a second, to 6 cm under the plate
            p.update(goal, v, DT);
            assertTrue(p.positionM().z() >= 0.001 + R - 1e-15, "tick " + tick + ": proxy at " + p.positionM());
            double depth = 0.001 + R - goal.z;
            if (depth > 0) {
                assertEquals(K * depth + B * 1.0, p.forceN().z(), 1e-9, "tick " + tick);
                assertEquals(0.0, p.forceN().x(), 1e-12);
            }
        }
        assertEquals(0.001 + R, p.positionM().z(), 1e-15);
        assertTrue(p.touching());
        assertEquals(plate, p.touchedBody());
    }

    @Test
    void aOneSidedMeshWallStopsWhatComesAtItsFrontAndLetsThroughWhatComesFromBehind() {
        PhysicsWorld w = world();
        // A square in the plane x = 0, its triangles facing −x.
        TriangleMesh wall = new TriangleMesh(new double[] {0, -0.1, -0.1, 0, 0.1, -0.1, 0, 0.1, 0.1, 0, -0.1, 0.1},
            new int[] {0, 2, 1, 0, 3, 2});
        int mesh = w.addStaticBody("wall", new TriangleMeshShape(wall), new Vector3d(), new Quaterniond());
        ProxyRenderer front = proxy(w, mesh);
        ProxyRenderer back = proxy(w, mesh);
        Vector3d goal = new Vector3d();
        Vector3d v = new Vector3d();
        for (int tick = 0; tick <= 60; tick++) {
            front.update(goal.set(-0.02 + 0.001 * tick, 0.01, 0.0), v, DT);
            assertTrue(front.positionM().x() <= -R + 1e-15, "tick " + tick + ": " + front.positionM());
            back.update(goal.set(0.02 - 0.001 * tick, 0.01, 0.0), v, DT);
        }
        assertEquals(-R, front.positionM().x(), 1e-15);
        assertEquals(K * (0.04 + R), -front.forceN().x(), 1e-9);
        assertEquals(-0.04, back.positionM().x(), 1e-15, "from behind the triangles nothing stops it");
        assertEquals(new Vector3d(), back.forceN());
    }

    @Test
    void aDenseMeshFloorStopsAGoalThatJumpsFarThroughItInOneTick() {
        PhysicsWorld w = world();
        // 60 × 60 cells of 5 mm, 7,200 triangles: a query for the whole jump would take in far more than 1,024.
        int mesh = w.addStaticBody("grid", new TriangleMeshShape(MeshShapes.grid(60, 0.005)), new Vector3d(),
            new Quaterniond());
        ProxyRenderer p = proxy(w, mesh);
        Vector3d v0 = new Vector3d();
        p.update(new Vector3d(0.001, 0.002, 0.1), v0, DT);
        Vector3d goal = new Vector3d(0.031, -0.012, -0.05);
        for (int tick = 0; tick < 20; tick++) {
            p.update(goal, v0, DT);
            assertTrue(p.positionM().z() >= R - 1e-12, "tick " + tick + ": through the floor at " + p.positionM());
        }
        // Sliding: the goal 10 mm under the floor, a millimetre a tick across 12 cells; the proxy keeps up.
        for (int tick = 0; tick < 5; tick++) {
            p.update(goal.set(-0.03, 0.0021, -0.01), v0, DT);
        }
        for (int tick = 0; tick <= 60; tick++) {
            goal.set(-0.03 + 0.001 * tick, 0.0021, -0.01);
            p.update(goal, v0, DT);
            assertEquals(goal.x, p.positionM().x(), 1e-9, "tick " + tick);
            assertEquals(R, p.positionM().z(), 1e-12, "tick " + tick);
        }
        goal.set(0.031, -0.012, -0.05);
        for (int tick = 0; tick < 5; tick++) {
            p.update(goal, v0, DT);
        }
        // Over the goal, to a nanometre: the cells' coplanar neighbours do not hold the proxy back.
        assertEquals(R, p.positionM().z(), 1e-12);
        assertEquals(0.031, p.positionM().x(), 1e-9);
        assertEquals(-0.012, p.positionM().y(), 1e-9);
        assertEquals(K * (0.05 + R), p.forceN().z(), 1e-6);
    }

    /** Cells a tenth of the tool's radius: 800 triangles under the tool's bounds, the proxy still slides freely. */
    @Test
    void aFineMeshFloorIsSlidOverLikeAPlane() {
        PhysicsWorld w = world();
        int mesh = w.addStaticBody("fine", new TriangleMeshShape(MeshShapes.grid(80, 0.0005)), new Vector3d(),
            new Quaterniond());
        ProxyRenderer p = proxy(w, mesh);
        Vector3d v0 = new Vector3d();
        p.update(new Vector3d(-0.01, 0.00013, 0.02), v0, DT);
        Vector3d goal = new Vector3d(-0.01, 0.00013, -0.003);
        for (int tick = 0; tick < 3; tick++) {
            p.update(goal, v0, DT);
        }
        for (int tick = 0; tick <= 100; tick++) {
            p.update(goal.set(-0.01 + 0.0002 * tick, 0.00013, -0.003), v0, DT);
            assertEquals(goal.x, p.positionM().x(), 1e-9, "tick " + tick);
            assertEquals(R, p.positionM().z(), 1e-12, "tick " + tick);
            assertEquals(K * (0.003 + R), p.forceN().z(), 1e-6, "tick " + tick);
        }
    }

    @Test
    void overAConvexMeshEdgeTheProxyWrapsRoundOntoTheSideFace() {
        PhysicsWorld w = world();
        int mesh = w.addStaticBody("cube", new TriangleMeshShape(MeshShapes.box(0.02, 0.02, 0.02)), new Vector3d(),
            new Quaterniond());
        ProxyRenderer p = proxy(w, mesh);
        Vector3d v0 = new Vector3d();
        p.update(new Vector3d(0.0, 0.001, 0.05), v0, DT);
        Vector3d goal = new Vector3d(0.0, 0.001, 0.01);
        p.update(goal, v0, DT);
        assertEquals(0.02 + R, p.positionM().z(), 1e-12, "on the top face");
        // The goal goes out past the +x edge and down beside the side face, 2 mm from it: nearer than the radius.
        goal.set(0.022, 0.001, -0.01);
        for (int tick = 0; tick < 100; tick++) {
            p.update(goal, v0, DT);
            Vector3d x = new Vector3d(p.positionM());
            double outside = Math.max(Math.max(Math.abs(x.x), Math.abs(x.y)), Math.abs(x.z)) - 0.02;
            assertTrue(outside >= -1e-12, "inside the cube at tick " + tick + ": " + x);
        }
        assertEquals(0.02 + R, p.positionM().x(), 1e-9, "on the side face: " + p.positionM());
        assertEquals(-0.01, p.positionM().z(), 1e-9);
        assertEquals(K * (0.02 + R - 0.022), p.forceN().x(), 1e-6);
    }

    @Test
    void inAConcaveCornerTheProxySitsARadiusFromEachWall() {
        PhysicsWorld w = world();
        int floor = floor(w, 0.0, Material.DEFAULT);
        int wallX = w.addStaticBody("wallX", new PlaneShape(new Vector3d(-1, 0, 0)), new Vector3d(0.05, 0, 0),
            new Quaterniond());
        int wallY = w.addStaticBody("wallY", new PlaneShape(new Vector3d(0, -1, 0)), new Vector3d(0, 0.05, 0),
            new Quaterniond());
        ProxyRenderer p = proxy(w, floor, wallX, wallY);
        Vector3d v = new Vector3d();
        Vector3d goal = new Vector3d(0.0, 0.0, 0.02);
        p.update(goal, v, DT);
        // One straight move from free space deep into the corner.
        goal.set(0.07, 0.08, -0.03);
        p.update(goal, v, DT);
        assertEquals(0.05 - R, p.positionM().x(), 1e-15);
        assertEquals(0.05 - R, p.positionM().y(), 1e-15);
        assertEquals(R, p.positionM().z(), 1e-15);
        assertEquals(-K * (0.07 - 0.045), p.forceN().x(), 1e-9);
        assertEquals(-K * (0.08 - 0.045), p.forceN().y(), 1e-9);
        assertEquals(K * (0.03 + R), p.forceN().z(), 1e-9);
    }

    @Test
    void roundABallTheProxySlidesToTheSurfacePointTowardTheGoal() {
        PhysicsWorld w = world();
        int ball = w.addStaticBody("ball", new SphereShape(0.05), new Vector3d(), new Quaterniond());
        ProxyRenderer p = proxy(w, ball);
        Vector3d v = new Vector3d();
        p.update(new Vector3d(0.0, 0.0, 0.08), v, DT);
        // The goal jumps inside, 30° off the proxy's side: the proxy must go round the curve, not through it.
        Vector3d goal = new Vector3d(0.02 * Math.sin(Math.PI / 6), 0.0, 0.02 * Math.cos(Math.PI / 6));
        double least = Double.POSITIVE_INFINITY;
        for (int tick = 0; tick < 20; tick++) {
            p.update(goal, v, DT);
            least = Math.min(least, p.positionM().length());
        }
        assertTrue(least >= 0.05 + R - 1e-12, "never inside the ball: closest " + least);
        Vector3d expected = new Vector3d(goal).normalize(0.05 + R);
        assertEquals(0.0, p.positionM().distance(expected), 1e-9, "at " + p.positionM());
        Vector3d f = new Vector3d(p.forceN());
        assertEquals(0.0, f.normalize().distance(new Vector3d(goal).normalize()), 1e-6, "force along the radius");
    }

    /**
     * The friction cone: a floor of μ0 = 0.6, μ = 0.4 against the frictionless tool gives 0.3 and 0.2. Pressed 10 mm
     * deep, the goal moves sideways: the proxy holds until the force leans past atan 0.3, then slides at exactly 0.2.
     */
    @Test
    void frictionHoldsTheProxyInsideTheStaticConeAndSlidesItOnTheDynamicCone() {
        PhysicsWorld w = world();
        ProxyRenderer p = proxy(w, floor(w, 0.0, new Material(0.0, 0.6, 0.4)));
        Vector3d v = new Vector3d();
        Vector3d goal = new Vector3d(0, 0, 0.02);
        p.update(goal, v, DT);
        goal.set(0, 0, R - 0.01);
        p.update(goal, v, DT);
        assertEquals(0.0, p.positionM().x(), 0.0);
        boolean slid = false;
        double largestStuckRatio = 0.0;
        for (int tick = 1; tick <= 100; tick++) {
            goal.x = 1e-4 * tick;
            p.update(goal, v, DT);
            double ratio = -p.forceN().x() / p.forceN().z();
            assertEquals(K * 0.01, p.forceN().z(), 1e-9, "the normal force stays the depth's, tick " + tick);
            if (p.positionM().x() == 0.0) {
                assertFalse(slid, "stuck again after sliding at tick " + tick);
                largestStuckRatio = Math.max(largestStuckRatio, ratio);
                assertTrue(ratio <= 0.3 + 1e-12, "stuck beyond the static cone at tick " + tick + ": " + ratio);
            } else {
                slid = true;
                assertEquals(0.2, ratio, 1e-9, "sliding on the dynamic cone at tick " + tick);
            }
            assertEquals(R, p.positionM().z(), 1e-15);
        }
        assertTrue(slid);
        assertTrue(largestStuckRatio > 0.29, "held up to the static cone: " + largestStuckRatio);
    }

    @Test
    void aGoalThatStartsInsideABodyIsFollowedFreelyUntilItIsClear() {
        PhysicsWorld w = world();
        int box = w.addStaticBody("box", new BoxShape(0.02, 0.02, 0.02), new Vector3d(), new Quaterniond());
        ProxyRenderer p = proxy(w, box);
        Vector3d v = new Vector3d();
        Vector3d goal = new Vector3d();
        for (int tick = 0; tick <= 40; tick++) {
            goal.set(0.0, 0.0, 0.001 * tick);  // from the centre up and out: clear once z > 0.025
            p.update(goal, v, DT);
            assertEquals(goal, p.positionM());
            assertEquals(new Vector3d(), p.forceN(), "tick " + tick);
        }
        assertTrue(p.engaged());
        for (int tick = 0; tick <= 40; tick++) {
            goal.set(0.0, 0.0, 0.04 - 0.001 * tick);
            p.update(goal, v, DT);
            assertTrue(p.positionM().z() >= 0.025 - 1e-15);
        }
        assertEquals(K * 0.025, p.forceN().z(), 1e-9);
        p.reset();
        p.update(goal, v, DT);
        assertEquals(goal, p.positionM(), "after a reset the proxy follows until clear");
        assertEquals(new Vector3d(), p.forceN());
    }

    @Test
    void aKinematicBodyMovedIntoTheProxyPushesItOut() {
        PhysicsWorld w = world();
        int pusher = w.addKinematicBody("pusher", new BoxShape(0.02, 0.02, 0.02), new Vector3d(0, 0, -0.05),
            new Quaterniond(), Material.DEFAULT);
        ProxyRenderer p = proxy(w, pusher);
        Vector3d v = new Vector3d();
        Vector3d goal = new Vector3d(0, 0, 0.0);
        p.update(goal, v, DT);
        assertTrue(p.engaged());
        // The pusher's top rises from −0.03 to +0.01, past the goal at 0.
        for (int tick = 1; tick <= 40; tick++) {
            w.setKinematicState(pusher, new Vector3d(0, 0, -0.05 + 0.001 * tick), new Quaterniond(),
                new Vector3d(0, 0, 1.0), new Vector3d());
            p.update(goal, v, DT);
            double top = -0.03 + 0.001 * tick;
            assertTrue(p.positionM().z() >= Math.max(0.0, top + R) - 1e-12, "tick " + tick + ": " + p.positionM());
        }
        assertEquals(0.01 + R, p.positionM().z(), 1e-12);
        // The spring, and the damping of the pusher's 1 m/s into the resting hand.
        assertEquals(K * (0.01 + R) + B * 1.0, p.forceN().z(), 1e-9);
    }
}
