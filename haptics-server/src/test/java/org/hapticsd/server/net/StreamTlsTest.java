package org.hapticsd.server.net;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * TLS on both ports from PEM files given on the command line: a client that trusts the certificate gets the stream
 * over wss:// and over TLS on the raw TCP port; a plain-text client gets nothing; an unusable file is named.
 * The certificate is made for the test with the JDK's keytool, so nothing secret lives in the repository.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StreamTlsTest {
    @TempDir
    static Path dir;
    private static StreamServerConfig.Tls pem;
    private static SSLContext trusting;

    @BeforeAll
    static void makeCertificate() throws Exception {
        TestCertificate certificate = TestCertificate.make(dir);
        pem = certificate.files();
        trusting = certificate.trustingContext();
    }

    private static StreamServer server(FakeLoop loop, StreamServerConfig.Tls tls) throws IOException {
        StreamServerConfig config = StreamServerConfig.defaults().withPorts(0, 0).withTls(tls);
        return new StreamServer(config, loop.exchange, new TickFrames(8), new NoRequests(), null, 1_000_000L).start();
    }

    @Test
    void shouldStreamOverWssToAClientThatTrustsTheCertificate() throws Exception {
        try (FakeLoop loop = new FakeLoop(); StreamServer server = server(loop, pem)) {
            List<byte[]> messages = new CopyOnWriteArrayList<>();
            WebSocket ws = HttpClient.newBuilder().sslContext(trusting).build().newWebSocketBuilder()
                .buildAsync(URI.create("wss://127.0.0.1:" + server.httpPort() + "/ws?rate=50"),
                    new WebSocket.Listener() {
                        @Override
                        public CompletionStage<?> onBinary(WebSocket socket, ByteBuffer data, boolean last) {
                            byte[] bytes = new byte[data.remaining()];
                            data.get(bytes);
                            messages.add(bytes);
                            socket.request(1);
                            return null;
                        }
                    }).get(10, TimeUnit.SECONDS);
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (messages.size() < 5 && System.nanoTime() - end < 0) {
                Thread.sleep(20);
            }
            ws.abort();
            assertTrue(messages.size() >= 5, "messages over wss: " + messages.size());
            assertArrayEquals(new byte[] {TickFrames.HELLO}, messages.get(0));
            assertArrayEquals(new byte[] {TickFrames.SCENE}, messages.get(1));
            assertTrue(TickFrames.tickOf(messages.get(3)) > TickFrames.tickOf(messages.get(2)));
        }
    }

    @Test
    void shouldStreamOverTlsOnTheRawTcpPortAndNotInPlainText() throws Exception {
        try (FakeLoop loop = new FakeLoop(); StreamServer server = server(loop, pem)) {
            try (SSLSocket socket = (SSLSocket) trusting.getSocketFactory().createSocket("127.0.0.1",
                    server.tcpPort())) {
                DataInputStream in = new DataInputStream(socket.getInputStream());
                int length = Integer.reverseBytes(in.readInt());
                assertEquals(1, length);
                assertEquals(TickFrames.HELLO, in.readByte());
            }
            // A plain-text client reads no stream: the server waits for a TLS ClientHello, and closes the connection
            // on the garbage it gets instead.
            try (Socket plain = new Socket("127.0.0.1", server.tcpPort())) {
                plain.setSoTimeout(5_000);
                plain.getOutputStream().write("hello?\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                byte[] got = plain.getInputStream().readNBytes(5);
                assertTrue(got.length < 5 || got[0] != 1, "a plain-text client must not get a frame");
            }
        }
    }

    @Test
    void shouldNameAMissingOrUnusableTlsFile() throws Exception {
        try (FakeLoop loop = new FakeLoop()) {
            Path missing = dir.resolve("nope.key");
            IOException absent = assertThrows(IOException.class,
                () -> server(loop, new StreamServerConfig.Tls(pem.certificateChain(), missing)));
            assertTrue(absent.getMessage().contains(missing.toString()), absent.getMessage());
            IOException swapped = assertThrows(IOException.class,
                () -> server(loop, new StreamServerConfig.Tls(pem.privateKey(), pem.certificateChain())));
            assertTrue(swapped.getMessage().contains("cannot use TLS certificate " + pem.privateKey()),
                swapped.getMessage());
        }
    }

    /**
     * A certificate with another pair's key: Netty builds the context, and every handshake would then fail with
     * nothing in the log. The server refuses it at start and names both files.
     */
    @Test
    void shouldRefuseAKeyThatDoesNotBelongToTheCertificate() throws Exception {
        Path other = Files.createDirectory(dir.resolve("other"));
        StreamServerConfig.Tls otherPair = TestCertificate.make(other).files();
        try (FakeLoop loop = new FakeLoop()) {
            IOException mismatched = assertThrows(IOException.class,
                () -> server(loop, new StreamServerConfig.Tls(pem.certificateChain(), otherPair.privateKey())));
            assertTrue(mismatched.getMessage().startsWith("TLS key " + otherPair.privateKey() + " does not belong to "
                + "certificate " + pem.certificateChain()), mismatched.getMessage());
        }
    }
}
