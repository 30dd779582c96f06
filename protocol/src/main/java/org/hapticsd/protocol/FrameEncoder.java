package org.hapticsd.protocol;

/**
 * Writes a message as one wire frame (header, payload, CRC, COBS, delimiter) into a caller's array. Allocates
 * nothing after construction; not thread-safe (one encoder per writing thread). The caller owns the sequence
 * counter because it also decides when a frame is actually sent.
 */
public final class FrameEncoder {
    private final byte[] frame = new byte[Frame.MAX_FRAME_BYTES];

    /**
     * Encodes {@code message} with {@code sequence} (low 16 bits used) into {@code dst} at {@code offset}.
     *
     * @return bytes written, delimiter included: always {@code message.type().wireBytes()}
     * @throws IllegalArgumentException if {@code dst} has less room than that (a caller bug, never a wire event)
     */
    public int encode(Message message, int sequence, byte[] dst, int offset) {
        MessageType type = message.type();
        int wireBytes = type.wireBytes();
        if (offset < 0 || offset > dst.length - wireBytes) {
            throw new IllegalArgumentException("destination too small for a frame");
        }
        int frameBytes = type.frameBytes();
        LittleEndian.putU8(frame, 0, Frame.VERSION);
        LittleEndian.putU8(frame, 1, type.code());
        LittleEndian.putU16(frame, 2, sequence);
        message.writePayload(frame, Frame.HEADER_BYTES);
        int crcOffset = frameBytes - Frame.CRC_BYTES;
        LittleEndian.putU16(frame, crcOffset, Crc16Ccitt.compute(frame, 0, crcOffset));
        int encoded = Cobs.encode(frame, 0, frameBytes, dst, offset);
        dst[offset + encoded] = Frame.DELIMITER;
        return encoded + 1;
    }
}
