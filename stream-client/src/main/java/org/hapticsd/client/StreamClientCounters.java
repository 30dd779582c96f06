package org.hapticsd.client;

/**
 * A snapshot of a {@link StreamClient}'s counters since it was built. Each value is read on its own, so a snapshot
 * taken while messages arrive may be a message apart between fields.
 *
 * @param helloMessages        HELLO messages received (one per session)
 * @param sceneMessages        SCENE messages received
 * @param stateMessages        STATE messages received, skipped ones included
 * @param eventsMessages       EVENTS messages received
 * @param ackMessages          ACK messages received
 * @param bytesReceived        bytes read from the socket: framing, WebSocket and TLS overhead included
 * @param sessions             connections that reached HELLO
 * @param reconnects           connection attempts made after the first one (after a lost connection or a failed
 *                             attempt)
 * @param decodeErrors         malformed messages or frames from the server; each one closed its connection
 * @param listenerErrors       exceptions thrown by {@link StreamListener} callbacks (caught)
 * @param unmatchedAcks        ACKs with an id no pending command had (late, after a timeout, or foreign)
 * @param statesOfUnknownScene STATE messages skipped because their scene revision was not the last SCENE's
 */
public record StreamClientCounters(long helloMessages, long sceneMessages, long stateMessages, long eventsMessages,
                                   long ackMessages, long bytesReceived, long sessions, long reconnects,
                                   long decodeErrors, long listenerErrors, long unmatchedAcks,
                                   long statesOfUnknownScene) {
    /** Messages of every type received. */
    public long messages() {
        return helloMessages + sceneMessages + stateMessages + eventsMessages + ackMessages;
    }
}
