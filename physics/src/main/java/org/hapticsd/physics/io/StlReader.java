package org.hapticsd.physics.io;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Locale;
import org.hapticsd.physics.geometry.TriangleMesh;

/**
 * STL, ASCII and binary. STL stores every triangle with its own three corners, so corners with exactly equal
 * coordinates are welded into one vertex to give an indexed mesh whose edges can be matched (closedness, mass
 * properties). Only exact equality welds: a tolerance would merge distinct vertices of fine features, and exporters
 * write a shared corner with the same bits every time. The facet normals are ignored; the corner order
 * (counter-clockwise seen from outside) is what the rest of the engine trusts.
 *
 * <p>Binary layout (little-endian):
 * <pre>
 *   offset 0            80 bytes  header, free text (may itself begin with "solid")
 *   offset 80            4 bytes  uint32 triangle count n
 *   offset 84 + 50 i    12 bytes  normal, 3 × float32 (ignored)
 *                       36 bytes  corners 1, 2, 3, each 3 × float32
 *                        2 bytes  attribute byte count (ignored)
 *   size                          84 + 50 n exactly
 * </pre>
 *
 * <p>Which of the two a file is: a file whose size is exactly {@code 84 + 50 n} for the count at offset 80 is
 * binary, whatever its first bytes say, because binary exporters often begin the header with "solid" and an ASCII
 * file of exactly that size is far less likely than such a header. Otherwise a file beginning with "solid" (after
 * optional whitespace) and containing no zero byte is ASCII; anything else is reported as a binary file whose size
 * does not match its count.
 */
final class StlReader {

    private static final int HEADER_BYTES = 80;
    private static final int PREAMBLE_BYTES = 84;
    private static final int RECORD_BYTES = 50;

    private StlReader() {
    }

    static TriangleMesh read(Path file, byte[] bytes) throws MeshFormatException {
        if (looksBinary(bytes) || !looksAscii(bytes)) {
            return readBinary(file, bytes);
        }
        return readAscii(file, bytes);
    }

    /** Whether the size is exactly that of the binary layout for the count at offset 80. */
    static boolean looksBinary(byte[] bytes) {
        return bytes.length >= PREAMBLE_BYTES
            && PREAMBLE_BYTES + RECORD_BYTES * triangleCount(bytes) == bytes.length;
    }

    /** Begins with "solid" after optional whitespace and holds no zero byte. */
    static boolean looksAscii(byte[] bytes) {
        int i = 0;
        while (i < bytes.length && Character.isWhitespace(bytes[i])) {
            i++;
        }
        if (bytes.length - i < 5
                || !new String(bytes, i, 5, StandardCharsets.ISO_8859_1).equalsIgnoreCase("solid")) {
            return false;
        }
        for (byte b : bytes) {
            if (b == 0) {
                return false;
            }
        }
        return true;
    }

    private static long triangleCount(byte[] bytes) {
        return ByteBuffer.wrap(bytes, HEADER_BYTES, 4).order(ByteOrder.LITTLE_ENDIAN).getInt() & 0xFFFFFFFFL;
    }

    private static TriangleMesh readBinary(Path file, byte[] bytes) throws MeshFormatException {
        if (bytes.length < PREAMBLE_BYTES) {
            throw MeshFormatException.atByte(file, bytes.length, "truncated binary STL: the header and triangle "
                + "count need " + PREAMBLE_BYTES + " bytes, the file ends after " + bytes.length);
        }
        long count = triangleCount(bytes);
        long expected = PREAMBLE_BYTES + RECORD_BYTES * count;
        if (expected > bytes.length) {
            throw MeshFormatException.atByte(file, bytes.length, "truncated binary STL: the count at byte offset 80 "
                + "declares " + count + " triangles, which need 84 + 50 × " + count + " = " + expected
                + " bytes, but the file ends here");
        }
        if (expected < bytes.length) {
            throw MeshFormatException.atByte(file, HEADER_BYTES, "binary STL triangle count " + count
                + " does not match the file size: 84 + 50 × " + count + " = " + expected + " bytes, the file has "
                + bytes.length);
        }
        if (count == 0) {
            throw MeshFormatException.atByte(file, HEADER_BYTES, "empty mesh: binary STL triangle count is 0");
        }
        ByteBuffer buffer = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        MeshBuilder mesh = new MeshBuilder(true);
        int[] corner = new int[3];
        for (int t = 0; t < count; t++) {
            int record = PREAMBLE_BYTES + RECORD_BYTES * t;
            for (int k = 0; k < 3; k++) {
                int at = record + 12 + 12 * k;
                corner[k] = mesh.vertex(coordinate(file, buffer, at), coordinate(file, buffer, at + 4),
                    coordinate(file, buffer, at + 8));
            }
            mesh.triangle(corner[0], corner[1], corner[2]);
        }
        return mesh.build();
    }

    private static double coordinate(Path file, ByteBuffer buffer, int offset) throws MeshFormatException {
        float value = buffer.getFloat(offset);
        if (!Float.isFinite(value)) {
            throw MeshFormatException.atByte(file, offset, "vertex coordinate is " + value + ", not a finite number");
        }
        return value;
    }

    private enum Expect {
        SOLID, FACET, OUTER_LOOP, VERTEX, ENDLOOP, ENDFACET
    }

    private static TriangleMesh readAscii(Path file, byte[] bytes) throws MeshFormatException {
        TextLines lines = new TextLines(bytes, false);
        MeshBuilder mesh = new MeshBuilder(true);
        Expect expect = Expect.SOLID;
        int[] corner = new int[3];
        int corners = 0;
        while (lines.next()) {
            if (lines.tokenCount() == 0) {
                continue;
            }
            String keyword = lines.token(0).toLowerCase(Locale.ROOT);
            long line = lines.lineNumber();
            switch (expect) {
                case SOLID -> {
                    require(file, lines, keyword, "solid");
                    expect = Expect.FACET;
                }
                case FACET -> {
                    if (keyword.equals("endsolid")) {
                        expect = Expect.SOLID;
                    } else {
                        if (!keyword.equals("facet")) {
                            throw MeshFormatException.atLine(file, line, "expected 'facet' or 'endsolid', found '"
                                + lines.token(0) + "'");
                        }
                        if (lines.tokenCount() != 5 || !lines.token(1).equalsIgnoreCase("normal")) {
                            throw MeshFormatException.atLine(file, line, "expected 'facet normal nx ny nz'");
                        }
                        for (int i = 2; i < 5; i++) {
                            number(file, lines, i, "facet normal");
                        }
                        expect = Expect.OUTER_LOOP;
                    }
                }
                case OUTER_LOOP -> {
                    if (lines.tokenCount() != 2 || !keyword.equals("outer")
                            || !lines.token(1).equalsIgnoreCase("loop")) {
                        throw MeshFormatException.atLine(file, line, "expected 'outer loop', found '"
                            + lines.token(0) + "'");
                    }
                    corners = 0;
                    expect = Expect.VERTEX;
                }
                case VERTEX, ENDLOOP -> {
                    if (keyword.equals("vertex")) {
                        if (corners == 3) {
                            throw MeshFormatException.atLine(file, line, "facet has more than 3 vertices: expected "
                                + "'endloop'");
                        }
                        if (lines.tokenCount() != 4) {
                            throw MeshFormatException.atLine(file, line, "vertex needs 3 coordinates, found "
                                + (lines.tokenCount() - 1));
                        }
                        corner[corners++] = mesh.vertex(number(file, lines, 1, "vertex"),
                            number(file, lines, 2, "vertex"), number(file, lines, 3, "vertex"));
                        expect = corners == 3 ? Expect.ENDLOOP : Expect.VERTEX;
                    } else if (keyword.equals("endloop")) {
                        if (corners != 3) {
                            throw MeshFormatException.atLine(file, line, "facet has " + corners
                                + " vertices, expected 3");
                        }
                        mesh.triangle(corner[0], corner[1], corner[2]);
                        expect = Expect.ENDFACET;
                    } else {
                        throw MeshFormatException.atLine(file, line, "expected '"
                            + (expect == Expect.VERTEX ? "vertex" : "endloop") + "', found '" + lines.token(0) + "'");
                    }
                }
                case ENDFACET -> {
                    require(file, lines, keyword, "endfacet");
                    expect = Expect.FACET;
                }
                default -> throw new IllegalStateException(expect.name());
            }
        }
        if (expect != Expect.SOLID) {
            String missing = switch (expect) {
                case FACET -> "endsolid";
                case OUTER_LOOP -> "outer loop";
                case VERTEX -> "vertex";
                case ENDLOOP -> "endloop";
                default -> "endfacet";
            };
            throw MeshFormatException.atLine(file, lines.linesRead(), "unexpected end of file: expected '" + missing
                + "'");
        }
        if (mesh.triangleCount() == 0) {
            throw MeshFormatException.atLine(file, lines.linesRead(), "empty mesh: no facets in the file");
        }
        return mesh.build();
    }

    private static void require(Path file, TextLines lines, String keyword, String expected)
            throws MeshFormatException {
        if (!keyword.equals(expected)) {
            throw MeshFormatException.atLine(file, lines.lineNumber(), "expected '" + expected + "', found '"
                + lines.token(0) + "'");
        }
    }

    private static double number(Path file, TextLines lines, int i, String what) throws MeshFormatException {
        String token = lines.token(i);
        double value;
        try {
            value = Double.parseDouble(token);
        } catch (NumberFormatException e) {
            throw MeshFormatException.atLine(file, lines.lineNumber(), "bad number '" + token + "' in " + what);
        }
        if (!Double.isFinite(value)) {
            throw MeshFormatException.atLine(file, lines.lineNumber(), what + " coordinate '" + token
                + "' is not finite");
        }
        return value;
    }
}
