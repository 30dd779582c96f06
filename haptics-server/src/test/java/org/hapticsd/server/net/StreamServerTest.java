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
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The stream server end to end on 127.0.0.1, with a fake loop publishing a tick per millisecond and test frames
 * that carry the tick: WebSocket clients at different rates, a raw TCP client, a client that never reads, the
 * connection cap, oversized frames, the Origin check and the bind rule. Counts over real time carry tolerances
 * for this shared 2-vCPU machine, stated at each.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StreamServerTest {
    private static final long MS = 1_000_000L;

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

    @Test
    void shouldSendEachClientItsRateWithIncreasingTicks() throws Exception {
        try (FakeLoop loop = new FakeLoop(); StreamServer server = server(loop, localConfig(), 8)) {
            Collector slow = new Collector();
            Collector fast = new Collector();
            Collector everyTick = new Collector();
            WebSocket a = connect(server.httpPort(), "?rate=20", slow);
            WebSocket b = connect(server.httpPort(), "?rate=200", fast);
            WebSocket c = connect(server.httpPort(), "?rate=0", everyTick);
            Thread.sleep(500);
            int slow0 = slow.messages.size();
            int fast0 = fast.messages.size();
            int all0 = everyTick.messages.size();
            long ticks0 = loop.ticks();
            long startNs = System.nanoTime();
            Thread.sleep(2_000);
            double elapsedS = (System.nanoTime() - startNs) * 1e-9;
            long published = loop.ticks() - ticks0;
            int slowCount = slow.messages.size() - slow0;
            int fastCount = fast.messages.size() - fast0;
            int allCount = everyTick.messages.size() - all0;
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
            // Over the measured interval: 20 Hz, 200 Hz and every tick, where a client cannot get more STATEs than
            // the fake loop published (it runs late too when this 2-core machine is busy). Deadlines are absolute
            // and a late run never bursts, so a count can fall short (Netty's timer, this machine's stalls: down to
            // half is allowed) but exceed the nominal count only by the frames in flight at the two instants (2).
            assertWithin(slowCount, Math.min(20 * elapsedS, published), "20 Hz");
            assertWithin(fastCount, Math.min(200 * elapsedS, published), "200 Hz");
            assertWithin(allCount, published, "every tick");
        }
    }

    private static void assertWithin(int count, double nominal, String what) {
        assertTrue(count >= 0.5 * nominal && count <= nominal + 2,
            what + ": " + count + " frames where " + String.format("%.1f", nominal) + " were due");
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

    private static byte[] readFrame(DataInputStream in) throws IOException {
        int length = Integer.reverseBytes(in.readInt());
        byte[] frame = new byte[length];
        in.readFully(frame);
        return frame;
    }

    @Test
    void shouldConflateAndThenDropAClientThatNeverReadsWhileOthersKeepReceiving() throws Exception {
        StreamServerConfig config = localConfig().withLimits(16, 64 * 1024, 60, 1);
        try (FakeLoop loop = new FakeLoop(); StreamServer server = server(loop, config, 64 * 1024)) {
            Socket stuck = new Socket();
            stuck.setReceiveBufferSize(4096);
            stuck.connect(new InetSocketAddress("127.0.0.1", server.tcpPort()));
            Collector reader = new Collector();
            WebSocket ws = connect(server.httpPort(), "?rate=50", reader);
            // 64 KiB frames every tick fill the stuck client's buffers at once; it stays unwritable, and after the
            // configured 1 s (plus one 1 ms run) the server closes it. 5 s allows for a slow machine.
            long deadline = System.nanoTime() + 5_000 * MS;
            boolean closed = false;
            InputStream stuckIn = stuck.getInputStream();
            while (System.nanoTime() - deadline < 0 && !closed) {
                Thread.sleep(100);
                closed = server.clients() == 1;
            }
            assertTrue(closed, "the stuck client is still connected after 5 s");
            int before = reader.messages.size();
            Thread.sleep(500);
            // The other client kept its 50 Hz: 25 frames in 0.5 s, at least 10 allowing for this machine.
            assertTrue(reader.messages.size() - before >= 10, "reader got " + (reader.messages.size() - before));
            // Draining the stuck socket ends in end-of-stream: the server closed it.
            byte[] sink = new byte[1 << 16];
            long drained = 0;
            int n;
            while ((n = stuckIn.read(sink)) >= 0) {
                drained += n;
            }
            // Conflated, not queued: far less than the 1 s of frames it was offered (1000 × 64 KiB = 64 MiB).
            assertTrue(drained < 8L << 20, "bytes queued for the stuck client: " + drained);
            ws.abort();
            stuck.close();
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
            for (String query : List.of("?rate=fast", "?rate=-5", "?format=xml")) {
                CompletableFuture<WebSocket> ws = HttpClient.newHttpClient().newWebSocketBuilder()
                    .buildAsync(URI.create("ws://127.0.0.1:" + server.httpPort() + "/ws" + query), new Collector());
                assertThrows(CompletionException.class, ws::join, query);
            }
        }
    }
}
