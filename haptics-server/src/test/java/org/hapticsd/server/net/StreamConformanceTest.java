package org.hapticsd.server.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.hapticsd.protocol.stream.AckMessage;
import org.hapticsd.protocol.stream.Body;
import org.hapticsd.protocol.stream.Command;
import org.hapticsd.protocol.stream.CommandMessage;
import org.hapticsd.protocol.stream.ContactPoint;
import org.hapticsd.protocol.stream.EventsMessage;
import org.hapticsd.protocol.stream.HelloMessage;
import org.hapticsd.protocol.stream.SceneMessage;
import org.hapticsd.protocol.stream.Shape;
import org.hapticsd.protocol.stream.StateMessage;
import org.hapticsd.protocol.stream.StreamCodec;
import org.hapticsd.protocol.stream.StreamEvent;
import org.hapticsd.protocol.stream.StreamJson;
import org.hapticsd.protocol.stream.StreamMessage;
import org.hapticsd.protocol.stream.StreamProtocol;
import org.hapticsd.protocol.stream.SubscribeMessage;
import org.hapticsd.protocol.stream.Vec3;
import org.hapticsd.server.LiveServer;
import org.hapticsd.server.StreamService;
import org.hapticsd.server.loop.LoopSnapshot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/stream-protocol.md point by point against the real server: the real loop at 1 kHz on the simulated stylus,
 * the stream service as {@code run} starts it, and clients written from the spec alone (raw TCP sockets with the
 * length prefix, {@link RawWebSocket} for WebSocket frames), all on 127.0.0.1 with ephemeral ports. Each test names
 * the section it checks. The reference codec decodes what arrives; every check is on the bytes' meaning as the spec
 * gives it.
 *
 * <p>Nothing is asserted against this shared machine's speed: where time matters, bounds are in loop ticks (the loop
 * skips missed deadlines, so its tick count never runs ahead of the wall clock and is a lower bound of the time
 * that passed), or orderings on one connection, or byte counts against the buffer sizes the spec states.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class StreamConformanceTest {
    private static final long PERIOD_NS = 1_000_000L;
    /** A wait that only turns a hang into a failure; never a statement about speed. */
    private static final long HANG_GUARD_MS = 30_000;
    private static final float TOOL_RADIUS_M = 0.005f;
    private static final float WALL_X_M = 0.03f;
    private static final double WALL_STIFFNESS_NPM = 1000.0;
    /**
     * The stylus rests at the origin for 0.3 s (the safety gate opens on the quiet start), then its hand moves 2 cm
     * into the wall (x > 0.03 m is solid) and holds: at rest the hand spring (200 N/m) and the wall (1000 N/m)
     * balance at a penetration of 4.17 mm, 4.17 N. The box is out of reach; both bodies have materials.
     */
    private static final String PRESS = """
        name: press
        rateHz: 1000
        device:
          massKg: 0.1
          dampingNspm: 1.0
          maxForceN: 10.0
          maxContinuousForceN: 4.0
          maxStiffnessNpm: 3000.0
          workspaceHalfSizeM: 0.1
          hand:
            stiffnessNpm: 200.0
            dampingNspm: 6.0
            path:
              - {t: 0.0, position: [0.0, 0.0, 0.0]}
              - {t: 0.3, position: [0.0, 0.0, 0.0]}
              - {t: 0.8, position: [0.05, 0.0, 0.0]}
        tool: {name: tool, radiusM: 0.005}
        contact: {stiffnessNpm: 1000.0, dampingNspm: 0.2}
        bodies:
          - name: wall
            shape: {type: plane, normal: [-1.0, 0.0, 0.0]}
            position: [0.03, 0.0, 0.0]
            material: {staticFriction: 0.5, dynamicFriction: 0.4}
          - name: box
            shape: {type: box, halfExtents: [0.01, 0.01, 0.01]}
            position: [0.0, 0.06, -0.05]
            material: {elasticity: 0.2}
        """;

    @TempDir
    Path sceneDir;

    private LiveServer live;
    private StreamService service;
    private StreamServerConfig config;

    /** The press scene on the real loop in real time, streamed with {@code limits}; the scene directory has it. */
    private StreamServer start(StreamServerConfig limits) throws Exception {
        Path scene = sceneDir.resolve("press.yaml");
        Files.writeString(scene, PRESS);
        config = limits;
        live = LiveServer.start(scene, config, sceneDir);
        service = live.service();
        return service.server();
    }

    private StreamServer start() throws Exception {
        return start(StreamServerConfig.defaults().withPorts(0, 0));
    }

    @AfterEach
    void stop() {
        if (live != null) {
            live.close();
        }
    }

    /** The newest tick the loop has published. */
    private long loopTick() {
        SnapshotExchangeReader reader = new SnapshotExchangeReader();
        return reader.tick();
    }

    /** Reads the current scene's exchange; a new snapshot per call is fine off the loop. */
    private final class SnapshotExchangeReader {
        long tick() {
            var exchange = service.scenes().current().exchange();
            LoopSnapshot s = exchange.newSnapshot();
            return exchange.read(s) == 0 ? -1 : s.tick;
        }
    }

    private static void await(BooleanSupplier condition, Supplier<String> what) throws InterruptedException {
        long deadlineNs = System.nanoTime() + HANG_GUARD_MS * 1_000_000L;
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() - deadlineNs < 0, "hung for " + HANG_GUARD_MS + " ms waiting for " + what.get());
            Thread.sleep(2);
        }
    }

    // ---- a raw TCP client (section 2.2) ------------------------------------------------------------------------

    /** A TCP client: u32 little-endian length, then the message. Reads with a hang guard. */
    private final class Tcp implements AutoCloseable {
        final Socket socket;
        final DataInputStream in;
        final OutputStream out;
        /** Bytes of whole messages read so far, prefixes included. */
        long bytesRead;

        Tcp(int receiveBufferBytes) throws IOException {
            socket = new Socket();
            if (receiveBufferBytes > 0) {
                socket.setReceiveBufferSize(receiveBufferBytes);
            }
            socket.connect(new InetSocketAddress("127.0.0.1", service.server().tcpPort()));
            socket.setSoTimeout((int) HANG_GUARD_MS);
            in = new DataInputStream(socket.getInputStream());
            out = socket.getOutputStream();
        }

        Tcp() throws IOException {
            this(0);
        }

        byte[] readRaw() throws IOException {
            int length = Integer.reverseBytes(in.readInt());
            byte[] message = new byte[length];
            in.readFully(message);
            bytesRead += 4 + length;
            return message;
        }

        StreamMessage read() throws IOException {
            return StreamCodec.decode(readRaw());
        }

        /** Reads until a message of {@code type} that matches {@code test}; returns it. */
        <T extends StreamMessage> T next(Class<T> type, Predicate<T> test) throws IOException {
            while (true) {
                StreamMessage m = read();
                if (type.isInstance(m) && test.test(type.cast(m))) {
                    return type.cast(m);
                }
            }
        }

        <T extends StreamMessage> T next(Class<T> type) throws IOException {
            return next(type, m -> true);
        }

        void sendRaw(byte[]... messages) throws IOException {
            ByteBuffer all = ByteBuffer.allocate(java.util.Arrays.stream(messages).mapToInt(m -> 4 + m.length).sum())
                .order(ByteOrder.LITTLE_ENDIAN);
            for (byte[] m : messages) {
                all.putInt(m.length).put(m);
            }
            out.write(all.array());
            out.flush();
        }

        void send(StreamMessage... messages) throws IOException {
            byte[][] encoded = new byte[messages.length][];
            for (int i = 0; i < messages.length; i++) {
                encoded[i] = StreamCodec.encode(messages[i]);
            }
            sendRaw(encoded);
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    private CommandMessage command(long id, Command command) {
        return new CommandMessage(id, config.token(), command);
    }

    // ---- 4.3 Contact: normal from A to B, force on B ------------------------------------------------------------

    @Test
    void shouldSendTheContactNormalFromAToBAndTheForceOnB() throws Exception {
        start();
        try (Tcp client = new Tcp()) {
            SceneMessage scene = client.next(SceneMessage.class);
            int wall = scene.bodies().stream().filter(b -> b.name().equals("wall")).findFirst().orElseThrow().id();
            // The wall's outward normal, from SCENE alone: its plane normal (body frame) turned by its orientation,
            // which is the identity here: (−1, 0, 0), pointing out of the solid towards the tool.
            Body wallBody = scene.bodies().get(wall);
            assertEquals(new Vec3(-1f, 0f, 0f), ((Shape.Plane) wallBody.shape()).normal());
            // A STATE with the tool pressed more than 1 mm into the wall.
            StateMessage pressed = client.next(StateMessage.class, s -> s.contacts().stream()
                .anyMatch(c -> involves(c, wall) && c.depthM() > 1e-3));
            double[] onTool = new double[3];
            for (ContactPoint c : pressed.contacts()) {
                assertTrue(involves(c, StreamProtocol.TOOL_ID), "only the tool touches anything here: " + c);
                // Section 4.3: the normal runs from A towards B; into the wall when the tool is A, out of it when the
                // tool is B. Unit length to float precision.
                double sign = c.bodyA() == StreamProtocol.TOOL_ID ? 1.0 : -1.0;
                Vec3 n = c.normal();
                assertEquals(1.0, Math.sqrt(n.x() * n.x() + n.y() * n.y() + n.z() * n.z()), 1e-6, c.toString());
                assertEquals(sign, n.x(), 1e-6, "normal from A (" + c.bodyA() + ") to B (" + c.bodyB() + "): " + n);
                // The force on B pushes B away from A: along the normal. Frictionless at rest, it is the penalty
                // spring k·depth; 2 % covers the damper's 0.2 N·s/m on the settling stylus and float32.
                Vec3 f = c.forceN();
                double alongNormalN = f.x() * n.x() + f.y() * n.y() + f.z() * n.z();
                assertEquals(WALL_STIFFNESS_NPM * c.depthM(), alongNormalN, 0.02 * WALL_STIFFNESS_NPM * c.depthM(),
                    "force on B along A→B: " + f + " for " + c);
                // The tool's share: −forceN when it is A, +forceN when it is B.
                onTool[0] += sign * -f.x();
                onTool[1] += sign * -f.y();
                onTool[2] += sign * -f.z();
            }
            // The rendered force (the scene's force on the tool, before safety, scene frame) is the sum of the contact
            // forces on the tool as the spec defines them: float32 rounding of the same doubles, 1e-5 N.
            Vec3 rendered = pressed.renderedForceN();
            assertEquals(rendered.x(), onTool[0], 1e-5, "rendered " + rendered);
            assertEquals(rendered.y(), onTool[1], 1e-5, "rendered " + rendered);
            assertEquals(rendered.z(), onTool[2], 1e-5, "rendered " + rendered);
            assertTrue(rendered.x() < -1.0, "the wall pushes the tool back out (−x): " + rendered);
        }
    }

    private static boolean involves(ContactPoint c, int id) {
        return c.bodyA() == id || c.bodyB() == id;
    }

    // ---- 4.3 simTimeNs: tick × period, frozen while paused ------------------------------------------------------

    @Test
    void shouldCountSimTimeInPeriodsOfSteppedTicksHoldingItWhilePausedAndRestartingItWithTheScene() throws Exception {
        start();
        try (Tcp client = new Tcp()) {
            client.send(new SubscribeMessage(0));
            // Never paused yet: simTimeNs is tick × period exactly (integers).
            for (int i = 0; i < 200; i++) {
                StateMessage s = client.next(StateMessage.class);
                assertEquals(s.tick() * PERIOD_NS, s.simTimeNs(), "tick " + s.tick());
            }
            client.send(command(1, new Command.Pause()));
            client.next(AckMessage.class);
            List<StateMessage> paused = new ArrayList<>();
            while (paused.size() < 100) {
                StateMessage s = client.next(StateMessage.class);
                if (s.paused()) {
                    paused.add(s);
                }
            }
            // Paused: ticks go on (100 distinct ones), simulated time does not.
            assertTrue(paused.get(99).tick() - paused.get(0).tick() >= 99);
            for (StateMessage s : paused) {
                assertEquals(paused.get(0).simTimeNs(), s.simTimeNs(), "paused at tick " + s.tick());
            }
            client.send(command(2, new Command.Resume()));
            StateMessage resumed = client.next(StateMessage.class, s -> !s.paused());
            for (int i = 0; i < 100; i++) {
                StateMessage s = client.next(StateMessage.class);
                assertEquals((s.tick() - resumed.tick()) * PERIOD_NS, s.simTimeNs() - resumed.simTimeNs(),
                    "one period per stepped tick after RESUME, tick " + s.tick());
            }
            // RESET_SCENE: a new scene's time starts at 0 from the tick that swapped it in, which comes after the
            // last STATE of the old revision.
            client.send(command(3, new Command.ResetScene()));
            StateMessage lastOld = null;
            StateMessage firstNew;
            while (true) {
                StateMessage s = client.next(StateMessage.class);
                if (s.sceneRevision() == 2) {
                    firstNew = s;
                    break;
                }
                lastOld = s;
            }
            assertTrue(lastOld != null && firstNew.simTimeNs() >= 0
                && firstNew.simTimeNs() <= (firstNew.tick() - lastOld.tick() - 1) * PERIOD_NS,
                "simTimeNs " + firstNew.simTimeNs() + " at tick " + firstNew.tick() + ", last STATE of the old scene at "
                    + "tick " + (lastOld == null ? "none" : lastOld.tick()));
        }
    }

    // ---- 3.1 item 6: conflation, never a backlog; closed after 5 s (here: the configured time) without reading --

    /**
     * The most a client that stopped reading can find queued for it, bytes: what its own receive buffer holds (the
     * kernel reports it doubled, as Linux books it), the server's socket send buffer (likewise at most twice what it
     * asks for) and what the server queues before the channel turns unwritable, plus one run's messages.
     */
    private static long heldBytesBound(Socket client) throws IOException {
        return client.getReceiveBufferSize() + 2L * 8192 + 8192 + 4096;
    }

    @Test
    void shouldSendAClientThatStoppedReadingTheNewestStateRatherThanABacklog() throws Exception {
        // The unwritable timeout is set far beyond the test: this one is about what arrives, not about the close.
        StreamServer server = start(StreamServerConfig.defaults().withPorts(0, 0).withLimits(16, 64 * 1024, 600, 600));
        try (Tcp client = new Tcp(4096)) {
            client.send(new SubscribeMessage(0));
            // A live viewer first: every tick for 1000 ticks, so TCP grows its windows and buffers as it would.
            long firstTick = client.next(StateMessage.class).tick();
            while (client.next(StateMessage.class).tick() < firstTick + 1000) {
                // reading
            }
            // Then it stops reading for 3000 ticks of loop time (3 s or more): at 1 kHz that is 3000 STATEs offered.
            long stoppedTick = loopTick();
            await(() -> loopTick() >= stoppedTick + 3000, () -> "loop tick " + loopTick());
            long resumeTick = loopTick();
            long before = client.bytesRead;
            int stale = 0;
            long staleBytes;
            while (true) {
                long at = client.bytesRead;
                StreamMessage m = StreamCodec.decode(client.readRaw());
                if (m instanceof StateMessage s && s.tick() >= resumeTick) {
                    staleBytes = at - before;
                    break;
                }
                if (m instanceof StateMessage) {
                    stale++;
                }
            }
            // Everything older than the tick at which it resumed reading is what was held for it: at most the buffers
            // the spec bounds (3.1 item 6), a few hundred 100-byte STATEs here, never the 3000 it was offered.
            long bound = heldBytesBound(client.socket);
            assertTrue(staleBytes <= bound, stale + " stale STATEs, " + staleBytes + " bytes before the newest; bound "
                + bound + " bytes (client receive buffer " + client.socket.getReceiveBufferSize() + ")");
            assertEquals(1, server.clients(), "not closed: the configured timeout is 600 s");
        }
    }

    @Test
    void shouldCloseAClientThatTakesNothingForTheConfiguredTimeAndNotBefore() throws Exception {
        int closeS = 1;
        StreamServer server = start(StreamServerConfig.defaults().withPorts(0, 0).withLimits(16, 64 * 1024, 600,
            closeS));
        try (Tcp client = new Tcp(4096)) {
            client.send(new SubscribeMessage(0));
            long lastTick = 0;
            long beforeLastReadNs = 0;
            for (int i = 0; i < 500; i++) {
                beforeLastReadNs = System.nanoTime();
                lastTick = client.next(StateMessage.class).tick();
            }
            // It reads nothing from here on. The server's buffers for it fill within a fraction of a second at every
            // tick (heldBytesBound: some 40 kB at 100 kB/s), then it has taken nothing for closeS.
            long stoppedTick = lastTick;
            long closedTick = -1;
            long closedNs = 0;
            long limitTicks = stoppedTick + (closeS + 3) * 1000L;
            while (true) {
                long tick = loopTick();
                if (server.clients() == 0) {
                    closedTick = tick;
                    closedNs = System.nanoTime();
                    break;
                }
                if (tick >= limitTicks) {
                    break;
                }
                Thread.sleep(2);
            }
            // Closed before the loop had run closeS + 3 s of ticks past the last STATE read (loop ticks never run ahead
            // of the wall clock, so this is a bound slowness cannot break: 3 s for the buffers to fill and the check).
            assertTrue(closedTick >= 0, "still open " + (limitTicks - stoppedTick) + " ticks after the client stopped "
                + "reading; the spec closes it after the configured " + closeS + " s");
            // Never before it can have taken nothing for closeS: measured from before its last read.
            assertTrue(closedNs - beforeLastReadNs >= closeS * 1_000_000_000L,
                "closed " + (closedNs - beforeLastReadNs) / 1e6 + " ms after its last read, limit " + closeS + " s");
        }
    }

    // ---- 2.1 WebSocket: fragmented messages are messages; an over-limit one closes with one close frame ----------

    /** The next ACK on {@code ws}, which must arrive as a message of {@code opcode}; other messages are skipped. */
    private static AckMessage nextAck(RawWebSocket ws, int opcode) throws IOException {
        while (true) {
            RawWebSocket.Message m = ws.readMessage();
            assertTrue(m.opcode() != RawWebSocket.CLOSE, "closed by the server: status "
                + new RawWebSocket.Frame(true, m.opcode(), m.payload()).closeStatus());
            StreamMessage decoded = m.opcode() == RawWebSocket.TEXT ? StreamJson.decodeJson(m.text())
                : StreamCodec.decode(m.payload());
            if (decoded instanceof AckMessage ack) {
                assertEquals(opcode, m.opcode(), "ACK " + ack.commandId() + " came as opcode " + m.opcode());
                return ack;
            }
        }
    }

    @Test
    void shouldReassembleFragmentedWebSocketMessages() throws Exception {
        StreamServer server = start();
        try (RawWebSocket binary = RawWebSocket.connect(server.httpPort(), "/ws?format=binary&rate=1");
             RawWebSocket json = RawWebSocket.connect(server.httpPort(), "/ws?format=json&rate=1")) {
            assertTrue(binary.upgraded() && json.upgraded(), binary.statusLine + " / " + json.statusLine);
            // A COMMAND in three binary fragments with a ping between two of them (RFC 6455 5.4, 5.5: control frames
            // may come in the middle of a fragmented message). The token is wrong: the ACK is immediate.
            byte[] pause = StreamCodec.encode(new CommandMessage(21, "not-the-token", new Command.Pause()));
            binary.sendFrame(false, RawWebSocket.BINARY, java.util.Arrays.copyOfRange(pause, 0, 5));
            binary.sendFrame(true, RawWebSocket.PING, new byte[] {1, 2});
            binary.sendFrame(false, RawWebSocket.CONTINUATION, java.util.Arrays.copyOfRange(pause, 5, 9));
            binary.sendFrame(true, RawWebSocket.CONTINUATION, java.util.Arrays.copyOfRange(pause, 9, pause.length));
            AckMessage first = nextAck(binary, RawWebSocket.BINARY);
            assertEquals(21, first.commandId());
            assertFalse(first.accepted());
            // The same in JSON, four text fragments.
            json.sendFragmented(RawWebSocket.TEXT, StreamJson.encodeJson(new CommandMessage(22, "not-the-token",
                new Command.Pause())).getBytes(StandardCharsets.UTF_8), 4);
            AckMessage second = nextAck(json, RawWebSocket.TEXT);
            assertEquals(22, second.commandId());
            assertFalse(second.accepted());
        }
    }

    /** Frames until the server's end of stream (or reset); returns the close frames among them. */
    private static List<RawWebSocket.Frame> closeFramesUntilEnd(RawWebSocket ws) {
        List<RawWebSocket.Frame> closes = new ArrayList<>();
        try {
            while (true) {
                RawWebSocket.Frame frame = ws.readFrame();
                if (frame.opcode() == RawWebSocket.CLOSE) {
                    closes.add(frame);
                }
            }
        } catch (IOException endOfStream) {
            return closes;
        }
    }

    @Test
    void shouldCloseAWebSocketWhoseMessageIsOverTheLimitWithOneCloseFrame() throws Exception {
        StreamServer server = start();
        int limit = StreamProtocol.MAX_CLIENT_MESSAGE_BYTES;
        // One frame over the limit, and a message over it in two fragments each under it.
        try (RawWebSocket one = RawWebSocket.connect(server.httpPort(), "/ws?rate=1");
             RawWebSocket two = RawWebSocket.connect(server.httpPort(), "/ws?rate=1")) {
            one.sendBinary(new byte[limit + 1]);
            two.sendFrame(false, RawWebSocket.BINARY, new byte[limit / 2 + 1]);
            two.sendFrame(true, RawWebSocket.CONTINUATION, new byte[limit / 2 + 1]);
            for (RawWebSocket ws : List.of(one, two)) {
                List<RawWebSocket.Frame> closes = closeFramesUntilEnd(ws);
                assertEquals(1, closes.size(), "close frames: " + closes.stream().map(RawWebSocket.Frame::closeStatus)
                    .toList());
                // RFC 6455 7.4.1: 1009, a message too big to process.
                assertEquals(1009, closes.get(0).closeStatus());
            }
        }
    }

    // ---- 4.5 ACK: the connection's format; refusals; exactly one per COMMAND; after the effect --------------------

    @Test
    void shouldAnswerACommandInTheConnectionsFormatWhicheverFormItCameIn() throws Exception {
        StreamServer server = start();
        try (RawWebSocket json = RawWebSocket.connect(server.httpPort(), "/ws?format=json&rate=1");
             RawWebSocket binary = RawWebSocket.connect(server.httpPort(), "/ws?format=binary&rate=1")) {
            json.sendBinary(StreamCodec.encode(new CommandMessage(31, "not-the-token", new Command.Pause())));
            assertEquals(31, nextAck(json, RawWebSocket.TEXT).commandId());
            binary.sendText(StreamJson.encodeJson(new CommandMessage(32, "not-the-token", new Command.Pause())));
            assertEquals(32, nextAck(binary, RawWebSocket.BINARY).commandId());
        }
    }

    /** The ACKs on {@code client} up to and including the one for {@code lastId}, in order. */
    private static List<AckMessage> acksUpTo(Tcp client, long lastId) throws IOException {
        List<AckMessage> acks = new ArrayList<>();
        while (acks.isEmpty() || acks.get(acks.size() - 1).commandId() != lastId) {
            acks.add(client.next(AckMessage.class));
        }
        return acks;
    }

    @Test
    void shouldRefuseResumeWhenNotPausedAndPauseWhenPaused() throws Exception {
        start();
        try (Tcp client = new Tcp()) {
            client.send(command(41, new Command.Resume()), command(42, new Command.Pause()),
                command(43, new Command.Pause()), command(44, new Command.Resume()));
            List<AckMessage> acks = acksUpTo(client, 44);
            assertEquals(List.of(41L, 42L, 43L, 44L), acks.stream().map(AckMessage::commandId).toList());
            assertFalse(acks.get(0).accepted(), "RESUME when not paused: " + acks.get(0));
            assertTrue(acks.get(1).accepted(), acks.get(1).toString());
            assertFalse(acks.get(2).accepted(), "PAUSE when paused: " + acks.get(2));
            assertTrue(acks.get(3).accepted(), acks.get(3).toString());
        }
    }

    @Test
    void shouldDropMessagesOfTheServersDirectionWithoutAnAck() throws Exception {
        start();
        try (Tcp client = new Tcp()) {
            // Section 3: the server refuses (drops, section 1) server → client types; the ACK that follows is the
            // sentinel COMMAND's, the first and only one.
            client.sendRaw(StreamCodec.encode(new HelloMessage(2, 1000, "a client")),
                StreamCodec.encode(new AckMessage(9, true, "")),
                StreamCodec.encode(new CommandMessage(51, "not-the-token", new Command.Pause())));
            AckMessage ack = client.next(AckMessage.class);
            assertEquals(51, ack.commandId(), "an ACK for a message that is not a COMMAND: " + ack);
        }
    }

    /** A binary MOVE_HAND written from section 4.7 by hand: the codec's records cannot hold a NaN position. */
    private static byte[] moveHandBytes(long id, String token, double x, double y, double z) {
        byte[] t = token.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(4 + 4 + 1 + 2 + t.length + 24).order(ByteOrder.LITTLE_ENDIAN)
            .put((byte) 2).put((byte) 0x82).putShort((short) 0)
            .putInt((int) id).put((byte) 8).putShort((short) t.length).put(t)
            .putDouble(x).putDouble(y).putDouble(z).array();
    }

    @Test
    void shouldRefuseANonFiniteMoveHandWithAnAck() throws Exception {
        StreamServer server = start();
        try (Tcp client = new Tcp();
             RawWebSocket json = RawWebSocket.connect(server.httpPort(), "/ws?format=json&rate=1")) {
            client.sendRaw(moveHandBytes(61, config.token(), Double.NaN, 0, 0),
                StreamCodec.encode(new CommandMessage(69, "not-the-token", new Command.Pause())));
            List<AckMessage> acks = acksUpTo(client, 69);
            assertEquals(List.of(61L, 69L), acks.stream().map(AckMessage::commandId).toList());
            assertFalse(acks.get(0).accepted(), acks.get(0).toString());
            // Section 6: JSON writes non-finite floats as strings.
            json.sendText("{\"type\":\"COMMAND\",\"commandId\":62,\"authToken\":\"" + config.token()
                + "\",\"command\":\"MOVE_HAND\",\"x\":\"Infinity\",\"y\":0.0,\"z\":0.0}");
            AckMessage infinite = nextAck(json, RawWebSocket.TEXT);
            assertEquals(62, infinite.commandId());
            assertFalse(infinite.accepted(), infinite.toString());
        }
    }

    @Test
    void shouldFitALongRefusalReasonIntoTheAcksStringLimit() throws Exception {
        start();
        try (Tcp client = new Tcp()) {
            // A scene name and a parameter name of 1000 bytes each (the second in two-byte characters): their
            // refusals quote them, which would take the reason past the 1024-byte string limit (section 1).
            client.send(command(71, new Command.LoadScene("s".repeat(1000))),
                command(72, new Command.SetParameter("\u00e9".repeat(500), 1.0)),
                new CommandMessage(79, "not-the-token", new Command.Pause()));
            List<AckMessage> acks = acksUpTo(client, 79);
            assertEquals(List.of(71L, 72L, 79L), acks.stream().map(AckMessage::commandId).toList());
            for (AckMessage ack : acks.subList(0, 2)) {
                assertFalse(ack.accepted());
                int bytes = ack.reason().getBytes(StandardCharsets.UTF_8).length;
                assertTrue(bytes > 100 && bytes <= StreamProtocol.MAX_STRING_BYTES, bytes + " bytes: " + ack.reason());
            }
        }
    }

    @Test
    void shouldAcknowledgeACommandOnlyOnceItsEffectIsInEveryFollowingState() throws Exception {
        start();
        try (Tcp client = new Tcp()) {
            client.send(new SubscribeMessage(0));
            long id = 100;
            for (int cycle = 0; cycle < 5; cycle++) {
                for (boolean pause : new boolean[] {true, false}) {
                    long sent = ++id;
                    client.send(command(sent, pause ? new Command.Pause() : new Command.Resume()));
                    AckMessage ack = client.next(AckMessage.class);
                    assertEquals(sent, ack.commandId());
                    assertTrue(ack.accepted(), ack.toString());
                    // Sections 3.1 and 4.7: the ACK follows the effect, so every STATE after it shows it.
                    for (int i = 0; i < 20; i++) {
                        StateMessage s = client.next(StateMessage.class);
                        assertEquals(pause, s.paused(), "STATE " + i + " after the ACK of " + (pause ? "PAUSE" : "RESUME")
                            + ", cycle " + cycle + ", tick " + s.tick());
                    }
                }
            }
        }
    }

    // ---- open points the spec now settles -------------------------------------------------------------------

    /** Section 4.5: a refusal's reason starts with its code from table 7.8, a colon and a space. */
    @Test
    void shouldStartEveryRefusalWithItsCode() throws Exception {
        start();
        try (Tcp client = new Tcp()) {
            client.send(new CommandMessage(201, "not-the-token", new Command.Pause()),
                command(202, new Command.Resume()),
                command(203, new Command.SetParameter("safety.maxForceN", 1.0)),
                command(204, new Command.SetParameter("contact.stiffnessNpm", 1e9)),
                command(205, new Command.LoadScene("no-such-scene")));
            client.sendRaw(moveHandBytes(206, config.token(), Double.NaN, 0, 0));
            List<AckMessage> acks = acksUpTo(client, 206);
            List<String> codes = acks.stream().map(a -> a.reason().substring(0, Math.max(0, a.reason().indexOf(": "))))
                .toList();
            assertEquals(List.of("TOKEN", "NOT_PAUSED", "UNKNOWN_PARAMETER", "OUT_OF_LIMITS", "SCENE", "MALFORMED"),
                codes, acks.toString());
        }
    }

    @Test
    void shouldRefuseAQueryRateOutsideZeroTo65535WholeHertz() throws Exception {
        StreamServer server = start();
        for (String rate : List.of("1.5", "70000", "-1", "65536", "fast", "")) {
            try (RawWebSocket ws = RawWebSocket.connect(server.httpPort(), "/ws?rate=" + rate)) {
                assertEquals(400, ws.status(), "rate=" + rate + ": " + ws.statusLine);
            }
        }
        for (String rate : List.of("0", "1", "60", "65535")) {
            try (RawWebSocket ws = RawWebSocket.connect(server.httpPort(), "/ws?rate=" + rate)) {
                assertEquals(101, ws.status(), "rate=" + rate + ": " + ws.statusLine);
            }
        }
    }

    @Test
    void shouldSendEveryTickAtMostOnceAtRateZeroAndAboveTheTickRate() throws Exception {
        StreamServer server = start();
        try (Tcp tcp = new Tcp();
             RawWebSocket ws = RawWebSocket.connect(server.httpPort(), "/ws?format=binary&rate=65535")) {
            tcp.send(new SubscribeMessage(0));
            long previous = -1;
            for (int i = 0; i < 300; i++) {
                long tick = tcp.next(StateMessage.class).tick();
                assertTrue(tick > previous, "tick " + tick + " after " + previous);
                previous = tick;
            }
            previous = -1;
            for (int states = 0; states < 300; ) {
                StreamMessage m = StreamCodec.decode(ws.readMessage().payload());
                if (m instanceof StateMessage s) {
                    assertTrue(s.tick() > previous, "tick " + s.tick() + " after " + previous);
                    previous = s.tick();
                    states++;
                }
            }
        }
    }

    @Test
    void shouldApplyASubscribeFromTheNextState() throws Exception {
        start();
        try (Tcp client = new Tcp()) {
            client.send(new SubscribeMessage(1));
            // Wait until the 1 Hz schedule is in force: two STATEs at least 500 ticks apart.
            StateMessage previous = client.next(StateMessage.class);
            StateMessage a;
            while (true) {
                a = client.next(StateMessage.class);
                if (a.tick() - previous.tick() >= 500) {
                    break;
                }
                previous = a;
            }
            // 10 ms after A arrived, and with a tick newer than A published, ask for 250 Hz: its 4 ms period since A
            // has passed, so the next STATE is due at once, before the ACK of the COMMAND sent right behind it.
            long arrivedNs = System.nanoTime();
            long aTick = a.tick();
            await(() -> System.nanoTime() - arrivedNs >= 10_000_000L && loopTick() > aTick, () -> "a newer tick");
            client.send(new SubscribeMessage(250), new CommandMessage(81, "not-the-token", new Command.Pause()));
            StreamMessage next;
            do {
                next = client.read();
            } while (!(next instanceof StateMessage) && !(next instanceof AckMessage));
            assertTrue(next instanceof StateMessage, "the ACK came before any STATE at the new rate: the old "
                + "schedule (next STATE up to 1 s after A, tick " + aTick + ") was kept");
        }
    }

    /**
     * Found by a tester: after asking for a slower rate, one more STATE came on the old schedule (17 ms after the
     * last at 60 Hz, having asked for 1 Hz). The COMMAND behind the SUBSCRIBE tells when the server had read it: when
     * its ACK comes before the next STATE, that STATE is on the new schedule, one new period after the last one.
     */
    @Test
    void shouldApplyASlowerSubscribeFromTheNextState() throws Exception {
        start();
        try (Tcp client = new Tcp()) {
            client.send(new SubscribeMessage(10));
            StateMessage previous = client.next(StateMessage.class);
            for (int attempt = 0; attempt < 5; attempt++) {
                // The 10 Hz schedule in force: two STATEs at least 50 ticks apart.
                StateMessage a;
                while (true) {
                    a = client.next(StateMessage.class);
                    if (a.tick() - previous.tick() >= 50) {
                        break;
                    }
                    previous = a;
                }
                client.send(new SubscribeMessage(1), new CommandMessage(90 + attempt, "not-the-token",
                    new Command.Pause()));
                StreamMessage first;
                do {
                    first = client.read();
                } while (!(first instanceof StateMessage) && !(first instanceof AckMessage));
                if (first instanceof StateMessage) {
                    // The old schedule's STATE went before the server read the SUBSCRIBE (a busy machine): try again.
                    client.send(new SubscribeMessage(10));
                    previous = (StateMessage) first;
                    continue;
                }
                StateMessage next = client.next(StateMessage.class);
                assertTrue(next.tick() - a.tick() >= 500, "STATE of tick " + next.tick() + " after " + a.tick()
                    + ": the old 10 Hz schedule was kept after SUBSCRIBE 1");
                return;
            }
            org.junit.jupiter.api.Assertions.fail("the server never read the SUBSCRIBE before the next STATE");
        }
    }

    @Test
    void shouldSendANewClientNoEventFromBeforeItsFirstState() throws Exception {
        start();
        // By tick 1500: DEVICE_CONNECTED (tick 0), the safety gate opening and the ramp ending, the tool meeting the
        // wall; all before the client connects.
        await(() -> loopTick() >= 1500, () -> "loop tick " + loopTick());
        try (Tcp client = new Tcp()) {
            client.send(new SubscribeMessage(0));
            long firstTick = client.next(StateMessage.class).tick();
            for (int states = 0; states < 300; ) {
                StreamMessage m = client.read();
                if (m instanceof StateMessage) {
                    states++;
                } else if (m instanceof EventsMessage events) {
                    for (StreamEvent e : events.events()) {
                        assertTrue(e.tick() > firstTick, "event " + e + " of tick " + e.tick() + ", the client's first "
                            + "STATE is of tick " + firstTick);
                    }
                }
            }
        }
    }

    @Test
    void shouldCloseAConnectionBeyondTheCapBeforeSendingAnything() throws Exception {
        assertEquals(128, StreamServerConfig.DEFAULT_MAX_CLIENTS, "the cap docs/stream-protocol.md states");
        StreamServer server = start(StreamServerConfig.defaults().withPorts(0, 0).withLimits(2, 64 * 1024, 600, 5));
        try (Tcp a = new Tcp(); Tcp b = new Tcp()) {
            assertTrue(a.read() instanceof HelloMessage);
            assertTrue(b.read() instanceof HelloMessage);
            try (Socket third = new Socket("127.0.0.1", server.tcpPort())) {
                third.setSoTimeout((int) HANG_GUARD_MS);
                assertEquals(-1, third.getInputStream().read(), "a third TCP connection gets end of stream");
            }
            boolean refused;
            try (RawWebSocket ws = RawWebSocket.connect(server.httpPort(), "/ws")) {
                refused = ws.statusLine.isEmpty();
            } catch (java.net.SocketException reset) {
                refused = true;
            }
            assertTrue(refused, "a WebSocket beyond the cap is closed before any HTTP answer");
            a.close();
            await(() -> server.clients() == 1, () -> "clients " + server.clients());
            try (Tcp c = new Tcp()) {
                assertTrue(c.read() instanceof HelloMessage, "below the cap again: served");
            }
        }
    }

    @Test
    void shouldTakeMoveHandArgumentsByTheirJsonNamesXYZ() throws Exception {
        // Section 6: the JSON names of COMMAND arguments are section 4.7's field names: MOVE_HAND's are x, y, z (m).
        StreamServer server = start();
        try (RawWebSocket json = RawWebSocket.connect(server.httpPort(), "/ws?format=json&rate=1")) {
            String head = "{\"type\":\"COMMAND\",\"authToken\":\"" + config.token() + "\",\"command\":\"MOVE_HAND\",";
            json.sendText(head + "\"commandId\":91,\"x\":0.0,\"y\":0.01,\"z\":0.0}");
            json.sendText(head + "\"commandId\":92,\"xM\":0.0,\"yM\":0.01,\"zM\":0.0}");
            json.sendText(StreamJson.encodeJson(new CommandMessage(99, "not-the-token", new Command.Pause())));
            AckMessage first = nextAck(json, RawWebSocket.TEXT);
            assertEquals(91, first.commandId(), first.toString());
            assertTrue(first.accepted(), first.toString());
            // xM, yM, zM are not its names: a malformed COMMAND, refused with the decoder's reason (its id is readable).
            AckMessage second = nextAck(json, RawWebSocket.TEXT);
            assertEquals(92, second.commandId(), second.toString());
            assertFalse(second.accepted(), second.toString());
            assertTrue(second.reason().startsWith("MALFORMED: "), second.toString());
            assertEquals(99, nextAck(json, RawWebSocket.TEXT).commandId());
            // Nested 5000 deep, past the JSON reader's depth limit: its top-level id is still read and answered.
            json.sendText(head + "\"commandId\":93,\"x\":" + "[".repeat(5000) + "}");
            AckMessage deep = nextAck(json, RawWebSocket.TEXT);
            assertEquals(93, deep.commandId(), deep.toString());
            assertTrue(deep.reason().startsWith("MALFORMED: "), deep.toString());
        }
    }

    @Test
    void shouldNameEachBodysMaterialByItsCoefficients() throws Exception {
        // Section 4.2: scene files do not name materials, so materialName summarises the body's: elasticity, static
        // and dynamic friction, two decimals; "default" for the engine's default material.
        start();
        try (Tcp client = new Tcp()) {
            SceneMessage scene = client.next(SceneMessage.class);
            assertEquals(2, scene.bodies().size());
            java.util.Map<String, String> names = new java.util.HashMap<>();
            for (Body body : scene.bodies()) {
                names.put(body.name(), body.materialName());
            }
            assertEquals("e0.00 mu0 0.50 mu 0.40", names.get("wall"));
            assertTrue(names.get("box").startsWith("e0.20 "), names.toString());
        }
    }

    @Test
    void shouldCarryTheDevicePositionAsTheToolPosition() throws Exception {
        start();
        try (Tcp client = new Tcp()) {
            client.send(new SubscribeMessage(0));
            for (int i = 0; i < 300; i++) {
                StateMessage s = client.next(StateMessage.class);
                assertEquals(s.devicePositionM(), s.toolPositionM(), "tick " + s.tick());
            }
            // At rest in the wall the tool's sphere reaches into it by the contact's depth: it is drawn where the
            // device is (4.17 mm in, at rest), not held at the surface.
            StateMessage pressed = client.next(StateMessage.class, s -> !s.contacts().isEmpty()
                && s.contacts().get(0).depthM() > 3e-3);
            float reachM = pressed.toolPositionM().x() + TOOL_RADIUS_M - WALL_X_M;
            assertEquals(pressed.contacts().get(0).depthM(), reachM, 1e-6, "tool at " + pressed.toolPositionM());
        }
    }
}
