package org.hapticsd.device.link;

import java.io.IOException;

/**
 * The other end closed the link: a TCP peer's end of stream, or a write refused because the peer had already
 * closed its socket (EPIPE, ECONNRESET). This is how every host and device leaves, so a reader of the log should
 * see "closed by the peer" rather than a socket error; errors of the link itself stay plain {@link IOException}s.
 */
public final class PeerClosedException extends IOException {
    private static final long serialVersionUID = 1L;

    public PeerClosedException(String message) {
        super(message);
    }

    public PeerClosedException(String message, Throwable cause) {
        super(message, cause);
    }
}
