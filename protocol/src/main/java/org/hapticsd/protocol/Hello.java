package org.hapticsd.protocol;

/**
 * HELLO, host → device: opens a session and offers a range of protocol versions. The device answers with
 * {@link Info}. Its layout is frozen for every protocol version, and it is always framed with header version 1.
 *
 * <pre>
 * offset size type field
 * 0      1    u8   minVersion       lowest protocol version the host speaks (≥ 1)
 * 1      1    u8   maxVersion       highest (≥ minVersion)
 * 2      2    u16  requestedRateHz  STATE/FORCE rate the host wants, 0 = device default
 * </pre>
 */
public final class Hello extends Message {
    public static final int PAYLOAD_BYTES = 4;

    private int minVersion = Frame.VERSION_1;
    private int maxVersion = Frame.VERSION_1;
    private int requestedRateHz;

    @Override
    public MessageType type() {
        return MessageType.HELLO;
    }

    public int minVersion() {
        return minVersion;
    }

    public int maxVersion() {
        return maxVersion;
    }

    public int requestedRateHz() {
        return requestedRateHz;
    }

    public Hello set(int minVersion, int maxVersion, int requestedRateHz) {
        this.minVersion = minVersion & 0xFF;
        this.maxVersion = maxVersion & 0xFF;
        this.requestedRateHz = requestedRateHz & 0xFFFF;
        return this;
    }

    @Override
    void writePayload(byte[] dst, int offset, int version) {
        LittleEndian.putU8(dst, offset, minVersion);
        LittleEndian.putU8(dst, offset + 1, maxVersion);
        LittleEndian.putU16(dst, offset + 2, requestedRateHz);
    }

    @Override
    boolean readPayload(byte[] src, int offset, int version) {
        minVersion = LittleEndian.getU8(src, offset);
        maxVersion = LittleEndian.getU8(src, offset + 1);
        requestedRateHz = LittleEndian.getU16(src, offset + 2);
        return minVersion >= 1 && maxVersion >= minVersion;
    }
}
