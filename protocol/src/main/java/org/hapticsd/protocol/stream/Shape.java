package org.hapticsd.protocol.stream;

import java.util.Arrays;

/**
 * A body's collision and display shape, in the body frame, metres. Sizes are the sender's obligation (positive and
 * finite); the codec checks only what would make a message undecodable or a mesh index out of range.
 */
public sealed interface Shape {
    /** The shape type code on the wire. */
    int code();

    /** Shape code 1. */
    record Sphere(float radiusM) implements Shape {
        @Override
        public int code() {
            return 1;
        }
    }

    /** Shape code 2: a box centred on the body origin, axes along the body axes. */
    record Box(Vec3 halfExtentsM) implements Shape {
        public Box {
            Checks.notNull("halfExtentsM", halfExtentsM);
        }

        @Override
        public int code() {
            return 2;
        }
    }

    /** Shape code 3: a cylinder along the body z axis between z = ±halfHeightM, capped by hemispheres. */
    record Capsule(float radiusM, float halfHeightM) implements Shape {
        @Override
        public int code() {
            return 3;
        }
    }

    /**
     * Shape code 4: the half-space below the plane {x : normal·x = offsetM} of the body frame; the solid is on the
     * side opposite the unit normal.
     */
    record Plane(Vec3 normal, float offsetM) implements Shape {
        public Plane {
            Checks.notNull("normal", normal);
        }

        @Override
        public int code() {
            return 4;
        }
    }

    /**
     * Shape code 5: the convex hull of the points, xyz interleaved ({@code verticesM.length = 3 × count}, count
     * 1..{@value StreamProtocol#MAX_HULL_VERTICES}).
     */
    record ConvexHull(float[] verticesM) implements Shape {
        public ConvexHull {
            verticesM = Checks.notNull("verticesM", verticesM).clone();
            int n = verticesM.length / 3;
            if (verticesM.length % 3 != 0 || n < 1 || n > StreamProtocol.MAX_HULL_VERTICES) {
                throw new StreamFormatException("hull verticesM must hold 1.." + StreamProtocol.MAX_HULL_VERTICES
                    + " xyz triples, had " + verticesM.length + " floats");
            }
        }

        public int vertexCount() {
            return verticesM.length / 3;
        }

        @Override
        public float[] verticesM() {
            return verticesM.clone();
        }

        float vertexComponent(int i) {
            return verticesM[i];
        }

        @Override
        public int code() {
            return 5;
        }

        // Records compare arrays by identity; a shape is a value, so compare contents (bitwise, as a round trip
        // keeps every bit).
        @Override
        public boolean equals(Object o) {
            return o instanceof ConvexHull h && Arrays.equals(verticesM, h.verticesM);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(verticesM);
        }

        @Override
        public String toString() {
            return "ConvexHull[" + vertexCount() + " vertices]";
        }
    }

    /**
     * Shape code 6: triangles over shared vertices (xyz interleaved, 1..{@value StreamProtocol#MAX_MESH_VERTICES}),
     * three vertex indices per triangle (0..{@value StreamProtocol#MAX_MESH_TRIANGLES} triangles), counter-clockwise
     * seen from outside.
     */
    record TriangleMesh(float[] verticesM, int[] indices) implements Shape {
        public TriangleMesh {
            verticesM = Checks.notNull("verticesM", verticesM).clone();
            indices = Checks.notNull("indices", indices).clone();
            int n = verticesM.length / 3;
            if (verticesM.length % 3 != 0 || n < 1 || n > StreamProtocol.MAX_MESH_VERTICES) {
                throw new StreamFormatException("mesh verticesM must hold 1.." + StreamProtocol.MAX_MESH_VERTICES
                    + " xyz triples, had " + verticesM.length + " floats");
            }
            if (indices.length % 3 != 0 || indices.length / 3 > StreamProtocol.MAX_MESH_TRIANGLES) {
                throw new StreamFormatException("mesh indices must hold 0.." + StreamProtocol.MAX_MESH_TRIANGLES
                    + " triangles, had " + indices.length + " indices");
            }
            for (int i = 0; i < indices.length; i++) {
                if (indices[i] < 0 || indices[i] >= n) {
                    throw new StreamFormatException("mesh index " + i + " is " + indices[i] + ", outside 0.." + (n - 1));
                }
            }
        }

        public int vertexCount() {
            return verticesM.length / 3;
        }

        public int triangleCount() {
            return indices.length / 3;
        }

        @Override
        public float[] verticesM() {
            return verticesM.clone();
        }

        @Override
        public int[] indices() {
            return indices.clone();
        }

        float vertexComponent(int i) {
            return verticesM[i];
        }

        int index(int i) {
            return indices[i];
        }

        @Override
        public int code() {
            return 6;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof TriangleMesh m && Arrays.equals(verticesM, m.verticesM)
                && Arrays.equals(indices, m.indices);
        }

        @Override
        public int hashCode() {
            return 31 * Arrays.hashCode(verticesM) + Arrays.hashCode(indices);
        }

        @Override
        public String toString() {
            return "TriangleMesh[" + vertexCount() + " vertices, " + triangleCount() + " triangles]";
        }
    }

    /**
     * Shape code 7 (version 2): a deformable body, drawn from its nodes (1..{@value
     * StreamProtocol#MAX_DEFORMABLE_NODES}, xyz interleaved, their positions when the SCENE was sent), its edges (two
     * node indices each: springs, a string's segments) and its triangles (three node indices each, a cloth's
     * surface). Its SCENE pose is the identity, so the nodes are in the scene frame; each STATE carries their new
     * positions ({@link DeformableNodes}).
     */
    record Deformable(float[] nodesM, int[] edges, int[] triangles) implements Shape {
        public Deformable {
            nodesM = Checks.notNull("nodesM", nodesM).clone();
            edges = Checks.notNull("edges", edges).clone();
            triangles = Checks.notNull("triangles", triangles).clone();
            int n = nodesM.length / 3;
            if (nodesM.length % 3 != 0 || n < 1 || n > StreamProtocol.MAX_DEFORMABLE_NODES) {
                throw new StreamFormatException("deformable nodesM must hold 1.." + StreamProtocol.MAX_DEFORMABLE_NODES
                    + " xyz triples, had " + nodesM.length + " floats");
            }
            if (edges.length % 2 != 0 || edges.length / 2 > StreamProtocol.MAX_DEFORMABLE_ELEMENTS) {
                throw new StreamFormatException("deformable edges must hold 0.." + StreamProtocol.MAX_DEFORMABLE_ELEMENTS
                    + " pairs, had " + edges.length + " indices");
            }
            if (triangles.length % 3 != 0 || triangles.length / 3 > StreamProtocol.MAX_DEFORMABLE_ELEMENTS) {
                throw new StreamFormatException("deformable triangles must hold 0.."
                    + StreamProtocol.MAX_DEFORMABLE_ELEMENTS + " triples, had " + triangles.length + " indices");
            }
            for (int[] list : new int[][] {edges, triangles}) {
                for (int i = 0; i < list.length; i++) {
                    if (list[i] < 0 || list[i] >= n) {
                        throw new StreamFormatException("deformable node index " + list[i] + " outside 0.." + (n - 1));
                    }
                }
            }
        }

        public int nodeCount() {
            return nodesM.length / 3;
        }

        public int edgeCount() {
            return edges.length / 2;
        }

        public int triangleCount() {
            return triangles.length / 3;
        }

        @Override
        public float[] nodesM() {
            return nodesM.clone();
        }

        @Override
        public int[] edges() {
            return edges.clone();
        }

        @Override
        public int[] triangles() {
            return triangles.clone();
        }

        float nodeComponent(int i) {
            return nodesM[i];
        }

        int edgeIndex(int i) {
            return edges[i];
        }

        int triangleIndex(int i) {
            return triangles[i];
        }

        @Override
        public int code() {
            return 7;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Deformable d && Arrays.equals(nodesM, d.nodesM) && Arrays.equals(edges, d.edges)
                && Arrays.equals(triangles, d.triangles);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(nodesM) * 961 + Arrays.hashCode(edges) * 31 + Arrays.hashCode(triangles);
        }

        @Override
        public String toString() {
            return "Deformable[" + nodeCount() + " nodes, " + edgeCount() + " edges, " + triangleCount()
                + " triangles]";
        }
    }
}
