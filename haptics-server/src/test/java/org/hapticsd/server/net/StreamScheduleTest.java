package org.hapticsd.server.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocket13FrameDecoder;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import org.agrona.concurrent.CachedNanoClock;
import org.hapticsd.protocol.stream.StreamCodec;
import org.hapticsd.protocol.stream.SubscribeMessage;
import org.hapticsd.server.loop.CommandQueue;
import org.hapticsd.server.loop.LoopSnapshot;
import org.hapticsd.server.loop.SnapshotExchange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Each client's STATE schedule on simulated time: the server's pipelines on Netty's {@link EmbeddedChannel} with its
 * clock frozen, the server's clock and the channel's event loop advanced together one millisecond at a time, and a
 * loop that publishes tick {@code t} at {@code t} ms. So the rates, the absolute deadlines that never burst after a
 * stall, conflation while a client cannot take more, and the unwritable timeout are asserted exactly, tick by tick;
 * no count depends on how busy this machine is. (StreamServerTest runs the same pipelines over real sockets and
 * asserts only what does not depend on time.)
 */
class StreamScheduleTest {
    private static final long MS = 1_000_000L;
    private static final String TOKEN = "schedule-test-token";
    private static final int UNWRITABLE_CLOSE_S = 5;
    /** ChannelOutboundBuffer's user-defined writability bit the tests use to play a client that stops reading. */
    private static final int STUCK_BIT = 1;

    /**
     * One client connection on simulated time. {@link #advance} moves time 1 ms per step: the loop publishes the
     * step's tick, then the event loop runs what is due, as the real event loop would after its timer fires.
     */
    private static final class SimulatedClient {
        final SnapshotExchange exchange = new SnapshotExchange(1);
        final LoopSnapshot published = exchange.newSnapshot();
        final CachedNanoClock clock = new CachedNanoClock();
        final EmbeddedChannel channel;
        private final boolean webSocket;
        long nowMs;

        SimulatedClient(BiConsumer<StreamServer, Channel> pipeline, StreamRequests requests, boolean webSocket)
            throws Exception {
            this.webSocket = webSocket;
            StreamServerConfig config = StreamServerConfig.defaults().withPorts(0, 0)
                .withLimits(16, 64 * 1024, 60, UNWRITABLE_CLOSE_S);
            StreamServer server = new StreamServer(config,
                StreamSource.fixed(new StreamEpoch(exchange, new TickFrames(8))), requests, null, MS, clock);
            exchange.publish(published); // tick 0 at 0 ms
            channel = new EmbeddedChannel(false, false, new ChannelInitializer<Channel>() {
                @Override
                protected void initChannel(Channel ch) {
                    pipeline.accept(server, ch);
                }
            });
            // Frozen before the channel is registered: the first schedule already runs on simulated time.
            channel.freezeTime();
            channel.register();
        }

        static SimulatedClient tcp(StreamRequests requests) throws Exception {
            return new SimulatedClient(StreamServer::initTcpPipeline, requests, false);
        }

        /** A TCP client subscribed to every tick, {@code ms} in, with what it was sent so far read and dropped. */
        static SimulatedClient everyTickTcp(long ms) throws Exception {
            SimulatedClient client = tcp(new CommandGate(TOKEN, new CommandQueue()));
            client.send(StreamCodec.encode(new SubscribeMessage(0)));
            client.advance(ms);
            client.stateTicks();
            return client;
        }

        /** A WebSocket client upgraded with {@code query}; the upgrade response is read and dropped. */
        static SimulatedClient webSocket(String query) throws Exception {
            SimulatedClient client = new SimulatedClient(StreamServer::initWebPipeline, new NoRequests(), true);
            client.channel.writeInbound(Unpooled.copiedBuffer("GET /ws" + query + " HTTP/1.1\r\n"
                + "Host: 127.0.0.1:8080\r\n"
                + "Upgrade: websocket\r\n"
                + "Connection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                + "Sec-WebSocket-Version: 13\r\n\r\n", StandardCharsets.US_ASCII));
            client.channel.runPendingTasks();
            return client;
        }

        /** Moves simulated time by {@code ms}, one millisecond and one published tick at a time. */
        void advance(long ms) {
            for (long i = 0; i < ms; i++) {
                step(1);
            }
        }

        /**
         * The event loop stalls for {@code ms}: the loop keeps publishing a tick per millisecond, but the client's
         * stream runs only once, at the end.
         */
        void stall(long ms) {
            step(ms);
        }

        private void step(long ms) {
            clock.advance(ms * MS);
            channel.advanceTimeBy(ms, TimeUnit.MILLISECONDS);
            nowMs += ms;
            published.tick = nowMs;
            exchange.publish(published);
            channel.runScheduledPendingTasks();
            channel.runPendingTasks();
        }

        /**
         * The event loop wakes {@code ms} late: the loop publishes a tick every millisecond meanwhile, and the
         * client's stream runs once, at the end.
         */
        void lateBy(long ms) {
            publishWhileAsleep(ms);
            channel.runScheduledPendingTasks();
            channel.runPendingTasks();
        }

        /** The loop publishes a tick every millisecond for {@code ms} while the event loop's timers do not run. */
        void publishWhileAsleep(long ms) {
            for (long i = 0; i < ms; i++) {
                clock.advance(MS);
                channel.advanceTimeBy(1, TimeUnit.MILLISECONDS);
                nowMs++;
                published.tick = nowMs;
                exchange.publish(published);
            }
        }

        /** The client stops taking bytes (true) or takes them again (false), as Netty's high water mark says. */
        void stuck(boolean stuck) {
            channel.unsafe().outboundBuffer().setUserDefinedWritability(STUCK_BIT, !stuck);
            channel.runPendingTasks(); // channelWritabilityChanged is fired later on the event loop
        }

        void send(byte[] message) {
            byte[] prefix = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(message.length).array();
            channel.writeInbound(Unpooled.wrappedBuffer(prefix, message));
            channel.runPendingTasks();
        }

        /** The ticks of the STATEs written since the last call; HELLO and SCENE are one byte each and skipped. */
        List<Long> stateTicks() {
            List<Long> ticks = new ArrayList<>();
            for (byte[] message : webSocket ? webSocketMessages() : tcpMessages()) {
                if (message.length == 8) {
                    ticks.add(TickFrames.tickOf(message));
                }
            }
            return ticks;
        }

        private byte[] drain() {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            for (Object o = channel.readOutbound(); o != null; o = channel.readOutbound()) {
                ByteBuf buf = (ByteBuf) o;
                byte[] bytes = new byte[buf.readableBytes()];
                buf.readBytes(bytes);
                buf.release();
                out.writeBytes(bytes);
            }
            return out.toByteArray();
        }

        private List<byte[]> tcpMessages() {
            ByteBuffer in = ByteBuffer.wrap(drain()).order(ByteOrder.LITTLE_ENDIAN);
            List<byte[]> messages = new ArrayList<>();
            while (in.hasRemaining()) {
                byte[] message = new byte[in.getInt()];
                in.get(message);
                messages.add(message);
            }
            return messages;
        }

        private List<byte[]> webSocketMessages() {
            byte[] bytes = drain();
            String text = new String(bytes, StandardCharsets.ISO_8859_1);
            int head = text.startsWith("HTTP/1.1 101") ? text.indexOf("\r\n\r\n") + 4 : 0;
            EmbeddedChannel decoder = new EmbeddedChannel(new WebSocket13FrameDecoder(false, false, 1 << 20));
            decoder.writeInbound(Unpooled.wrappedBuffer(bytes, head, bytes.length - head));
            List<byte[]> messages = new ArrayList<>();
            for (Object o = decoder.readInbound(); o != null; o = decoder.readInbound()) {
                WebSocketFrame frame = (WebSocketFrame) o;
                assertTrue(frame instanceof BinaryWebSocketFrame, frame.toString());
                byte[] message = new byte[frame.content().readableBytes()];
                frame.content().readBytes(message);
                frame.release();
                messages.add(message);
            }
            decoder.finishAndReleaseAll();
            return messages;
        }

        void close() {
            channel.finishAndReleaseAll();
        }
    }

    /**
     * The ticks a client of period {@code periodNs} gets from 0 to {@code endMs}: at each deadline k × period, the
     * tick of the first millisecond at or after it.
     */
    private static List<Long> expectedTicks(long periodNs, long endMs) {
        List<Long> ticks = new ArrayList<>();
        for (long deadlineNs = 0; deadlineNs <= endMs * MS; deadlineNs += periodNs) {
            ticks.add((deadlineNs + MS - 1) / MS);
        }
        return ticks;
    }

    @ParameterizedTest(name = "query \"{0}\": a STATE every {1} ns")
    @CsvSource({
        "?rate=20, 50000000",
        "?rate=200, 5000000",
        "'', 16666667", // the default 60 Hz: round(1e9 / 60) ns
        "?rate=0, 1000000", // every tick
        "?rate=5000, 1000000", // above the loop's rate: every tick, never the same tick twice
    })
    void shouldSendAWebSocketClientStatesAtTheRateOfItsQueryOnAbsoluteDeadlines(String query, long periodNs)
        throws Exception {
        SimulatedClient client = SimulatedClient.webSocket(query);
        client.advance(2_000);
        // The first STATE on connect at 0 ms, then one at the first millisecond at or after each k × period: over
        // 2 s exactly 1 + floor(2 s / period) of them, none drifting (deadlines are absolute).
        assertEquals(expectedTicks(periodNs, 2_000), client.stateTicks());
        client.close();
    }

    @Test
    void shouldChangeATcpClientsRateFromTheDefaultWhenItSubscribes() throws Exception {
        SimulatedClient client = SimulatedClient.tcp(new CommandGate(TOKEN, new CommandQueue()));
        client.advance(1_000);
        assertEquals(expectedTicks(16_666_667, 1_000), client.stateTicks(), "60 Hz until it subscribes");

        client.send(StreamCodec.encode(new SubscribeMessage(10)));
        client.advance(1_000);
        // The last 60 Hz STATE went at tick 984 (59 × 16.67 ms); the SUBSCRIBE applies from the next STATE, due one
        // new period after it (docs/stream-protocol.md 3.1): 1084, not the old schedule's run at 1001 ms; from there
        // every 100 ms.
        assertEquals(List.of(1_084L, 1_184L, 1_284L, 1_384L, 1_484L, 1_584L, 1_684L, 1_784L, 1_884L, 1_984L),
            client.stateTicks());
        client.close();
    }

    @Test
    void shouldSendOneStateAfterAStallAndResumeOnePeriodLaterInsteadOfBursting() throws Exception {
        SimulatedClient client = SimulatedClient.webSocket("?rate=200");
        client.advance(100);
        assertEquals(expectedTicks(5 * MS, 100), client.stateTicks());

        client.stall(500);
        // Deadlines 105 .. 600 ms all passed during the stall: one STATE, the newest, not a hundred back to back.
        assertEquals(List.of(600L), client.stateTicks());
        client.advance(20);
        assertEquals(List.of(605L, 610L, 615L, 620L), client.stateTicks(), "next deadline one period after the stall");
        client.close();
    }

    /**
     * An every-tick client's event loop wakes in whole milliseconds (NIO) and often late: a run that finds several
     * ticks it has not had sends each of them, in order, while the exchange still holds them (3 behind the newest);
     * further behind, only the newest, as after a stall. On the real server a `watch --rate 0` got 75–80 % of the
     * ticks of an idle 1 kHz loop when each run sent only the newest.
     */
    @Test
    void shouldSendAnEveryTickClientEachTickItsLateRunFindsWhileTheExchangeStillHoldsIt() throws Exception {
        SimulatedClient client = SimulatedClient.webSocket("?rate=0");
        client.advance(100);
        assertEquals(expectedTicks(MS, 100), client.stateTicks());

        client.lateBy(SnapshotExchange.HISTORY - 1);
        List<Long> all = new ArrayList<>();
        for (long tick = 101; tick < 101 + SnapshotExchange.HISTORY - 1; tick++) {
            all.add(tick);
        }
        assertEquals(all, client.stateTicks(), "found at one run, and all still held: each of them, in order");
        long newest = 100 + SnapshotExchange.HISTORY - 1 + SnapshotExchange.HISTORY;
        client.lateBy(SnapshotExchange.HISTORY);
        assertEquals(List.of(newest), client.stateTicks(), "one more than held: only the newest");
        client.advance(2);
        assertEquals(List.of(newest + 1, newest + 2), client.stateTicks());
        client.close();
    }

    /**
     * An ACK follows its command's effect, so no STATE after it may be older than the newest publish when it was
     * written: the full suite once caught a STATE not paused after PAUSE's ACK, from an every-tick client catching up
     * on the exchange's history (StreamConformanceTest).
     */
    @Test
    void shouldSendNoStateOlderThanAnAckAnEveryTickClientWasJustSent() throws Exception {
        SimulatedClient client = SimulatedClient.everyTickTcp(100);
        client.publishWhileAsleep(3);
        // Refused at once (a wrong token): its ACK is written now, ahead of the run that finds ticks 101 to 103.
        client.send(StreamCodec.encode(new org.hapticsd.protocol.stream.CommandMessage(7, "wrong-token",
            new org.hapticsd.protocol.stream.Command.Pause())));
        client.lateBy(0);
        assertEquals(List.of(103L), client.stateTicks(), "after the ACK, the newest then and on, not 101 and 102");
        client.advance(2);
        assertEquals(List.of(104L, 105L), client.stateTicks());
        client.close();
    }

    @Test
    void shouldSendARateLimitedClientOnlyTheNewestTickWhenItsRunIsLate() throws Exception {
        SimulatedClient client = SimulatedClient.webSocket("?rate=200");
        client.advance(100);
        client.stateTicks();
        client.lateBy(7);
        // The deadline at 105 ms ran at 107 ms: the newest tick, never a backlog for a client that asked for fewer.
        assertEquals(List.of(107L), client.stateTicks());
        client.close();
    }

    @Test
    void shouldSendNothingWhileAClientCannotTakeMoreAndThenOnlyTheNewestState() throws Exception {
        SimulatedClient client = SimulatedClient.everyTickTcp(100);

        client.stuck(true);
        client.advance(2_000);
        assertEquals(List.of(), client.stateTicks(), "nothing written to an unwritable channel: conflated, not queued");
        assertTrue(client.channel.isOpen(), "2 s unwritable is below the 5 s limit");

        client.stuck(false);
        client.advance(3);
        // Ticks 101 .. 2100 were published while it was stuck; it gets the newest at its next run and carries on
        // from there, one STATE per tick, never the backlog.
        assertEquals(List.of(2_101L, 2_102L, 2_103L), client.stateTicks());
        client.close();
    }

    @Test
    void shouldCloseAClientUnwritableForLongerThanTheConfiguredTimeAndNotBefore() throws Exception {
        SimulatedClient client = SimulatedClient.tcp(new CommandGate(TOKEN, new CommandQueue()));
        client.send(StreamCodec.encode(new SubscribeMessage(0)));
        client.advance(100);
        client.stuck(true); // at 100 ms

        client.advance(UNWRITABLE_CLOSE_S * 1_000L);
        assertTrue(client.channel.isOpen(), "unwritable for exactly 5 s at 5100 ms: not yet over the limit");
        client.advance(1);
        assertFalse(client.channel.isOpen(), "closed at the first run more than 5 s after it turned unwritable");
        client.close();
    }
}
