package org.hapticsd.physics.io;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.hapticsd.physics.geometry.TriangleMesh;

/**
 * Loads a triangle mesh from a Wavefront OBJ or an STL (ASCII or binary) file, in the units of the file (the engine
 * reads them as metres; scale a model exported in millimetres before use).
 *
 * <p>The format follows the extension ({@code .obj}, {@code .stl}, any case). Without one of those, the content
 * decides: a binary STL by its size ({@code 84 + 50 n} bytes for the count n at byte offset 80), an ASCII STL by its
 * leading {@code solid}, and anything else is read as OBJ. The whole file is read into memory first: meshes for
 * collision are megabytes, and random access makes the binary size check and byte offsets trivial.
 *
 * <p>Loading is scene set-up: it allocates and throws. Format details and the accepted subsets are described on
 * {@link ObjReader} and {@link StlReader}.
 */
public final class MeshLoader {

    private MeshLoader() {
    }

    /**
     * @throws MeshFormatException if the file is not a well-formed mesh of its format; the message names the file,
     *     the line (text formats) or byte offset (binary STL), and the problem
     * @throws IOException if the file cannot be read
     */
    public static TriangleMesh load(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        Path name = file.getFileName();
        String lower = name == null ? "" : name.toString().toLowerCase(Locale.ROOT);
        if (lower.endsWith(".obj")) {
            return ObjReader.read(file, bytes);
        }
        if (lower.endsWith(".stl")) {
            return StlReader.read(file, bytes);
        }
        if (StlReader.looksBinary(bytes) || StlReader.looksAscii(bytes)) {
            return StlReader.read(file, bytes);
        }
        return ObjReader.read(file, bytes);
    }
}
