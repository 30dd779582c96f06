package org.hapticsd.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Examples from Cheshire and Baker's paper and the usual COBS table, plus the malformed cases. */
class CobsTest {

    private static String encode(String hex) {
        byte[] src = Samples.unhex(hex);
        byte[] dst = new byte[Cobs.maxEncodedLength(src.length)];
        return Samples.hex(dst, 0, Cobs.encode(src, 0, src.length, dst, 0));
    }

    private static String decode(String hex) {
        byte[] src = Samples.unhex(hex);
        byte[] dst = new byte[src.length];
        int n = Cobs.decode(src, 0, src.length, dst, 0);
        return n < 0 ? "invalid" : Samples.hex(dst, 0, n);
    }

    @Test
    void shouldEncodeTheReferenceExamples() {
        assertEquals("01 01", encode("00"));
        assertEquals("01 01 01", encode("00 00"));
        assertEquals("03 11 22 02 33", encode("11 22 00 33"));
        assertEquals("05 11 22 33 44", encode("11 22 33 44"));
        assertEquals("02 11 01 01 01", encode("11 00 00 00"));
    }

    @Test
    void shouldDecodeTheReferenceExamples() {
        assertEquals("00", decode("01 01"));
        assertEquals("00 00", decode("01 01 01"));
        assertEquals("11 22 00 33", decode("03 11 22 02 33"));
        assertEquals("11 00 00 00", decode("02 11 01 01 01"));
    }

    @Test
    void shouldAddExactlyOneByteUpTo254Bytes() {
        for (int n = 1; n <= 253; n++) {
            byte[] src = new byte[n];
            for (int i = 0; i < n; i++) {
                src[i] = (byte) (i % 3 == 0 ? 0 : i);
            }
            byte[] dst = new byte[Cobs.maxEncodedLength(n)];
            assertEquals(n + 1, Cobs.encode(src, 0, n, dst, 0), "length " + n);
            byte[] back = new byte[dst.length];
            assertEquals(n, Cobs.decode(dst, 0, n + 1, back, 0), "length " + n);
            for (int i = 0; i < n; i++) {
                assertEquals(src[i], back[i]);
            }
        }
    }

    @Test
    void shouldRejectABlockRunningPastTheEnd() {
        assertEquals("invalid", decode("05 11 22"));
    }

    @Test
    void shouldRejectAZeroInsideTheEncodedFrame() {
        assertEquals("invalid", decode("03 11 00"));
        assertEquals("invalid", decode("00 11"));
    }
}
