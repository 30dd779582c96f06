package org.hapticsd.physics.geometry;

import java.util.Arrays;
import org.joml.Vector3d;
import org.joml.Vector3dc;

/**
 * An immutable convex polyhedron: vertices, polygonal faces wound counter-clockwise seen from outside with their
 * outward planes, and the unique edges. The face and edge lists are what the separating-axis test and face
 * clipping need; the support function is what GJK/EPA needs.
 *
 * <p>Built from vertices and faces, from a point cloud by {@link #of} (quickhull with coplanar faces merged), or
 * exactly for a box by {@link #box}.
 */
public final class ConvexHull {
    private final double[] verticesM;
    private final int[] faceStart;
    private final int[] faceVertices;
    private final double[] facePlanes;
    private final int[] edgeVertices;

    /**
     * @param verticesM    x, y, z of each vertex, body frame
     * @param faceStart    face f uses {@code faceVertices[faceStart[f] .. faceStart[f+1])}; length faces + 1
     * @param faceVertices vertex indices of each face, counter-clockwise seen from outside
     */
    public ConvexHull(double[] verticesM, int[] faceStart, int[] faceVertices) {
        if (verticesM.length < 12 || verticesM.length % 3 != 0) {
            throw new IllegalArgumentException("a hull needs at least 4 vertices given as x, y, z triples, got "
                + verticesM.length + " numbers");
        }
        for (double v : verticesM) {
            if (!Double.isFinite(v)) {
                throw new IllegalArgumentException("hull vertices must be finite");
            }
        }
        if (faceStart.length < 5 || faceStart[0] != 0 || faceStart[faceStart.length - 1] != faceVertices.length) {
            throw new IllegalArgumentException("faceStart must run from 0 to faceVertices.length over at least 4 faces");
        }
        int vertexCount = verticesM.length / 3;
        for (int f = 0; f + 1 < faceStart.length; f++) {
            if (faceStart[f + 1] - faceStart[f] < 3) {
                throw new IllegalArgumentException("face " + f + " has fewer than 3 vertices");
            }
        }
        for (int index : faceVertices) {
            if (index < 0 || index >= vertexCount) {
                throw new IllegalArgumentException("face vertex index " + index + " outside 0.." + (vertexCount - 1));
            }
        }
        this.verticesM = verticesM.clone();
        this.faceStart = faceStart.clone();
        this.faceVertices = faceVertices.clone();
        this.facePlanes = planes(this.verticesM, this.faceStart, this.faceVertices);
        this.edgeVertices = uniqueEdges(this.faceStart, this.faceVertices);
    }

    /**
     * Relative part of the hull tolerance: see {@link #toleranceM(double[])}. One part in a million of the cloud's
     * size is far below what a haptic device resolves (0.1 µm on a 10 cm part) yet thirty times the scatter that
     * float32 storage (STL, most meshing tools) leaves on points that were meant to be coplanar, so such faces still
     * merge.
     */
    public static final double RELATIVE_TOLERANCE = 1e-6;

    /**
     * The convex hull of a point cloud ({@code x, y, z} per point, body frame): quickhull, then coplanar triangles
     * merged into polygonal faces wound counter-clockwise seen from outside, and points in the middle of a face or
     * of an edge dropped, so that the corners of a box give 8 vertices, 6 quadrilaterals and 12 edges.
     *
     * <p>Points within {@link #toleranceM(double[])} of a face plane count as on it: duplicates and near-duplicates
     * collapse and nearly coplanar faces merge. An input point therefore ends inside the hull or at most a small
     * multiple of the tolerance outside a face plane: it was dropped within the tolerance of the faces of its time,
     * and merging tilts a plane by up to the tolerance at a corner (stress runs over noisy, lattice, cylindrical and
     * spherical clouds stay below 1.8 × the tolerance; the tests allow 2 ×). Vertices keep the relative order they
     * had in the input.
     *
     * @throws IllegalArgumentException with a message naming the fault, if the array is not whole triples, holds
     *     fewer than 4 points or a non-finite coordinate, or if the points coincide, are collinear or coplanar
     *     within the tolerance
     */
    public static ConvexHull of(double[] pointsM) {
        return QuickHull.build(pointsM);
    }

    /**
     * The distance within which {@link #of} treats a point as on a plane:
     * {@code RELATIVE_TOLERANCE · diagonal + 64 ε · (max|x| + max|y| + max|z|)}, with {@code diagonal} the length
     * of the diagonal of the points' bounding box and ε = 2⁻⁵² the double precision unit. The first term is the
     * geometric tolerance and scales with the object, not its position; the second bounds the rounding of a plane
     * distance computed from coordinates of that magnitude (a cross product, a dot product and a subtraction, a few
     * ulps each: Lloyd's quickhull3d uses 3 ε of the same sum) and only matters for a cloud far from its origin.
     *
     * @param pointsM x, y, z triples, finite
     */
    public static double toleranceM(double[] pointsM) {
        double minX = Double.POSITIVE_INFINITY;
        double minY = Double.POSITIVE_INFINITY;
        double minZ = Double.POSITIVE_INFINITY;
        double maxX = Double.NEGATIVE_INFINITY;
        double maxY = Double.NEGATIVE_INFINITY;
        double maxZ = Double.NEGATIVE_INFINITY;
        for (int i = 0; i + 2 < pointsM.length; i += 3) {
            minX = Math.min(minX, pointsM[i]);
            minY = Math.min(minY, pointsM[i + 1]);
            minZ = Math.min(minZ, pointsM[i + 2]);
            maxX = Math.max(maxX, pointsM[i]);
            maxY = Math.max(maxY, pointsM[i + 1]);
            maxZ = Math.max(maxZ, pointsM[i + 2]);
        }
        double dx = maxX - minX;
        double dy = maxY - minY;
        double dz = maxZ - minZ;
        double magnitudeM = Math.max(Math.abs(minX), Math.abs(maxX)) + Math.max(Math.abs(minY), Math.abs(maxY))
            + Math.max(Math.abs(minZ), Math.abs(maxZ));
        return RELATIVE_TOLERANCE * Math.sqrt(dx * dx + dy * dy + dz * dz) + 64.0 * Math.ulp(1.0) * magnitudeM;
    }

    /** The box [−hx, hx] × [−hy, hy] × [−hz, hz]. Vertex i has x = ±hx by bit 0, y by bit 1, z by bit 2. */
    public static ConvexHull box(double hxM, double hyM, double hzM) {
        double[] v = new double[24];
        for (int i = 0; i < 8; i++) {
            v[3 * i] = (i & 1) == 0 ? -hxM : hxM;
            v[3 * i + 1] = (i & 2) == 0 ? -hyM : hyM;
            v[3 * i + 2] = (i & 4) == 0 ? -hzM : hzM;
        }
        int[] faces = {
            1, 3, 7, 5, // +x
            0, 4, 6, 2, // -x
            2, 6, 7, 3, // +y
            0, 1, 5, 4, // -y
            4, 5, 7, 6, // +z
            0, 2, 3, 1  // -z
        };
        return new ConvexHull(v, new int[] {0, 4, 8, 12, 16, 20, 24}, faces);
    }

    public int vertexCount() {
        return verticesM.length / 3;
    }

    public Vector3d vertex(int i, Vector3d destM) {
        return destM.set(verticesM[3 * i], verticesM[3 * i + 1], verticesM[3 * i + 2]);
    }

    public double vertexX(int i) {
        return verticesM[3 * i];
    }

    public double vertexY(int i) {
        return verticesM[3 * i + 1];
    }

    public double vertexZ(int i) {
        return verticesM[3 * i + 2];
    }

    public int faceCount() {
        return faceStart.length - 1;
    }

    public int faceVertexCount(int face) {
        return faceStart[face + 1] - faceStart[face];
    }

    /** Vertex index of corner {@code k} of {@code face}, counter-clockwise seen from outside. */
    public int faceVertex(int face, int k) {
        return faceVertices[faceStart[face] + k];
    }

    /** Outward unit normal of {@code face}. */
    public Vector3d faceNormal(int face, Vector3d dest) {
        return dest.set(facePlanes[4 * face], facePlanes[4 * face + 1], facePlanes[4 * face + 2]);
    }

    /** d of the face plane n·x = d. */
    public double faceOffsetM(int face) {
        return facePlanes[4 * face + 3];
    }

    public int edgeCount() {
        return edgeVertices.length / 2;
    }

    public int edgeVertexA(int edge) {
        return edgeVertices[2 * edge];
    }

    public int edgeVertexB(int edge) {
        return edgeVertices[2 * edge + 1];
    }

    /** Index of the vertex farthest along {@code direction} (body frame); ties go to the lower index. */
    public int support(Vector3dc direction) {
        int best = 0;
        double bestDot = Double.NEGATIVE_INFINITY;
        for (int i = 0, n = vertexCount(); i < n; i++) {
            double dot = verticesM[3 * i] * direction.x() + verticesM[3 * i + 1] * direction.y()
                + verticesM[3 * i + 2] * direction.z();
            if (dot > bestDot) {
                bestDot = dot;
                best = i;
            }
        }
        return best;
    }

    /** Newell's method: robust for slightly non-planar polygons. */
    private static double[] planes(double[] v, int[] faceStart, int[] faceVertices) {
        int faces = faceStart.length - 1;
        double[] planes = new double[4 * faces];
        for (int f = 0; f < faces; f++) {
            double nx = 0;
            double ny = 0;
            double nz = 0;
            double cx = 0;
            double cy = 0;
            double cz = 0;
            int count = faceStart[f + 1] - faceStart[f];
            for (int k = 0; k < count; k++) {
                int i = faceVertices[faceStart[f] + k];
                int j = faceVertices[faceStart[f] + (k + 1) % count];
                nx += (v[3 * i + 1] - v[3 * j + 1]) * (v[3 * i + 2] + v[3 * j + 2]);
                ny += (v[3 * i + 2] - v[3 * j + 2]) * (v[3 * i] + v[3 * j]);
                nz += (v[3 * i] - v[3 * j]) * (v[3 * i + 1] + v[3 * j + 1]);
                cx += v[3 * i];
                cy += v[3 * i + 1];
                cz += v[3 * i + 2];
            }
            double length = Math.sqrt(nx * nx + ny * ny + nz * nz);
            if (!(length > 0)) {
                throw new IllegalArgumentException("face " + f + " has zero area");
            }
            nx /= length;
            ny /= length;
            nz /= length;
            planes[4 * f] = nx;
            planes[4 * f + 1] = ny;
            planes[4 * f + 2] = nz;
            planes[4 * f + 3] = (nx * cx + ny * cy + nz * cz) / count;
        }
        return planes;
    }

    private static int[] uniqueEdges(int[] faceStart, int[] faceVertices) {
        long[] keys = new long[faceVertices.length];
        int n = 0;
        for (int f = 0; f + 1 < faceStart.length; f++) {
            int count = faceStart[f + 1] - faceStart[f];
            for (int k = 0; k < count; k++) {
                int a = faceVertices[faceStart[f] + k];
                int b = faceVertices[faceStart[f] + (k + 1) % count];
                keys[n++] = ((long) Math.min(a, b) << 32) | Math.max(a, b);
            }
        }
        long[] sorted = Arrays.copyOf(keys, n);
        Arrays.sort(sorted);
        int unique = 0;
        for (int i = 0; i < n; i++) {
            if (i == 0 || sorted[i] != sorted[i - 1]) {
                sorted[unique++] = sorted[i];
            }
        }
        int[] edges = new int[2 * unique];
        for (int e = 0; e < unique; e++) {
            edges[2 * e] = (int) (sorted[e] >>> 32);
            edges[2 * e + 1] = (int) sorted[e];
        }
        return edges;
    }
}
