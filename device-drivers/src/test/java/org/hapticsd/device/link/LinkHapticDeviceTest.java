package org.hapticsd.device.link;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.hapticsd.device.DeviceException;
import org.hapticsd.device.DeviceFault;
import org.hapticsd.device.DeviceHealth;
import org.hapticsd.device.DeviceState;
import org.hapticsd.device.emulator.EmulatorProfile;
import org.hapticsd.protocol.StatusFlags;
import org.junit.jupiter.api.Test;

/**
 * The driver against the emulated firmware over a real TCP connection on 127.0.0.1, in real time. A small loop in
 * the test plays the haptic loop: read state, check health, command a force, wait 1 ms; like the real loop's
 * safety layer it commands zero while the device reports a fault, unless a test asks for the raw command.
 *
 * <p>This shared 2-vCPU machine can stall any thread for several milliseconds, longer than the device's 5 ms
 * watchdog, so a trip can happen in any test; tests that are not about the watchdog therefore go through the
 * safety stand-in, which recovers from a trip the way the server does. Bounds on counts say what they allow.
 */
class LinkHapticDeviceTest {
    private static final long MS = 1_000_000L;
    private static final LinkHapticDevice.Config CONFIG = LinkHapticDevice.Config.defaults(1000);

    /** The test's stand-in for the haptic loop. */
    private static final class Loop {
        final LinkHapticDevice device;
        final DeviceState state = new DeviceState();
        final DeviceHealth health = new DeviceHealth();
        int fresh;
        long ticks;
        boolean raw;

        Loop(LinkHapticDevice device) {
            this.device = device;
        }

        /** Ticks at about 1 kHz for {@code ms} milliseconds commanding (fx, fy, fz). */
        void run(long ms, double fx, double fy, double fz) {
            long end = System.nanoTime() + ms * MS;
            while (System.nanoTime() - end < 0) {
                tick(fx, fy, fz);
            }
        }

        /** Ticks until {@code condition} holds or {@code ms} pass; returns whether it held. */
        boolean runUntil(long ms, double fx, double fy, double fz, BooleanSupplier condition) {
            long end = System.nanoTime() + ms * MS;
            while (System.nanoTime() - end < 0) {
                tick(fx, fy, fz);
                if (condition.getAsBoolean()) {
                    return true;
                }
            }
            return false;
        }

        void tick(double fx, double fy, double fz) {
            long now = System.nanoTime();
            if (device.readState(now, state)) {
                fresh++;
            }
            device.health(now, health);
            boolean safe = raw || (health.connected && health.fault == DeviceFault.NONE);
            device.commandForce(safe ? fx : 0, safe ? fy : 0, safe ? fz : 0, 0, 0, 0);
            ticks++;
            LockSupport.parkNanos(MS);
        }
    }

    @Test
    void shouldHandshakeAndStreamStatesWithTheDevicesInfo() throws Exception {
        try (EmulatorOverTcp emulator = new EmulatorOverTcp(EmulatorProfile.falconLike());
             LinkHapticDevice device = emulator.device(CONFIG)) {
            device.open();
            assertEquals("Falcon-like emulator", device.info().name());
            assertEquals(8.0, device.info().maxForceN(), 0.0);
            assertEquals(1000, device.sessionRateHz());
            Loop loop = new Loop(device);
            loop.run(1000, 0, 0, 0);
            LinkStatistics stats = device.statistics();
            // 1 s at 1 kHz is 1000 STATEs if the emulator's thread keeps time. The rate is the emulator's, not the
            // driver's, and this machine can starve a thread: 300 only proves streaming, 1100 catches a burst.
            assertTrue(stats.statesReceived() >= 300 && stats.statesReceived() <= 1100,
                "states in 1 s: " + stats.statesReceived());
            assertTrue(loop.fresh >= 300, "fresh " + loop.fresh + " of " + loop.ticks + " ticks");
            assertTrue(loop.runUntil(1000, 0, 0, 0, () -> loop.health.connected));
            // TCP loses nothing: every STATE sequence in order, nothing damaged.
            assertEquals(0, stats.framesLost() + stats.crcErrors() + stats.malformedFrames(), stats.summary());
            assertEquals(1, stats.sessions());
            assertEquals(0, stats.reconnects());
        }
    }

    @Test
    void shouldDeliverEachForceOnceInOrderAndSeeItAppliedInState() throws Exception {
        try (EmulatorOverTcp emulator = new EmulatorOverTcp(EmulatorProfile.falconLike());
             LinkHapticDevice device = emulator.device(CONFIG)) {
            device.open();
            Loop loop = new Loop(device);
            // 1.5 N is exact in float32, so the device applies and reports exactly what was commanded.
            assertTrue(loop.runUntil(2000, 0, 0, 1.5, () -> loop.state.appliedForceZN == 1.5),
                "STATE never reported the applied 1.5 N");
            assertEquals(StatusFlags.OUTPUT_ENABLED, loop.state.statusFlags & StatusFlags.OUTPUT_ENABLED);
            device.close();
            // Every FORCE the driver wrote was accepted exactly once: none stale, none lost (TCP is lossless).
            LinkStatistics stats = device.statistics();
            long accepted = emulator.runner.query(d -> d.forcesAccepted());
            long stale = emulator.runner.query(d -> d.staleForcesIgnored());
            assertEquals(0, stale);
            assertEquals(stats.forcesSent(), accepted);
        }
    }

    @Test
    void shouldReportDisconnectedWhenDeviceGoesSilentAndReconnectWhenItReturns() throws Exception {
        try (EmulatorOverTcp emulator = new EmulatorOverTcp(EmulatorProfile.falconLike());
             LinkHapticDevice device = emulator.device(CONFIG)) {
            device.open();
            Loop loop = new Loop(device);
            loop.run(200, 0, 0, 0);
            assertTrue(loop.health.connected);

            emulator.runner.setUnplugged(true);
            // Stale after 100 ms: within 400 ms even with host stalls.
            assertTrue(loop.runUntil(400, 0, 0, 0, () -> !loop.health.connected), "still connected when unplugged");
            // Session lost after 500 ms of silence.
            assertTrue(loop.runUntil(2000, 0, 0, 0, () -> loop.health.fault == DeviceFault.LINK_LOST));
            int freshBefore = loop.fresh;
            loop.run(100, 0, 0, 0);
            assertEquals(freshBefore, loop.fresh, "no state while unplugged");

            emulator.runner.setUnplugged(false);
            assertTrue(loop.runUntil(3000, 0, 0, 0,
                () -> loop.health.connected && loop.health.fault == DeviceFault.NONE), "did not reconnect");
            LinkStatistics stats = device.statistics();
            assertEquals(2, stats.sessions());
            assertEquals(1, stats.reconnects());
            assertEquals(1, stats.sessionsLost());
            assertTrue(emulator.runner.bytesDiscarded() > 0, "the host kept talking into the unplugged cable");
        }
    }

    @Test
    void shouldReportDeviceWatchdogAndReArmOnlyWhileCommandingZero() throws Exception {
        try (EmulatorOverTcp emulator = new EmulatorOverTcp(EmulatorProfile.falconLike());
             LinkHapticDevice device = emulator.device(CONFIG)) {
            device.open();
            Loop loop = new Loop(device);
            assertTrue(loop.runUntil(2000, 0, 0, 2.0, () -> loop.state.appliedForceZN == 2.0));

            // The host stalls for 30 ms: no FORCE, so the device's 5 ms watchdog zeroes its output.
            LockSupport.parkNanos(30 * MS);
            loop.raw = true;
            assertTrue(loop.runUntil(500, 0, 0, 2.0, () -> loop.health.fault == DeviceFault.WATCHDOG),
                "tripped watchdog not reported");
            // Still commanding 2 N (a loop that ignored the fault): the driver must not re-arm, so the device
            // keeps zero output whatever the host asks.
            loop.run(100, 0, 0, 2.0);
            assertEquals(0.0, loop.state.appliedForceZN, 0.0);
            assertEquals(DeviceFault.WATCHDOG, loop.health.fault);
            assertEquals(0.0, (double) emulator.runner.query(d -> d.appliedForceN(2)), 0.0);

            // The loop goes SAFE and commands zero: the driver re-arms, the fault clears, force flows again.
            loop.raw = false;
            assertTrue(loop.runUntil(1000, 0, 0, 0, () -> loop.health.fault == DeviceFault.NONE), "not re-armed");
            assertTrue(loop.runUntil(2000, 0, 0, 1.0, () -> loop.state.appliedForceZN == 1.0));
            assertTrue(device.statistics().deviceWatchdogTrips() >= 1);
        }
    }

    @Test
    void shouldCountGarbageOnTheLineAndKeepDecoding() throws Exception {
        try (EmulatorOverTcp emulator = new EmulatorOverTcp(EmulatorProfile.falconLike());
             LinkHapticDevice device = emulator.device(CONFIG)) {
            device.open();
            Loop loop = new Loop(device);
            loop.run(100, 0, 0, 0);
            byte[] noise = new byte[40];
            for (int i = 0; i < noise.length; i++) {
                noise[i] = (byte) (0x5A ^ i * 37);
            }
            noise[17] = 0; // a delimiter inside the noise: one bad frame before it, garbage merged after it
            emulator.runner.injectGarbage(noise);
            loop.run(200, 0, 0, 0);
            LinkStatistics stats = device.statistics();
            assertTrue(stats.crcErrors() + stats.malformedFrames() >= 1, stats.summary());
            int freshBefore = loop.fresh;
            loop.run(200, 0, 0, 0);
            assertTrue(loop.fresh > freshBefore + 50, "states after the garbage: " + (loop.fresh - freshBefore));
            assertTrue(loop.runUntil(1000, 0, 0, 0, () -> loop.health.connected));
        }
    }

    @Test
    void shouldMeasureRoundTripTimeWithPings() throws Exception {
        try (EmulatorOverTcp emulator = new EmulatorOverTcp(EmulatorProfile.falconLike());
             LinkHapticDevice device = emulator.device(CONFIG)) {
            device.open();
            new Loop(device).run(1000, 0, 0, 0);
            LinkStatistics stats = device.statistics();
            // One PING per 100 ms for 1 s: about 10 answered; at least 5 allows for a slow start.
            assertTrue(stats.roundTripNs().getTotalCount() >= 5, stats.summary());
            // Loopback TCP plus the emulator's 250 µs poll: well under 1 s, and never zero or negative.
            assertTrue(stats.roundTripNs().getMinValue() > 0);
            assertTrue(stats.roundTripNs().getMaxValue() < 1_000 * MS, stats.summary());
        }
    }

    @Test
    void shouldFailToOpenASilentDeviceNamingItWithinTheTimeout() throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            LinkHapticDevice.Config quick = new LinkHapticDevice.Config(1000, 300 * MS, 100 * MS, 100 * MS,
                50 * MS, 20 * MS, 500 * MS, 2_000 * MS, 20);
            LinkHapticDevice device = new LinkHapticDevice(
                TcpByteLink.connector("127.0.0.1", silent.getLocalPort(), 500, 20), quick);
            long start = System.nanoTime();
            DeviceException e = assertThrows(DeviceException.class, device::open);
            assertTrue(e.getMessage().startsWith("tcp:127.0.0.1:" + silent.getLocalPort()), e.getMessage());
            assertTrue(e.getMessage().contains("no INFO within 300 ms"), e.getMessage());
            // The open gave up at its deadline, not much later (2 s allows for host stalls).
            assertTrue(System.nanoTime() - start < 2_000 * MS);
            assertFalse(device.isSessionActive());
        }
    }

    @Test
    void shouldFailToOpenWhenNothingListens() throws IOException {
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort();
        }
        LinkHapticDevice.Config quick = new LinkHapticDevice.Config(1000, 300 * MS, 100 * MS, 100 * MS,
            50 * MS, 20 * MS, 500 * MS, 2_000 * MS, 20);
        LinkHapticDevice device = new LinkHapticDevice(TcpByteLink.connector("127.0.0.1", port, 500, 20), quick);
        DeviceException e = assertThrows(DeviceException.class, device::open);
        assertTrue(e.getMessage().contains("refused"), e.getMessage());
    }

    @Test
    void shouldReopenTheLinkWhenThePeerClosesIt() throws Exception {
        try (EmulatorOverTcp emulator = new EmulatorOverTcp(EmulatorProfile.falconLike());
             LinkHapticDevice device = emulator.device(CONFIG)) {
            device.open();
            Loop loop = new Loop(device);
            loop.run(100, 0, 0, 0);
            // The device end goes away for good: the host sees end of stream and tries to reopen.
            emulator.runner.close();
            assertTrue(loop.runUntil(1000, 0, 0, 0, () -> !loop.health.connected));
            try (EmulatorOverTcp second = new EmulatorOverTcp(EmulatorProfile.touchLike())) {
                // A different port: the old link cannot come back, which the statistics show as an error.
                loop.run(100, 0, 0, 0);
                assertFalse(loop.health.connected);
                assertTrue(device.statistics().lastError() != null);
                assertTrue(second.server.getLocalPort() != emulator.server.getLocalPort());
            }
        }
    }
}
