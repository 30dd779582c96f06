package org.hapticsd.device.link;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import org.hapticsd.device.emulator.EmulatedDevice;
import org.hapticsd.device.emulator.EmulatorProfile;
import org.hapticsd.device.emulator.EmulatorRunner;

/** An emulated device listening on an ephemeral 127.0.0.1 port, and a driver configured to reach it. */
final class EmulatorOverTcp implements AutoCloseable {
    final ServerSocket server;
    final EmulatorRunner runner;

    EmulatorOverTcp(EmulatorProfile profile) throws IOException {
        server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        runner = new EmulatorRunner(new EmulatedDevice(profile), TcpByteLink.acceptor(server, 20)).start();
    }

    LinkConnector connector() {
        return TcpByteLink.connector("127.0.0.1", server.getLocalPort(), 1_000, 20);
    }

    LinkHapticDevice device(LinkSession.Config config) {
        return new LinkHapticDevice(connector(), config);
    }

    @Override
    public void close() throws IOException {
        server.close();
        runner.close();
    }
}
