package org.hapticsd.device.lockstep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import org.hapticsd.device.DeviceFault;
import org.hapticsd.device.DeviceHealth;
import org.hapticsd.device.DeviceState;
import org.hapticsd.device.emulator.EmulatedDevice;
import org.hapticsd.device.emulator.EmulatorProfile;
import org.hapticsd.device.link.ByteLink;
import org.hapticsd.device.link.LinkConnector;
import org.hapticsd.device.link.LinkSession;
import org.hapticsd.device.link.TcpByteLink;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A lockstep link whose device end goes away (a tester killed the socat of a lockstep run): the tick fails naming the
 * link, and from then on the device reports itself lost, not connected. It had reported connected for the rest of a
 * 120 s script, in the recording and in the measured values.
 */
@Timeout(30)
class LockstepLinkBreakTest {
    private static final long PERIOD_NS = 1_000_000L;

    @Test
    void shouldReportALinkThatBrokeAsLost() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            LinkConnector accept = TcpByteLink.acceptor(server, 100);
            ByteLink[] deviceEnd = new ByteLink[1];
            LinkConnector deviceSide = new LinkConnector() {
                @Override
                public ByteLink connect() throws IOException {
                    deviceEnd[0] = accept.connect();
                    return deviceEnd[0];
                }

                @Override
                public String name() {
                    return accept.name();
                }
            };
            LinkConnector host = TcpByteLink.connector("127.0.0.1", server.getLocalPort(), 1_000, 100);
            LockstepClock clock = new LockstepClock(0L);
            LockstepLink link = new LockstepLink(new EmulatedDevice(EmulatorProfile.falconLike()), deviceSide, host,
                LinkSession.Config.defaults(1000), clock);
            link.open();
            DeviceState state = new DeviceState();
            DeviceHealth health = new DeviceHealth();
            for (int tick = 0; tick < 20; tick++) {
                clock.advanceBy(PERIOD_NS);
                link.readState(clock.getAsLong(), state);
                link.commandForce(0, 0, 0, 0, 0, 0);
            }
            link.health(clock.getAsLong(), health);
            assertTrue(health.connected, "connected before the break");

            deviceEnd[0].close();
            clock.advanceBy(PERIOD_NS);
            IllegalStateException broke = assertThrows(IllegalStateException.class, () -> {
                for (int tick = 0; tick < 5; tick++) {
                    link.readState(clock.getAsLong(), state);
                    link.commandForce(0, 0, 0, 0, 0, 0);
                    clock.advanceBy(PERIOD_NS);
                }
            });
            assertTrue(broke.getMessage().startsWith("lockstep link "), broke.getMessage());
            link.health(clock.getAsLong(), health);
            assertFalse(health.connected, "a broken link is not connected");
            assertEquals(DeviceFault.LINK_LOST, health.fault);
            link.close();
        }
    }
}
