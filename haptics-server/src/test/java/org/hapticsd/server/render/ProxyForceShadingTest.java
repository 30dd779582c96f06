package org.hapticsd.server.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.hapticsd.physics.ContactSettings;
import org.hapticsd.physics.Material;
import org.hapticsd.physics.PhysicsWorld;
import org.hapticsd.physics.TriangleMeshShape;
import org.hapticsd.physics.collision.SphereClearance;
import org.hapticsd.physics.geometry.TriangleMesh;
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
        int ball = w.addStaticBody("ball", new TriangleMeshShape(icosphere(0.05, 2)), new Vector3d(), new Quaterniond());
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
        double[] vertices = new double[24];
        for (int i = 0; i < 8; i++) {
            vertices[3 * i] = (i & 1) == 0 ? -h : h;
            vertices[3 * i + 1] = (i & 2) == 0 ? -h : h;
            vertices[3 * i + 2] = (i & 4) == 0 ? -h : h;
        }
        int[] t = {0, 2, 3, 0, 3, 1, 4, 5, 7, 4, 7, 6, 0, 1, 5, 0, 5, 4, 2, 6, 7, 2, 7, 3, 0, 4, 6, 0, 6, 2,
            1, 3, 7, 1, 7, 5};
        int cube = w.addStaticBody("cube", new TriangleMeshShape(new TriangleMesh(vertices, t)), new Vector3d(),
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

    /** A sphere: an icosahedron subdivided {@code levels} times, triangles facing out. */
    static TriangleMesh icosphere(double radiusM, int levels) {
        double g = (1.0 + Math.sqrt(5.0)) / 2.0;
        List<double[]> points = new ArrayList<>();
        double[][] corners = {{-1, g, 0}, {1, g, 0}, {-1, -g, 0}, {1, -g, 0}, {0, -1, g}, {0, 1, g}, {0, -1, -g},
            {0, 1, -g}, {g, 0, -1}, {g, 0, 1}, {-g, 0, -1}, {-g, 0, 1}};
        for (double[] c : corners) {
            points.add(unit(c));
        }
        List<int[]> faces = new ArrayList<>(List.of(new int[][] {{0, 11, 5}, {0, 5, 1}, {0, 1, 7}, {0, 7, 10},
            {0, 10, 11}, {1, 5, 9}, {5, 11, 4}, {11, 10, 2}, {10, 7, 6}, {7, 1, 8}, {3, 9, 4}, {3, 4, 2}, {3, 2, 6},
            {3, 6, 8}, {3, 8, 9}, {4, 9, 5}, {2, 4, 11}, {6, 2, 10}, {8, 6, 7}, {9, 8, 1}}));
        for (int level = 0; level < levels; level++) {
            Map<Long, Integer> middles = new HashMap<>();
            List<int[]> finer = new ArrayList<>();
            for (int[] f : faces) {
                int a = middle(f[0], f[1], points, middles);
                int b = middle(f[1], f[2], points, middles);
                int c = middle(f[2], f[0], points, middles);
                finer.add(new int[] {f[0], a, c});
                finer.add(new int[] {f[1], b, a});
                finer.add(new int[] {f[2], c, b});
                finer.add(new int[] {a, b, c});
            }
            faces = finer;
        }
        double[] xyz = new double[3 * points.size()];
        for (int i = 0; i < points.size(); i++) {
            for (int k = 0; k < 3; k++) {
                xyz[3 * i + k] = radiusM * points.get(i)[k];
            }
        }
        int[] triangles = new int[3 * faces.size()];
        for (int i = 0; i < faces.size(); i++) {
            System.arraycopy(faces.get(i), 0, triangles, 3 * i, 3);
        }
        return new TriangleMesh(xyz, triangles);
    }

    private static int middle(int i, int j, List<double[]> points, Map<Long, Integer> middles) {
        long key = ((long) Math.min(i, j) << 32) | Math.max(i, j);
        return middles.computeIfAbsent(key, k -> {
            double[] a = points.get(i);
            double[] b = points.get(j);
            points.add(unit(new double[] {a[0] + b[0], a[1] + b[1], a[2] + b[2]}));
            return points.size() - 1;
        });
    }

    private static double[] unit(double[] v) {
        double length = Math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
        return new double[] {v[0] / length, v[1] / length, v[2] / length};
    }
}
