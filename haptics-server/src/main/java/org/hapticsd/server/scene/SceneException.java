package org.hapticsd.server.scene;

/**
 * A scene file that cannot be used. The message is one line: {@code FILE:LINE:COLUMN: FIELD: problem}.
 */
public final class SceneException extends Exception {
    public SceneException(String message) {
        super(message);
    }

    public SceneException(String message, Throwable cause) {
        super(message, cause);
    }
}
