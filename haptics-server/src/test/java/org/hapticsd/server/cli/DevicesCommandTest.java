package org.hapticsd.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fazecast.jSerialComm.SerialPort;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.hapticsd.device.emulator.EmulatedDevice;
import org.hapticsd.device.emulator.EmulatorProfile;
import org.hapticsd.device.emulator.EmulatorRunner;
import org.hapticsd.device.link.LinkAddress;
import org.hapticsd.device.link.PseudoTerminalPair;
import org.hapticsd.device.link.SerialByteLink;
import org.hapticsd.device.link.TcpByteLink;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code hapticsd devices}: the port list, probes that answer and probes that do not, and misuse. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class DevicesCommandTest {

    @TempDir
    Path dir;

    @Test
    void shouldListWhatJSerialCommSeesOrSayThereIsNothing() {
        CliCall devices = CliCall.run("devices");

        assertEquals(0, devices.exitCode(), devices.toString());
        List<String> lines = devices.out().lines().toList();
        SerialPort[] ports = SerialPort.getCommPorts();
        if (ports.length == 0) {
            assertEquals(List.of("no serial ports found"), lines);
        } else {
            assertEquals(ports.length, lines.size(), devices.out());
            for (int i = 0; i < ports.length; i++) {
                assertTrue(lines.get(i).startsWith(ports[i].getSystemPortPath() + " "), lines.get(i));
            }
        }
        assertEquals("", devices.err());
    }

    @Test
    void shouldNameTheEmulatorAnsweringOnAPty() throws IOException {
        Assumptions.assumeTrue(PseudoTerminalPair.isAvailable(), "socat is not installed");
        try (PseudoTerminalPair pair = PseudoTerminalPair.start(dir);
             EmulatorRunner runner = new EmulatorRunner(new EmulatedDevice(EmulatorProfile.touchLike()),
                 SerialByteLink.connector(pair.devicePath().toString(), LinkAddress.DEFAULT_BAUD, 10)).start()) {
            // A symlink to /dev/pts/N, given as a bare path: a serial port at the default baud rate.
            CliCall devices = CliCall.run("devices", "--timeout-ms", "3000", pair.hostPath().toString());

            assertEquals(0, devices.exitCode(), devices.toString());
            assertEquals(pair.hostPath() + ": Touch-like emulator, firmware 1.0.0, 6 DoF sensed / 3 actuated,"
                + " max force 3.30 N (continuous 0.88 N), rates 125/250/500/1000 Hz, default 1000 Hz, protocol 2\n",
                devices.out());
        }
    }

    @Test
    void shouldSayNoAnswerForASilentPeerAndExitZero() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            String address = "tcp:127.0.0.1:" + server.getLocalPort();
            Thread holder = new Thread(() -> {
                try (Socket socket = server.accept()) {
                    socket.getInputStream().transferTo(java.io.OutputStream.nullOutputStream());
                } catch (IOException ignored) {
                    // The probe hung up or the server closed: either way the silent peer is done.
                }
            });
            holder.start();

            CliCall devices = CliCall.run("devices", "--timeout-ms", "200", address);

            assertEquals(0, devices.exitCode(), devices.toString());
            assertEquals(address + ": no answer in 200 ms (0 bytes received)\n", devices.out());
            holder.join(5_000);
        }
    }

    @Test
    void shouldProbeATcpEmulatorByAddress() throws IOException {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             EmulatorRunner runner = new EmulatorRunner(new EmulatedDevice(EmulatorProfile.falconLike()),
                 TcpByteLink.acceptor(server, 10)).start()) {
            String address = "tcp:127.0.0.1:" + server.getLocalPort();
            CliCall devices = CliCall.run("devices", "--timeout-ms", "3000", address);

            assertEquals(0, devices.exitCode(), devices.toString());
            assertTrue(devices.out().startsWith(address + ": Falcon-like emulator, firmware 1.0.0, "), devices.out());
        }
    }

    @Test
    void shouldRejectBadNumbersAndAddresses() {
        CliCall.run("devices", "--timeout-ms", "0").assertMisuse("--timeout-ms must be 1..60000", "got 0");
        CliCall.run("devices", "--baud", "-9600").assertMisuse("--baud must be > 0", "-9600");
        CliCall.run("devices", "--timeout-ms", "soon").assertMisuse("--timeout-ms", "'soon'");
        CliCall.run("devices", "tcp:localhost").assertMisuse("PORT 'tcp:localhost'", "expected tcp:HOST:PORT");
        CliCall.run("devices", "--bogus").assertMisuse("--bogus");
    }
}
