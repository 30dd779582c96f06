package org.hapticsd.server.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.StringReader;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.SystemNanoClock;
import org.hapticsd.protocol.stream.EventsMessage;
import org.hapticsd.protocol.stream.StreamCodec;
import org.hapticsd.protocol.stream.StreamEvent;
import org.hapticsd.protocol.stream.StreamMessage;
import org.hapticsd.server.LoopAssembly;
import org.hapticsd.server.StreamService;
import org.hapticsd.server.loop.LoopRunner;
import org.hapticsd.server.loop.LoopSnapshot;
import org.hapticsd.server.loop.WaitStrategies;
import org.hapticsd.server.scene.BuiltScene;
import org.hapticsd.server.scene.SceneBuilder;
import org.hapticsd.server.scene.SceneLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A run that ends while its steps still drop contacts: a tester's TCP client got the CONTACTS_DROPPED events of the
 * run's first seconds but not the last one, so the events did not add up to the drops the status line reported.
 * Once the loop has stopped, {@link StreamService#finish()} sends what is pending before the connections close.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StreamFinishTest {
    /**
     * Three spheres dropped from 2 m onto a floor, with room for one contact point; the tool is parked 1 m up. The
     * load's check sees no contact, and the spheres land 0.64 s after the start: long after the client's first
     * STATE (a client gets no event from before its first STATE).
     */
    private static final String SCENE = """
        name: tight
        mapping: {origin: [0, 0, 1]}
        contact: {maxPairs: 8, maxPoints: 1}
        bodies:
          - {name: floor, shape: {type: plane, normal: [0, 0, 1]}}
          - {name: a, motion: dynamic, massKg: 1.0, shape: {type: sphere, radiusM: 0.05}, position: [0.0, 0.0, 2.05]}
          - {name: b, motion: dynamic, massKg: 1.0, shape: {type: sphere, radiusM: 0.05}, position: [0.2, 0.0, 2.05]}
          - {name: c, motion: dynamic, massKg: 1.0, shape: {type: sphere, radiusM: 0.05}, position: [0.4, 0.0, 2.05]}
        """;

    @Test
    void shouldSendTheDropsStillPendingBeforeTheConnectionsClose() throws Exception {
        BuiltScene scene = SceneBuilder.build(new SceneLoader().parse("tight.yaml", new StringReader(SCENE)));
        org.hapticsd.device.sim.SimulatedDevice device = scene.newSimulatedDevice();
        device.open();
        LoopAssembly assembly = new LoopAssembly(scene, device, 1000, SystemNanoClock.INSTANCE);
        StreamService service = StreamService.start(assembly, StreamServerConfig.defaults().withPorts(0, 0),
            new LoopStatsBoard(), () -> SceneBuilder.build(new SceneLoader().parse("tight.yaml",
                new StringReader(SCENE))), null);
        assembly.loop().setTickSink(service.events());
        LoopRunner runner = new LoopRunner(assembly.loop(), 1000, WaitStrategies.HYBRID, SystemNanoClock.INSTANCE);
        List<StreamEvent.ContactsDropped> drops = new ArrayList<>();
        try (Socket socket = new Socket("127.0.0.1", service.server().tcpPort())) {
            DataInputStream in = new DataInputStream(socket.getInputStream());
            runner.start();
            // The spheres land after 0.64 s and drop two of their three points on every tick from then on. After the
            // first event (sent at once) the next comes a second later: stop before it, so that every later drop is
            // still pending when the loop stops.
            while (drops.isEmpty()) {
                collect(read(in), drops);
            }
            Thread.sleep(300);
            runner.close();
            service.finish();
            service.close();
            try {
                while (true) {
                    collect(read(in), drops);
                }
            } catch (EOFException closed) {
                // The server closed the connection after the last flush.
            }
        } finally {
            runner.close();
            service.close();
        }
        LoopSnapshot last = assembly.loop().lastSnapshot();
        assertTrue(last.droppedPointsTotal > 100, "the run dropped " + last.droppedPointsTotal + " points");
        assertTrue(drops.size() >= 2, "events " + drops);
        long pairs = drops.stream().mapToLong(StreamEvent.ContactsDropped::droppedPairs).sum();
        long points = drops.stream().mapToLong(StreamEvent.ContactsDropped::droppedPoints).sum();
        assertEquals(last.droppedPairsTotal, pairs, "pairs: the events add up to every drop: " + drops);
        assertEquals(last.droppedPointsTotal, points, "points: the events add up to every drop: " + drops);
    }

    private static void collect(StreamMessage message, List<StreamEvent.ContactsDropped> drops) {
        if (message instanceof EventsMessage events) {
            for (StreamEvent e : events.events()) {
                if (e instanceof StreamEvent.ContactsDropped d) {
                    drops.add(d);
                }
            }
        }
    }

    private static StreamMessage read(DataInputStream in) throws IOException {
        int length = Integer.reverseBytes(in.readInt());
        byte[] frame = new byte[length];
        in.readFully(frame);
        return StreamCodec.decode(frame);
    }
}
