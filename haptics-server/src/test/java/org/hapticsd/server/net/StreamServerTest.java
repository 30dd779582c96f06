package org.hapticsd.server.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.net.http.WebSocketHandshakeException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The stream server end to end on 127.0.0.1, with a fake loop publishing a tick per millisecond and test frames
 * that carry the tick: WebSocket clients at different rates, a raw TCP client, a client that never reads, the
 * connection cap, oversized frames, the Origin check and the bind rule.
 *
 * <p>This shared 2-vCPU machine sets the pace here, so nothing is asserted against the wall clock: rates, the
 * no-burst schedule, conflation and the unwritable timeout are asserted exactly on simulated time in
 * {@link StreamScheduleTest}, on the same pipelines. Here the tests wait for events (bounded by
 * {@link #HANG_GUARD_MS}, which only turns a hang into a failure) and compare clients of the same run.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StreamServerTest {
    private static final long MS = 1_000_000L;
    /** How long a wait for an event may take before the test fails as hung; never a statement about speed. */
    private static final long HANG_GUARD_MS = 30_000;

    private static StreamServer server(FakeLoop loop, StreamServerConfig config, int stateBytes) throws IOException {
        return new StreamServer(config, loop.exchange, new TickFrames(stateBytes), new NoRequests(), null, MS).start();
    }

    private static StreamServerConfig localConfig() {
        return StreamServerConfig.defaults().withPorts(0, 0);
    }

    /** Collects binary messages of a java.net.http WebSocket, whole (partial messages joined). */
    private static final class Collector implements WebSocket.Listener {
        final List<byte[]> messages = new CopyOnWriteArrayList<>();
        private ByteBuffer partial = ByteBuffer.allocate(0);
        /** How the WebSocket ended, if it did: for a failure message that must say which connection closed. */
        volatile String ended = "open";

        @Override
        public CompletionStage<?> onClose(WebSocket ws, int statusCode, String reason) {
            ended = "closed by the server, status " + statusCode + " '" + reason + "'";
            return null;
        }

        @Override
        public void onError(WebSocket ws, Throwable error) {
            ended = "failed: " + error;
        }

        @Override
        public CompletionStage<?> onBinary(WebSocket ws, ByteBuffer data, boolean last) {
            ByteBuffer joined = ByteBuffer.allocate(partial.remaining() + data.remaining());
            joined.put(partial).put(data).flip();
            if (last) {
                byte[] bytes = new byte[joined.remaining()];
                joined.get(bytes);
                messages.add(bytes);
                partial = ByteBuffer.allocate(0);
            } else {
                partial = joined;
            }
            ws.request(1);
            return null;
        }
    }

    private static WebSocket connect(int port, String query, Collector collector) {
        return HttpClient.newHttpClient().newWebSocketBuilder()
            .buildAsync(URI.create("ws://127.0.0.1:" + port + "/ws" + query), collector).join();
    }

    /** Waits for {@code condition}, polling; fails naming {@code what} after {@link #HANG_GUARD_MS}. */
    private static void await(BooleanSupplier condition, Supplier<String> what) throws InterruptedException {
        long deadlineNs = System.nanoTime() + HANG_GUARD_MS * MS;
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() - deadlineNs < 0,
                "hung for " + HANG_GUARD_MS + " ms waiting for " + what.get());
            Thread.sleep(10);
        }
    }

    private static int stateCount(Collector collector) {
        return Math.max(0, collector.messages.size() - 2);
    }

    /** The median tick gap between a client's consecutive STATEs: loop time, whatever the wall clock did. */
    private static long medianTickGap(Collector collector) {
        List<byte[]> states = collector.messages.subList(2, collector.messages.size());
        long[] gaps = new long[states.size() - 1];
        for (int i = 1; i < states.size(); i++) {
            gaps[i - 1] = TickFrames.tickOf(states.get(i)) - TickFrames.tickOf(states.get(i - 1));
        }
        Arrays.sort(gaps);
        return gaps[gaps.length / 2];
    }

    @Test
    void shouldSendEachClientItsOwnRateWithIncreasingTicks() throws Exception {
        try (FakeLoop loop = new FakeLoop(); StreamServer server = server(loop, localConfig(), 8)) {
            Collector slow = new Collector();
            Collector fast = new Collector();
            Collector everyTick = new Collector();
            WebSocket a = connect(server.httpPort(), "?rate=20", slow);
            WebSocket b = connect(server.httpPort(), "?rate=200", fast);
            WebSocket c = connect(server.httpPort(), "?rate=0", everyTick);
            // Eleven STATEs each: ten gaps for the 20 Hz client's median; the others have many more by then.
            await(() -> stateCount(slow) >= 11 && stateCount(fast) >= 11 && stateCount(everyTick) >= 11,
                () -> "STATEs at 20 Hz, 200 Hz, every tick: " + stateCount(slow) + ", " + stateCount(fast) + ", "
                    + stateCount(everyTick));
            a.abort();
            b.abort();
            c.abort();
            // HELLO and SCENE first, then STATE with strictly increasing ticks.
            for (Collector collector : List.of(slow, fast, everyTick)) {
                assertEquals(TickFrames.HELLO, collector.messages.get(0)[0]);
                assertEquals(TickFrames.SCENE, collector.messages.get(1)[0]);
                long previous = -1;
                for (byte[] m : collector.messages.subList(2, collector.messages.size())) {
                    long tick = TickFrames.tickOf(m);
                    assertTrue(tick > previous, "ticks must increase: " + tick + " after " + previous);
                    previous = tick;
                }
            }
            // Each query's rate reached its client over the real server: compared with each other in this run, the
            // median gaps in loop ticks are in the order of the periods (nominally 50, 5 and 1 ticks). A stall
            // stretches the few gaps it falls into, and a median ignores those. The exact schedules are
            // StreamScheduleTest's, on simulated time.
            long slowGap = medianTickGap(slow);
            long fastGap = medianTickGap(fast);
            long everyTickGap = medianTickGap(everyTick);
            assertTrue(slowGap > fastGap && fastGap > everyTickGap,
                "median tick gaps at 20 Hz, 200 Hz, every tick: " + slowGap + ", " + fastGap + ", " + everyTickGap);
        }
    }

    @Test
    void shouldFrameTcpWithALittleEndianLengthPrefix() throws Exception {
        try (FakeLoop loop = new FakeLoop(); StreamServer server = server(loop, localConfig(), 12);
             Socket socket = new Socket("127.0.0.1", server.tcpPort())) {
            DataInputStream in = new DataInputStream(socket.getInputStream());
            assertEquals(TickFrames.HELLO, readFrame(in)[0]);
            assertEquals(TickFrames.SCENE, readFrame(in)[0]);
            byte[] state = readFrame(in);
            assertEquals(12, state.length, "the length prefix gives the frame's exact size");
            long first = TickFrames.tickOf(state);
            long second = TickFrames.tickOf(readFrame(in));
            // Default 60 Hz: about 16 ticks apart; at least 1 (never the same tick twice).
            assertTrue(second > first, second + " after " + first);
        }
    }

    /**
     * Found by a tester: a dropped message (a SUBSCRIBE with a wrong version byte) and a connection closed for a
     * framing error left no trace but a count. The first malformed message of a connection and each such close are
     * logged, with the client's address and the reason.
     */
    @Test
    void shouldLogAClientsFirstMalformedMessageAndAClosingFramingError() throws Exception {
        java.io.PrintStream original = System.err;
        java.io.ByteArrayOutputStream log = new java.io.ByteArrayOutputStream();
        CommandGate gate = new CommandGate("token", new org.hapticsd.server.loop.CommandQueue());
        try (FakeLoop loop = new FakeLoop();
             StreamServer server = new StreamServer(localConfig(), loop.exchange, new TickFrames(12), gate, null, MS)
                 .start();
             Socket socket = new Socket("127.0.0.1", server.tcpPort())) {
            System.setErr(new java.io.PrintStream(log, true, java.nio.charset.StandardCharsets.UTF_8));
            DataInputStream in = new DataInputStream(socket.getInputStream());
            assertEquals(TickFrames.HELLO, readFrame(in)[0]);
            java.io.OutputStream out = socket.getOutputStream();
            ClientFaultLog.SHARED.forget();
            // Version 9, type SUBSCRIBE (0x81), rate 10 Hz: twice; the second is dropped without a line.
            byte[] subscribe = {6, 0, 0, 0, 9, (byte) 0x81, 0, 0, 10, 0};
            out.write(subscribe);
            out.write(subscribe);
            out.flush();
            long deadline = System.nanoTime() + 5_000_000_000L;
            while (gate.malformed() < 2 && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            ClientFaultLog.SHARED.forget();
            out.write(new byte[] {2, 0, 0, 0, 2, 0});
            out.flush();
            while (server.clientErrors() < 1 && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
        } finally {
            System.setErr(original);
        }
        String text = log.toString(java.nio.charset.StandardCharsets.UTF_8);
        List<String> lines = text.lines().filter(l -> l.contains("stream client /127.0.0.1:")).toList();
        assertEquals(2, lines.size(), text);
        assertTrue(lines.get(0).startsWith("WARN stream client /127.0.0.1:")
            && lines.get(0).contains(": dropped a malformed message: ")
            && lines.get(0).endsWith("(later ones on this connection are dropped without a line)"), text);
        assertTrue(lines.get(1).contains(": connection closed: a frame's length field of 2 bytes, below the 4-byte "
            + "header"), text);
    }

    private static byte[] readFrame(DataInputStream in) throws IOException {
        int length = Integer.reverseBytes(in.readInt());
        byte[] frame = new byte[length];
        in.readFully(frame);
        return frame;
    }

    @Test
    void shouldConflateAndThenDropAClientThatNeverReadsWhileOthersKeepReceiving() throws Exception {
        StreamServerConfig config = localConfig().withLimits(16, 64 * 1024, 60,
            StreamServerConfig.DEFAULT_UNWRITABLE_CLOSE_S);
        try (FakeLoop loop = new FakeLoop(); StreamServer server = server(loop, config, 64 * 1024)) {
            Socket stuck = new Socket();
            stuck.setReceiveBufferSize(4096);
            // Read before connecting, so that no delay of this thread can make the close look early.
            long connectingNs = System.nanoTime();
            stuck.connect(new InetSocketAddress("127.0.0.1", server.tcpPort()));
            Collector reader = new Collector();
            WebSocket ws = connect(server.httpPort(), "?rate=50", reader);
            // 64 KiB frames fill the stuck client's buffers (the kernel's send buffer grows to 4 MiB on loopback); it
            // stays unwritable, and after the default 5 s the server closes it. Exactly when is StreamScheduleTest's,
            // on simulated time; here: it is closed, and never sooner than 5 s after it connected (it cannot have
            // been unwritable before), a bound that slowness cannot break.
            InputStream stuckIn = stuck.getInputStream();
            await(() -> server.clients() == 2, () -> "both clients connected; clients " + server.clients());
            await(() -> server.clients() == 1, () -> "the stuck client to be closed; clients " + server.clients());
            double closedAfterS = (System.nanoTime() - connectingNs) / 1e9;
            assertTrue(closedAfterS >= StreamServerConfig.DEFAULT_UNWRITABLE_CLOSE_S,
                "closed after " + closedAfterS + " s, before it can have been unwritable for 5 s; the reader's "
                    + "WebSocket: " + reader.ended + ", " + reader.messages.size() + " messages; client errors "
                    + server.clientErrors());
            // The other client still receives: ten more of its 50 Hz STATEs.
            int before = reader.messages.size();
            await(() -> reader.messages.size() >= before + 10,
                () -> "the reader's STATEs: " + (reader.messages.size() - before) + " more");
            // Draining the stuck socket ends in end-of-stream: the server closed it.
            byte[] sink = new byte[1 << 16];
            long drained = 0;
            int n;
            while ((n = stuckIn.read(sink)) >= 0) {
                drained += n;
            }
            // Conflated, not queued: far less than the 5 s of frames it was offered (5000 × 64 KiB = 320 MiB).
            assertTrue(drained < 8L << 20, "bytes queued for the stuck client: " + drained);
            ws.abort();
            stuck.close();
        }
    }

    /** A tester's `--bind 256.1.1.1` said "cannot listen on 256.1.1.1:47503: null". */
    @Test
    void shouldNameAnAddressThatDoesNotResolve() throws Exception {
        StreamServerConfig config = localConfig().withBind("256.1.1.1", "0123456789abcdef0123456789abcdef");
        try (FakeLoop loop = new FakeLoop()) {
            java.io.IOException e = org.junit.jupiter.api.Assertions.assertThrows(java.io.IOException.class,
                () -> server(loop, config, 8).close());
            assertTrue(e.getMessage().startsWith("cannot listen on 256.1.1.1:0: unknown address '256.1.1.1'"),
                e.getMessage());
        }
    }

    @Test
    void shouldCloseConnectionsBeyondTheCap() throws Exception {
        StreamServerConfig config = localConfig().withLimits(2, 64 * 1024, 60, 5);
        try (FakeLoop loop = new FakeLoop(); StreamServer server = server(loop, config, 8)) {
            List<Socket> sockets = List.of(new Socket("127.0.0.1", server.tcpPort()),
                new Socket("127.0.0.1", server.tcpPort()), new Socket("127.0.0.1", server.tcpPort()));
            // Whichever the server activates third (not necessarily the third connected) gets only end-of-stream;
            // the other two get their HELLO.
            int closed = 0;
            for (Socket socket : sockets) {
                socket.setSoTimeout(5_000);
                closed += socket.getInputStream().read() < 0 ? 1 : 0;
            }
            assertEquals(1, closed);
            assertEquals(1, server.refusedConnections());
            for (Socket socket : sockets) {
                socket.close();
            }
        }
    }

    @Test
    void shouldCloseATcpClientSendingAnOversizedFrame() throws Exception {
        StreamServerConfig config = localConfig().withLimits(16, 1024, 60, 5);
        try (FakeLoop loop = new FakeLoop(); StreamServer server = server(loop, config, 8);
             Socket socket = new Socket("127.0.0.1", server.tcpPort())) {
            socket.setSoTimeout(5_000);
            OutputStream out = socket.getOutputStream();
            out.write(new byte[] {0x01, 0x08, 0x00, 0x00}); // length 2049 > 1024, little-endian
            out.flush();
            InputStream in = socket.getInputStream();
            byte[] sink = new byte[4096];
            while (in.read(sink) >= 0) {
                // Frames sent before the close; the loop ends at end-of-stream.
            }
            assertTrue(server.clientErrors() >= 1);
        }
    }

    @Test
    void shouldRefuseAWebSocketFromAForeignOriginAndServeNoPathOutsideTheWebFolder() throws Exception {
        try (FakeLoop loop = new FakeLoop(); StreamServer server = server(loop, localConfig(), 8)) {
            CompletionException refused = assertThrows(CompletionException.class, () ->
                HttpClient.newHttpClient().newWebSocketBuilder().header("Origin", "http://evil.example")
                    .buildAsync(URI.create("ws://127.0.0.1:" + server.httpPort() + "/ws"), new Collector()).join());
            assertTrue(refused.getCause() instanceof WebSocketHandshakeException, String.valueOf(refused.getCause()));
            assertEquals(403, ((WebSocketHandshakeException) refused.getCause()).getResponse().statusCode());
            HttpResponse<String> traversal = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.httpPort() + "/../pom.xml")).build(),
                HttpResponse.BodyHandlers.ofString());
            assertEquals(404, traversal.statusCode());
        }
    }

    @Test
    void shouldNeverListenWithoutATokenGeneratingOneOffLoopbackWhenNoneIsGiven() {
        StreamServerConfig generated = StreamServerConfig.defaults().withBind("0.0.0.0", null);
        assertFalse(generated.loopbackOnly());
        assertTrue(generated.tokenGenerated());
        assertTrue(generated.token().matches("[0-9a-f]{32}"), generated.token());
        assertNotEquals(generated.token(), StreamServerConfig.defaults().token(), "a fresh token per server");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> StreamServerConfig.defaults().withBind("0.0.0.0", "short"));
        assertTrue(e.getMessage().contains("at least 8 characters"), e.getMessage());
        StreamServerConfig given = StreamServerConfig.defaults().withBind("0.0.0.0", "correct-horse-battery");
        assertEquals("correct-horse-battery", given.token());
        assertFalse(given.tokenGenerated());
    }

    @Test
    void shouldRejectABadRateOrFormatInTheQuery() throws Exception {
        try (FakeLoop loop = new FakeLoop(); StreamServer server = server(loop, localConfig(), 8)) {
            // Found by a tester: a misspelt parameter streamed at the default rate, and of two rates the first won.
            for (String query : List.of("?rate=fast", "?rate=-5", "?format=xml", "?Rate=5", "?rate=5&rate=200")) {
                CompletableFuture<WebSocket> ws = HttpClient.newHttpClient().newWebSocketBuilder()
                    .buildAsync(URI.create("ws://127.0.0.1:" + server.httpPort() + "/ws" + query), new Collector());
                assertThrows(CompletionException.class, ws::join, query);
            }
            assertTrue(handshakeAnswer(server.httpPort(), "/ws?Rate=5").endsWith("unknown query parameter 'Rate' "
                + "(expected rate and format)"), handshakeAnswer(server.httpPort(), "/ws?Rate=5"));
            String twice = handshakeAnswer(server.httpPort(), "/ws?rate=5&rate=200");
            assertTrue(twice.startsWith("HTTP/1.1 400") && twice.endsWith("query parameter 'rate' given 2 times; give "
                + "it once"), twice);
        }
    }

    /** The server's whole answer to a WebSocket handshake for {@code path}, as text (status line to body). */
    private static String handshakeAnswer(int port, String path) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n"
                + "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                + "Sec-WebSocket-Version: 13\r\nConnection: close\r\n\r\n")
                .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            socket.setSoTimeout(5000);
            String answer = new String(socket.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            return answer.strip();
        }
    }

    /** A client resetting its connection is how connections end, not a protocol error; a failed TLS handshake is one. */
    @Test
    void shouldCountProtocolErrorsNotConnectionResets() throws Exception {
        try (FakeLoop loop = new FakeLoop(); StreamServer server = server(loop, localConfig(), 8)) {
            server.countClientError(null, new IOException("Connection reset by peer"), null);
            assertEquals(0, server.clientErrors());
            server.countClientError(null, new javax.net.ssl.SSLHandshakeException("not TLS"), null);
            server.countClientError(null, new io.netty.handler.codec.CorruptedFrameException("length 2049 > 1024"), null);
            assertEquals(2, server.clientErrors());
        }
    }
}
