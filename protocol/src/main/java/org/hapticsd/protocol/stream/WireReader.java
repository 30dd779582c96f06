package org.hapticsd.protocol.stream;

/**
 * Bounds-checked little-endian reads over one message. Every read names its field, and a short read throws
 * {@link StreamFormatException} with the field and its offset from the start of the message, so no
 * IndexOutOfBoundsException can escape the decoder.
 */
final class WireReader {
    private final byte[] b;
    private final int start;
    private final int end;
    private int pos;

    WireReader(byte[] b, int offset, int length) {
        this.b = b;
        this.start = offset;
        this.end = offset + length;
        this.pos = offset;
    }

    /** Offset of the next byte from the start of the message. */
    int offset() {
        return pos - start;
    }

    int remaining() {
        return end - pos;
    }

    private void need(String field, int n) {
        if (end - pos < n) {
            throw new StreamFormatException("truncated: " + field + " at offset " + offset() + " needs " + n
                + " bytes, " + (end - pos) + " left");
        }
    }

    int u8(String field) {
        need(field, 1);
        return b[pos++] & 0xFF;
    }

    int u16(String field) {
        need(field, 2);
        int v = (b[pos] & 0xFF) | (b[pos + 1] & 0xFF) << 8;
        pos += 2;
        return v;
    }

    private int i32() {
        int v = (b[pos] & 0xFF) | (b[pos + 1] & 0xFF) << 8 | (b[pos + 2] & 0xFF) << 16 | (b[pos + 3] & 0xFF) << 24;
        pos += 4;
        return v;
    }

    private long i64() {
        long lo = i32() & 0xFFFF_FFFFL;
        long hi = i32() & 0xFFFF_FFFFL;
        return lo | hi << 32;
    }

    long u32(String field) {
        need(field, 4);
        return i32() & 0xFFFF_FFFFL;
    }

    /** A u64 field whose documented range is 0..2^63-1. */
    long u63(String field) {
        need(field, 8);
        int at = offset();
        long v = i64();
        if (v < 0) {
            throw new StreamFormatException(field + " at offset " + at + " is above 2^63-1");
        }
        return v;
    }

    float f32(String field) {
        need(field, 4);
        return Float.intBitsToFloat(i32());
    }

    double f64(String field) {
        need(field, 8);
        return Double.longBitsToDouble(i64());
    }

    Vec3 vec(String field) {
        need(field, 12);
        return new Vec3(Float.intBitsToFloat(i32()), Float.intBitsToFloat(i32()), Float.intBitsToFloat(i32()));
    }

    Quat quat(String field) {
        need(field, 16);
        return new Quat(Float.intBitsToFloat(i32()), Float.intBitsToFloat(i32()), Float.intBitsToFloat(i32()),
            Float.intBitsToFloat(i32()));
    }

    String str(String field) {
        int at = offset();
        int n = u16(field + " length");
        if (n > StreamProtocol.MAX_STRING_BYTES) {
            throw new StreamFormatException(field + " at offset " + at + " is " + n + " bytes, more than "
                + StreamProtocol.MAX_STRING_BYTES);
        }
        need(field, n);
        byte[] utf8 = new byte[n];
        System.arraycopy(b, pos, utf8, 0, n);
        pos += n;
        return Checks.decodeUtf8(field, utf8, at + 2);
    }

    /**
     * A list count, checked against its maximum and against the bytes left (each entry needs at least
     * {@code minEntryBytes}) before anything is allocated for it, so a forged count cannot make the decoder allocate
     * more than the message's own size.
     */
    int count(String field, int at, long value, int max, int minEntryBytes) {
        if (value > max) {
            throw new StreamFormatException(field + " at offset " + at + " is " + value + ", more than " + max);
        }
        if (value * minEntryBytes > remaining()) {
            throw new StreamFormatException("truncated: " + field + " " + value + " at offset " + at
                + " needs at least " + value * minEntryBytes + " bytes after it, " + remaining() + " left");
        }
        return (int) value;
    }

    /** One u8 that is 0 or 1. */
    boolean bool(String field) {
        int at = offset();
        int v = u8(field);
        if (v > 1) {
            throw new StreamFormatException(field + " at offset " + at + " must be 0 or 1, was " + v);
        }
        return v == 1;
    }
}
