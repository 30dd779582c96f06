package org.hapticsd.protocol.stream;

/** Message type codes (header byte 1). Bit 7 set = client → server. */
public enum StreamMessageType {
    HELLO(0x01),
    SCENE(0x02),
    STATE(0x03),
    EVENTS(0x04),
    ACK(0x05),
    SUBSCRIBE(0x81),
    COMMAND(0x82);

    private static final StreamMessageType[] BY_CODE = new StreamMessageType[256];

    static {
        for (StreamMessageType t : values()) {
            BY_CODE[t.code] = t;
        }
    }

    private final int code;

    StreamMessageType(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    public boolean serverToClient() {
        return (code & 0x80) == 0;
    }

    /** The type with this code, or null if there is none. */
    public static StreamMessageType fromCode(int code) {
        return code >= 0 && code < 256 ? BY_CODE[code] : null;
    }
}
