package org.hapticsd.physics.io;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A mesh file that cannot be read as the format it claims. The message is {@code <file>: line <n>: <problem>} for
 * the text formats (OBJ, ASCII STL; lines counted from 1) and {@code <file>: byte offset <n>: <problem>} for binary
 * STL (bytes counted from 0), the way compilers report, so that it can be pasted into an editor's "go to".
 *
 * <p>An {@link IOException} because a bad file is an input problem the caller must handle, like a missing one.
 */
public final class MeshFormatException extends IOException {

    private static final long serialVersionUID = 1L;

    private final String file;
    private final long line;
    private final long byteOffset;
    private final String problem;

    private MeshFormatException(String file, long line, long byteOffset, String problem) {
        super(file + (line >= 0 ? ": line " + line : ": byte offset " + byteOffset) + ": " + problem);
        this.file = file;
        this.line = line;
        this.byteOffset = byteOffset;
        this.problem = problem;
    }

    static MeshFormatException atLine(Path file, long line, String problem) {
        return new MeshFormatException(file.toString(), line, -1, problem);
    }

    static MeshFormatException atByte(Path file, long byteOffset, String problem) {
        return new MeshFormatException(file.toString(), -1, byteOffset, problem);
    }

    /** The file as it was given to the loader. */
    public String file() {
        return file;
    }

    /** Line of the problem, from 1, or −1 for a binary file. */
    public long line() {
        return line;
    }

    /** Byte offset of the problem, from 0, or −1 for a text file. */
    public long byteOffset() {
        return byteOffset;
    }

    /** What is wrong, without the location. */
    public String problem() {
        return problem;
    }
}
