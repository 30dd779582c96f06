package org.hapticsd.server.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.hapticsd.physics.ContactSettings;
import org.hapticsd.physics.Material;
import org.hapticsd.physics.PhysicsWorld;
import org.hapticsd.physics.TriangleMeshShape;
import org.hapticsd.physics.collision.SphereClearance;
import org.hapticsd.physics.geometry.MeshShapes;
import org.joml.Quaterniond;
import org.joml.Vector3d;
import org.junit.jupiter.api.Test;

/**
 * Force shading on the proxy: on a tessellated ball the force turns from the facets' normals to the ball's radius,
 * the proxy still never enters the mesh, and the crease angle keeps a box mesh's faces flat.
 */
class ProxyForceShadingTest {

    private static final double R = 0.004;
    private static final double CREASE = Math.toRadians(30);

    /** The largest and the mean angle, rad, between the force and the ball's radius through the goal. */
    private static double[] deviation(boolean shaded) {
        PhysicsWorld w = new PhysicsWorld(ContactSettings.defaults());
        int ball = w.addStaticBody("ball", new TriangleMeshShape(MeshShapes.icosphere(0.05, 2)), new Vector3d(),
            new Quaterniond());
        ProxyRenderer p = new ProxyRenderer(w, new int[] {ball}, R, 1000.0, 0.0, Material.DEFAULT,
            shaded ? CREASE : Double.NaN);
        SphereClearance check = new SphereClearance(w, new int[] {ball}, 64);
        SplittableRandom random = new SplittableRandom(3);
        double largest = 0.0;
        double sum = 0.0;
        int n = 0;
        Vector3d v = new Vector3d();
        for (int press = 0; press < 300; press++) {
            Vector3d direction = new Vector3d(random.nextGaussian(), random.nextGaussian(), random.nextGaussian())
                .normalize();
            p.reset();
            p.update(new Vector3d(direction).mul(0.08), v, 1e-3);
            Vector3d goal = new Vector3d(direction).mul(0.046);
            for (int tick = 0; tick < 20; tick++) {
                p.update(goal, v, 1e-3);
                check.query(new Vector3d(p.positionM()), R, 0.0);
                for (int i = 0; i < check.count(); i++) {
                    assertTrue(check.gapM(i) >= -1e-9, "inside the mesh by " + -check.gapM(i));
                }
            }
            assertTrue(p.touching());
            double angle = new Vector3d(p.forceN()).angle(direction);
            largest = Math.max(largest, angle);
            sum += angle;
            n++;
        }
        return new double[] {largest, sum / n};
    }

    @Test
    void onATessellatedBallTheShadedForceFollowsTheRadius() {
        double[] flat = deviation(false);
        double[] shaded = deviation(true);
        // 320 facets: a facet's normal is up to about 7° off the radius under it.
        assertTrue(flat[0] > Math.toRadians(3), "facets felt: largest " + Math.toDegrees(flat[0]) + "°");
        assertTrue(shaded[0] < 0.4 * flat[0], "shaded largest " + Math.toDegrees(shaded[0]) + "° against "
            + Math.toDegrees(flat[0]) + "°");
        assertTrue(shaded[1] < 0.3 * flat[1], "shaded mean " + Math.toDegrees(shaded[1]) + "° against "
            + Math.toDegrees(flat[1]) + "°");
    }

    @Test
    void theCreaseKeepsABoxMeshsFacesFlat() {
        PhysicsWorld w = new PhysicsWorld(ContactSettings.defaults());
        double h = 0.02;
        int cube = w.addStaticBody("cube", new TriangleMeshShape(MeshShapes.box(h, h, h)), new Vector3d(),
            new Quaterniond());
        ProxyRenderer p = new ProxyRenderer(w, new int[] {cube}, R, 1000.0, 0.0, Material.DEFAULT, CREASE);
        Vector3d v = new Vector3d();
        p.update(new Vector3d(0.017, -0.013, 0.05), v, 1e-3);
        for (int tick = 0; tick < 5; tick++) {
            p.update(new Vector3d(0.017, -0.013, 0.01), v, 1e-3);
        }
        assertEquals(0.0, p.forceN().x(), 1e-9, "near the edge, still the face's normal");
        assertEquals(0.0, p.forceN().y(), 1e-9);
        assertEquals(1000.0 * (h + R - 0.01), p.forceN().z(), 1e-9);
    }
}
