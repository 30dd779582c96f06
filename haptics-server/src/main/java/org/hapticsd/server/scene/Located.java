package org.hapticsd.server.scene;

/**
 * A scene object that remembers where in the file it started, so checks that span several fields (a missing
 * required field, a duplicate name) can still name the line.
 */
public abstract class Located {
    private int line;
    private int column;

    void locate(int line, int column) {
        this.line = line;
        this.column = column;
    }

    public int line() {
        return line;
    }

    public int column() {
        return column;
    }
}
