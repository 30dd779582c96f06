package org.hapticsd.server.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.agrona.concurrent.SystemNanoClock;
import org.hapticsd.protocol.stream.AckMessage;
import org.hapticsd.protocol.stream.Command;
import org.hapticsd.protocol.stream.CommandMessage;
import org.hapticsd.protocol.stream.EventsMessage;
import org.hapticsd.protocol.stream.HelloMessage;
import org.hapticsd.protocol.stream.SafetyCode;
import org.hapticsd.protocol.stream.SceneMessage;
import org.hapticsd.protocol.stream.StateMessage;
import org.hapticsd.protocol.stream.StreamCodec;
import org.hapticsd.protocol.stream.StreamEvent;
import org.hapticsd.protocol.stream.StreamJson;
import org.hapticsd.protocol.stream.StreamMessage;
import org.hapticsd.protocol.stream.StreamProtocol;
import org.hapticsd.protocol.stream.SubscribeMessage;
import org.hapticsd.server.LoopAssembly;
import org.hapticsd.server.loop.LoopRunner;
import org.hapticsd.server.loop.WaitStrategies;
import org.hapticsd.server.scene.BuiltScene;
import org.hapticsd.server.scene.SceneBuilder;
import org.hapticsd.server.scene.SceneLoader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The real loop (default wall scene, simulated stylus) publishing through the stream server with the protocol's
 * codec: a JSON WebSocket client, a binary WebSocket client and a TCP client decode what they get with the
 * protocol's own decoders, see the scene, states with advancing ticks, contact events, and commands acknowledged
 * or refused.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StreamEndToEndTest {
    private LoopRunner runner;
    private StreamServer server;
    private StreamServerConfig config;

    @BeforeEach
    void start() throws Exception {
        SceneLoader loader = new SceneLoader();
        BuiltScene scene = SceneBuilder.build(loader.loadEmbedded());
        LoopAssembly assembly = new LoopAssembly(scene, openSim(scene), 1000, SystemNanoClock.INSTANCE);
        EventLog events = new EventLog(assembly.loop().periodNs());
        assembly.loop().setTickSink(events);
        config = StreamServerConfig.defaults().withPorts(0, 0);
        ProtocolStreamFrames frames = new ProtocolStreamFrames(scene, 1000, new LoopStatsBoard());
        server = new StreamServer(config, assembly.snapshots(), frames,
            new CommandGate(config.token(), assembly.commands()), events, assembly.loop().periodNs()).start();
        runner = new LoopRunner(assembly.loop(), 1000, WaitStrategies.HYBRID, SystemNanoClock.INSTANCE);
        runner.start();
    }

    private static org.hapticsd.device.sim.SimulatedDevice openSim(BuiltScene scene) {
        org.hapticsd.device.sim.SimulatedDevice device = scene.newSimulatedDevice();
        device.open();
        return device;
    }

    @AfterEach
    void stop() {
        runner.close();
        server.close();
    }

    /** Collects whole text and binary messages. */
    private static final class Client implements WebSocket.Listener {
        final List<StreamMessage> messages = new CopyOnWriteArrayList<>();
        private final StringBuilder text = new StringBuilder();
        private ByteBuffer binary = ByteBuffer.allocate(0);

        @Override
        public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
            text.append(data);
            if (last) {
                messages.add(StreamJson.decodeJson(text.toString()));
                text.setLength(0);
            }
            ws.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onBinary(WebSocket ws, ByteBuffer data, boolean last) {
            ByteBuffer joined = ByteBuffer.allocate(binary.remaining() + data.remaining());
            joined.put(binary).put(data).flip();
            binary = joined;
            if (last) {
                byte[] bytes = new byte[binary.remaining()];
                binary.get(bytes);
                messages.add(StreamCodec.decode(bytes));
                binary = ByteBuffer.allocate(0);
            }
            ws.request(1);
            return null;
        }

        <T extends StreamMessage> List<T> of(Class<T> type) {
            List<T> out = new ArrayList<>();
            for (StreamMessage m : messages) {
                if (type.isInstance(m)) {
                    out.add(type.cast(m));
                }
            }
            return out;
        }

        boolean await(Predicate<Client> condition, long ms) throws InterruptedException {
            long end = System.nanoTime() + ms * 1_000_000L;
            while (System.nanoTime() - end < 0) {
                if (condition.test(this)) {
                    return true;
                }
                Thread.sleep(10);
            }
            return condition.test(this);
        }
    }

    private WebSocket connect(String query, Client client) {
        return HttpClient.newHttpClient().newWebSocketBuilder()
            .buildAsync(URI.create("ws://127.0.0.1:" + server.httpPort() + "/ws" + query), client).join();
    }

    @Test
    void shouldStreamHelloSceneStatesAndContactEventsAsJson() throws Exception {
        Client client = new Client();
        WebSocket ws = connect("?format=json&rate=100", client);
        // The default scene's hand presses the wall, then the box, every 6 s: the tool's contact with the wall
        // (stream id 0) begins within 7 s of connecting, whenever that is.
        assertTrue(client.await(c -> c.of(StateMessage.class).size() >= 20 && c.of(EventsMessage.class).stream()
            .flatMap(e -> e.events().stream()).anyMatch(e -> e instanceof StreamEvent.ContactBegan b
                && b.bodyA() == StreamProtocol.TOOL_ID && b.bodyB() == 0), 7_000),
            "no contact with the wall began: " + client.of(EventsMessage.class));
        HelloMessage hello = (HelloMessage) client.messages.get(0);
        assertEquals(StreamProtocol.VERSION, hello.protocolVersion());
        assertEquals(1000, hello.tickRateHz());
        SceneMessage scene = (SceneMessage) client.messages.get(1);
        assertEquals("wall", scene.name());
        assertEquals(List.of("wall", "box"), scene.bodies().stream().map(b -> b.name()).toList());
        assertEquals(0.005f, scene.toolRadiusM());
        List<StateMessage> states = client.of(StateMessage.class);
        assertTrue(states.size() >= 20, "states at 100 Hz: " + states.size());
        for (int i = 1; i < states.size(); i++) {
            assertTrue(states.get(i).tick() > states.get(i - 1).tick());
        }
        // Every contact event names the tool and a body of the scene, and each began has its impact.
        List<StreamEvent> all = client.of(EventsMessage.class).stream().flatMap(e -> e.events().stream()).toList();
        for (StreamEvent e : all) {
            if (e instanceof StreamEvent.ContactBegan b) {
                assertEquals(StreamProtocol.TOOL_ID, b.bodyA());
                assertTrue(b.bodyB() == 0 || b.bodyB() == 1, all.toString());
                assertTrue(all.stream().anyMatch(i -> i instanceof StreamEvent.Impact impact
                    && impact.tick() == b.tick() && impact.bodyB() == b.bodyB()), all.toString());
            }
        }
        ws.abort();
    }

    @Test
    void shouldRefuseACommandWithoutTheTokenAndStopTheLoopWithIt() throws Exception {
        Client client = new Client();
        WebSocket ws = connect("?rate=50", client);
        assertTrue(client.await(c -> !c.of(StateMessage.class).isEmpty(), 3_000));
        ws.sendBinary(ByteBuffer.wrap(StreamCodec.encode(
            new CommandMessage(7, "not-the-token", new Command.EmergencyStop()))), true).join();
        assertTrue(client.await(c -> !c.of(AckMessage.class).isEmpty(), 3_000));
        AckMessage refused = client.of(AckMessage.class).get(0);
        assertEquals(7, refused.commandId());
        assertFalse(refused.accepted());
        assertEquals("wrong or missing token", refused.reason());

        ws.sendBinary(ByteBuffer.wrap(StreamCodec.encode(
            new CommandMessage(8, config.token(), new Command.EmergencyStop()))), true).join();
        assertTrue(client.await(c -> c.of(AckMessage.class).size() == 2, 3_000));
        assertTrue(client.of(AckMessage.class).get(1).accepted());
        assertTrue(client.await(c -> {
            List<StateMessage> s = c.of(StateMessage.class);
            return s.get(s.size() - 1).safetyState() == SafetyCode.ESTOP;
        }, 3_000), "the loop did not stop");

        ws.sendBinary(ByteBuffer.wrap(StreamCodec.encode(
            new CommandMessage(9, config.token(), new Command.Pause()))), true).join();
        assertTrue(client.await(c -> c.of(AckMessage.class).size() == 3, 3_000));
        AckMessage pause = client.of(AckMessage.class).get(2);
        assertFalse(pause.accepted());
        assertTrue(pause.reason().contains("not supported"), pause.reason());
        ws.abort();
    }

    @Test
    void shouldServeTcpClientsThatSubscribeToTheirRate() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", server.tcpPort())) {
            DataInputStream in = new DataInputStream(socket.getInputStream());
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            assertTrue(read(in) instanceof HelloMessage);
            assertTrue(read(in) instanceof SceneMessage);
            byte[] subscribe = StreamCodec.encode(new SubscribeMessage(10));
            out.writeInt(Integer.reverseBytes(subscribe.length));
            out.write(subscribe);
            out.flush();
            // Skip what was already on its way at 60 Hz, then 10 Hz: states about 100 ticks apart.
            Thread.sleep(300);
            while (in.available() > 0) {
                read(in);
            }
            long first = -1;
            long second = -1;
            while (second < 0) {
                StreamMessage m = read(in);
                if (m instanceof StateMessage s) {
                    if (first < 0) {
                        first = s.simTimeNs();
                    } else {
                        second = s.simTimeNs();
                    }
                }
            }
            // 10 Hz: two states 100 ms apart in loop time. At least 95 ms (a state is up to a tick old, and Netty's
            // timer may fire a little early); at most 300 ms, allowing for a stall of this machine.
            long apartMs = (second - first) / 1_000_000L;
            assertTrue(apartMs >= 95 && apartMs <= 300, "ms apart: " + apartMs);
        }
    }

    private static StreamMessage read(DataInputStream in) throws java.io.IOException {
        int length = Integer.reverseBytes(in.readInt());
        byte[] frame = new byte[length];
        in.readFully(frame);
        return StreamCodec.decode(frame);
    }
}
