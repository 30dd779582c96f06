package org.hapticsd.server.net;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocket13FrameDecoder;
import io.netty.handler.codec.http.websocketx.WebSocket13FrameEncoder;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.hapticsd.protocol.stream.Command;
import org.hapticsd.protocol.stream.CommandMessage;
import org.hapticsd.protocol.stream.StreamCodec;
import org.hapticsd.protocol.stream.SubscribeMessage;
import org.hapticsd.server.loop.CommandQueue;
import org.hapticsd.server.loop.LoopSnapshot;
import org.hapticsd.server.loop.SnapshotExchange;
import org.junit.jupiter.api.Test;

/**
 * The server's two pipelines, exactly as {@link StreamServer} builds them, on Netty's {@link EmbeddedChannel}: the raw
 * TCP framing (little-endian length prefix in and out, the inbound size limit), the WebSocket upgrade and frames,
 * and what malformed input does. The fuzz tests feed seeded random and truncated input and require that no
 * exception escapes the pipeline ({@link EmbeddedChannel#checkException()}): a connection may be closed, the
 * server may not be left with an unhandled error.
 */
class StreamPipelineTest {
    private static final long TICK = 7;
    private static final int STATE_BYTES = 12;
    private static final String TOKEN = "pipeline-test-token";
    /** Fixed seeds: a failure reproduces. */
    private static final long SEED = 0x5eedL;

    /** What the stream handlers passed on to the request side, in order. */
    private static final class Recording implements StreamRequests {
        final List<byte[]> binary = new CopyOnWriteArrayList<>();
        final List<String> json = new CopyOnWriteArrayList<>();

        @Override
        public void onBinary(ClientStream stream, byte[] message, Channel channel) {
            binary.add(message);
        }

        @Override
        public void onJson(ClientStream stream, String message, Channel channel) {
            json.add(message);
        }
    }

    /** A server that is never started: only its pipelines are used. One published snapshot, tick 7. */
    private static StreamServer server(StreamRequests requests, int maxInboundBytes) {
        SnapshotExchange exchange = new SnapshotExchange(1);
        LoopSnapshot snapshot = exchange.newSnapshot();
        snapshot.tick = TICK;
        exchange.publish(snapshot);
        StreamServerConfig config = StreamServerConfig.defaults().withPorts(0, 0)
            .withLimits(16, maxInboundBytes, 60, 5);
        return new StreamServer(config, exchange, new TickFrames(STATE_BYTES), requests, null, 1_000_000L);
    }

    private static EmbeddedChannel channel(Consumer<Channel> pipeline) {
        return new EmbeddedChannel(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                pipeline.accept(ch);
            }
        });
    }

    private static EmbeddedChannel tcp(StreamServer server) {
        return channel(server::initTcpPipeline);
    }

    private static EmbeddedChannel web(StreamServer server) {
        return channel(server::initWebPipeline);
    }

    /** Everything the channel wrote so far, as one byte array; the written buffers are released. */
    private static byte[] drainOutbound(EmbeddedChannel ch) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Object o = ch.readOutbound(); o != null; o = ch.readOutbound()) {
            ByteBuf buf = (ByteBuf) o;
            byte[] bytes = new byte[buf.readableBytes()];
            buf.readBytes(bytes);
            buf.release();
            out.writeBytes(bytes);
        }
        return out.toByteArray();
    }

    /** Cuts a byte stream of length-prefixed frames (u32 LE) into frames; fails on a partial frame. */
    private static List<byte[]> frames(byte[] stream) {
        ByteBuffer in = ByteBuffer.wrap(stream).order(ByteOrder.LITTLE_ENDIAN);
        List<byte[]> frames = new ArrayList<>();
        while (in.hasRemaining()) {
            assertTrue(in.remaining() >= 4, "partial length prefix");
            int length = in.getInt();
            assertTrue(length >= 0 && length <= in.remaining(), "length " + length + " beyond the bytes sent");
            byte[] frame = new byte[length];
            in.get(frame);
            frames.add(frame);
        }
        return frames;
    }

    private static byte[] prefixed(byte[]... messages) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] m : messages) {
            out.writeBytes(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(m.length).array());
            out.writeBytes(m);
        }
        return out.toByteArray();
    }

    // ---- raw TCP ----

    @Test
    void shouldPrefixEveryTcpFrameWithItsLittleEndianLength() {
        EmbeddedChannel ch = tcp(server(new Recording(), 1024));
        List<byte[]> out = frames(drainOutbound(ch));
        assertEquals(3, out.size(), "HELLO, SCENE and the first STATE on connect");
        assertArrayEquals(new byte[] {TickFrames.HELLO}, out.get(0));
        assertArrayEquals(new byte[] {TickFrames.SCENE}, out.get(1));
        assertEquals(STATE_BYTES, out.get(2).length);
        assertEquals(TICK, TickFrames.tickOf(out.get(2)));
        ch.finishAndReleaseAll();
    }

    @Test
    void shouldCutInboundTcpFramesByTheirPrefixHoweverTheBytesArrive() {
        byte[] a = {1, 2, 3, 4, 5};
        byte[] b = new byte[300];
        Arrays.fill(b, (byte) 0x5a);
        // The largest message that passes is the configured limit itself (the prefix does not count, spec 2.2).
        byte[] c = new byte[1024];
        new Random(SEED).nextBytes(c);
        byte[] stream = prefixed(a, b, c);
        for (int chunk : new int[] {1, 3, 7, stream.length}) {
            Recording requests = new Recording();
            EmbeddedChannel ch = tcp(server(requests, 1024));
            for (int i = 0; i < stream.length; i += chunk) {
                ch.writeInbound(Unpooled.wrappedBuffer(stream, i, Math.min(chunk, stream.length - i)));
            }
            assertEquals(3, requests.binary.size(), "chunks of " + chunk);
            assertArrayEquals(a, requests.binary.get(0));
            assertArrayEquals(b, requests.binary.get(1));
            assertArrayEquals(c, requests.binary.get(2), "the largest message is accepted");
            assertTrue(ch.isOpen());
            ch.finishAndReleaseAll();
        }
    }

    @Test
    void shouldCloseATcpConnectionWhoseFrameExceedsTheLimit() {
        Recording requests = new Recording();
        StreamServer server = server(requests, 1024);
        EmbeddedChannel ch = tcp(server);
        // The prefix alone is enough: the decoder refuses before buffering the body (failFast).
        ch.writeInbound(Unpooled.wrappedBuffer(new byte[] {0x01, 0x04, 0x00, 0x00})); // 1025, one over the limit
        ch.checkException();
        assertFalse(ch.isOpen(), "a frame over the limit closes the connection");
        assertEquals(1, server.clientErrors());
        assertTrue(requests.binary.isEmpty());
        ch.finishAndReleaseAll();
    }

    @Test
    void shouldCloseATcpConnectionWhoseLengthIsShorterThanAHeader() {
        for (int length = 0; length < 4; length++) {
            Recording requests = new Recording();
            StreamServer server = server(requests, 1024);
            EmbeddedChannel ch = tcp(server);
            ch.writeInbound(Unpooled.wrappedBuffer(prefixed(new byte[length])));
            ch.checkException();
            assertFalse(ch.isOpen(), "length " + length + " is a framing error (spec 2.2)");
            assertEquals(1, server.clientErrors());
            assertTrue(requests.binary.isEmpty());
            ch.finishAndReleaseAll();
        }
    }

    @Test
    void shouldDropTruncatedMessagesAndKeepTheConnection() {
        CommandQueue queue = new CommandQueue();
        CommandGate gate = new CommandGate(TOKEN, queue);
        EmbeddedChannel ch = tcp(server(gate, 64 * 1024));
        drainOutbound(ch);
        List<byte[]> valid = List.of(
            StreamCodec.encode(new SubscribeMessage(250)),
            StreamCodec.encode(new CommandMessage(1, TOKEN, new Command.EmergencyStop())),
            StreamCodec.encode(new CommandMessage(2, TOKEN, new Command.LoadScene("pen"))),
            StreamCodec.encode(new CommandMessage(3, TOKEN, new Command.SetParameter("contact.stiffnessNpm", 1500))));
        int truncated = 0;
        for (byte[] message : valid) {
            // Lengths 0..3 are framing errors that close the connection (tested above); from 4 on, truncated.
            for (int length = 4; length < message.length; length++) {
                ch.writeInbound(Unpooled.wrappedBuffer(prefixed(Arrays.copyOf(message, length))));
                ch.checkException();
                truncated++;
            }
        }
        // Spec 2.2: a well-framed message that fails to decode is dropped and the connection kept.
        assertTrue(ch.isOpen());
        assertEquals(truncated, gate.malformed(), "every truncation is a malformed message");
        assertEquals(0, gate.accepted() + gate.refused(), "no truncated command was acted on");
        ch.writeInbound(Unpooled.wrappedBuffer(prefixed(valid.get(1))));
        assertEquals(1, gate.accepted(), "the whole message still works after the malformed ones");
        ch.finishAndReleaseAll();
    }

    @Test
    void shouldLetNoExceptionEscapeTheTcpPipelineOnRandomInput() {
        Random random = new Random(SEED);
        byte[] subscribe = StreamCodec.encode(new SubscribeMessage(60));
        for (int run = 0; run < 500; run++) {
            CommandGate gate = new CommandGate(TOKEN, new CommandQueue());
            EmbeddedChannel ch = tcp(server(gate, 1024));
            byte[] input;
            if (run % 2 == 0) {
                // Pure noise: mostly absurd lengths, closed at once.
                input = new byte[1 + random.nextInt(2048)];
                random.nextBytes(input);
            } else {
                // Plausible lengths with noise and flipped bytes inside: reaches the message decoder.
                byte[] body = subscribe.clone();
                if (random.nextBoolean()) {
                    body = new byte[random.nextInt(64)];
                    random.nextBytes(body);
                } else {
                    body[random.nextInt(body.length)] ^= (byte) (1 + random.nextInt(255));
                }
                input = prefixed(body, body);
            }
            feedInChunks(ch, input, random);
            ch.runPendingTasks();
            ch.checkException();
            ch.finishAndReleaseAll();
        }
    }

    private static void feedInChunks(EmbeddedChannel ch, byte[] input, Random random) {
        int i = 0;
        while (i < input.length && ch.isOpen()) {
            int n = Math.min(input.length - i, 1 + random.nextInt(64));
            ch.writeInbound(Unpooled.wrappedBuffer(input, i, n));
            ch.checkException();
            i += n;
        }
    }

    // ---- WebSocket ----

    private static final String KEY = "dGhlIHNhbXBsZSBub25jZQ==";
    /** RFC 6455, section 1.3: the accept value for the sample key above. */
    private static final String ACCEPT = "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=";

    private static ByteBuf upgradeRequest(String query) {
        return Unpooled.copiedBuffer("GET /ws" + query + " HTTP/1.1\r\n"
            + "Host: 127.0.0.1:8080\r\n"
            + "Upgrade: websocket\r\n"
            + "Connection: Upgrade\r\n"
            + "Sec-WebSocket-Key: " + KEY + "\r\n"
            + "Sec-WebSocket-Version: 13\r\n\r\n", StandardCharsets.US_ASCII);
    }

    /** Splits the server's bytes after an upgrade into the HTTP response head and the WebSocket frames after it. */
    private static List<WebSocketFrame> afterUpgrade(byte[] out, StringBuilder head) {
        String text = new String(out, StandardCharsets.ISO_8859_1);
        int end = text.indexOf("\r\n\r\n");
        assertTrue(end > 0, "no HTTP response: " + text);
        head.append(text, 0, end);
        return serverFrames(Arrays.copyOfRange(out, end + 4, out.length));
    }

    /** Decodes frames as a client would (server frames are unmasked). */
    private static List<WebSocketFrame> serverFrames(byte[] bytes) {
        EmbeddedChannel client = new EmbeddedChannel(new WebSocket13FrameDecoder(false, false, 1 << 20));
        client.writeInbound(Unpooled.wrappedBuffer(bytes));
        List<WebSocketFrame> frames = new ArrayList<>();
        for (Object o = client.readInbound(); o != null; o = client.readInbound()) {
            frames.add((WebSocketFrame) o);
        }
        client.finishAndReleaseAll();
        return frames;
    }

    /** A client frame as a client sends it: masked (RFC 6455, 5.3). */
    private static ByteBuf masked(WebSocketFrame frame) {
        EmbeddedChannel client = new EmbeddedChannel(new WebSocket13FrameEncoder(true));
        client.writeOutbound(frame);
        return Unpooled.wrappedBuffer(drainOutbound(client));
    }

    private static byte[] bytesOf(WebSocketFrame frame) {
        byte[] bytes = new byte[frame.content().readableBytes()];
        frame.content().getBytes(frame.content().readerIndex(), bytes);
        frame.release();
        return bytes;
    }

    @Test
    void shouldUpgradeAndSendHelloSceneAndStateAsBinaryFrames() {
        Recording requests = new Recording();
        EmbeddedChannel ch = web(server(requests, 1024));
        ch.writeInbound(upgradeRequest("?format=binary&rate=0"));
        StringBuilder head = new StringBuilder();
        List<WebSocketFrame> frames = afterUpgrade(drainOutbound(ch), head);
        assertTrue(head.toString().startsWith("HTTP/1.1 101"), head.toString());
        assertTrue(head.toString().contains(ACCEPT), head.toString());
        assertEquals(3, frames.size(), "HELLO, SCENE, STATE: " + frames);
        assertTrue(frames.stream().allMatch(f -> f instanceof BinaryWebSocketFrame));
        assertArrayEquals(new byte[] {TickFrames.HELLO}, bytesOf(frames.get(0)));
        assertArrayEquals(new byte[] {TickFrames.SCENE}, bytesOf(frames.get(1)));
        assertEquals(TICK, TickFrames.tickOf(bytesOf(frames.get(2))));

        byte[] subscribe = StreamCodec.encode(new SubscribeMessage(30));
        ch.writeInbound(masked(new BinaryWebSocketFrame(Unpooled.wrappedBuffer(subscribe))));
        ch.writeInbound(masked(new TextWebSocketFrame("{\"type\":\"SUBSCRIBE\",\"rateHz\":30}")));
        assertEquals(1, requests.binary.size());
        assertArrayEquals(subscribe, requests.binary.get(0));
        assertEquals(List.of("{\"type\":\"SUBSCRIBE\",\"rateHz\":30}"), requests.json);
        ch.finishAndReleaseAll();
    }

    /**
     * A client dropped for not reading is closed from the head of the pipeline: no close frame, which it would never
     * take (Netty's WebSocket handler then waited 10 s more before closing: a tester's stuck clients held their slots
     * 15 s).
     */
    @Test
    void shouldDropAWebSocketWithoutACloseFrame() {
        EmbeddedChannel ch = web(server(new Recording(), 1024));
        ch.writeInbound(upgradeRequest("?format=binary&rate=0"));
        drainOutbound(ch);
        ClientStream.abort(ch);
        ch.runPendingTasks();
        assertFalse(ch.isOpen(), "closed at once");
        assertEquals(0, drainOutbound(ch).length, "nothing written: no close frame");
        ch.finishAndReleaseAll();

        EmbeddedChannel polite = web(server(new Recording(), 1024));
        polite.writeInbound(upgradeRequest("?format=binary&rate=0"));
        drainOutbound(polite);
        polite.close();
        polite.runPendingTasks();
        assertTrue(serverFrames(drainOutbound(polite)).stream().anyMatch(f -> f instanceof CloseWebSocketFrame),
            "an ordinary close sends the close frame, and waits for the client's");
        polite.finishAndReleaseAll();
    }

    /** A tester's WebSocket clients saw 1006 (no close frame) when the server stopped: they now get 1001. */
    @Test
    void shouldSendAWebSocketGoingAwayWhenTheServerFinishes() {
        StreamServer server = server(new Recording(), 1024);
        EmbeddedChannel ch = web(server);
        ch.writeInbound(upgradeRequest("?format=binary&rate=0"));
        drainOutbound(ch);
        server.flushClients(0);
        ch.runPendingTasks();
        List<WebSocketFrame> frames = serverFrames(drainOutbound(ch));
        WebSocketFrame last = frames.get(frames.size() - 1);
        assertTrue(last instanceof CloseWebSocketFrame, "the last frame: " + frames);
        assertEquals(1001, ((CloseWebSocketFrame) last).statusCode());
        ch.finishAndReleaseAll();
    }

    @Test
    void shouldSendTextFramesToAJsonClient() {
        EmbeddedChannel ch = web(server(new Recording(), 1024));
        ch.writeInbound(upgradeRequest("?format=json"));
        List<WebSocketFrame> frames = afterUpgrade(drainOutbound(ch), new StringBuilder());
        assertEquals(3, frames.size(), frames.toString());
        assertTrue(frames.stream().allMatch(f -> f instanceof TextWebSocketFrame));
        assertEquals("{\"type\":\"state\",\"tick\":7}", ((TextWebSocketFrame) frames.get(2)).text());
        frames.forEach(WebSocketFrame::release);
        ch.finishAndReleaseAll();
    }

    @Test
    void shouldCloseAWebSocketWhoseFrameExceedsTheLimit() {
        Recording requests = new Recording();
        EmbeddedChannel ch = web(server(requests, 1024));
        ch.writeInbound(upgradeRequest(""));
        drainOutbound(ch);
        ch.writeInbound(masked(new BinaryWebSocketFrame(Unpooled.wrappedBuffer(new byte[1025]))));
        ch.runPendingTasks();
        ch.checkException();
        assertFalse(ch.isOpen(), "a frame over the limit closes the connection");
        assertTrue(requests.binary.isEmpty());
        ch.finishAndReleaseAll();
    }

    @Test
    void shouldLetNoExceptionEscapeTheWebPipelineOnRandomInput() {
        Random random = new Random(SEED);
        for (int run = 0; run < 300; run++) {
            CommandGate gate = new CommandGate(TOKEN, new CommandQueue());
            EmbeddedChannel ch = web(server(gate, 1024));
            byte[] input;
            switch (run % 3) {
                case 0 -> {
                    // Noise instead of an HTTP request.
                    input = new byte[1 + random.nextInt(1024)];
                    random.nextBytes(input);
                }
                case 1 -> {
                    // A truncated upgrade request: the HTTP decoder waits for more; nothing may throw.
                    byte[] request = new byte[upgradeRequest("").readableBytes()];
                    upgradeRequest("").readBytes(request);
                    input = Arrays.copyOf(request, random.nextInt(request.length));
                }
                default -> {
                    // After a good upgrade: noise as WebSocket frames, or a masked frame cut short.
                    ch.writeInbound(upgradeRequest("?rate=10"));
                    drainOutbound(ch);
                    if (random.nextBoolean()) {
                        input = new byte[1 + random.nextInt(1024)];
                        random.nextBytes(input);
                    } else {
                        ByteBuf frame = masked(new BinaryWebSocketFrame(Unpooled.wrappedBuffer(
                            StreamCodec.encode(new CommandMessage(run, TOKEN, new Command.EmergencyStop())))));
                        byte[] whole = new byte[frame.readableBytes()];
                        frame.readBytes(whole);
                        input = Arrays.copyOf(whole, random.nextInt(whole.length));
                    }
                }
            }
            feedInChunks(ch, input, random);
            ch.runPendingTasks();
            ch.checkException();
            ch.finishAndReleaseAll();
        }
    }
}
