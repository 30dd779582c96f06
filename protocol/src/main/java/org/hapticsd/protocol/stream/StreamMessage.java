package org.hapticsd.protocol.stream;

/** One message of the stream protocol; {@link StreamCodec} and {@link StreamJson} encode and decode them. */
public sealed interface StreamMessage
    permits HelloMessage, SceneMessage, StateMessage, EventsMessage, AckMessage, SubscribeMessage, CommandMessage {

    StreamMessageType type();
}
