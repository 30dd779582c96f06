package org.hapticsd.protocol;

/**
 * Writes a message as one wire frame (header, payload, CRC, COBS, delimiter) into a caller's array. Allocates
 * nothing after construction; not thread-safe (one encoder per writing thread). The caller owns the sequence
 * counter because it also decides when a frame is actually sent.
 */
public final class FrameEncoder {
    private final byte[] frame = new byte[Frame.MAX_FRAME_BYTES];

    /**
     * Encodes {@code message} as a version-1 frame; see {@link #encode(Message, int, int, byte[], int)}.
     */
    public int encode(Message message, int sequence, byte[] dst, int offset) {
        return encode(message, Frame.VERSION_1, sequence, dst, offset);
    }

    /**
     * Encodes {@code message} for a session of protocol {@code sessionVersion} with {@code sequence} (low 16 bits
     * used) into {@code dst} at {@code offset}. HELLO and INFO are framed as version 1 whatever the session's.
     *
     * @return bytes written, delimiter included: always {@code message.type().wireBytes(v)}, v the frame's version
     * @throws IllegalArgumentException if the version is not one this codec speaks, or {@code dst} has less room
     *     than the frame (a caller bug, never a wire event)
     */
    public int encode(Message message, int sessionVersion, int sequence, byte[] dst, int offset) {
        if (!MessageType.isSupported(sessionVersion)) {
            throw new IllegalArgumentException("protocol version " + sessionVersion + " is not spoken here");
        }
        MessageType type = message.type();
        int version = type.frameVersion(sessionVersion);
        int wireBytes = type.wireBytes(version);
        if (offset < 0 || offset > dst.length - wireBytes) {
            throw new IllegalArgumentException("destination too small for a frame");
        }
        int frameBytes = type.frameBytes(version);
        LittleEndian.putU8(frame, 0, version);
        LittleEndian.putU8(frame, 1, type.code());
        LittleEndian.putU16(frame, 2, sequence);
        message.writePayload(frame, Frame.HEADER_BYTES, version);
        int crcOffset = frameBytes - Frame.CRC_BYTES;
        LittleEndian.putU16(frame, crcOffset, Crc16Ccitt.compute(frame, 0, crcOffset));
        int encoded = Cobs.encode(frame, 0, frameBytes, dst, offset);
        dst[offset + encoded] = Frame.DELIMITER;
        return encoded + 1;
    }
}
