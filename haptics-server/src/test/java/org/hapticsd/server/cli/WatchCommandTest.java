package org.hapticsd.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.hapticsd.protocol.stream.Command;
import org.hapticsd.protocol.stream.HelloMessage;
import org.hapticsd.protocol.stream.SceneMessage;
import org.hapticsd.protocol.stream.StateMessage;
import org.hapticsd.protocol.stream.StreamCodec;
import org.hapticsd.protocol.stream.StreamMessage;
import org.hapticsd.server.LiveServer;
import org.hapticsd.server.net.StreamServer;
import org.hapticsd.server.net.StreamServerConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code hapticsd watch} against the real loop (default wall scene, simulated stylus) and stream server in this
 * process, on 127.0.0.1: the recording is decoded here from the spec's framing alone (u32 LE length + message), not
 * with the client's reader.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WatchCommandTest {
    @TempDir
    Path dir;

    private LiveServer live;
    private StreamServer server;

    @BeforeEach
    void start() throws Exception {
        live = LiveServer.startEmbedded(StreamServerConfig.defaults().withPorts(0, 0), dir);
        server = live.server();
    }

    @AfterEach
    void stop() {
        live.close();
    }

    /** The recording, read with nothing but the spec: u32 little-endian length, then one binary message. */
    private static List<StreamMessage> decode(Path file) throws Exception {
        ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
        List<StreamMessage> messages = new ArrayList<>();
        while (bytes.hasRemaining()) {
            int length = bytes.getInt();
            byte[] message = new byte[length];
            bytes.get(message);
            messages.add(StreamCodec.decode(message));
        }
        return messages;
    }

    @ParameterizedTest
    @ValueSource(strings = {"ws://127.0.0.1:%d/ws", "ws://127.0.0.1:%d/ws?format=json", "tcp://127.0.0.1:%d"})
    void shouldRecordHelloSceneAndStatesWithIncreasingTicks(String urlPattern) throws Exception {
        int port = urlPattern.startsWith("tcp") ? server.tcpPort() : server.httpPort();
        String url = String.format(urlPattern, port);
        Path file = dir.resolve("watch.hsr");
        CliCall call = CliCall.run("watch", "--url", url, "--record", file.toString(), "--rate", "50",
            "--seconds", "3");

        assertEquals(Main.EXIT_OK, call.exitCode(), call.toString());
        List<StreamMessage> messages = decode(file);
        HelloMessage hello = assertInstanceOf(HelloMessage.class, messages.get(0), messages.toString());
        assertEquals(1000, hello.tickRateHz());
        SceneMessage scene = assertInstanceOf(SceneMessage.class, messages.get(1));
        assertEquals("wall", scene.name());
        List<StateMessage> states = messages.stream().filter(m -> m instanceof StateMessage)
            .map(m -> (StateMessage) m).toList();
        // How many STATEs 3 s at 50 Hz bring depends on how soon this machine connects and how steadily it serves
        // (about 150 when idle), so the count is not asserted against the clock. Asserted instead: the stream at work
        // (at least two STATEs, ticks increasing below), and every STATE the client received in the file, by the
        // summary's own count.
        assertTrue(states.size() >= 2, "states recorded: " + states.size());
        java.util.regex.Matcher summary = java.util.regex.Pattern.compile(
            "watch: [0-9.]+ s, \\d+ messages \\(\\d+ HELLO, \\d+ SCENE, (\\d+) STATE, ").matcher(call.out());
        assertTrue(summary.find(), "a summary line:\n" + call);
        assertEquals(Integer.parseInt(summary.group(1)), states.size(), "STATEs received and recorded:\n" + call);
        for (int i = 1; i < states.size(); i++) {
            assertTrue(states.get(i).tick() > states.get(i - 1).tick(),
                "tick " + states.get(i).tick() + " after " + states.get(i - 1).tick());
            assertEquals(scene.revision(), states.get(i).sceneRevision());
        }
        assertTrue(call.out().contains("connected: server "), call.toString());
        assertTrue(call.out().lines().anyMatch(l -> l.matches("\\[ *\\d\\.\\d s\\] ticks/s .* tick \\d+ .*safety .*")),
            "a status line with a tick:\n" + call);
        assertTrue(call.out().contains("recorded " + messages.size() + " messages, " + Files.size(file) + " bytes"),
            "the summary matches the file:\n" + call);
    }

    @Test
    void shouldRefuseAUrlOfAnotherSchemeNamingIt() {
        CliCall call = CliCall.run("watch", "--url", "http://127.0.0.1:8080/ws", "--seconds", "1");
        call.assertMisuse("--url", "http://127.0.0.1:8080/ws", "scheme must be ws, wss or tcp");
    }

    @Test
    void shouldRefuseSomethingThatIsNotAUrlNamingIt() {
        CliCall call = CliCall.run("watch", "--url", "ws://127.0.0.1:8080/ws?rate=^", "--seconds", "1");
        call.assertMisuse("--url", "ws://127.0.0.1:8080/ws?rate=^", "is not a URL");
    }

    @Test
    void shouldRefuseTlsForAWebSocketUrlPointingToItsScheme() {
        CliCall.run("watch", "--url", "ws://127.0.0.1:8080/ws", "--tls", "--seconds", "1")
            .assertMisuse("--tls is for tcp:// URLs; ws://127.0.0.1:8080/ws chooses TLS by its scheme (wss://)");
    }

    /**
     * A handshake the server refuses with 400 (a fractional rate) is final: no reconnect, the server's status in the
     * reason, exit 1, and watch stops instead of retrying until --seconds (30 s here) runs out.
     */
    @Test
    void shouldStopAtOnceWhenTheServerRefusesTheHandshake() {
        CliCall call = CliCall.run("watch", "--url", "ws://127.0.0.1:" + server.httpPort() + "/ws?rate=1.5",
            "--seconds", "30");
        assertEquals(Main.EXIT_FAILURE, call.exitCode(), call.toString());
        // The server's own reason, from the refusal's body (a tester got only the client's guess at the cause).
        assertTrue(call.err().contains("the server refused the WebSocket handshake: 400 Bad Request: rate must be a "
            + "whole number of hertz"), call.toString());
        java.util.regex.Matcher summary = java.util.regex.Pattern.compile("watch: ([0-9.]+) s, .* (\\d+) reconnect")
            .matcher(call.out());
        assertTrue(summary.find(), call.toString());
        assertEquals(0, Integer.parseInt(summary.group(2)), "no reconnect:\n" + call);
        assertTrue(Double.parseDouble(summary.group(1)) < 30.0, "stopped before --seconds:\n" + call);
    }

    /**
     * {@code --events}: each stream event a line, its bodies by name: an emergency stop sent while watching is printed
     * as the safety change it is, and the hand moved off and back into the default scene's wall (x = 0.03 m) as the
     * tool's contact with the wall, by name.
     */
    @Test
    void shouldPrintEachEventWithItsBodiesByName() throws Exception {
        CliCall call = CliCall.start("watch", "--url", live.webSocketUrl(), "--events", "--seconds", "5");
        call.awaitLine("scene 'wall' \\(revision 1, 2 bodies\\)", 10_000);
        assertEquals(null, live.service().commands().execute(new Command.EmergencyStop()).toCompletableFuture()
            .get(10, TimeUnit.SECONDS));
        call.awaitLine("event tick \\d+: SAFETY_CHANGED \\w+ → ESTOP", 10_000);
        assertEquals(null, live.service().commands().execute(new Command.ResetStop()).toCompletableFuture()
            .get(10, TimeUnit.SECONDS));
        // The path may have pressed the tool on the wall already: away from it first, then into it.
        assertEquals(null, live.service().commands().execute(new Command.MoveHand(-0.05, 0.0, 0.0))
            .toCompletableFuture().get(10, TimeUnit.SECONDS));
        var exchange = live.service().scenes().current().exchange();
        var snapshot = exchange.newSnapshot();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (exchange.read(snapshot) == 0 || snapshot.contactCount > 0) {
            assertTrue(System.nanoTime() - deadline < 0, "the tool never left the wall:\n" + call);
            Thread.sleep(10);
        }
        assertEquals(null, live.service().commands().execute(new Command.MoveHand(0.05, 0.0, 0.0))
            .toCompletableFuture().get(10, TimeUnit.SECONDS));
        call.awaitLine("event tick \\d+: CONTACT_BEGAN (tool / wall|wall / tool)", 10_000);
        assertEquals(Main.EXIT_OK, call.exitCode(), call.toString());
    }

    @Test
    void shouldRefuseARateOutOfRange() {
        CliCall.run("watch", "--rate", "70000", "--seconds", "1").assertMisuse("--rate", "70000");
    }

    @Test
    void shouldExitOneWhenTheServerWasNeverReached() throws Exception {
        int closedPort;
        try (java.net.ServerSocket probe = new java.net.ServerSocket(0, 1,
            java.net.InetAddress.getByName("127.0.0.1"))) {
            closedPort = probe.getLocalPort();
        }
        CliCall call = CliCall.run("watch", "--url", "tcp://127.0.0.1:" + closedPort, "--seconds", "1");
        assertEquals(Main.EXIT_FAILURE, call.exitCode(), call.toString());
        assertTrue(call.err().contains("never connected to tcp://127.0.0.1:" + closedPort), call.toString());
    }
    /**
     * watch's stop at --seconds often cuts an attempt short; the never-connected line then gave that attempt's
     * "closed by client" (or the TLS engine's "SSLEngine closed already") instead of why the attempts failed.
     */
    @Test
    void shouldGiveWhyTheAttemptsFailedWhenTheStopCutTheLastOneShort() {
        WatchListener listener = new WatchListener(new java.io.PrintWriter(new java.io.StringWriter()), null, false);
        listener.onDisconnected(org.hapticsd.client.StreamClient.CLOSED_BY_CLIENT);
        assertEquals("closed by client", listener.lastDisconnect(), "a silent server: nothing better to say");
        String untrusted = org.hapticsd.client.StreamClient.UNTRUSTED_CERTIFICATE + " (unable to find valid "
            + "certification path to requested target)";
        listener.onDisconnected(untrusted);
        listener.onDisconnected(org.hapticsd.client.StreamClient.CLOSED_BY_CLIENT);
        assertEquals(untrusted, listener.lastDisconnect());
    }
    @Test
    void shouldSuggestTheRemedyForAConnectionThatNeverReachedHello() {
        String untrusted = org.hapticsd.client.StreamClient.UNTRUSTED_CERTIFICATE + " (unable to find valid "
            + "certification path to requested target)";
        assertEquals("; to trust a self-signed certificate (run --tls-cert), give it with --trust-cert FILE",
            WatchCommand.hint(untrusted, "wss://h:1/ws", false, null, 1339));
        assertEquals("; other.pem is neither that certificate nor the CA that signed it",
            WatchCommand.hint(untrusted, "wss://h:1/ws", false, Path.of("other.pem"), 1339));
        String silent = "; the server accepted the connection but sent nothing, not even its HELLO: if it serves TLS "
            + "on this port (run --tls-cert), connect with --tls";
        assertEquals(silent, WatchCommand.hint("closed by client", "tcp://h:1", false, null, 0));
        assertEquals(silent, WatchCommand.hint("closed by server", "tcp://h:1", false, null, 0));
        assertEquals("; watch stopped before its first attempt finished: give it more --seconds",
            WatchCommand.hint("closed by client", "wss://h:1/ws", false, null, 0));
        assertEquals("", WatchCommand.hint("Connection refused", "tcp://h:1", false, null, 0));
        assertEquals("", WatchCommand.hint("closed by server", "tcp://h:1", true, null, 0), "TLS already");
        assertEquals("; the server closed the connection without answering the WebSocket handshake: if it serves TLS "
            + "(run --tls-cert), use wss://", WatchCommand.hint("closed by server", "ws://h:1/ws", false, null, 0));
        assertEquals("", WatchCommand.hint("closed by server", "wss://h:1/ws", false, null, 0), "TLS already");
    }
}
