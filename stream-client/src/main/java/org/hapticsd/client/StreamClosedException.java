package org.hapticsd.client;

import java.io.IOException;

/**
 * A command could not be sent or answered because the client is not connected, its connection closed before the
 * ACK arrived, or the client was closed. Whether the server carried the command out is then unknown: the next STATE
 * shows it.
 */
public final class StreamClosedException extends IOException {
    public StreamClosedException(String message) {
        super(message);
    }

    public StreamClosedException(String message, Throwable cause) {
        super(message, cause);
    }
}
