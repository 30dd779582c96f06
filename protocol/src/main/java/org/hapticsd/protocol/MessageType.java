package org.hapticsd.protocol;

/**
 * Every message the link carries: its type code (header byte 1), direction and fixed payload length per protocol
 * version.
 *
 * <p>Bit 7 of the code is the direction (0 host → device, 1 device → host). Every payload has exactly one length
 * per type in a protocol version; a frame whose payload length differs is malformed. Version 2 lengthens STATE
 * (60 → 64 bytes) and STATUS (8 → 10); every other type is the same in both. HELLO and INFO are framed with
 * header version 1 in every session, so any host can discover any device. Fixed lengths were chosen
 * over length-prefixed fields so that a frame's length identifies its type, which the decoder uses to recover a
 * frame preceded by garbage (see {@link FrameDecoder}).
 */
public enum MessageType {
    HELLO(0x01, Direction.HOST_TO_DEVICE, Hello.PAYLOAD_BYTES, Hello.PAYLOAD_BYTES),
    FORCE(0x02, Direction.HOST_TO_DEVICE, Force.PAYLOAD_BYTES, Force.PAYLOAD_BYTES),
    HOST_HEARTBEAT(0x03, Direction.HOST_TO_DEVICE, Heartbeat.PAYLOAD_BYTES, Heartbeat.PAYLOAD_BYTES),
    HOMING_REQUEST(0x04, Direction.HOST_TO_DEVICE, HomingRequest.PAYLOAD_BYTES, HomingRequest.PAYLOAD_BYTES),
    PING(0x05, Direction.HOST_TO_DEVICE, Ping.PAYLOAD_BYTES, Ping.PAYLOAD_BYTES),
    INFO(0x81, Direction.DEVICE_TO_HOST, Info.PAYLOAD_BYTES, Info.PAYLOAD_BYTES),
    STATE(0x82, Direction.DEVICE_TO_HOST, State.PAYLOAD_BYTES, State.PAYLOAD_BYTES_V2),
    DEVICE_HEARTBEAT(0x83, Direction.DEVICE_TO_HOST, Heartbeat.PAYLOAD_BYTES, Heartbeat.PAYLOAD_BYTES),
    HOMING_PROGRESS(0x84, Direction.DEVICE_TO_HOST, HomingProgress.PAYLOAD_BYTES, HomingProgress.PAYLOAD_BYTES),
    STATUS(0x85, Direction.DEVICE_TO_HOST, Status.PAYLOAD_BYTES, Status.PAYLOAD_BYTES_V2),
    PONG(0x86, Direction.DEVICE_TO_HOST, Pong.PAYLOAD_BYTES, Pong.PAYLOAD_BYTES);

    private static final MessageType[] BY_CODE = new MessageType[256];

    static {
        for (MessageType type : values()) {
            BY_CODE[type.code] = type;
        }
    }

    private final int code;
    private final Direction direction;
    private final int payloadBytesV1;
    private final int payloadBytesV2;

    MessageType(int code, Direction direction, int payloadBytesV1, int payloadBytesV2) {
        this.code = code;
        this.direction = direction;
        this.payloadBytesV1 = payloadBytesV1;
        this.payloadBytesV2 = payloadBytesV2;
    }

    public int code() {
        return code;
    }

    public Direction direction() {
        return direction;
    }

    /** Whether this codec speaks protocol {@code version}. */
    public static boolean isSupported(int version) {
        return version >= Frame.VERSION_1 && version <= Frame.LATEST_VERSION;
    }

    /**
     * The header version of a frame of this type in a session of {@code sessionVersion}: HELLO and INFO always 1,
     * every other type the session's.
     */
    public int frameVersion(int sessionVersion) {
        return this == HELLO || this == INFO ? Frame.VERSION_1 : sessionVersion;
    }

    /** Payload length in a frame of header version {@code version} (1 or 2). */
    public int payloadBytes(int version) {
        return version >= Frame.VERSION_2 ? payloadBytesV2 : payloadBytesV1;
    }

    /** Header + payload + CRC, before COBS, in a frame of header version {@code version}. */
    public int frameBytes(int version) {
        return Frame.HEADER_BYTES + payloadBytes(version) + Frame.CRC_BYTES;
    }

    /**
     * Bytes on the wire of a frame of header version {@code version}: COBS adds exactly one byte to any frame up
     * to 254 bytes, plus the 0x00 delimiter.
     */
    public int wireBytes(int version) {
        return frameBytes(version) + 1 + 1;
    }

    /** The most bytes this type takes on the wire in any version: what a buffer must hold. */
    public int maxWireBytes() {
        return Math.max(wireBytes(Frame.VERSION_1), wireBytes(Frame.LATEST_VERSION));
    }

    /** The type with this code, or {@code null}; no allocation (unlike {@code values()}). */
    public static MessageType fromCode(int code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}
