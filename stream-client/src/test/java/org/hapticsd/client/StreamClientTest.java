package org.hapticsd.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import org.hapticsd.protocol.stream.AckMessage;
import org.hapticsd.protocol.stream.Command;
import org.hapticsd.protocol.stream.CommandMessage;
import org.hapticsd.protocol.stream.StateMessage;
import org.hapticsd.protocol.stream.StreamCodec;
import org.hapticsd.protocol.stream.StreamProtocol;
import org.hapticsd.protocol.stream.StreamMessage;
import org.hapticsd.protocol.stream.SubscribeMessage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The client against {@link TestStreamServer} on 127.0.0.1 over raw TCP. Waits are for events, bounded by
 * {@link #WAIT_MS}: long enough for a stalled 2-vCPU VM, and no assertion depends on how fast anything happened.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StreamClientTest {
    private static final long WAIT_MS = 5_000;
    private static final String TOKEN = "s3cret-token";

    private TestStreamServer server;
    private RecordingListener listener;
    private StreamClient client;

    @BeforeEach
    void startServer() throws Exception {
        server = new TestStreamServer(null);
        listener = new RecordingListener();
    }

    @AfterEach
    void stop() {
        if (client != null) {
            client.close();
        }
        server.close();
    }

    private StreamClient.Builder builder() {
        return StreamClient.builder(URI.create("tcp://127.0.0.1:" + server.port()))
            .listener(listener)
            .token(TOKEN)
            .reconnect(Duration.ofMillis(20), Duration.ofMillis(200));
    }

    private StreamClient connected(StreamClient.Builder builder) throws Exception {
        client = builder.build();
        client.connect().get(WAIT_MS, TimeUnit.MILLISECONDS);
        assertEquals("connected test", listener.next(WAIT_MS));
        assertEquals("scene 7", listener.next(WAIT_MS));
        return client;
    }

    private <T extends StreamMessage> T nextReceived(Class<T> type) throws InterruptedException {
        StreamMessage m = server.nextReceived(WAIT_MS);
        assertInstanceOf(type, m, "the server received " + m);
        return type.cast(m);
    }

    private static boolean await(StreamClient client, Predicate<StreamClientCounters> condition)
        throws InterruptedException {
        long endNs = System.nanoTime() + WAIT_MS * 1_000_000L;
        while (System.nanoTime() - endNs < 0) {
            if (condition.test(client.counters())) {
                return true;
            }
            Thread.sleep(5);
        }
        return condition.test(client.counters());
    }

    @Test
    void shouldDeliverHelloSceneAndStatesInOrderOnTheClientThread() throws Exception {
        connected(builder());
        server.send(TestStreamServer.state(1, TestStreamServer.SCENE_REVISION));
        server.send(TestStreamServer.state(2, TestStreamServer.SCENE_REVISION));
        assertEquals("state 1", listener.next(WAIT_MS));
        assertEquals("state 2", listener.next(WAIT_MS));
        assertEquals(2, client.latestState().tick());
        assertTrue(listener.thread.getName().startsWith("hapticsd-stream-client"), listener.thread.getName());
        StreamClientCounters c = client.counters();
        assertEquals(1, c.helloMessages());
        assertEquals(1, c.sceneMessages());
        assertEquals(2, c.stateMessages());
        assertEquals(1, c.sessions());
        assertEquals(0, c.reconnects());
        // Exactly the bytes the server sent: a 4-byte prefix and the message, for each.
        long expected = 4 + StreamCodec.encodedSize(TestStreamServer.HELLO)
            + 4 + StreamCodec.encodedSize(TestStreamServer.SCENE)
            + 2 * (4 + StreamCodec.encodedSize(TestStreamServer.state(1, 7)));
        assertEquals(expected, c.bytesReceived());
    }

    /**
     * Found by a tester: TLS asked of a plain TCP server ended with only "closed by server". Whether the server's
     * first bytes or its close reach the client first, the reason says the port does not speak TLS.
     */
    @Test
    void shouldSayAPlainServerDoesNotSpeakTls() throws Exception {
        // As hapticsd's plain TCP port does with a ClientHello: read as a frame too long, and the connection closed.
        try (java.net.ServerSocket plain = new java.net.ServerSocket(0, 1,
                java.net.InetAddress.getLoopbackAddress())) {
            Thread closer = new Thread(() -> {
                try (java.net.Socket s = plain.accept()) {
                    s.getInputStream().read();
                } catch (java.io.IOException ignored) {
                    // The test's assertion says what happened.
                }
            });
            closer.start();
            client = StreamClient.builder(URI.create("tcp://127.0.0.1:" + plain.getLocalPort())).listener(listener)
                .tls(true).reconnect(Duration.ofSeconds(10), Duration.ofSeconds(10)).build();
            client.connect();
            assertEquals("disconnected: closed by server during the TLS handshake (does this port speak TLS? the "
                + "server's plain TCP port does not: drop --tls, or start the server with TLS)", listener.next(WAIT_MS));
            closer.join();
        }
    }

    @Test
    void shouldSubscribeAgainInEverySessionAfterTheServerDropsTheConnection() throws Exception {
        connected(builder().rateHz(25));
        assertEquals(25, nextReceived(SubscribeMessage.class).rateHz());

        server.drop();
        assertEquals("disconnected: closed by server", listener.next(WAIT_MS));
        assertEquals("connected test", listener.next(WAIT_MS));
        assertEquals("scene 7", listener.next(WAIT_MS));
        assertEquals(25, nextReceived(SubscribeMessage.class).rateHz());

        client.subscribe(10);
        assertEquals(10, nextReceived(SubscribeMessage.class).rateHz());
        server.drop();
        assertEquals("disconnected: closed by server", listener.next(WAIT_MS));
        assertEquals("connected test", listener.next(WAIT_MS));
        assertEquals(10, nextReceived(SubscribeMessage.class).rateHz(), "the newest rate, after the reconnect");

        StreamClientCounters c = client.counters();
        assertEquals(3, c.sessions());
        assertEquals(2, c.reconnects(), "one attempt per drop: the server was up each time");
        assertEquals(3, c.helloMessages());
        assertEquals(0, c.decodeErrors());
    }

    @Test
    void shouldMatchEachAckToItsCommandWhateverTheOrder() throws Exception {
        connected(builder());
        CompletableFuture<AckMessage> pause = client.send(new Command.Pause());
        CompletableFuture<AckMessage> stop = client.send(new Command.EmergencyStop());
        CommandMessage first = nextReceived(CommandMessage.class);
        CommandMessage second = nextReceived(CommandMessage.class);
        assertEquals(new Command.Pause(), first.command());
        assertEquals(new Command.EmergencyStop(), second.command());
        assertEquals(TOKEN, first.authToken());
        assertTrue(first.commandId() != second.commandId(), "fresh ids");

        server.send(new AckMessage(second.commandId(), true, ""));
        server.send(new AckMessage(first.commandId(), false, "not supported"));
        server.send(new AckMessage(4_000_000_000L, true, ""));
        assertEquals(new AckMessage(first.commandId(), false, "not supported"),
            pause.get(WAIT_MS, TimeUnit.MILLISECONDS));
        assertEquals(new AckMessage(second.commandId(), true, ""), stop.get(WAIT_MS, TimeUnit.MILLISECONDS));
        assertTrue(await(client, c -> c.unmatchedAcks() == 1), "the foreign ACK: " + client.counters());
        assertEquals(3, client.counters().ackMessages());
    }

    @Test
    void shouldFailAPendingCommandWhenTheConnectionDrops() throws Exception {
        connected(builder());
        CompletableFuture<AckMessage> pause = client.send(new Command.Pause());
        nextReceived(CommandMessage.class);
        server.drop();
        ExecutionException e = assertThrows(ExecutionException.class, () -> pause.get(WAIT_MS, TimeUnit.MILLISECONDS));
        assertInstanceOf(StreamClosedException.class, e.getCause());
        assertTrue(e.getCause().getMessage().contains("closed by server"), e.getCause().getMessage());
    }

    @Test
    void shouldTimeOutACommandWithoutAckAndCountItsLateAck() throws Exception {
        connected(builder().commandTimeout(Duration.ofMillis(100)));
        CompletableFuture<AckMessage> pause = client.send(new Command.Pause());
        CommandMessage sent = nextReceived(CommandMessage.class);
        ExecutionException e = assertThrows(ExecutionException.class, () -> pause.get(WAIT_MS, TimeUnit.MILLISECONDS));
        assertInstanceOf(TimeoutException.class, e.getCause());
        server.send(new AckMessage(sent.commandId(), true, ""));
        assertTrue(await(client, c -> c.unmatchedAcks() == 1), client.counters().toString());
    }

    @Test
    void shouldRefuseACommandBeforeASessionIsUp() {
        client = builder().build();
        ExecutionException e = assertThrows(ExecutionException.class,
            () -> client.send(new Command.Pause()).get(WAIT_MS, TimeUnit.MILLISECONDS));
        assertInstanceOf(StreamClosedException.class, e.getCause());
        assertEquals("not connected", e.getCause().getMessage());
    }

    @Test
    void shouldCountAMalformedMessageCloseAndReconnect() throws Exception {
        connected(builder());
        byte[] otherVersion = StreamCodec.encode(TestStreamServer.state(1, TestStreamServer.SCENE_REVISION));
        otherVersion[0] = (byte) (StreamProtocol.VERSION + 1);
        server.sendFrame(otherVersion);
        String disconnected = listener.next(WAIT_MS);
        assertTrue(disconnected.startsWith("disconnected: malformed message from server: "), disconnected);
        assertEquals("connected test", listener.next(WAIT_MS));
        StreamClientCounters c = client.counters();
        assertEquals(1, c.decodeErrors());
        assertEquals(2, c.sessions());
        assertEquals(0, c.stateMessages(), "the malformed STATE is not counted as one");
    }

    @Test
    void shouldTreatAMessageOverTheSizeLimitAsMalformed() throws Exception {
        connected(builder().maxMessageBytes(1024));
        server.sendFrame(new byte[1025]);
        String disconnected = listener.next(WAIT_MS);
        assertTrue(disconnected.startsWith("disconnected: malformed message from server: "), disconnected);
        assertEquals("connected test", listener.next(WAIT_MS));
        assertEquals(1, client.counters().decodeErrors());
    }

    @Test
    void shouldCountListenerExceptionsAndKeepTheConnection() throws Exception {
        RecordingListener throwing = new RecordingListener() {
            @Override
            public void onState(StateMessage state) {
                super.onState(state);
                throw new IllegalStateException("listener bug " + state.tick());
            }
        };
        listener = throwing;
        connected(builder());
        for (int tick = 1; tick <= 3; tick++) {
            server.send(TestStreamServer.state(tick, TestStreamServer.SCENE_REVISION));
        }
        assertEquals("state 1", listener.next(WAIT_MS));
        assertEquals("state 2", listener.next(WAIT_MS));
        assertEquals("state 3", listener.next(WAIT_MS));
        assertTrue(await(client, c -> c.listenerErrors() == 3), client.counters().toString());
        assertEquals("listener bug 3", client.lastListenerError().getMessage());
        assertTrue(client.isConnected());
        assertEquals(1, client.counters().sessions());
        assertEquals(3, client.latestState().tick());
    }

    @Test
    void shouldSkipAStateOfAnotherSceneRevision() throws Exception {
        connected(builder());
        server.send(TestStreamServer.state(1, TestStreamServer.SCENE_REVISION + 1));
        server.send(TestStreamServer.state(2, TestStreamServer.SCENE_REVISION));
        assertEquals("state 2", listener.next(WAIT_MS));
        assertEquals(1, client.counters().statesOfUnknownScene());
        assertEquals(2, client.counters().stateMessages());
    }

    @Test
    void shouldFailConnectWithoutRetryingWhenReconnectIsOff() throws Exception {
        int closedPort;
        try (ServerSocket probe = new ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            closedPort = probe.getLocalPort();
        }
        client = StreamClient.builder(URI.create("tcp://127.0.0.1:" + closedPort)).listener(listener)
            .noReconnect().build();
        ExecutionException e = assertThrows(ExecutionException.class,
            () -> client.connect().get(WAIT_MS, TimeUnit.MILLISECONDS));
        assertInstanceOf(StreamClosedException.class, e.getCause());
        assertTrue(e.getCause().getMessage().toLowerCase().contains("refused"), e.getCause().getMessage());
        assertTrue(listener.next(WAIT_MS).startsWith("disconnected: "));
        assertEquals(0, client.counters().reconnects());
        assertFalse(client.isConnected());
        // Found by a tester: with nothing left to try, close() gave no callback; "closed by client" is the last.
        client.close();
        assertEquals("disconnected: closed by client", listener.next(WAIT_MS));
        assertEquals("(none within 200 ms)", listener.next(200));
    }

    @Test
    void shouldTellTheListenerAndStopWhenClosed() throws Exception {
        connected(builder());
        client.close();
        assertEquals("disconnected: closed by client", listener.next(WAIT_MS));
        assertTrue(client.isClosed());
        assertFalse(client.isConnected());
        ExecutionException e = assertThrows(ExecutionException.class,
            () -> client.send(new Command.Pause()).get(WAIT_MS, TimeUnit.MILLISECONDS));
        assertInstanceOf(StreamClosedException.class, e.getCause());
        assertNotNull(server.nextConnection(WAIT_MS));
        assertEquals(null, server.nextConnection(300), "no reconnect after close (checked for 300 ms)");
    }
}
