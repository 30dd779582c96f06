package org.hapticsd.protocol.stream;

/**
 * SUBSCRIBE, client → server: start (or change the rate of) the STATE stream.
 *
 * @param rateHz STATE frames per second, 0..65535; 0 = every tick. The server sends every k-th tick with
 *               k = max(1, round(tickRateHz / rateHz)), so rates above the loop rate mean every tick.
 */
public record SubscribeMessage(int rateHz) implements StreamMessage {
    public SubscribeMessage {
        Checks.u16("rateHz", rateHz);
    }

    @Override
    public StreamMessageType type() {
        return StreamMessageType.SUBSCRIBE;
    }
}
