package org.hapticsd.protocol.stream;

/**
 * HELLO, server → client, the first message of every connection.
 *
 * @param protocolVersion highest stream protocol version the server speaks (1..255)
 * @param tickRateHz      the haptic loop rate, the most STATE frames per second a client can subscribe to
 * @param serverVersion   the server's software version, e.g. "0.1.0"
 */
public record HelloMessage(int protocolVersion, int tickRateHz, String serverVersion) implements StreamMessage {
    public HelloMessage {
        Checks.u8("protocolVersion", protocolVersion);
        if (protocolVersion == 0) {
            throw new StreamFormatException("protocolVersion must be 1..255, was 0");
        }
        Checks.u16("tickRateHz", tickRateHz);
        Checks.string("serverVersion", serverVersion);
    }

    @Override
    public StreamMessageType type() {
        return StreamMessageType.HELLO;
    }
}
