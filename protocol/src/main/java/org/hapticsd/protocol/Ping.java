package org.hapticsd.protocol;

/**
 * PING, host → device: asks the device to echo a token in a {@link Pong}, so the host can measure the link's
 * round-trip time on its own clock.
 *
 * <pre>
 * offset size type field
 * 0      4    u32  token   chosen by the host, echoed unchanged
 * </pre>
 *
 * A dedicated echo was chosen over deriving latency from STATE's {@code deviceTimeUs}: device time needs a clock
 * offset estimate and measures one direction mixed with clock drift, while an echoed token measures exactly the
 * round trip the force loop closes (host write → device → host read).
 */
public final class Ping extends Message {
    public static final int PAYLOAD_BYTES = 4;

    private long token;

    @Override
    public MessageType type() {
        return MessageType.PING;
    }

    public long token() {
        return token;
    }

    /** Only the low 32 bits are sent. */
    public Ping setToken(long token) {
        this.token = token & 0xFFFF_FFFFL;
        return this;
    }

    @Override
    void writePayload(byte[] dst, int offset, int version) {
        LittleEndian.putI32(dst, offset, (int) token);
    }

    @Override
    boolean readPayload(byte[] src, int offset, int version) {
        token = LittleEndian.getU32(src, offset);
        return true;
    }
}
