package org.hapticsd.server.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.hapticsd.client.StreamClient;
import org.hapticsd.client.StreamListener;
import org.hapticsd.protocol.stream.Body;
import org.hapticsd.protocol.stream.DeformableNodes;
import org.hapticsd.protocol.stream.Motion;
import org.hapticsd.protocol.stream.SceneMessage;
import org.hapticsd.protocol.stream.Shape;
import org.hapticsd.protocol.stream.StateMessage;
import org.hapticsd.server.LiveServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A deformable body on the stream (protocol version 2): source 004's chain ({@code scenes/modal-2dof.yaml}) from the
 * real loop and server, read by the stream client in both forms: a SCENE body of shape DEFORMABLE with the chain's
 * nodes and springs, and in every STATE the nodes where the loop has them.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DeformableStreamTest {
    private static final long WAIT_MS = 20_000;

    private LiveServer live;
    private final List<StreamClient> clients = new ArrayList<>();

    @AfterEach
    void stop() {
        clients.forEach(StreamClient::close);
        if (live != null) {
            live.close();
        }
    }

    @Test
    void shouldSendTheChainsShapeAndItsNodesInEveryState() throws Exception {
        Path file = Path.of("..", "scenes", "modal-2dof.yaml");
        live = LiveServer.start(file, StreamServerConfig.defaults().withPorts(0, 0), null);

        for (String query : List.of("", "?format=json")) {
            AtomicReference<SceneMessage> sceneSeen = new AtomicReference<>();
            List<StateMessage> states = new java.util.concurrent.CopyOnWriteArrayList<>();
            StreamClient client = StreamClient.builder(
                    URI.create("ws://127.0.0.1:" + live.server().httpPort() + "/ws" + query))
                .rateHz(100)
                .listener(new StreamListener() {
                    @Override
                    public void onScene(SceneMessage m) {
                        sceneSeen.set(m);
                    }

                    @Override
                    public void onState(StateMessage m) {
                        states.add(m);
                    }
                })
                .build();
            clients.add(client);
            client.connect().get(WAIT_MS, TimeUnit.MILLISECONDS);
            long end = System.nanoTime() + WAIT_MS * 1_000_000L;
            while (states.size() < 20 && System.nanoTime() - end < 0) {
                Thread.sleep(10);
            }
            assertTrue(states.size() >= 20, query + ": states " + states.size());

            Body chain = sceneSeen.get().bodies().stream().filter(b -> b.name().equals("chain")).findFirst()
                .orElseThrow();
            assertEquals(Motion.DYNAMIC, chain.motion());
            Shape.Deformable shape = (Shape.Deformable) chain.shape();
            assertEquals(3, shape.nodeCount());
            assertEquals(List.of(0, 1, 1, 2), java.util.Arrays.stream(shape.edges()).boxed().toList(), "the springs");
            assertEquals(0, shape.triangleCount());

            for (StateMessage state : states) {
                assertEquals(1, state.deformables().size(), query);
                DeformableNodes nodes = state.deformables().get(0);
                assertEquals(chain.id(), nodes.bodyId());
                float[] p = nodes.positionsM();
                assertEquals(0f, p[2], 0f, "the support stays");
                // Released at rest at the springs' rest lengths, the masses swing about their static sag (m1 0.065 m,
                // m2 0.114 m below the start), each mode by at most its share of it: within 0.2 m of the start.
                assertTrue(Math.abs(p[5] + 1.0f) < 0.2f, query + " m1 at " + p[5]);
                assertTrue(Math.abs(p[8] + 2.0f) < 0.3f, query + " m2 at " + p[8]);
            }
            float first = states.get(0).deformables().get(0).positionsM()[8];
            float last = states.get(states.size() - 1).deformables().get(0).positionsM()[8];
            assertTrue(first != last, query + ": the nodes move from STATE to STATE");
            assertEquals(0, client.counters().decodeErrors());
        }
    }
}
