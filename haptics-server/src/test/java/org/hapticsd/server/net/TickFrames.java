package org.hapticsd.server.net;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.hapticsd.server.loop.LoopSnapshot;

/**
 * Test frames: a STATE is the tick as 8 bytes little-endian, padded to {@code stateBytes}; HELLO and SCENE are
 * one marker byte each. Enough to count frames and check their order without the stream codec.
 */
final class TickFrames implements StreamFrames {
    static final byte HELLO = 'H';
    static final byte SCENE = 'S';
    private final int stateBytes;

    TickFrames(int stateBytes) {
        this.stateBytes = Math.max(8, stateBytes);
    }

    static long tickOf(byte[] frame) {
        return ByteBuffer.wrap(frame).order(ByteOrder.LITTLE_ENDIAN).getLong(0);
    }

    @Override
    public byte[] helloBinary() {
        return new byte[] {HELLO};
    }

    @Override
    public String helloJson() {
        return "{\"type\":\"hello\"}";
    }

    @Override
    public byte[] sceneBinary() {
        return new byte[] {SCENE};
    }

    @Override
    public String sceneJson() {
        return "{\"type\":\"scene\"}";
    }

    @Override
    public byte[] stateBinary(LoopSnapshot snapshot) {
        return ByteBuffer.allocate(stateBytes).order(ByteOrder.LITTLE_ENDIAN).putLong(0, snapshot.tick).array();
    }

    @Override
    public java.util.List<Object> eventsFrames(EventLog.Receiver events, boolean json) {
        return java.util.List.of();
    }

    @Override
    public String stateJson(LoopSnapshot snapshot) {
        return "{\"type\":\"state\",\"tick\":" + snapshot.tick + "}";
    }
}
