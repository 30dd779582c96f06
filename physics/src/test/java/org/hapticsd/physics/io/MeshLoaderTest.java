package org.hapticsd.physics.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.hapticsd.physics.geometry.ConvexHull;
import org.hapticsd.physics.geometry.TriangleMesh;
import org.hapticsd.physics.mass.MassPropertiesCalculator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MeshLoaderTest {

    @TempDir
    Path dir;

    /** The unit cube's corners in {@link ConvexHull#box} order, OBJ index = box index + 1. */
    private static final String CUBE_VERTICES = """
        v -0.5 -0.5 -0.5
        v 0.5 -0.5 -0.5
        v -0.5 0.5 -0.5
        v 0.5 0.5 -0.5
        v -0.5 -0.5 0.5
        v 0.5 -0.5 0.5
        v -0.5 0.5 0.5
        v 0.5 0.5 0.5
        """;

    @Test
    void shouldLoadObjCubeWithEveryIndexFormAndFanTriangulatedQuads() throws IOException {
        Path file = write("cube.obj", "# a unit cube\nmtllib cube.mtl\no Cube\n" + CUBE_VERTICES + """
            vt 0 0
            vn 0 0 1
            g faces
            usemtl steel
            s off
            f 2/1/1 4/1/1 8/1/1 6/1/1
            f 1//1 5//1 7//1 3//1 # -x
            f 3 7 8 4
            f 1/1 2/1 6/1 5/1
            f -4 -3 -1 -2
            f 1 3 \\
              4 2
            """);
        TriangleMesh mesh = MeshLoader.load(file);
        assertEquals(8, mesh.vertexCount());
        assertEquals(-0.5, mesh.vertexX(0), 0.0);
        assertEquals(0.5, mesh.vertexZ(7), 0.0);
        // Each quad (a, b, c, d) becomes (a, b, c) and (a, c, d), 0-based.
        int[] expected = {1, 3, 7, 1, 7, 5, 0, 4, 6, 0, 6, 2, 2, 6, 7, 2, 7, 3, 0, 1, 5, 0, 5, 4, 4, 5, 7, 4, 7, 6,
            0, 2, 3, 0, 3, 1};
        assertArrayEquals(expected, triangles(mesh));
        // Closed and outward: its volume is the cube's 1 m³, exactly, since every coordinate, product and sum of the
        // tetrahedron integrals over ±0.5 is a dyadic rational that doubles hold without rounding.
        assertEquals(1.0, MassPropertiesCalculator.closedMesh(mesh, 1.0).massKg(), 0.0);
    }

    @Test
    void shouldLoadAsciiStlCubeWeldingSharedCorners() throws IOException {
        Path file = write("cube.STL", asciiStl(cubeTriangles()));
        TriangleMesh mesh = MeshLoader.load(file);
        assertEquals(8, mesh.vertexCount(), "36 corners welded to 8 vertices");
        assertEquals(12, mesh.triangleCount());
        assertEquals(1.0, MassPropertiesCalculator.closedMesh(mesh, 1.0).massKg(), 0.0);
    }

    @Test
    void shouldLoadBinaryStlCubeWhoseHeaderBeginsWithSolid() throws IOException {
        Path file = write("cube.stl", binaryStl("solid cube, binary despite its first word", cubeTriangles()));
        TriangleMesh mesh = MeshLoader.load(file);
        assertEquals(8, mesh.vertexCount());
        assertEquals(12, mesh.triangleCount());
        assertArrayEquals(new int[] {0, 1, 2}, new int[] {mesh.corner(0, 0), mesh.corner(0, 1), mesh.corner(0, 2)},
            "vertices are numbered in order of first appearance");
        assertEquals(1.0, MassPropertiesCalculator.closedMesh(mesh, 1.0).massKg(), 0.0);
    }

    @Test
    void shouldRecogniseFormatByContentWithoutKnownExtension() throws IOException {
        assertEquals(12, MeshLoader.load(write("cube.mesh", binaryStl("x", cubeTriangles()))).triangleCount());
        assertEquals(12, MeshLoader.load(write("cube.txt", asciiStl(cubeTriangles()))).triangleCount());
        assertEquals(1, MeshLoader.load(write("tri.dat", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n")).triangleCount());
    }

    @Test
    void shouldReportObjProblemsWithTheirLine() throws IOException {
        assertProblem("bad.obj", "v 0 0 0\nv 1 0 0\nv 0 1 O.5\nf 1 2 3\n", "line 3: bad number 'O.5' in vertex");
        assertProblem("range.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\n# comment\nf 1 2 4\n",
            "line 5: vertex index 4 out of range: 3 vertices are defined above this face");
        assertProblem("forward.obj", "v 0 0 0\nv 1 0 0\nf 1 2 3\nv 0 1 0\n",
            "line 3: vertex index 3 out of range: 2 vertices are defined above this face");
        assertProblem("relative.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf -1 -2 -4\n",
            "line 4: relative vertex index -4 out of range: 3 vertices are defined above this face");
        assertProblem("zero.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 0 1 2\n",
            "line 4: vertex index 0 is invalid: OBJ indices count from 1, or back from -1");
        assertProblem("index.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 x/1\n", "line 4: bad vertex index 'x/1' in face");
        assertProblem("short.obj", "v 0 0 0\nv 1 0 0\nf 1 2\n", "line 3: face needs at least 3 vertices, found 2");
        assertProblem("coords.obj", "v 0 0\n", "line 1: vertex needs 3 coordinates (optionally followed by w or by "
            + "r g b), found 2 values");
        assertProblem("nan.obj", "v 0 0 0\nv NaN 0 0\n", "line 2: vertex coordinate 'NaN' is not finite");
        assertProblem("empty.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\n",
            "line 3: empty mesh: no faces ('f') in the file, which defines 3 vertices");
        // A continued statement keeps the number of its first line; later lines keep counting.
        assertProblem("continued.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 \\\n 3\nf 1 2 9\n",
            "line 6: vertex index 9 out of range: 3 vertices are defined above this face");
        assertProblem("continuedBad.obj", "v 0 0 0\nv 1 0 \\\n zero\n", "line 2: bad number 'zero' in vertex");
    }

    @Test
    void shouldReportAsciiStlProblemsWithTheirLine() throws IOException {
        String facet = "  facet normal 0 0 1\n    outer loop\n      vertex 0 0 0\n      vertex 1 0 0\n"
            + "      vertex 0 1 0\n    endloop\n  endfacet\n";
        // Lines: 1 solid, 2-8 first facet, 9-15 second facet, 16 endsolid.
        assertProblem("number.stl", "solid t\n" + facet + facet.replace("vertex 1 0 0", "vertex 1 0,5 0")
            + "endsolid t\n", "line 12: bad number '0,5' in vertex");
        assertProblem("four.stl", "solid t\n" + facet.replace("    endloop", "      vertex 1 1 0\n    endloop")
            + "endsolid t\n", "line 7: facet has more than 3 vertices: expected 'endloop'");
        assertProblem("spelling.stl", "solid t\n" + facet.replace("      vertex 0 1 0", "      vertx 0 1 0")
            + "endsolid t\n", "line 6: expected 'vertex', found 'vertx'");
        assertProblem("two.stl", "solid t\n" + facet.replace("      vertex 0 1 0\n", "") + "endsolid t\n",
            "line 6: facet has 2 vertices, expected 3");
        assertProblem("truncated.stl", "solid t\n" + facet + "  facet normal 0 0 1\n    outer loop\n"
            + "      vertex 0 0 0\n", "line 11: unexpected end of file: expected 'vertex'");
        assertProblem("noend.stl", "solid t\n" + facet, "line 8: unexpected end of file: expected 'endsolid'");
        assertProblem("normal.stl", "solid t\n  facet 0 0 1\n", "line 2: expected 'facet normal nx ny nz'");
        assertProblem("nofacets.stl", "solid t\nendsolid t\n", "line 2: empty mesh: no facets in the file");
    }

    @Test
    void shouldReportBinaryStlProblemsWithTheirByteOffset() throws IOException {
        byte[] good = binaryStl("solid header", cubeTriangles());
        assertEquals(684, good.length, "84 + 50 × 12");
        byte[] truncated = java.util.Arrays.copyOf(good, 84 + 50 * 11 + 20);
        assertProblem("truncated.stl", truncated, "byte offset 654: truncated binary STL: the count at byte offset "
            + "80 declares 12 triangles, which need 84 + 50 × 12 = 684 bytes, but the file ends here");
        byte[] longer = java.util.Arrays.copyOf(good, 691);
        assertProblem("longer.stl", longer, "byte offset 80: binary STL triangle count 12 does not match the file "
            + "size: 84 + 50 × 12 = 684 bytes, the file has 691");
        byte[] nan = good.clone();
        // Triangle 3, corner 2 (the third), y: 84 + 50·3 + 12 (normal) + 12·2 + 4 = 274.
        ByteBuffer.wrap(nan).order(ByteOrder.LITTLE_ENDIAN).putFloat(274, Float.NaN);
        assertProblem("nan.stl", nan, "byte offset 274: vertex coordinate is NaN, not a finite number");
        assertProblem("empty.stl", binaryStl("solid nothing", new double[0]),
            "byte offset 80: empty mesh: binary STL triangle count is 0");
        assertProblem("short.stl", new byte[50], "byte offset 50: truncated binary STL: the header and triangle "
            + "count need 84 bytes, the file ends after 50");
    }

    // -------------------------------------------------------------------------------------------------------------

    private void assertProblem(String name, String content, String expected) throws IOException {
        assertProblem(name, content.getBytes(StandardCharsets.US_ASCII), expected);
    }

    private void assertProblem(String name, byte[] content, String expected) throws IOException {
        Path file = write(name, content);
        MeshFormatException e = assertThrows(MeshFormatException.class, () -> MeshLoader.load(file));
        assertEquals(file + ": " + expected, e.getMessage());
        assertEquals(file.toString(), e.file());
    }

    private Path write(String name, String content) throws IOException {
        return write(name, content.getBytes(StandardCharsets.US_ASCII));
    }

    private Path write(String name, byte[] content) throws IOException {
        return Files.write(dir.resolve(name), content);
    }

    /** Nine coordinates per triangle: the unit cube's twelve outward triangles. */
    private static double[] cubeTriangles() {
        ConvexHull box = ConvexHull.box(0.5, 0.5, 0.5);
        double[] out = new double[12 * 9];
        int n = 0;
        for (int f = 0; f < 6; f++) {
            int[][] halves = {{0, 1, 2}, {0, 2, 3}};
            for (int[] half : halves) {
                for (int k : half) {
                    int v = box.faceVertex(f, k);
                    out[n++] = box.vertexX(v);
                    out[n++] = box.vertexY(v);
                    out[n++] = box.vertexZ(v);
                }
            }
        }
        return out;
    }

    private static String asciiStl(double[] triangles) {
        StringBuilder text = new StringBuilder("solid cube\n");
        for (int t = 0; t < triangles.length; t += 9) {
            text.append("  facet normal 0 0 0\n    outer loop\n");
            for (int k = 0; k < 3; k++) {
                text.append("      vertex ").append(triangles[t + 3 * k]).append(' ')
                    .append(triangles[t + 3 * k + 1]).append(' ').append(triangles[t + 3 * k + 2]).append('\n');
            }
            text.append("    endloop\n  endfacet\n");
        }
        return text.append("endsolid cube\n").toString();
    }

    private static byte[] binaryStl(String header, double[] triangles) {
        int count = triangles.length / 9;
        ByteBuffer buffer = ByteBuffer.allocate(84 + 50 * count).order(ByteOrder.LITTLE_ENDIAN);
        buffer.put(header.getBytes(StandardCharsets.US_ASCII));
        buffer.position(80);
        buffer.putInt(count);
        for (int t = 0; t < count; t++) {
            buffer.putFloat(0).putFloat(0).putFloat(0);
            for (int k = 0; k < 9; k++) {
                buffer.putFloat((float) triangles[9 * t + k]);
            }
            buffer.putShort((short) 0);
        }
        return buffer.array();
    }

    private static int[] triangles(TriangleMesh mesh) {
        int[] out = new int[3 * mesh.triangleCount()];
        for (int t = 0; t < mesh.triangleCount(); t++) {
            for (int k = 0; k < 3; k++) {
                out[3 * t + k] = mesh.corner(t, k);
            }
        }
        return out;
    }
}
