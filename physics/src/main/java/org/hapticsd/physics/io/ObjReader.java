package org.hapticsd.physics.io;

import java.nio.file.Path;
import org.hapticsd.physics.geometry.TriangleMesh;

/**
 * Wavefront OBJ, geometry only: {@code v x y z} (an optional w or vertex colour after the coordinates is ignored)
 * and {@code f} with three or more vertex references, each {@code v}, {@code v/vt}, {@code v//vn} or
 * {@code v/vt/vn}. Indices count from 1; a negative index counts back from the last vertex defined so far
 * ({@code -1} is the latest), as the specification defines relative references. A polygon is split into a fan
 * {@code (v0, vk, vk+1)}, which is exact for the convex faces exporters write. Every other statement ({@code vt},
 * {@code vn}, {@code g}, {@code o}, {@code s}, {@code usemtl}, {@code mtllib}, lines, free-form geometry) is
 * skipped: none of it changes the surface a collision mesh needs.
 *
 * <p>A face may only refer to vertices defined above it, as the specification says; a forward reference is
 * reported as out of range rather than resolved later, so that the reported line is the one to fix.
 */
final class ObjReader {

    private ObjReader() {
    }

    static TriangleMesh read(Path file, byte[] bytes) throws MeshFormatException {
        TextLines lines = new TextLines(bytes, true);
        MeshBuilder mesh = new MeshBuilder(false);
        int[] polygon = new int[8];
        while (lines.next()) {
            if (lines.tokenCount() == 0) {
                continue;
            }
            String keyword = lines.token(0);
            if (keyword.equals("v")) {
                int count = lines.tokenCount() - 1;
                if (count != 3 && count != 4 && count != 6 && count != 7) {
                    throw MeshFormatException.atLine(file, lines.lineNumber(), "vertex needs 3 coordinates "
                        + "(optionally followed by w or by r g b), found " + count + " values");
                }
                double x = coordinate(file, lines, 1);
                double y = coordinate(file, lines, 2);
                double z = coordinate(file, lines, 3);
                for (int i = 4; i <= count; i++) {
                    coordinate(file, lines, i);
                }
                mesh.vertex(x, y, z);
            } else if (keyword.equals("f")) {
                int corners = lines.tokenCount() - 1;
                if (corners < 3) {
                    throw MeshFormatException.atLine(file, lines.lineNumber(), "face needs at least 3 vertices, found "
                        + corners);
                }
                if (corners > polygon.length) {
                    polygon = new int[Math.max(corners, 2 * polygon.length)];
                }
                for (int k = 0; k < corners; k++) {
                    polygon[k] = vertexIndex(file, lines, k + 1, mesh.vertexCount());
                }
                for (int k = 1; k + 1 < corners; k++) {
                    mesh.triangle(polygon[0], polygon[k], polygon[k + 1]);
                }
            }
        }
        if (mesh.triangleCount() == 0) {
            throw MeshFormatException.atLine(file, Math.max(1, lines.linesRead()), "empty mesh: no faces ('f') in "
                + "the file, which defines " + mesh.vertexCount() + " vertices");
        }
        return mesh.build();
    }

    private static double coordinate(Path file, TextLines lines, int i) throws MeshFormatException {
        String token = lines.token(i);
        double value;
        try {
            value = Double.parseDouble(token);
        } catch (NumberFormatException e) {
            throw MeshFormatException.atLine(file, lines.lineNumber(), "bad number '" + token + "' in vertex");
        }
        if (!Double.isFinite(value)) {
            throw MeshFormatException.atLine(file, lines.lineNumber(), "vertex coordinate '" + token
                + "' is not finite");
        }
        return value;
    }

    /** The 0-based vertex index of reference {@code i} of a face line. */
    private static int vertexIndex(Path file, TextLines lines, int i, int defined) throws MeshFormatException {
        String token = lines.token(i);
        int slash = token.indexOf('/');
        String number = slash < 0 ? token : token.substring(0, slash);
        int index;
        try {
            index = Integer.parseInt(number);
        } catch (NumberFormatException e) {
            throw MeshFormatException.atLine(file, lines.lineNumber(), "bad vertex index '" + token + "' in face");
        }
        if (index > 0) {
            if (index > defined) {
                throw MeshFormatException.atLine(file, lines.lineNumber(), "vertex index " + index
                    + " out of range: " + defined + " vertices are defined above this face");
            }
            return index - 1;
        }
        if (index < 0) {
            if (-(long) index > defined) {
                throw MeshFormatException.atLine(file, lines.lineNumber(), "relative vertex index " + index
                    + " out of range: " + defined + " vertices are defined above this face");
            }
            return defined + index;
        }
        throw MeshFormatException.atLine(file, lines.lineNumber(), "vertex index 0 is invalid: OBJ indices count "
            + "from 1, or back from -1");
    }
}
