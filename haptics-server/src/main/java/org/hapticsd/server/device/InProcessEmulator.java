package org.hapticsd.server.device;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import org.hapticsd.device.emulator.EmulatedDevice;
import org.hapticsd.device.emulator.EmulatorControl;
import org.hapticsd.device.emulator.EmulatorRunner;
import org.hapticsd.device.link.LinkAddress;
import org.hapticsd.device.link.LinkConnector;
import org.hapticsd.device.link.LinkSession;
import org.hapticsd.device.lockstep.LockstepClock;
import org.hapticsd.device.lockstep.LockstepLink;
import org.hapticsd.device.link.PseudoTerminalPair;
import org.hapticsd.device.link.SerialByteLink;
import org.hapticsd.device.link.TcpByteLink;

/**
 * The device emulator started inside the server process for {@code --device emulator} and for test scripts: the
 * firmware model at one end of a real link, the server's link driver at the other, so the whole protocol path
 * (bytes, framing, watchdogs) runs exactly as with hardware. In real time the firmware has its own thread
 * ({@link EmulatorRunner}); in lockstep the loop thread steps it ({@link LockstepLink}).
 */
public final class InProcessEmulator implements AutoCloseable {
    private static final int READ_TIMEOUT_MS = 20;
    /** The temporary folder of a pty pair's links: {@code /tmp/hapticsd-pty-NNN/host} and {@code .../device}. */
    private static final String PTY_DIR_PREFIX = "hapticsd-pty-";

    private final EmulatorRunner runner;
    private final LockstepLink lockstep;
    private final LinkConnector hostSide;
    private final AutoCloseable transport;
    private final String description;

    private InProcessEmulator(EmulatorRunner runner, LockstepLink lockstep, LinkConnector hostSide,
                              AutoCloseable transport, String description) {
        this.runner = runner;
        this.lockstep = lockstep;
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
        return start(device, transport, 0);
    }

    /**
     * As {@link #start(EmulatedDevice, Transport)}, the firmware thread under the real-time FIFO policy at
     * {@code rtPriority} (0: the normal policy; {@link EmulatorRunner#withRtPriority}).
     */
    public static InProcessEmulator start(EmulatedDevice device, Transport transport, int rtPriority)
            throws IOException {
        boolean pty = transport == Transport.PTY || (transport == Transport.AUTO && PseudoTerminalPair.isAvailable());
        return pty ? overPty(device, rtPriority) : overTcp(device, rtPriority);
    }

    /**
     * The emulator on the device end of a pseudo-terminal pair, in a fresh temporary folder; the host end is
     * opened as a serial port at 1 Mbaud, exactly as a USB CDC device would be.
     */
    public static InProcessEmulator overPty(EmulatedDevice device) throws IOException {
        return overPty(device, 0);
    }

    private static InProcessEmulator overPty(EmulatedDevice device, int rtPriority) throws IOException {
        PseudoTerminalPair pair = PseudoTerminalPair.startInTempDirectory(PTY_DIR_PREFIX);
        EmulatorRunner runner;
        try {
            runner = new EmulatorRunner(device, SerialByteLink.connector(pair.devicePath().toString(),
                LinkAddress.DEFAULT_BAUD, READ_TIMEOUT_MS)).withRtPriority(rtPriority).start();
        } catch (RuntimeException e) {
            pair.close();
            throw e;
        }
        LinkConnector host = SerialByteLink.connector(pair.hostPath().toString(), LinkAddress.DEFAULT_BAUD,
            READ_TIMEOUT_MS);
        return new InProcessEmulator(runner, null, host, pair, device.profile().name() + " over " + host.name());
    }

    /** The emulator listening on an ephemeral TCP port of 127.0.0.1. */
    public static InProcessEmulator overTcp(EmulatedDevice device) throws IOException {
        return overTcp(device, 0);
    }

    private static InProcessEmulator overTcp(EmulatedDevice device, int rtPriority) throws IOException {
        ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        EmulatorRunner runner = new EmulatorRunner(device, TcpByteLink.acceptor(server, READ_TIMEOUT_MS))
            .withRtPriority(rtPriority).start();
        LinkConnector host = TcpByteLink.connector("127.0.0.1", server.getLocalPort(), 1_000, READ_TIMEOUT_MS);
        return new InProcessEmulator(runner, null, host, server, device.profile().name() + " over " + host.name());
    }

    /**
     * The emulator in lockstep with the loop ({@link LockstepLink}): the same firmware and the same real link (a pty
     * pair when {@code transport} allows, else TCP on 127.0.0.1), stepped by the loop thread on {@code clock}. The
     * link is opened by {@link #lockstepLink()}'s {@code open()}.
     */
    public static InProcessEmulator lockstep(EmulatedDevice device, Transport transport, LinkSession.Config config,
                                             LockstepClock clock) throws IOException {
        boolean pty = transport == Transport.PTY || (transport == Transport.AUTO && PseudoTerminalPair.isAvailable());
        LinkConnector deviceSide;
        LinkConnector host;
        AutoCloseable cleanup;
        if (pty) {
            PseudoTerminalPair pair = PseudoTerminalPair.startInTempDirectory(PTY_DIR_PREFIX);
            deviceSide = SerialByteLink.connector(pair.devicePath().toString(), LinkAddress.DEFAULT_BAUD,
                READ_TIMEOUT_MS);
            host = SerialByteLink.connector(pair.hostPath().toString(), LinkAddress.DEFAULT_BAUD, READ_TIMEOUT_MS);
            cleanup = pair;
        } else {
            ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
            deviceSide = TcpByteLink.acceptor(server, READ_TIMEOUT_MS);
            host = TcpByteLink.connector("127.0.0.1", server.getLocalPort(), 1_000, READ_TIMEOUT_MS);
            cleanup = server;
        }
        LockstepLink link = new LockstepLink(device, deviceSide, host, config, clock);
        return new InProcessEmulator(null, link, host, cleanup,
            device.profile().name() + " over " + host.name() + " in lockstep");
    }

    /** How the server's driver reaches the emulator. */
    public LinkConnector hostSide() {
        return hostSide;
    }

    /** The real-time firmware thread, or null in lockstep. */
    public EmulatorRunner runner() {
        return runner;
    }

    /** The lockstep link (host session and firmware, both stepped by the loop), or null in real time. */
    public LockstepLink lockstepLink() {
        return lockstep;
    }

    /** What a script does to the emulator: the real-time runner or the lockstep link. */
    public EmulatorControl control() {
        return runner != null ? runner : lockstep;
    }

    @Override
    public String toString() {
        return description;
    }

    /** Stops the firmware thread first (it holds the device end), then removes the link. */
    @Override
    public void close() {
        if (runner != null) {
            runner.close();
        } else {
            lockstep.close();
        }
        try {
            transport.close();
        } catch (Exception ignored) {
            // The transport is going away with the emulator; nothing is left to release.
        }
    }
}
