package org.hapticsd.protocol;

/**
 * Consistent Overhead Byte Stuffing (Cheshire and Baker, IEEE/ACM Trans. Networking 7(2), 1999): removes every
 * 0x00 from a frame so 0x00 can delimit frames and a receiver resynchronises at the next 0x00 after any garbage.
 *
 * <p>Each block is a code byte {@code c} (1..255) followed by {@code c - 1} non-zero bytes; a block with
 * {@code c < 255} stands for those bytes followed by a 0x00, except the last block of the frame. Overhead is
 * exactly one byte for frames of 1..254 bytes, which is every frame of this protocol. Rejected alternative: a
 * sync byte + length + header check costs as much and needs a hunting state machine that can lock onto a sync
 * byte inside payload data.
 */
public final class Cobs {
    private Cobs() {
    }

    /** Largest encoded size of {@code length} bytes: one code byte per started 254-byte block. */
    public static int maxEncodedLength(int length) {
        return length + length / 254 + 1;
    }

    /**
     * Encodes {@code length} bytes of {@code src} into {@code dst} (no delimiter).
     *
     * @return bytes written
     */
    public static int encode(byte[] src, int srcOffset, int length, byte[] dst, int dstOffset) {
        int codeIndex = dstOffset;
        int out = dstOffset + 1;
        int code = 1;
        for (int i = srcOffset; i < srcOffset + length; i++) {
            byte b = src[i];
            if (b == 0) {
                dst[codeIndex] = (byte) code;
                codeIndex = out++;
                code = 1;
            } else {
                dst[out++] = b;
                code++;
                if (code == 0xFF) {
                    dst[codeIndex] = (byte) code;
                    codeIndex = out++;
                    code = 1;
                }
            }
        }
        dst[codeIndex] = (byte) code;
        return out - dstOffset;
    }

    /**
     * Decodes one encoded frame (delimiter excluded). {@code dst} needs {@code length} bytes of room.
     *
     * @return bytes written, or -1 if the input is not valid COBS (a 0x00 byte, or a block running past the end)
     */
    public static int decode(byte[] src, int srcOffset, int length, byte[] dst, int dstOffset) {
        int in = srcOffset;
        int end = srcOffset + length;
        int out = dstOffset;
        while (in < end) {
            int code = src[in++] & 0xFF;
            if (code == 0 || in + code - 1 > end) {
                return -1;
            }
            for (int k = 1; k < code; k++) {
                byte b = src[in++];
                if (b == 0) {
                    return -1;
                }
                dst[out++] = b;
            }
            if (code != 0xFF && in < end) {
                dst[out++] = 0;
            }
        }
        return out - dstOffset;
    }
}
