package org.hapticsd.server.render;

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
import org.hapticsd.physics.collision.SphereClearance;
import org.hapticsd.physics.geometry.ConvexHull;
import org.hapticsd.physics.geometry.MeshShapes;
import org.joml.Quaterniond;
import org.joml.Vector3d;
import org.junit.jupiter.api.Test;

/**
 * The proxy's one promise, on random scenes (boxes, balls, capsules, hulls, closed box meshes and planes, any pose)
 * and random hands: once it has taken hold, its sphere never overlaps a
 * body (by more than a nanometre), however the goal jumps; and its force is always finite, zero when it touches
 * nothing, and never more than the spring's {@code k·|x − goal|} plus the damping.
 */
class ProxyRandomWalkTest {

    private static final double R = 0.004;

    @Test
    void neverInsideABodyOnRandomScenesAndHands() {
        SplittableRandom random = new SplittableRandom(20261129L);
        int engagedTicks = 0;
        int touchingTicks = 0;
        for (int scene = 0; scene < 40; scene++) {
            PhysicsWorld w = new PhysicsWorld(ContactSettings.defaults());
            int bodies = 2 + random.nextInt(6);
            int[] obstacles = new int[bodies];
            for (int b = 0; b < bodies; b++) {
                obstacles[b] = addRandomBody(w, random, b);
            }
            ProxyRenderer proxy = new ProxyRenderer(w, obstacles, R, 1000.0, 1.0, Material.DEFAULT);
            SphereClearance check = new SphereClearance(w, obstacles, 64);
            Vector3d goal = new Vector3d(0, 0, 0.3);
            Vector3d velocity = new Vector3d();
            for (int tick = 0; tick < 1500; tick++) {
                if (random.nextInt(50) == 0) {
                    // A jump anywhere in the scene (a glitch, a teleported device)
                    goal.set(random.nextDouble(-0.1, 0.1), random.nextDouble(-0.1, 0.1), random.nextDouble(-0.1, 0.1));
                } else {
                    goal.add(random.nextDouble(-0.004, 0.004), random.nextDouble(-0.004, 0.004),
                        random.nextDouble(-0.004, 0.004));
                    goal.set(clamp(goal.x), clamp(goal.y), clamp(goal.z));
                }
                velocity.set(random.nextDouble(-1, 1), random.nextDouble(-1, 1), random.nextDouble(-1, 1));
                proxy.update(goal, velocity, 1e-3);
                Vector3d x = new Vector3d(proxy.positionM());
                Vector3d f = new Vector3d(proxy.forceN());
                String where = "scene " + scene + " tick " + tick + ": proxy " + x + ", goal " + goal;
                assertTrue(Double.isFinite(f.x) && Double.isFinite(f.y) && Double.isFinite(f.z), where);
                double spring = 1000.0 * x.distance(goal) + 1.0 * 2 * Math.sqrt(3.0) + 1e-9;
                assertTrue(f.length() <= spring, where + ": force " + f.length() + " above " + spring);
                if (!proxy.touching()) {
                    assertTrue(f.lengthSquared() == 0.0, where + ": force without a touch");
                } else {
                    touchingTicks++;
                }
                if (!proxy.engaged()) {
                    continue;
                }
                engagedTicks++;
                check.query(x, R, 0.0);
                for (int i = 0; i < check.count(); i++) {
                    assertTrue(check.gapM(i) >= -1e-9, where + ": inside body " + w.bodyName(check.body(i))
                        + " by " + -check.gapM(i));
                }
            }
        }
        assertTrue(engagedTicks > 40_000, "engaged ticks " + engagedTicks);
        assertTrue(touchingTicks > 5_000, "touching ticks " + touchingTicks);
    }

    private static double clamp(double v) {
        return Math.max(-0.12, Math.min(0.12, v));
    }

    private static int addRandomBody(PhysicsWorld w, SplittableRandom random, int b) {
        Vector3d at = new Vector3d(random.nextDouble(-0.08, 0.08), random.nextDouble(-0.08, 0.08),
            random.nextDouble(-0.08, 0.08));
        Quaterniond turn = new Quaterniond().rotateXYZ(random.nextDouble(-3, 3), random.nextDouble(-3, 3),
            random.nextDouble(-3, 3));
        String name = "body" + b;
        switch (random.nextInt(6)) {
            case 0:
                return w.addStaticBody(name, new BoxShape(random.nextDouble(0.0005, 0.04),
                    random.nextDouble(0.0005, 0.04), random.nextDouble(0.0005, 0.04)), at, turn);
            case 1:
                return w.addStaticBody(name, new SphereShape(random.nextDouble(0.005, 0.04)), at, turn);
            case 2:
                return w.addStaticBody(name, new CapsuleShape(random.nextDouble(0.002, 0.02),
                    random.nextDouble(0.0, 0.04)), at, turn);
            case 3:
                double[] points = new double[3 * 12];
                for (int i = 0; i < points.length; i++) {
                    points[i] = random.nextDouble(-0.03, 0.03);
                }
                return w.addStaticBody(name, new ConvexHullShape(ConvexHull.of(points)), at, turn);
            case 4:
                // A closed box as a mesh of 12 triangles facing outward, of random proportions.
                return w.addStaticBody(name, new TriangleMeshShape(MeshShapes.box(random.nextDouble(0.002, 0.04),
                    random.nextDouble(0.002, 0.04), random.nextDouble(0.002, 0.04))), at, turn);
            default:
                return w.addStaticBody(name, new PlaneShape(new Vector3d(random.nextDouble(-1, 1),
                    random.nextDouble(-1, 1), random.nextDouble(-1, 1)).normalize()), at.mul(1.5), turn);
        }
    }
}
