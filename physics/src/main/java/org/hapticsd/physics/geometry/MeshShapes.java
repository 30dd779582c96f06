package org.hapticsd.physics.geometry;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Closed triangle meshes of simple solids, triangles facing outward: for tests, benchmarks and generated scenes. */
public final class MeshShapes {

    private MeshShapes() {
    }

    /** A box of half-extents hx, hy, hz centred on the origin: 8 vertices, 12 triangles. */
    public static TriangleMesh box(double hxM, double hyM, double hzM) {
        double[] v = new double[24];
        for (int i = 0; i < 8; i++) {
            v[3 * i] = (i & 1) == 0 ? -hxM : hxM;
            v[3 * i + 1] = (i & 2) == 0 ? -hyM : hyM;
            v[3 * i + 2] = (i & 4) == 0 ? -hzM : hzM;
        }
        int[] t = {0, 2, 3, 0, 3, 1, 4, 5, 7, 4, 7, 6, 0, 1, 5, 0, 5, 4, 2, 6, 7, 2, 7, 3, 0, 4, 6, 0, 6, 2,
            1, 3, 7, 1, 7, 5};
        return new TriangleMesh(v, t);
    }

    /**
     * A square floor in the plane z = 0, centred on the origin, of {@code cells} × {@code cells} square cells of side
     * {@code cellM}, each split in two triangles facing +z: (cells + 1)² vertices, 2·cells² triangles.
     */
    public static TriangleMesh grid(int cells, double cellM) {
        int n = cells + 1;
        double[] v = new double[3 * n * n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                v[3 * (i * n + j)] = (i - cells / 2.0) * cellM;
                v[3 * (i * n + j) + 1] = (j - cells / 2.0) * cellM;
            }
        }
        int[] t = new int[6 * cells * cells];
        int k = 0;
        for (int i = 0; i < cells; i++) {
            for (int j = 0; j < cells; j++) {
                int a = i * n + j;
                int b = (i + 1) * n + j;
                t[k++] = a;
                t[k++] = b;
                t[k++] = b + 1;
                t[k++] = a;
                t[k++] = b + 1;
                t[k++] = a + 1;
            }
        }
        return new TriangleMesh(v, t);
    }

    /**
     * A sphere of {@code radiusM}: a regular icosahedron whose faces are split in four {@code levels} times, new
     * vertices pushed out to the sphere; 20·4^levels triangles (320 at level 2, 1,280 at level 3).
     */
    public static TriangleMesh icosphere(double radiusM, int levels) {
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
