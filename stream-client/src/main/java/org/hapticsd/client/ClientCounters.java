package org.hapticsd.client;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.hapticsd.protocol.stream.StreamMessageType;

/**
 * The live counters behind {@link StreamClientCounters}: written on the client's I/O thread (bytes, messages,
 * errors) and by callers of {@code send}, read from any thread.
 */
final class ClientCounters {
    private final AtomicLongArray byType = new AtomicLongArray(StreamMessageType.values().length);
    final AtomicLong bytesReceived = new AtomicLong();
    final AtomicLong sessions = new AtomicLong();
    final AtomicLong reconnects = new AtomicLong();
    final AtomicLong decodeErrors = new AtomicLong();
    final AtomicLong listenerErrors = new AtomicLong();
    final AtomicLong unmatchedAcks = new AtomicLong();
    final AtomicLong statesOfUnknownScene = new AtomicLong();

    void received(StreamMessageType type) {
        byType.incrementAndGet(type.ordinal());
    }

    StreamClientCounters snapshot() {
        return new StreamClientCounters(of(StreamMessageType.HELLO), of(StreamMessageType.SCENE),
            of(StreamMessageType.STATE), of(StreamMessageType.EVENTS), of(StreamMessageType.ACK), bytesReceived.get(),
            sessions.get(), reconnects.get(), decodeErrors.get(), listenerErrors.get(), unmatchedAcks.get(),
            statesOfUnknownScene.get());
    }

    private long of(StreamMessageType type) {
        return byType.get(type.ordinal());
    }
}
