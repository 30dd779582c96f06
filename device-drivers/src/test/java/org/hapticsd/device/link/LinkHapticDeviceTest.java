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
 * The real-time shell of the driver (its two I/O threads, the port, the clock) against the emulated firmware over
 * a real TCP connection on 127.0.0.1. The protocol's logic is {@link LinkSessionTest}'s, on a fake clock; these
 * are the smoke tests of the threads around it, so they wait for events (with a generous guard against a hang)
 * and never assert how fast anything happened: this shared 2-vCPU machine may stall any thread.
 */
class LinkHapticDeviceTest {
    private static final long MS = 1_000_000L;
    /** Only a hang guard: every condition below holds within milliseconds on a sound machine. */
    private static final long GUARD_MS = 10_000;
    private static final LinkSession.Config CONFIG = LinkSession.Config.defaults(1000);
    /** A 300 ms open timeout: for the tests of a device that never answers usefully. */
    private static final LinkSession.Config QUICK = new LinkSession.Config(1000, 300 * MS, 100 * MS, 100 * MS,
        50 * MS, 20 * MS, 500 * MS, 2_000 * MS, 20);

    /** The test's stand-in for the haptic loop: like the server's safety layer, zero while the device is unhealthy. */
    private static final class Loop {
        final LinkHapticDevice device;
        final DeviceState state = new DeviceState();
        final DeviceHealth health = new DeviceHealth();
        /** Like the server's loop: each tick ends with {@link LinkHapticDevice#endOfTick}, which wakes the writer. */
        final boolean endsTicks;

        Loop(LinkHapticDevice device) {
            this(device, false);
        }

        Loop(LinkHapticDevice device, boolean endsTicks) {
            this.device = device;
            this.endsTicks = endsTicks;
        }

        boolean runUntil(double fx, double fy, double fz, BooleanSupplier condition) {
            long end = System.nanoTime() + GUARD_MS * MS;
            while (System.nanoTime() - end < 0) {
                long now = System.nanoTime();
                device.readState(now, state);
                device.health(now, health);
                boolean safe = health.connected && health.fault == DeviceFault.NONE;
                device.commandForce(safe ? fx : 0, safe ? fy : 0, safe ? fz : 0, 0, 0, 0);
                if (endsTicks) {
                    device.endOfTick();
                }
                if (condition.getAsBoolean()) {
                    return true;
                }
                LockSupport.parkNanos(MS);
            }
            return false;
        }
    }

    @Test
    void shouldHandshakeApplyForceAndDeliverTheClosingZeroForceBeforeClosing() throws Exception {
        try (EmulatorOverTcp emulator = new EmulatorOverTcp(EmulatorProfile.falconLike())) {
            LinkHapticDevice device = emulator.device(CONFIG);
            device.open();
            assertEquals("Falcon-like emulator", device.info().name());
            assertEquals(8.0, device.info().maxForceN(), 0.0);
            assertEquals(1000, device.sessionRateHz());
            assertEquals(2, device.sessionVersion());
            Loop loop = new Loop(device);
            // 1.5 N is exact in float32, so the device applies and reports exactly what was commanded.
            assertTrue(loop.runUntil(0, 0, 1.5, () -> loop.state.appliedForceZN == 1.5),
                "STATE never reported the applied 1.5 N");
            assertEquals(StatusFlags.OUTPUT_ENABLED, loop.state.statusFlags & StatusFlags.OUTPUT_ENABLED);
            device.close();
            // close() returned only once the device acknowledged the zero FORCE: its output is off now.
            assertTrue(device.closeConfirmed());
            assertFalse((boolean) emulator.runner.query(d -> d.isOutputEnabled()));
            assertEquals(0.0, (double) emulator.runner.query(d -> d.appliedForceN(2)), 0.0);
            assertEquals(0L, (long) emulator.runner.query(d -> d.staleForcesIgnored()));
            LinkStatistics stats = device.statistics();
            assertEquals(0, stats.framesDamagedOrLost(), stats.summary());
            assertEquals(1, stats.sessions());
        }
    }

    /**
     * The server's loop wakes the writer after each tick ({@code endOfTick}) instead of in {@code commandForce}: each
     * new force still reaches the device, in order.
     */
    @Test
    void shouldApplyEachNewForceWhenTheLoopEndsItsTicks() throws Exception {
        try (EmulatorOverTcp emulator = new EmulatorOverTcp(EmulatorProfile.falconLike());
             LinkHapticDevice device = emulator.device(CONFIG)) {
            device.open();
            Loop loop = new Loop(device, true);
            // Exact in float32, so the device reports exactly what was commanded.
            for (double fz : new double[] {1.5, -2.25, 0.5}) {
                assertTrue(loop.runUntil(0, 0, fz, () -> loop.state.appliedForceZN == fz),
                    "STATE never reported the applied " + fz + " N");
            }
            assertEquals(0L, (long) emulator.runner.query(d -> d.staleForcesIgnored()));
        }
    }

    @Test
    void shouldReconnectByItselfWhenTheDeviceComesBack() throws Exception {
        try (EmulatorOverTcp emulator = new EmulatorOverTcp(EmulatorProfile.falconLike());
             LinkHapticDevice device = emulator.device(CONFIG)) {
            device.open();
            Loop loop = new Loop(device);
            assertTrue(loop.runUntil(0, 0, 0, () -> loop.health.connected));
            emulator.runner.setUnplugged(true);
            assertTrue(loop.runUntil(0, 0, 0, () -> loop.health.fault == DeviceFault.LINK_LOST));
            emulator.runner.setUnplugged(false);
            assertTrue(loop.runUntil(0, 0, 0, () -> loop.health.connected && loop.health.fault == DeviceFault.NONE),
                "did not reconnect");
            LinkStatistics stats = device.statistics();
            assertEquals(2, stats.sessions());
            assertEquals(1, stats.reconnects());
        }
    }

    @Test
    void shouldReopenTheLinkWhenThePeerClosesIt() throws Exception {
        try (EmulatorOverTcp emulator = new EmulatorOverTcp(EmulatorProfile.falconLike());
             LinkHapticDevice device = emulator.device(CONFIG)) {
            device.open();
            Loop loop = new Loop(device);
            assertTrue(loop.runUntil(0, 0, 0, () -> loop.health.connected));
            // The device end goes away for good: the host sees end of stream and keeps trying to reopen.
            emulator.runner.close();
            emulator.server.close();
            assertTrue(loop.runUntil(0, 0, 0, () -> !loop.health.connected));
            assertTrue(loop.runUntil(0, 0, 0, () -> device.statistics().lastError() != null));
            assertEquals(DeviceFault.LINK_LOST, loop.health.fault);
        }
    }

    /**
     * A line that carries only noise (random bytes, or zero bytes) is a wrong baud rate or not a hapticsd device: a
     * tester's random-byte peer was told to read the INFO field ranges, a zero-byte one that nothing answered.
     */
    @Test
    void shouldSayALineOfNoiseHasNoValidFrame() throws Exception {
        for (boolean zeros : new boolean[] {false, true}) {
            try (ServerSocket noisy = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                Thread peer = new Thread(() -> {
                    try (java.net.Socket s = noisy.accept()) {
                        java.util.Random random = new java.util.Random(3);
                        byte[] chunk = new byte[500];
                        while (true) {
                            if (!zeros) {
                                random.nextBytes(chunk);
                            }
                            s.getOutputStream().write(chunk);
                            Thread.sleep(10);
                        }
                    } catch (IOException | InterruptedException e) {
                        // The device closed the connection: done.
                    }
                });
                peer.setDaemon(true);
                peer.start();
                LinkHapticDevice device = new LinkHapticDevice(
                    TcpByteLink.connector("127.0.0.1", noisy.getLocalPort(), 500, 20), QUICK);
                DeviceException e = assertThrows(DeviceException.class, device::open);
                assertTrue(e.getMessage().matches("tcp:127\\.0\\.0\\.1:\\d+: no usable INFO within 300 ms of HELLO "
                    + "\\(\\d+ bytes received but no valid frame: \\d+ CRC errors, \\d+ malformed, \\d+ oversize; "
                    + "wrong baud rate or not a hapticsd device\\?\\)"), (zeros ? "zeros: " : "random: ") + e.getMessage());
                peer.join(5_000);
            }
        }
    }

    @Test
    void shouldFailToOpenASilentDeviceNamingItAndTheTimeout() throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            LinkHapticDevice device = new LinkHapticDevice(
                TcpByteLink.connector("127.0.0.1", silent.getLocalPort(), 500, 20), QUICK);
            DeviceException e = assertThrows(DeviceException.class, device::open);
            assertTrue(e.getMessage().startsWith("tcp:127.0.0.1:" + silent.getLocalPort()), e.getMessage());
            assertTrue(e.getMessage().endsWith(": no usable INFO within 300 ms of HELLO (nothing answered HELLO)"),
                e.getMessage());
            assertFalse(device.isSessionActive());
        }
    }

    /**
     * A device whose INFO is refused is told so once, naming the range it broke: found by INFOs with an inverted
     * workspace or a continuous force above the peak, reported as "no INFO within 2000 ms: ...: no INFO within
     * 2000 ms of HELLO; reopening", which neither said an INFO came nor why it was refused.
     */
    @Test
    void shouldSayWhichFieldOfARefusedInfoWasWrong() throws Exception {
        try (ServerSocket device = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Thread answering = new Thread(() -> {
                try (java.net.Socket s = device.accept()) {
                    org.hapticsd.protocol.Info inverted = new org.hapticsd.protocol.Info()
                        .setVersionAndDof(2, 3, 3).setSelectedRateIndex(3)
                        .setWorkspaceM(0.1f, -0.1f, -0.1f, -0.1f, 0.1f, 0.1f).setRatings(8f, 4f, 3000f, 1f)
                        .setSupportedRates(0x0F).setName("inverted");
                    byte[] frame = new byte[org.hapticsd.protocol.Frame.MAX_WIRE_BYTES];
                    int n = new org.hapticsd.protocol.FrameEncoder().encode(inverted, 0, frame, 0);
                    for (int k = 0; k < 10; k++) {
                        s.getOutputStream().write(frame, 0, n);
                        Thread.sleep(30);
                    }
                    Thread.sleep(1000);
                } catch (IOException | InterruptedException ignored) {
                    // The host closed the link.
                }
            });
            answering.start();
            LinkHapticDevice host = new LinkHapticDevice(
                TcpByteLink.connector("127.0.0.1", device.getLocalPort(), 500, 20), QUICK);
            DeviceException e = assertThrows(DeviceException.class, host::open);
            String prefix = "tcp:127.0.0.1:" + device.getLocalPort();
            // How many of the ten arrive within the 300 ms depends on the machine; what they were does not.
            assertTrue(e.getMessage().matches(java.util.regex.Pattern.quote(prefix + ": no usable INFO within 300 ms "
                + "of HELLO (") + "\\d+" + java.util.regex.Pattern.quote(" malformed frame(s) received; the last was an "
                + "INFO: workspaceMaxM below workspaceMinM: the ranges are in docs/device-protocol.md 2.4 and 4.2)")),
                e.getMessage());
            answering.join(5_000);
        }
    }

    @Test
    void shouldFailToOpenWhenNothingListens() throws IOException {
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort();
        }
        LinkHapticDevice device = new LinkHapticDevice(TcpByteLink.connector("127.0.0.1", port, 500, 20), QUICK);
        DeviceException e = assertThrows(DeviceException.class, device::open);
        assertTrue(e.getMessage().startsWith("tcp:127.0.0.1:" + port + ": could not open within 300 ms: "),
            e.getMessage());
        assertTrue(e.getMessage().contains("refused"), e.getMessage());
    }
}
