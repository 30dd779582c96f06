package org.hapticsd.physics.geometry;

/**
 * An immutable indexed triangle mesh in the body frame: vertices and counter-clockwise (seen from outside)
 * triangles. Used for static collision geometry and, when closed, for mass properties.
 */
public final class TriangleMesh {
    private final double[] verticesM;
    private final int[] triangles;

    /**
     * @param verticesM x, y, z per vertex
     * @param triangles three vertex indices per triangle
     */
    public TriangleMesh(double[] verticesM, int[] triangles) {
        if (verticesM.length < 9 || verticesM.length % 3 != 0) {
            throw new IllegalArgumentException("a mesh needs at least 3 vertices as x, y, z triples, got "
                + verticesM.length + " numbers");
        }
        if (triangles.length < 3 || triangles.length % 3 != 0) {
            throw new IllegalArgumentException("triangles must be index triples, got " + triangles.length + " indices");
        }
        for (int i = 0; i < verticesM.length; i++) {
            if (!Double.isFinite(verticesM[i])) {
                throw new IllegalArgumentException("vertex " + i / 3 + " is not finite");
            }
        }
        int vertexCount = verticesM.length / 3;
        for (int t = 0; t < triangles.length; t++) {
            if (triangles[t] < 0 || triangles[t] >= vertexCount) {
                throw new IllegalArgumentException("triangle " + t / 3 + " uses vertex " + triangles[t]
                    + " outside 0.." + (vertexCount - 1));
            }
        }
        this.verticesM = verticesM.clone();
        this.triangles = triangles.clone();
    }

    public int vertexCount() {
        return verticesM.length / 3;
    }

    public int triangleCount() {
        return triangles.length / 3;
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

    /** Vertex index of corner {@code k} (0..2) of triangle {@code t}. */
    public int corner(int t, int k) {
        return triangles[3 * t + k];
    }
}
