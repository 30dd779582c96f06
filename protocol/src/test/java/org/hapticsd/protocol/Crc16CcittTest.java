package org.hapticsd.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class Crc16CcittTest {

    @Test
    void shouldMatchTheCatalogueCheckValue() {
        byte[] check = "123456789".getBytes(StandardCharsets.US_ASCII);
        assertEquals(0x29B1, Crc16Ccitt.compute(check, 0, check.length));
    }

    @Test
    void shouldGiveInitialValueForEmptyInput() {
        assertEquals(0xFFFF, Crc16Ccitt.compute(new byte[0], 0, 0));
    }

    @Test
    void shouldAgreeWithTheBitwiseDefinition() {
        byte[] data = new byte[257];
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) (i * 31 + 7);
        }
        int expected = 0xFFFF;
        for (byte b : data) {
            expected ^= (b & 0xFF) << 8;
            for (int bit = 0; bit < 8; bit++) {
                expected = (expected & 0x8000) != 0 ? ((expected << 1) ^ 0x1021) & 0xFFFF : (expected << 1) & 0xFFFF;
            }
        }
        assertEquals(expected, Crc16Ccitt.compute(data, 0, data.length));
    }

    @Test
    void shouldContinueAcrossPieces() {
        byte[] check = "123456789".getBytes(StandardCharsets.US_ASCII);
        int first = Crc16Ccitt.compute(check, 0, 4);
        assertEquals(0x29B1, Crc16Ccitt.update(first, check, 4, 5));
    }

    @Test
    void shouldDetectASingleFlippedBit() {
        byte[] check = "123456789".getBytes(StandardCharsets.US_ASCII);
        check[3] ^= 0x10;
        assertNotEquals(0x29B1, Crc16Ccitt.compute(check, 0, check.length));
    }

    @Test
    void shouldRejectARangeOutsideTheArray() {
        assertThrows(IndexOutOfBoundsException.class, () -> Crc16Ccitt.compute(new byte[4], 2, 3));
    }
}
