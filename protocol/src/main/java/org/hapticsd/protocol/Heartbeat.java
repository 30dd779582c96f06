package org.hapticsd.protocol;

/**
 * HEARTBEAT, either direction (type 0x03 host → device, 0x83 device → host): proves the sender is alive when it
 * is not streaming FORCE or STATE.
 *
 * <pre>
 * offset size type field
 * 0      4    u32  senderTimeUs  sender's free-running microsecond clock, wraps every 2^32 µs (71.6 min)
 * </pre>
 */
public final class Heartbeat extends Message {
    public static final int PAYLOAD_BYTES = 4;

    private final MessageType type;
    private long senderTimeUs;

    public Heartbeat(Direction direction) {
        this.type = direction == Direction.HOST_TO_DEVICE ? MessageType.HOST_HEARTBEAT : MessageType.DEVICE_HEARTBEAT;
    }

    @Override
    public MessageType type() {
        return type;
    }

    public long senderTimeUs() {
        return senderTimeUs;
    }

    /** Only the low 32 bits are sent. */
    public Heartbeat setSenderTimeUs(long senderTimeUs) {
        this.senderTimeUs = senderTimeUs & 0xFFFF_FFFFL;
        return this;
    }

    @Override
    void writePayload(byte[] dst, int offset, int version) {
        LittleEndian.putI32(dst, offset, (int) senderTimeUs);
    }

    @Override
    boolean readPayload(byte[] src, int offset, int version) {
        senderTimeUs = LittleEndian.getU32(src, offset);
        return true;
    }
}
