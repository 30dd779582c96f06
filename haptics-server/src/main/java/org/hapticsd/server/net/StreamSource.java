package org.hapticsd.server.net;

/**
 * The scene the stream serves now. Read by every client on each of its runs; changes only when the loop has
 * replaced its scene, so a client can compare by identity.
 */
@FunctionalInterface
public interface StreamSource {
    StreamEpoch current();

    /** A source whose scene never changes. */
    static StreamSource fixed(StreamEpoch epoch) {
        return () -> epoch;
    }
}
