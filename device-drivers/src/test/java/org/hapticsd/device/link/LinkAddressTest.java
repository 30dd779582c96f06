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

    @Test
    void shouldReadATcpAddressWithOrWithoutTheSlashesOfAUrl() {
        LinkAddress plain = LinkAddress.parse("tcp:127.0.0.1:5000");
        assertEquals(LinkAddress.Kind.TCP, plain.kind());
        assertEquals("127.0.0.1", plain.target());
        assertEquals(5000, plain.number());
        // As watch --url writes a stream: the same device.
        assertEquals(plain, LinkAddress.parse("tcp://127.0.0.1:5000"));
        assertEquals("tcp:127.0.0.1:5000", LinkAddress.parse("tcp://127.0.0.1:5000").toString());
        assertEquals("lab-bridge.local", LinkAddress.parse("tcp:lab-bridge.local:23").target());
    }

    @Test
    void shouldRefuseATcpAddressWithAPathOrWithoutAHostOrPort() {
        IllegalArgumentException path = assertThrows(IllegalArgumentException.class,
            () -> LinkAddress.parse("tcp://bridge/ttyS0:23"));
        assertEquals("host 'bridge/ttyS0' in 'tcp://bridge/ttyS0:23' is not a host name or address "
            + "(expected tcp:HOST:PORT, no path)", path.getMessage());
        for (String bad : new String[] {"tcp:", "tcp://", "tcp::23", "tcp:host", "tcp:host:", "tcp://:23"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> LinkAddress.parse(bad));
            assertEquals("expected tcp:HOST:PORT, got '" + bad + "'", e.getMessage());
        }
        IllegalArgumentException port = assertThrows(IllegalArgumentException.class,
            () -> LinkAddress.parse("tcp://127.0.0.1:80/"));
        assertEquals("TCP port '80/' in 'tcp://127.0.0.1:80/' is not a number", port.getMessage());
    }
}
