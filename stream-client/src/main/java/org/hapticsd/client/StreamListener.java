package org.hapticsd.client;

import org.hapticsd.protocol.stream.EventsMessage;
import org.hapticsd.protocol.stream.HelloMessage;
import org.hapticsd.protocol.stream.SceneMessage;
import org.hapticsd.protocol.stream.StateMessage;
import org.hapticsd.protocol.stream.StreamMessage;

/**
 * What a {@link StreamClient} reports. Every callback runs on the client's one I/O thread, in the order the messages
 * arrived, so an implementation needs no locking of its own but must not block: while a callback runs, the client
 * reads nothing. In particular, do not wait on a {@link StreamClient#send} future inside a callback; its ACK is read
 * by this same thread. An exception thrown by a callback is caught and counted
 * ({@link StreamClientCounters#listenerErrors()}); it never closes the connection.
 *
 * <p>Every method has an empty default, so a listener overrides only what it uses.
 */
public interface StreamListener {
    /** Every message received, before its typed callback below (ACKs too, which have none). */
    default void onMessage(StreamMessage message) {
    }

    /** The server's HELLO: a session has begun (the first, or one after a reconnect). SCENE follows. */
    default void onConnected(HelloMessage hello) {
    }

    /** A SCENE: after HELLO, and again whenever the server's scene changes. */
    default void onScene(SceneMessage scene) {
    }

    /**
     * A STATE of the last SCENE received. A STATE naming another scene revision is counted
     * ({@link StreamClientCounters#statesOfUnknownScene()}) and not passed on, as the protocol asks.
     */
    default void onState(StateMessage state) {
    }

    /** An EVENTS message: everything that happened since the previous one, oldest first. */
    default void onEvents(EventsMessage events) {
    }

    /**
     * A connection, or an attempt to make one, has ended. The client reconnects after this unless it was closed or
     * reconnecting is off.
     *
     * @param reason for people: "connection refused", "closed by server", "malformed message: ..."
     */
    default void onDisconnected(String reason) {
    }
}
