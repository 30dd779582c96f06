package org.hapticsd.device.link;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.hapticsd.device.emulator.EmulatedDevice;
import org.hapticsd.device.emulator.EmulatorProfile;
import org.hapticsd.device.emulator.EmulatorRunner;
import org.hapticsd.protocol.MessageType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The handshake probe against the emulator and against things that are not devices. The probe's timeout is
 * asserted as a lower bound on the time it waited and, loosely, an upper one (the deadline plus 2 s for a loaded
 * machine); nothing asserts how fast anything ran.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class LinkProbeTest {
    private static final long MS = 1_000_000L;
    private static final long TIMEOUT_NS = 300 * MS;
    /** Slack over the probe deadline: one 20 ms read timeout plus a loaded machine's scheduling. */
    private static final long SLACK_NS = 2_000 * MS;

    private ServerSocket server;

    @BeforeEach
    void listen() throws IOException {
        server = new ServerSocket(0, 4, InetAddress.getLoopbackAddress());
    }

    @AfterEach
    void close() throws IOException {
        server.close();
    }

    private LinkAddress address() {
        return LinkAddress.parse("tcp:127.0.0.1:" + server.getLocalPort());
    }

    /**
     * Accepts one connection on another thread, hands it to {@code serve}, then keeps it open until the probe hangs
     * up, and returns what the probe sent.
     */
    private CompletableFuture<byte[]> serveOne(SocketHandler serve) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                server.setSoTimeout(5_000);
                try (Socket socket = server.accept()) {
                    serve.handle(socket);
                    return socket.isClosed() ? new byte[0] : readAll(socket.getInputStream());
                }
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    @FunctionalInterface
    private interface SocketHandler {
        void handle(Socket socket) throws IOException;
    }

    private static byte[] readAll(InputStream in) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        in.transferTo(all);
        return all.toByteArray();
    }

    @Test
    void shouldReadTheEmulatorsInfo() throws IOException {
        try (EmulatorRunner runner = new EmulatorRunner(new EmulatedDevice(EmulatorProfile.touchLike()),
                TcpByteLink.acceptor(server, 10)).start()) {
            LinkProbe.Result result = LinkProbe.probe(address(), 3_000 * MS);

            assertTrue(result.answered(), result.toString());
            assertNull(result.error());
            assertEquals("Touch-like emulator", result.deviceName());
            assertEquals("1.0.0", result.firmware());
            assertEquals(2, result.protocolVersion(), "the newest version both speak");
            assertEquals(6, result.sensedDof());
            assertEquals(3, result.actuatedDof());
            // INFO carries binary32: the profile's 3.3 N arrives as the float nearest to it.
            assertEquals((double) 3.3f, result.maxForceN());
            assertEquals((double) 0.88f, result.maxContinuousForceN());
            assertEquals(List.of(125, 250, 500, 1000), result.supportedRatesHz());
            assertEquals(1000, result.selectedRateHz(), "HELLO asked for 0: the profile's default");
            assertEquals(0, result.badFrames());
            assertEquals("tcp:127.0.0.1:" + server.getLocalPort(), result.link());
        }
    }

    @Test
    void shouldReportNoAnswerFromASilentPeerAfterItsTimeoutResendingHello() throws Exception {
        CompletableFuture<byte[]> received = serveOne(socket -> {
            // Silent: read nothing back, write nothing, until the probe hangs up.
        });

        LinkProbe.Result result = LinkProbe.probe(address(), TIMEOUT_NS);

        assertFalse(result.answered());
        assertEquals("no answer in 300 ms (0 bytes received)", result.error());
        assertEquals(0, result.bytesReceived());
        assertTrue(result.elapsedNs() >= TIMEOUT_NS, "waited the whole timeout: " + result.elapsedNs());
        assertTrue(result.elapsedNs() < TIMEOUT_NS + SLACK_NS, "and then stopped: " + result.elapsedNs());
        byte[] sent = received.get(5, TimeUnit.SECONDS);
        int hello = MessageType.HELLO.wireBytes(1);
        assertEquals(0, sent[0], "a 0x00 first, ending any partial frame (spec 2.3)");
        assertEquals(0, (sent.length - 1) % hello, "then whole HELLO frames only: " + sent.length + " bytes");
        // One HELLO at once and one per 100 ms after (spec 6.1): 3 in 300 ms, or 2 if the deadline beat the third.
        int hellos = (sent.length - 1) / hello;
        assertTrue(hellos >= 2 && hellos <= 3, hellos + " HELLOs in 300 ms");
    }

    @Test
    void shouldReportNoiseAsBytesWithoutAValidFrame() {
        byte[] noise = new byte[500];
        new Random(7).nextBytes(noise);
        serveOne(socket -> socket.getOutputStream().write(noise));

        LinkProbe.Result result = LinkProbe.probe(address(), TIMEOUT_NS);

        assertFalse(result.answered());
        assertEquals(500, result.bytesReceived());
        assertEquals(0, result.framesDecoded());
        assertTrue(result.badFrames() > 0, "the noise's runs were counted: " + result);
        assertTrue(result.error().startsWith("no answer in 300 ms: 500 bytes received but no valid frame"),
                result.error());
    }

    @Test
    void shouldReportAnEndpointThatCannotBeOpened() throws IOException {
        int port = server.getLocalPort();
        server.close();

        LinkProbe.Result result = LinkProbe.probe(LinkAddress.parse("tcp:127.0.0.1:" + port), TIMEOUT_NS);

        assertFalse(result.answered());
        // The result names the endpoint (Result.port); its error says why once (a tester's read "cannot open" twice).
        assertEquals("tcp:127.0.0.1:" + port, result.link());
        assertTrue(result.error().startsWith("cannot open: ") && !result.error().contains("tcp:127.0.0.1:" + port),
            result.error());
        assertEquals(0, result.bytesReceived());
    }

    @Test
    void shouldReportAMissingSerialPort() {
        LinkProbe.Result result = LinkProbe.probe(LinkAddress.parse("serial:/dev/hapticsd-no-such-port"), TIMEOUT_NS);

        assertFalse(result.answered());
        assertEquals("cannot open: no such port (/dev/hapticsd-no-such-port does not exist or is not a serial port)",
                result.error());
    }

    @Test
    void shouldReportAPeerThatHangsUp() {
        serveOne(socket -> {
            socket.getOutputStream().write(new byte[] {1, 2, 3});
            socket.close();
        });

        LinkProbe.Result result = LinkProbe.probe(address(), 3_000 * MS);

        assertFalse(result.answered());
        assertTrue(result.error().startsWith("link failed after 3 bytes: "), result.error());
    }

    @Test
    void shouldRejectANonPositiveTimeout() {
        assertThrows(IllegalArgumentException.class, () -> LinkProbe.probe(address(), 0));
    }

    @Test
    void shouldListTheRatesOfASupportedRatesMask() {
        assertEquals(List.of(125, 1000, 8000), LinkProbe.ratesHz(0b1001001));
        assertEquals(List.of(), LinkProbe.ratesHz(0));
    }
}
