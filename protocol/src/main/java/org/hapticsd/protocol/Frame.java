package org.hapticsd.protocol;

/**
 * Frame layout constants. A frame before COBS encoding:
 *
 * <pre>
 * offset  size  field
 * 0       1     version   u8, the session's version ({@link #VERSION_1} or {@link #VERSION_2}); 1 for HELLO and INFO
 * 1       1     type      u8, {@link MessageType#code()}; bit 7 = direction
 * 2       2     sequence  u16 LE, +1 per frame sent in this direction, wraps 65535 → 0
 * 4       n     payload   n = {@link MessageType#payloadBytes(int)} of that version, 0 ≤ n ≤ {@link #MAX_PAYLOAD_BYTES}
 * 4+n     2     crc       u16 LE, CRC-16/CCITT-FALSE over bytes [0, 4+n)
 * </pre>
 *
 * On the wire the frame is COBS-encoded (no 0x00 inside) and followed by one 0x00 delimiter. The full
 * specification, byte budget and test vectors are in {@code docs/device-protocol.md}.
 */
public final class Frame {
    /** The first version: what HELLO and INFO are always framed with. */
    public static final int VERSION_1 = 1;
    /**
     * Version 2 adds to STATE the sequence of the newest FORCE the device accepted and a count of its watchdog
     * trips, and the trip count to STATUS (docs/device-protocol.md, section 4.11): a trip has an identity, so a
     * host re-arms after every trip however soon it follows the last re-arm, and knows when a FORCE arrived.
     */
    public static final int VERSION_2 = 2;
    /** The newest version this codec speaks. */
    public static final int LATEST_VERSION = VERSION_2;
    public static final int HEADER_BYTES = 4;
    public static final int CRC_BYTES = 2;
    public static final int MAX_PAYLOAD_BYTES = 120;
    /** Largest frame before COBS: 126 bytes. */
    public static final int MAX_FRAME_BYTES = HEADER_BYTES + MAX_PAYLOAD_BYTES + CRC_BYTES;
    /** Largest COBS-encoded frame without the delimiter: 127 bytes. */
    public static final int MAX_ENCODED_BYTES = MAX_FRAME_BYTES + 1;
    /** Largest frame on the wire, delimiter included: 128 bytes. */
    public static final int MAX_WIRE_BYTES = MAX_ENCODED_BYTES + 1;
    public static final byte DELIMITER = 0x00;

    private Frame() {
    }
}
