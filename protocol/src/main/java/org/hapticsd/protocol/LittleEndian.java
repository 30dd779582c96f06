package org.hapticsd.protocol;

/** Little-endian reads and writes on a byte array; bounds are the caller's (codecs check lengths first). */
final class LittleEndian {
    private LittleEndian() {
    }

    static int getU8(byte[] b, int off) {
        return b[off] & 0xFF;
    }

    static int getU16(byte[] b, int off) {
        return (b[off] & 0xFF) | (b[off + 1] & 0xFF) << 8;
    }

    static int getI32(byte[] b, int off) {
        return (b[off] & 0xFF) | (b[off + 1] & 0xFF) << 8 | (b[off + 2] & 0xFF) << 16 | (b[off + 3] & 0xFF) << 24;
    }

    static long getU32(byte[] b, int off) {
        return getI32(b, off) & 0xFFFF_FFFFL;
    }

    static float getF32(byte[] b, int off) {
        return Float.intBitsToFloat(getI32(b, off));
    }

    static void putU8(byte[] b, int off, int v) {
        b[off] = (byte) v;
    }

    static void putU16(byte[] b, int off, int v) {
        b[off] = (byte) v;
        b[off + 1] = (byte) (v >>> 8);
    }

    static void putI32(byte[] b, int off, int v) {
        b[off] = (byte) v;
        b[off + 1] = (byte) (v >>> 8);
        b[off + 2] = (byte) (v >>> 16);
        b[off + 3] = (byte) (v >>> 24);
    }

    /** Raw bits, so a NaN payload survives a round trip unchanged. */
    static void putF32(byte[] b, int off, float v) {
        putI32(b, off, Float.floatToRawIntBits(v));
    }
}
