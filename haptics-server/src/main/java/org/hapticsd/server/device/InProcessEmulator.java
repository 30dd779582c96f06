package org.hapticsd.server.device;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import org.hapticsd.device.emulator.EmulatedDevice;
import org.hapticsd.device.emulator.EmulatorProfile;
import org.hapticsd.device.emulator.EmulatorRunner;
import org.hapticsd.device.link.LinkConnector;
import org.hapticsd.device.link.TcpByteLink;
import org.hapticsd.device.sim.HandTarget;

/**
 * The device emulator started inside the server process for {@code --device emulator} and for test scripts: the
 * firmware model on its own thread at one end of a real link, the server's link driver at the other, so the
 * whole protocol path (bytes, framing, threads, watchdogs) runs exactly as with hardware.
 */
public final class InProcessEmulator implements AutoCloseable {
    private static final int READ_TIMEOUT_MS = 20;

    private final EmulatorRunner runner;
    private final LinkConnector hostSide;
    private final AutoCloseable transport;
    private final String description;

    private InProcessEmulator(EmulatorRunner runner, LinkConnector hostSide, AutoCloseable transport,
                              String description) {
        this.runner = runner;
        this.hostSide = hostSide;
        this.transport = transport;
        this.description = description;
    }

    /** The emulator listening on an ephemeral TCP port of 127.0.0.1. */
    public static InProcessEmulator overTcp(EmulatedDevice device) throws IOException {
        ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        EmulatorRunner runner = new EmulatorRunner(device, TcpByteLink.acceptor(server, READ_TIMEOUT_MS)).start();
        LinkConnector host = TcpByteLink.connector("127.0.0.1", server.getLocalPort(), 1_000, READ_TIMEOUT_MS);
        return new InProcessEmulator(runner, host, server, device.profile().name() + " over " + host.name());
    }

    /** A new emulated device with {@code profile} and {@code hand}, watchdog as the profile's firmware has it. */
    public static EmulatedDevice device(EmulatorProfile profile, HandTarget hand) {
        return new EmulatedDevice(profile, hand);
    }

    /** How the server's driver reaches the emulator. */
    public LinkConnector hostSide() {
        return hostSide;
    }

    public EmulatorRunner runner() {
        return runner;
    }

    @Override
    public String toString() {
        return description;
    }

    @Override
    public void close() {
        try {
            transport.close();
        } catch (Exception ignored) {
            // The transport is going away with the emulator; nothing is left to release.
        }
        runner.close();
    }
}
