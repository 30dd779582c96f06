package org.hapticsd.protocol.stream;

import java.util.List;

/**
 * EVENTS, server → client: events since the previous EVENTS, oldest first, 0..{@value StreamProtocol#MAX_EVENTS}
 * per message
 * (0 is valid but the server sends none; with more, it sends several messages rather than drop any). Sent to every subscriber whatever its STATE
 * rate, because a decimated STATE stream would miss short contacts.
 */
public record EventsMessage(List<StreamEvent> events) implements StreamMessage {
    public EventsMessage {
        events = Checks.list("events", events, StreamProtocol.MAX_EVENTS);
    }

    @Override
    public StreamMessageType type() {
        return StreamMessageType.EVENTS;
    }
}
