package org.hapticsd.server.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.hapticsd.client.StreamClient;
import org.hapticsd.client.StreamListener;
import org.hapticsd.protocol.stream.AckMessage;
import org.hapticsd.protocol.stream.Body;
import org.hapticsd.protocol.stream.Command;
import org.hapticsd.protocol.stream.ContactModeCode;
import org.hapticsd.protocol.stream.EventsMessage;
import org.hapticsd.protocol.stream.SceneMessage;
import org.hapticsd.protocol.stream.StreamEvent;
import org.hapticsd.protocol.stream.StreamProtocol;
import org.hapticsd.server.LiveServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * IMPULSE_COLLISION events (stream protocol version 2, event kind 10) from the real loop and stream server on
 * 127.0.0.1, read by the stream client in both forms: the four collisions of Newton's cradle, passed down the row
 * with the waveform of Table 2's single-point fit; and the tool's impact transient on a tap. Waits are for events,
 * bounded for a busy machine; nothing depends on how fast.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class ImpulseCollisionEventsTest {
    private static final long WAIT_MS = 20_000;
    /** Table 2's single-point fit, the default of contact.impulse. */
    private static final double S_H = 117.42;
    private static final double S_W_MS = 0.459;
    private static final double W_MIN_MS = 7.5;

    private LiveServer live;
    private StreamServerConfig config;
    private final List<StreamClient> clients = new ArrayList<>();

    private void start(String sceneFile) throws Exception {
        Path file = Path.of("..", "scenes", sceneFile);
        config = StreamServerConfig.defaults().withPorts(0, 0);
        live = LiveServer.start(file, config, null);
    }

    @AfterEach
    void stop() {
        clients.forEach(StreamClient::close);
        if (live != null) {
            live.close();
        }
    }

    /** A client that keeps the last SCENE's body ids by name and every IMPULSE_COLLISION it receives. */
    private final class Watcher {
        final Map<String, Integer> ids = new HashMap<>();
        final List<StreamEvent.ImpulseCollision> collisions = new CopyOnWriteArrayList<>();
        final StreamClient client;

        Watcher(String query) {
            client = StreamClient.builder(URI.create("ws://127.0.0.1:" + live.server().httpPort() + "/ws" + query))
                .rateHz(50).token(config.token())
                .listener(new StreamListener() {
                    @Override
                    public void onScene(SceneMessage scene) {
                        synchronized (ids) {
                            for (Body b : scene.bodies()) {
                                ids.put(b.name(), b.id());
                            }
                        }
                    }

                    @Override
                    public void onEvents(EventsMessage events) {
                        for (StreamEvent e : events.events()) {
                            if (e instanceof StreamEvent.ImpulseCollision c) {
                                collisions.add(c);
                            }
                        }
                    }
                })
                .build();
            clients.add(client);
        }

        int id(String name) {
            synchronized (ids) {
                return ids.getOrDefault(name, -2);
            }
        }
    }

    private static boolean await(BooleanSupplier condition) throws InterruptedException {
        long endNs = System.nanoTime() + WAIT_MS * 1_000_000L;
        while (System.nanoTime() - endNs < 0) {
            if (condition.getAsBoolean()) {
                return true;
            }
            Thread.sleep(10);
        }
        return condition.getAsBoolean();
    }

    /** Index of the last collision between b0 and b1, or −1. */
    private static int rowStart(Watcher w) {
        int b0 = w.id("b0");
        int b1 = w.id("b1");
        if (b0 < 0 || b1 < 0) {
            return -1; // no SCENE yet
        }
        for (int i = w.collisions.size() - 1; i >= 0; i--) {
            StreamEvent.ImpulseCollision c = w.collisions.get(i);
            if (Math.min(c.bodyA(), c.bodyB()) == Math.min(b0, b1) && Math.max(c.bodyA(), c.bodyB()) == Math.max(b0, b1)) {
                return i;
            }
        }
        return -1;
    }

    @Test
    void shouldSendEachCollisionOfTheCradleRowWithItsWaveform() throws Exception {
        start("cradle.yaml");
        Watcher binary = new Watcher("");
        Watcher json = new Watcher("?format=json");
        binary.client.connect().get(WAIT_MS, TimeUnit.MILLISECONDS);
        json.client.connect().get(WAIT_MS, TimeUnit.MILLISECONDS);
        // The row struck at load, before the clients came; a reset strikes it again while they watch.
        AckMessage ack = binary.client.send(new Command.ResetScene()).get(WAIT_MS, TimeUnit.MILLISECONDS);
        assertTrue(ack.accepted(), ack.reason());
        for (Watcher w : List.of(binary, json)) {
            // The clients may have seen the end of the row struck at load; a row is read from its first collision,
            // b0 with b1, the last one seen.
            assertTrue(await(() -> rowStart(w) >= 0 && w.collisions.size() - rowStart(w) >= 4),
                "collisions seen: " + w.collisions);
            int from = rowStart(w);
            List<StreamEvent.ImpulseCollision> row = w.collisions.subList(from, from + 4);
            for (int k = 0; k < 4; k++) {
                StreamEvent.ImpulseCollision c = row.get(k);
                assertEquals(Math.min(w.id("b" + k), w.id("b" + (k + 1))), Math.min(c.bodyA(), c.bodyB()),
                    "collision " + k + ": " + c);
                assertEquals(Math.max(w.id("b" + k), w.id("b" + (k + 1))), Math.max(c.bodyA(), c.bodyB()),
                    "collision " + k + ": " + c);
                assertEquals(ContactModeCode.IMPULSE, c.mode());
                if (k > 0) {
                    assertTrue(c.tick() > row.get(k - 1).tick(), "passed down the row, one after the other: " + row);
                }
                // Equal unit masses at 0.5 m/s, e = 1: IP_z = (1 + e)·v/K_nn = 2 × 0.5 / 2 = 0.5 N·s (the speed each
                // passes on is 0.5 m/s to round-off), H = S_h·IP_z, W = S_w/IP_z + W_min.
                assertEquals(0.5, c.impulseNewtonSeconds(), 1e-4, "IP_z of " + c);
                assertEquals(S_H * 0.5, c.heightN(), 1e-2, "H of " + c);
                assertEquals((S_W_MS / 0.5 + W_MIN_MS) * 1e-3, c.durationS(), 1e-6, "W of " + c);
                assertEquals(1.0, c.elasticity(), 1e-6, "e of " + c);
            }
        }
        assertEquals(0, binary.client.counters().decodeErrors());
        assertEquals(0, json.client.counters().decodeErrors());
    }

    @Test
    void shouldSendTheToolsImpactTransientWithThePairsMode() throws Exception {
        start("tap.yaml");
        Watcher w = new Watcher("");
        w.client.connect().get(WAIT_MS, TimeUnit.MILLISECONDS);
        // The path taps every 4.5 s; the first tap after the client connected is enough.
        assertTrue(await(() -> !w.collisions.isEmpty()), "no impact transient in " + WAIT_MS + " ms");
        StreamEvent.ImpulseCollision c = w.collisions.get(0);
        int block = w.id("block");
        assertTrue(c.bodyA() == StreamProtocol.TOOL_ID && c.bodyB() == block
            || c.bodyB() == StreamProtocol.TOOL_ID && c.bodyA() == block, "tool and block: " + c);
        // The tool against a static body: PENALTY, on top of which the pulse plays.
        assertEquals(ContactModeCode.PENALTY, c.mode());
        // e is the mean of the tool's 0 and the block's 0.8; W and H follow IP by (8) and (9), H capped by the
        // device's 10 N.
        assertEquals(0.4, c.elasticity(), 1e-6);
        double ip = c.impulseNewtonSeconds();
        assertTrue(ip > 0.005 && ip < 0.2, "a tap's impulse: " + c);
        assertEquals((S_W_MS / ip + W_MIN_MS) * 1e-3, c.durationS(), 1e-6, "W of " + c);
        assertEquals(Math.min(S_H * ip, 10.0), c.heightN(), 1e-3 * S_H * ip, "H of " + c);
    }
}
