package org.hapticsd.server.device;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.hapticsd.device.emulator.EmulatedDevice;
import org.hapticsd.device.emulator.EmulatorRunner;
import org.hapticsd.device.link.LinkAddress;
import org.hapticsd.device.link.LinkConnector;
import org.hapticsd.device.link.PseudoTerminalPair;
import org.hapticsd.device.link.SerialByteLink;
import org.hapticsd.device.link.TcpByteLink;

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

    /** How the emulator is reached. */
    public enum Transport {
        /** A pseudo-terminal pair made by socat: the host opens a real serial port through jSerialComm. */
        PTY,
        /** An ephemeral TCP port on 127.0.0.1. */
        TCP,
        /** PTY when socat is installed, otherwise TCP. */
        AUTO
    }

    /** Starts the emulator on {@code transport}; AUTO picks PTY when socat is installed. */
    public static InProcessEmulator start(EmulatedDevice device, Transport transport) throws IOException {
        boolean pty = transport == Transport.PTY || (transport == Transport.AUTO && PseudoTerminalPair.isAvailable());
        return pty ? overPty(device) : overTcp(device);
    }

    /**
     * The emulator on the device end of a pseudo-terminal pair, in a fresh temporary folder; the host end is
     * opened as a serial port at 1 Mbaud, exactly as a USB CDC device would be.
     */
    public static InProcessEmulator overPty(EmulatedDevice device) throws IOException {
        Path dir = Files.createTempDirectory("hapticsd-pty-");
        PseudoTerminalPair pair;
        try {
            pair = PseudoTerminalPair.start(dir);
        } catch (IOException e) {
            Files.deleteIfExists(dir);
            throw e;
        }
        EmulatorRunner runner;
        try {
            runner = new EmulatorRunner(device, SerialByteLink.connector(pair.devicePath().toString(),
                LinkAddress.DEFAULT_BAUD, READ_TIMEOUT_MS)).start();
        } catch (RuntimeException e) {
            pair.close();
            throw e;
        }
        LinkConnector host = SerialByteLink.connector(pair.hostPath().toString(), LinkAddress.DEFAULT_BAUD,
            READ_TIMEOUT_MS);
        AutoCloseable cleanup = () -> {
            pair.close();
            Files.deleteIfExists(dir);
        };
        return new InProcessEmulator(runner, host, cleanup, device.profile().name() + " over " + host.name());
    }

    /** The emulator listening on an ephemeral TCP port of 127.0.0.1. */
    public static InProcessEmulator overTcp(EmulatedDevice device) throws IOException {
        ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        EmulatorRunner runner = new EmulatorRunner(device, TcpByteLink.acceptor(server, READ_TIMEOUT_MS)).start();
        LinkConnector host = TcpByteLink.connector("127.0.0.1", server.getLocalPort(), 1_000, READ_TIMEOUT_MS);
        return new InProcessEmulator(runner, host, server, device.profile().name() + " over " + host.name());
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

    /** Stops the firmware thread first (it holds the device end), then removes the link. */
    @Override
    public void close() {
        runner.close();
        try {
            transport.close();
        } catch (Exception ignored) {
            // The transport is going away with the emulator; nothing is left to release.
        }
    }
}
