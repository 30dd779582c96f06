package org.hapticsd.protocol;

/**
 * PONG, device → host: the answer to a {@link Ping}.
 *
 * <pre>
 * offset size type field
 * 0      4    u32  token         the PING's token, unchanged
 * 4      4    u32  deviceTimeUs  device clock when the PING was received, µs, wraps
 * </pre>
 */
public final class Pong extends Message {
    public static final int PAYLOAD_BYTES = 8;

    private long token;
    private long deviceTimeUs;

    @Override
    public MessageType type() {
        return MessageType.PONG;
    }

    public long token() {
        return token;
    }

    public long deviceTimeUs() {
        return deviceTimeUs;
    }

    /** Only the low 32 bits of each are sent. */
    public Pong set(long token, long deviceTimeUs) {
        this.token = token & 0xFFFF_FFFFL;
        this.deviceTimeUs = deviceTimeUs & 0xFFFF_FFFFL;
        return this;
    }

    @Override
    void writePayload(byte[] dst, int offset, int version) {
        LittleEndian.putI32(dst, offset, (int) token);
        LittleEndian.putI32(dst, offset + 4, (int) deviceTimeUs);
    }

    @Override
    boolean readPayload(byte[] src, int offset, int version) {
        token = LittleEndian.getU32(src, offset);
        deviceTimeUs = LittleEndian.getU32(src, offset + 4);
        return true;
    }
}
