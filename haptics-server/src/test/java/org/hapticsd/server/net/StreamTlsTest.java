package org.hapticsd.server.net;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
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
    private static final char[] PASSWORD = "test-only".toCharArray();

    @TempDir
    static Path dir;
    private static StreamServerConfig.Tls pem;
    private static SSLContext trusting;

    @BeforeAll
    static void makeCertificate() throws Exception {
        Path store = dir.resolve("server.p12");
        Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
            "-genkeypair", "-alias", "server", "-keyalg", "EC", "-groupname", "secp256r1", "-validity", "2",
            "-dname", "CN=127.0.0.1", "-ext", "SAN=ip:127.0.0.1", "-storetype", "PKCS12",
            "-keystore", store.toString(), "-storepass", new String(PASSWORD))
            .redirectErrorStream(true).start();
        String output = new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, keytool.waitFor(), "keytool: " + output);
        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store)) {
            keys.load(in, PASSWORD);
        }
        Certificate certificate = keys.getCertificate("server");
        Path cert = dir.resolve("server.crt");
        Path key = dir.resolve("server.key");
        Files.writeString(cert, pem("CERTIFICATE", certificate.getEncoded()));
        Files.writeString(key, pem("PRIVATE KEY", keys.getKey("server", PASSWORD).getEncoded()));
        pem = new StreamServerConfig.Tls(cert, key);

        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("server", certificate);
        TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(trust);
        trusting = SSLContext.getInstance("TLS");
        trusting.init(null, factory.getTrustManagers(), null);
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
            + "\n-----END " + type + "-----\n";
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
}
