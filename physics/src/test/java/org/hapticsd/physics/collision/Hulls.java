package org.hapticsd.physics.collision;

import org.hapticsd.physics.geometry.ConvexHull;

/** Convex hulls for the tests, faces wound outward by construction. */
final class Hulls {

    private Hulls() {
    }

    /**
     * The right prism over the regular n-gon of circumradius {@code radiusM} in the xy plane, from z = −h to +h.
     * Vertex i (bottom) and n + i (top) are at angle 2πi/n.
     */
    static ConvexHull prism(int n, double radiusM, double halfHeightM) {
        double[] v = new double[6 * n];
        for (int i = 0; i < n; i++) {
            double angle = 2.0 * Math.PI * i / n;
            double x = radiusM * StrictMath.cos(angle);
            double y = radiusM * StrictMath.sin(angle);
            v[3 * i] = x;
            v[3 * i + 1] = y;
            v[3 * i + 2] = -halfHeightM;
            v[3 * (n + i)] = x;
            v[3 * (n + i) + 1] = y;
            v[3 * (n + i) + 2] = halfHeightM;
        }
        int[][] faces = new int[n + 2][];
        faces[0] = new int[n];
        faces[1] = new int[n];
        for (int i = 0; i < n; i++) {
            faces[0][i] = n + i;
            faces[1][i] = i;
        }
        for (int i = 0; i < n; i++) {
            faces[2 + i] = new int[] {i, (i + 1) % n, n + (i + 1) % n, n + i};
        }
        return of(v, faces);
    }

    /** The regular tetrahedron with vertices (±s, ±s, ±s) of an even number of minus signs, centred at 0. */
    static ConvexHull tetrahedron(double s) {
        double[] v = {s, s, s, s, -s, -s, -s, s, -s, -s, -s, s};
        return of(v, new int[][] {{0, 1, 2}, {0, 1, 3}, {0, 2, 3}, {1, 2, 3}});
    }

    /** Builds the hull, reversing any face whose Newell normal points toward the vertex centroid. */
    static ConvexHull of(double[] v, int[][] faces) {
        int n = v.length / 3;
        double cx = 0;
        double cy = 0;
        double cz = 0;
        for (int i = 0; i < n; i++) {
            cx += v[3 * i] / n;
            cy += v[3 * i + 1] / n;
            cz += v[3 * i + 2] / n;
        }
        int total = 0;
        for (int[] face : faces) {
            total += face.length;
        }
        int[] start = new int[faces.length + 1];
        int[] flat = new int[total];
        int k = 0;
        for (int f = 0; f < faces.length; f++) {
            int[] face = faces[f];
            double nx = 0;
            double ny = 0;
            double nz = 0;
            for (int j = 0; j < face.length; j++) {
                int a = face[j];
                int b = face[(j + 1) % face.length];
                nx += (v[3 * a + 1] - v[3 * b + 1]) * (v[3 * a + 2] + v[3 * b + 2]);
                ny += (v[3 * a + 2] - v[3 * b + 2]) * (v[3 * a] + v[3 * b]);
                nz += (v[3 * a] - v[3 * b]) * (v[3 * a + 1] + v[3 * b + 1]);
            }
            int first = face[0];
            boolean inward = nx * (v[3 * first] - cx) + ny * (v[3 * first + 1] - cy) + nz * (v[3 * first + 2] - cz) < 0;
            start[f] = k;
            for (int j = 0; j < face.length; j++) {
                flat[k++] = inward ? face[face.length - 1 - j] : face[j];
            }
        }
        start[faces.length] = k;
        return new ConvexHull(v, start, flat);
    }
}
