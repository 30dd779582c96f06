package org.hapticsd.protocol.stream;

import java.nio.ByteBuffer;

/**
 * Little-endian writes into a ByteBuffer, or, with no buffer, only counting: the encoder runs each message through
 * a counting pass to learn its exact size, then a writing pass, so {@link StreamCodec#encodedSize} and the bytes
 * written can never disagree.
 */
final class WireWriter {
    private final ByteBuffer out;
    private int count;

    /** @param out buffer in little-endian order positioned where the message starts, or null to count only */
    WireWriter(ByteBuffer out) {
        this.out = out;
    }

    int count() {
        return count;
    }

    void u8(int v) {
        if (out != null) {
            out.put((byte) v);
        }
        count += 1;
    }

    void u16(int v) {
        if (out != null) {
            out.putShort((short) v);
        }
        count += 2;
    }

    void u32(long v) {
        if (out != null) {
            out.putInt((int) v);
        }
        count += 4;
    }

    void u64(long v) {
        if (out != null) {
            out.putLong(v);
        }
        count += 8;
    }

    /** Raw bits, so a NaN payload survives a round trip unchanged. */
    void f32(float v) {
        if (out != null) {
            out.putInt(Float.floatToRawIntBits(v));
        }
        count += 4;
    }

    void f64(double v) {
        if (out != null) {
            out.putLong(Double.doubleToRawLongBits(v));
        }
        count += 8;
    }

    void vec(Vec3 v) {
        f32(v.x());
        f32(v.y());
        f32(v.z());
    }

    void quat(Quat q) {
        f32(q.w());
        f32(q.x());
        f32(q.y());
        f32(q.z());
    }

    /** u16 byte length, then the UTF-8 bytes (the records have already bounded the length). */
    void str(String field, String s) {
        byte[] utf8 = Checks.utf8(field, s);
        u16(utf8.length);
        if (out != null) {
            out.put(utf8);
        }
        count += utf8.length;
    }
}
