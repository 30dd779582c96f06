package org.hapticsd.server.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Path;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.hapticsd.client.StreamClient;
import org.hapticsd.client.StreamListener;
import org.hapticsd.protocol.stream.AckMessage;
import org.hapticsd.protocol.stream.Command;
import org.hapticsd.protocol.stream.HelloMessage;
import org.hapticsd.protocol.stream.SafetyCode;
import org.hapticsd.protocol.stream.StateMessage;
import org.hapticsd.server.LiveServer;
import org.hapticsd.server.cli.Main;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The stream client against the real loop and stream server on 127.0.0.1: commands acknowledged or refused by the
 * server's token check, and TLS on both ports (wss://, tcp with TLS) trusting the server's certificate, which keytool
 * makes for the test. Waits are for events, bounded at 10 s for a busy VM; nothing depends on how fast.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StreamClientEndToEndTest {
    private static final long WAIT_MS = 10_000;

    @TempDir
    static Path dir;
    private static StreamServerConfig.Tls pem;

    private LiveServer live;
    private StreamServerConfig config;
    private StreamClient client;

    @BeforeAll
    static void makeCertificate() throws Exception {
        pem = TestCertificate.make(dir).files();
    }

    private void start(StreamServerConfig.Tls tls) throws Exception {
        config = StreamServerConfig.defaults().withPorts(0, 0);
        if (tls != null) {
            config = config.withTls(tls);
        }
        live = LiveServer.startEmbedded(config, null);
    }

    @AfterEach
    void stop() {
        if (client != null) {
            client.close();
        }
        if (live != null) {
            live.close();
        }
    }

    private boolean await(Predicate<StreamClient> condition) throws InterruptedException {
        long endNs = System.nanoTime() + WAIT_MS * 1_000_000L;
        while (System.nanoTime() - endNs < 0) {
            if (condition.test(client)) {
                return true;
            }
            Thread.sleep(10);
        }
        return condition.test(client);
    }

    @Test
    void shouldHaveCommandsAcknowledgedOrRefusedByTheServer() throws Exception {
        start(null);
        client = StreamClient.builder(URI.create("ws://127.0.0.1:" + live.server().httpPort() + "/ws"))
            .rateHz(50).token("not-the-token").build();
        client.connect().get(WAIT_MS, TimeUnit.MILLISECONDS);
        AckMessage refused = client.send(new Command.EmergencyStop()).get(WAIT_MS, TimeUnit.MILLISECONDS);
        assertFalse(refused.accepted());
        assertEquals("TOKEN: wrong or missing token", refused.reason());
        client.close();

        client = StreamClient.builder(URI.create("tcp://127.0.0.1:" + live.server().tcpPort()))
            .rateHz(50).token(config.token()).build();
        client.connect().get(WAIT_MS, TimeUnit.MILLISECONDS);
        AckMessage accepted = client.send(new Command.EmergencyStop()).get(WAIT_MS, TimeUnit.MILLISECONDS);
        assertTrue(accepted.accepted(), accepted.reason());
        assertTrue(await(c -> c.latestState() != null && c.latestState().safetyState() == SafetyCode.ESTOP),
            "the loop did not stop: " + client.latestState());
        assertEquals(0, client.counters().unmatchedAcks());
        assertEquals(0, client.counters().decodeErrors());
    }

    @Test
    void shouldStreamOverWssAndTcpWithTlsTrustingTheServersCertificate() throws Exception {
        start(pem);
        BlockingQueue<StateMessage> states = new LinkedBlockingQueue<>();
        client = StreamClient.builder(URI.create("wss://127.0.0.1:" + live.server().httpPort() + "/ws?rate=50"))
            .trustCertificate(pem.certificateChain())
            .listener(new StreamListener() {
                @Override
                public void onState(StateMessage state) {
                    states.add(state);
                }
            })
            .build();
        HelloMessage hello = client.connect().get(WAIT_MS, TimeUnit.MILLISECONDS);
        assertEquals(1000, hello.tickRateHz());
        StateMessage first = states.poll(WAIT_MS, TimeUnit.MILLISECONDS);
        StateMessage second = states.poll(WAIT_MS, TimeUnit.MILLISECONDS);
        assertTrue(first != null && second != null && second.tick() > first.tick(), first + " then " + second);
        client.close();

        client = StreamClient.builder(URI.create("tcp://127.0.0.1:" + live.server().tcpPort()))
            .tls(true).trustCertificate(pem.certificateChain()).build();
        assertEquals(hello, client.connect().get(WAIT_MS, TimeUnit.MILLISECONDS));
        assertTrue(await(c -> c.latestState() != null), "a STATE over TLS on the TCP port");
    }

    /**
     * {@code hapticsd watch} as a tester ran it, reconnecting, against a server with a self-signed certificate: it
     * said "SSLEngine closed already" (the WebSocket upgrade queued behind the failed handshake) and nothing of the
     * certificate; and on the TLS-only TCP port without --tls it waited out --seconds and said "closed by client".
     * Ephemeral ports: fixed ones were taken by other connections of a CI run.
     */
    @Test
    void shouldTellWatchWhyATlsServerCouldNotBeReached() throws Exception {
        start(pem);
        String wss = "wss://127.0.0.1:" + live.server().httpPort() + "/ws";
        String tcp = "tcp://127.0.0.1:" + live.server().tcpPort();
        assertEquals("exit 1: hapticsd: watch: never connected to " + wss + ": the server's certificate "
            + "is not trusted (unable to find valid certification path to requested target); to trust a self-signed "
            + "certificate (run --tls-cert), give it with --trust-cert FILE\n", watch("--url", wss, "--seconds", "2"));
        assertEquals("exit 1: hapticsd: watch: never connected to " + tcp + ": closed by client; the server "
            + "accepted the connection but sent nothing, not even its HELLO: if it serves TLS on this port (run "
            + "--tls-cert), connect with --tls\n", watch("--url", tcp, "--seconds", "1"));
    }

    /** {@code hapticsd watch ARGS}: "exit N: " and its stderr. */
    private static String watch(String... args) {
        StringWriter err = new StringWriter();
        String[] command = new String[args.length + 1];
        command[0] = "watch";
        System.arraycopy(args, 0, command, 1, args.length);
        int exit = Main.run(new PrintWriter(new StringWriter(), true), new PrintWriter(err, true), command);
        return "exit " + exit + ": " + err;
    }

    @Test
    void shouldNotConnectOverTlsToACertificateItDoesNotTrust() throws Exception {
        start(pem);
        BlockingQueue<String> reasons = new LinkedBlockingQueue<>();
        client = StreamClient.builder(URI.create("wss://127.0.0.1:" + live.server().httpPort() + "/ws"))
            .noReconnect()
            .listener(new StreamListener() {
                @Override
                public void onDisconnected(String reason) {
                    reasons.add(reason);
                }
            })
            .build();
        ExecutionException e = assertThrows(ExecutionException.class,
            () -> client.connect().get(WAIT_MS, TimeUnit.MILLISECONDS));
        assertInstanceOf(org.hapticsd.client.StreamClosedException.class, e.getCause());
        String reason = reasons.poll(WAIT_MS, TimeUnit.MILLISECONDS);
        assertTrue(reason != null && reason.toLowerCase().contains("certification path"), "reason: " + reason);
        assertEquals(0, client.counters().sessions());
        assertEquals(0, client.counters().decodeErrors(), "a TLS failure is not a malformed message");
    }
}
