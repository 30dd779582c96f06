package org.hapticsd.device.link;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class LinkAddressTest {

    @Test
    void shouldReadAPortWithAndWithoutABaudRate() {
        LinkAddress plain = LinkAddress.parse("serial:/dev/ttyUSB0");
        assertEquals("/dev/ttyUSB0", plain.target());
        assertEquals(LinkAddress.DEFAULT_BAUD, plain.number());
        LinkAddress withBaud = LinkAddress.parse("serial:/dev/ttyUSB0:115200");
        assertEquals("/dev/ttyUSB0", withBaud.target());
        assertEquals(115_200, withBaud.number());
        assertEquals("COM3", LinkAddress.parse("serial:COM3").target());
    }

    @Test
    void shouldCallABadBaudRateABadBaudRate() {
        // Before, the text after the last colon became part of the port's name and the open failed as "no such port".
        for (String bad : new String[] {"serial:/dev/ttyS99:abc", "serial:/dev/null:-5", "serial:/dev/ttyS0:"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> LinkAddress.parse(bad));
            assertTrue(e.getMessage().contains("baud rate"), bad + ": " + e.getMessage());
        }
        IllegalArgumentException zero = assertThrows(IllegalArgumentException.class,
            () -> LinkAddress.parse("serial:/dev/null:0"));
        assertTrue(zero.getMessage().contains("baud rate must be > 0"), zero.getMessage());
    }
}
