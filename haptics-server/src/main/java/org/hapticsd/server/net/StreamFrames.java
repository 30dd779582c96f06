package org.hapticsd.server.net;

import org.hapticsd.server.loop.LoopSnapshot;

/**
 * The stream's messages as bytes or JSON text, for the server's handlers: what a client is sent on connect (HELLO,
 * SCENE) and at its rate (STATE). Implemented over the stream protocol's codec; the handlers only frame and send.
 * Called on Netty threads, one client per call; implementations must be safe for concurrent calls.
 */
public interface StreamFrames {
    byte[] helloBinary();

    String helloJson();

    byte[] sceneBinary();

    String sceneJson();

    byte[] stateBinary(LoopSnapshot snapshot);

    /**
     * The snapshot's binary STATE into {@code out}, a client's own buffer reused for each of its messages. The
     * default holds {@link #stateBinary(LoopSnapshot)}'s array; the protocol's frames write in place and allocate
     * nothing.
     */
    default void stateBinary(LoopSnapshot snapshot, StateBuffer out) {
        out.hold(stateBinary(snapshot));
    }

    String stateJson(LoopSnapshot snapshot);

    /**
     * The EVENTS frames with what {@code events} has received since the last call, oldest first, at most
     * {@code StreamProtocol.MAX_EVENTS} events each; empty when nothing happened. Each client has its own receiver.
     */
    java.util.List<Object> eventsFrames(EventLog.Receiver events, boolean json);
}
