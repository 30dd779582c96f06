package org.hapticsd.physics.collision;

import java.util.Arrays;

import org.hapticsd.physics.geometry.ConvexHull;
import org.joml.Vector3d;

/**
 * What the separating-axis test needs of a {@link ConvexHull} beyond what the hull stores: for each unique edge the
 * two faces it joins (the ends of the edge's arc on the Gauss map), plus flat copies of the topology so the hot loops
 * index plain arrays. Built once per hull when the scene changes ({@link Narrowphase#prepare}); immutable.
 */
final class HullFeatures {
    /** The box [−1, 1]³ in {@link ConvexHull#box} numbering; a {@code BoxShape} is this scaled per axis. */
    static final HullFeatures UNIT_BOX = new HullFeatures(ConvexHull.box(1.0, 1.0, 1.0));

    final int vertexCount;
    final double[] vertexM;
    final int faceCount;
    final int[] faceStart;
    final int[] faceVertex;
    /** Outward unit normal and offset d of each face plane n·x = d, body frame: 4 values per face. */
    final double[] facePlane;
    final int edgeCount;
    /** The two vertex indices of each edge, lower index first (the order {@link ConvexHull} lists them). */
    final int[] edgeVertex;
    /** The two faces that share each edge. */
    final int[] edgeFace;
    final int maxFaceVertexCount;
    /** Largest distance of a vertex from the body origin: the bounding sphere used to skip far triangles. */
    final double boundingRadiusM;

    HullFeatures(ConvexHull hull) {
        vertexCount = hull.vertexCount();
        vertexM = new double[3 * vertexCount];
        double radiusSquared = 0.0;
        for (int i = 0; i < vertexCount; i++) {
            vertexM[3 * i] = hull.vertexX(i);
            vertexM[3 * i + 1] = hull.vertexY(i);
            vertexM[3 * i + 2] = hull.vertexZ(i);
            radiusSquared = Math.max(radiusSquared, hull.vertexX(i) * hull.vertexX(i)
                + hull.vertexY(i) * hull.vertexY(i) + hull.vertexZ(i) * hull.vertexZ(i));
        }
        boundingRadiusM = Math.sqrt(radiusSquared);
        faceCount = hull.faceCount();
        faceStart = new int[faceCount + 1];
        int total = 0;
        int maxCount = 0;
        for (int f = 0; f < faceCount; f++) {
            faceStart[f] = total;
            total += hull.faceVertexCount(f);
            maxCount = Math.max(maxCount, hull.faceVertexCount(f));
        }
        faceStart[faceCount] = total;
        maxFaceVertexCount = maxCount;
        faceVertex = new int[total];
        facePlane = new double[4 * faceCount];
        Vector3d normal = new Vector3d();
        for (int f = 0; f < faceCount; f++) {
            for (int k = 0; k < hull.faceVertexCount(f); k++) {
                faceVertex[faceStart[f] + k] = hull.faceVertex(f, k);
            }
            hull.faceNormal(f, normal);
            facePlane[4 * f] = normal.x;
            facePlane[4 * f + 1] = normal.y;
            facePlane[4 * f + 2] = normal.z;
            facePlane[4 * f + 3] = hull.faceOffsetM(f);
        }
        edgeCount = hull.edgeCount();
        edgeVertex = new int[2 * edgeCount];
        edgeFace = new int[2 * edgeCount];
        Arrays.fill(edgeFace, -1);
        for (int e = 0; e < edgeCount; e++) {
            edgeVertex[2 * e] = hull.edgeVertexA(e);
            edgeVertex[2 * e + 1] = hull.edgeVertexB(e);
        }
        // Each undirected edge appears in exactly two faces of a closed polyhedron, once in each direction.
        // Scene-change cost O(faces · edges), paid once.
        for (int f = 0; f < faceCount; f++) {
            int count = faceStart[f + 1] - faceStart[f];
            for (int k = 0; k < count; k++) {
                int u = faceVertex[faceStart[f] + k];
                int v = faceVertex[faceStart[f] + (k + 1) % count];
                int e = findEdge(Math.min(u, v), Math.max(u, v));
                if (edgeFace[2 * e] < 0) {
                    edgeFace[2 * e] = f;
                } else {
                    edgeFace[2 * e + 1] = f;
                }
            }
        }
        for (int e = 0; e < edgeCount; e++) {
            if (edgeFace[2 * e + 1] < 0) {
                throw new IllegalArgumentException("hull edge " + edgeVertex[2 * e] + "-" + edgeVertex[2 * e + 1]
                    + " borders only one face: the hull is not closed");
            }
        }
    }

    private int findEdge(int low, int high) {
        for (int e = 0; e < edgeCount; e++) {
            if (edgeVertex[2 * e] == low && edgeVertex[2 * e + 1] == high) {
                return e;
            }
        }
        throw new IllegalStateException("face edge " + low + "-" + high + " missing from the hull's edge list");
    }
}
