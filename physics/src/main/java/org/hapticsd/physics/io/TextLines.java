package org.hapticsd.physics.io;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Walks a text file's bytes statement by statement and splits each into whitespace-separated tokens, counting
 * lines from 1. ISO-8859-1 decoding maps every byte to one character, so no file fails to decode and the ASCII
 * keywords and numbers of OBJ and STL come through unchanged; names in other encodings are never interpreted.
 *
 * <p>In OBJ syntax a {@code #} starts a comment that runs to the end of the line, and a backslash at the end of a
 * line continues the statement on the next line (Wavefront OBJ specification, "General statement"); the
 * statement's line number is that of its first line.
 *
 * <p>A hand-written splitter rather than {@code String.split("\\s+")}: meshes run to millions of lines, and the
 * regex would cost more than the parse.
 */
final class TextLines {

    private final byte[] bytes;
    private final boolean objSyntax;
    private int position;
    private long physicalLines;
    private long statementLine;
    private String[] tokens = new String[16];
    private int tokenCount;

    TextLines(byte[] bytes, boolean objSyntax) {
        this.bytes = bytes;
        this.objSyntax = objSyntax;
    }

    /** Advances to the next statement; false at the end of the file. */
    boolean next() {
        if (position >= bytes.length) {
            return false;
        }
        tokenCount = 0;
        statementLine = physicalLines + 1;
        boolean continued = true;
        while (continued && position < bytes.length) {
            physicalLines++;
            int end = position;
            while (end < bytes.length && bytes[end] != '\n') {
                end++;
            }
            int contentEnd = end;
            if (objSyntax) {
                for (int i = position; i < end; i++) {
                    if (bytes[i] == '#') {
                        contentEnd = i;
                        break;
                    }
                }
            }
            int last = contentEnd - 1;
            while (last >= position && isSpace(bytes[last])) {
                last--;
            }
            continued = objSyntax && contentEnd == end && last >= position && bytes[last] == '\\';
            tokenize(position, continued ? last : contentEnd);
            position = end + 1;
        }
        return true;
    }

    private void tokenize(int from, int to) {
        int i = from;
        while (i < to) {
            while (i < to && isSpace(bytes[i])) {
                i++;
            }
            int start = i;
            while (i < to && !isSpace(bytes[i])) {
                i++;
            }
            if (i > start) {
                if (tokenCount == tokens.length) {
                    tokens = Arrays.copyOf(tokens, 2 * tokens.length);
                }
                tokens[tokenCount++] = new String(bytes, start, i - start, StandardCharsets.ISO_8859_1);
            }
        }
    }

    /** Line of the current statement's start, from 1. */
    long lineNumber() {
        return statementLine;
    }

    /** Lines read so far: after the last statement, the number of lines in the file. */
    long linesRead() {
        return physicalLines;
    }

    int tokenCount() {
        return tokenCount;
    }

    String token(int i) {
        return tokens[i];
    }

    private static boolean isSpace(byte b) {
        return b == ' ' || b == '\t' || b == '\r' || b == '\f' || b == 0x0B;
    }
}
