package org.hapticsd.server.calibrate;

/** A collision data file that cannot be read: says which file, line and column, and what is wrong there. */
public final class CollisionDataException extends Exception {
    private final String source;
    private final int line;
    private final int column;

    /**
     * @param line 1-based, or 0 for the file as a whole
     * @param column 1-based, or 0 for the line as a whole
     */
    public CollisionDataException(String source, int line, int column, String message) {
        super(location(source, line, column) + ": " + message);
        this.source = source;
        this.line = line;
        this.column = column;
    }

    public String source() {
        return source;
    }

    public int line() {
        return line;
    }

    public int column() {
        return column;
    }

    private static String location(String source, int line, int column) {
        if (line <= 0) {
            return source;
        }
        return column <= 0 ? source + ":" + line : source + ":" + line + ":" + column;
    }
}
