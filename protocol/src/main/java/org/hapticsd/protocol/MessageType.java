package org.hapticsd.protocol;

/**
 * Every message the link carries: its type code (header byte 1), direction and fixed payload length.
 *
 * <p>Bit 7 of the code is the direction (0 host → device, 1 device → host). Every payload has exactly one length
 * per type in a protocol version; a frame whose payload length differs is malformed. Fixed lengths were chosen
 * over length-prefixed fields so that a frame's length identifies its type, which the decoder uses to recover a
 * frame preceded by garbage (see {@link FrameDecoder}).
 */
public enum MessageType {
    HELLO(0x01, Direction.HOST_TO_DEVICE, Hello.PAYLOAD_BYTES),
    FORCE(0x02, Direction.HOST_TO_DEVICE, Force.PAYLOAD_BYTES),
    HOST_HEARTBEAT(0x03, Direction.HOST_TO_DEVICE, Heartbeat.PAYLOAD_BYTES),
    HOMING_REQUEST(0x04, Direction.HOST_TO_DEVICE, HomingRequest.PAYLOAD_BYTES),
    PING(0x05, Direction.HOST_TO_DEVICE, Ping.PAYLOAD_BYTES),
    INFO(0x81, Direction.DEVICE_TO_HOST, Info.PAYLOAD_BYTES),
    STATE(0x82, Direction.DEVICE_TO_HOST, State.PAYLOAD_BYTES),
    DEVICE_HEARTBEAT(0x83, Direction.DEVICE_TO_HOST, Heartbeat.PAYLOAD_BYTES),
    HOMING_PROGRESS(0x84, Direction.DEVICE_TO_HOST, HomingProgress.PAYLOAD_BYTES),
    STATUS(0x85, Direction.DEVICE_TO_HOST, Status.PAYLOAD_BYTES),
    PONG(0x86, Direction.DEVICE_TO_HOST, Pong.PAYLOAD_BYTES);

    private static final MessageType[] BY_CODE = new MessageType[256];

    static {
        for (MessageType type : values()) {
            BY_CODE[type.code] = type;
        }
    }

    private final int code;
    private final Direction direction;
    private final int payloadBytes;

    MessageType(int code, Direction direction, int payloadBytes) {
        this.code = code;
        this.direction = direction;
        this.payloadBytes = payloadBytes;
    }

    public int code() {
        return code;
    }

    public Direction direction() {
        return direction;
    }

    public int payloadBytes() {
        return payloadBytes;
    }

    /** Header + payload + CRC, before COBS. */
    public int frameBytes() {
        return Frame.HEADER_BYTES + payloadBytes + Frame.CRC_BYTES;
    }

    /** Bytes on the wire: COBS adds exactly one byte to any frame up to 254 bytes, plus the 0x00 delimiter. */
    public int wireBytes() {
        return frameBytes() + 1 + 1;
    }

    /** The type with this code, or {@code null}; no allocation (unlike {@code values()}). */
    public static MessageType fromCode(int code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}
