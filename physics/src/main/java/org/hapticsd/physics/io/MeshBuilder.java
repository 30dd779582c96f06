package org.hapticsd.physics.io;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.hapticsd.physics.geometry.TriangleMesh;

/** Growing vertex and triangle arrays, with optional welding of exactly equal vertices (STL). */
final class MeshBuilder {

    /** A vertex position compared by value; {@code +0.0} is added so that −0 and 0 weld. */
    private record Position(double x, double y, double z) {
        Position {
            x += 0.0;
            y += 0.0;
            z += 0.0;
        }
    }

    private double[] verticesM = new double[3 * 64];
    private int vertexCount;
    private int[] triangles = new int[3 * 64];
    private int triangleCount;
    private final Map<Position, Integer> welded;

    MeshBuilder(boolean weld) {
        this.welded = weld ? new HashMap<>() : null;
    }

    int vertexCount() {
        return vertexCount;
    }

    int triangleCount() {
        return triangleCount;
    }

    /** Adds a vertex, or with welding finds the equal one already added; returns its index. */
    int vertex(double x, double y, double z) {
        if (welded != null) {
            Integer existing = welded.putIfAbsent(new Position(x, y, z), vertexCount);
            if (existing != null) {
                return existing;
            }
        }
        if (3 * vertexCount == verticesM.length) {
            verticesM = Arrays.copyOf(verticesM, 2 * verticesM.length);
        }
        verticesM[3 * vertexCount] = x;
        verticesM[3 * vertexCount + 1] = y;
        verticesM[3 * vertexCount + 2] = z;
        return vertexCount++;
    }

    void triangle(int a, int b, int c) {
        if (3 * triangleCount == triangles.length) {
            triangles = Arrays.copyOf(triangles, 2 * triangles.length);
        }
        triangles[3 * triangleCount] = a;
        triangles[3 * triangleCount + 1] = b;
        triangles[3 * triangleCount + 2] = c;
        triangleCount++;
    }

    TriangleMesh build() {
        return new TriangleMesh(Arrays.copyOf(verticesM, 3 * vertexCount), Arrays.copyOf(triangles, 3 * triangleCount));
    }
}
