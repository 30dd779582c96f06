package org.hapticsd.server.net;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringReader;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import org.hapticsd.physics.PhysicsWorld;
import org.hapticsd.protocol.stream.ContactPoint;
import org.hapticsd.protocol.stream.SafetyCode;
import org.hapticsd.protocol.stream.StateMessage;
import org.hapticsd.protocol.stream.StreamCodec;
import org.hapticsd.protocol.stream.StreamJson;
import org.hapticsd.protocol.stream.Vec3;
import org.hapticsd.server.loop.LoopSnapshot;
import org.hapticsd.server.safety.SafetyState;
import org.hapticsd.server.scene.BuiltScene;
import org.hapticsd.server.scene.SceneBuilder;
import org.hapticsd.server.scene.SceneLoader;
import org.hapticsd.server.scene.SpherePile;
import org.hapticsd.testsupport.JitPrimer;
import org.joml.Quaterniond;
import org.joml.Vector3d;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A client's binary STATE of a 200-sphere pile: written in place into its buffer, with the content the object model
 * gave (poses, contacts turned into the spec's direction, forces in the scene frame), and nothing allocated per
 * message once warm, where the object model made about 1.6 kB of garbage per message and client; nor by a client
 * run's read of its events when nothing happened.
 */
class StateFramesAllocationTest {
    private static final int SPHERES = 200;
    private static final int CONTACTS = 400;

    private BuiltScene scene;
    private ProtocolStreamFrames frames;
    private LoopSnapshot snapshot;
    private String firstSphere;

    @BeforeEach
    void setUp() throws Exception {
        SpherePile pile = new SpherePile(SPHERES);
        firstSphere = pile.name(0);
        scene = SceneBuilder.build(new SceneLoader().parse("pile-200", new StringReader(pile.yaml())));
        LoopStatsBoard board = new LoopStatsBoard();
        board.publish(999.5, 12_000L, 210_000L, 4L);
        frames = new ProtocolStreamFrames(scene, 1000, board);
        PhysicsWorld world = scene.haptic().world();
        snapshot = new LoopSnapshot(world.bodyCount(), 0, CONTACTS);
        Vector3d p = new Vector3d();
        Quaterniond q = new Quaterniond();
        for (int body = 0; body < world.bodyCount(); body++) {
            world.bodyPosition(body, p);
            world.bodyOrientation(body, q);
            int o = body * LoopSnapshot.POSE_STRIDE;
            double[] pose = {p.x, p.y, p.z, q.w, q.x, q.y, q.z};
            System.arraycopy(pose, 0, snapshot.bodyPose, o, pose.length);
        }
        // Sphere k rests on sphere k + 1 (world indices of the first two named spheres on): normal from B toward A,
        // +z, and the force on A, +9.81 N in z.
        int first = scene.bodyIndices()[scene.bodyNames().indexOf(firstSphere)];
        for (int i = 0; i < CONTACTS; i++) {
            snapshot.contactBodies[2 * i] = first + i % SPHERES;
            snapshot.contactBodies[2 * i + 1] = first + (i + 1) % SPHERES;
            snapshot.contactPointM[3 * i] = 0.001 * i;
            snapshot.contactNormal[3 * i + 2] = 1.0;
            snapshot.contactForceN[3 * i + 2] = 9.81;
            snapshot.contactDepthM[i] = 1e-4;
        }
        snapshot.publishedContacts = CONTACTS;
        snapshot.contactCount = CONTACTS;
        snapshot.tick = 12_345;
        snapshot.simTimeNs = 12_345_000_000L;
        snapshot.safety = SafetyState.ACTIVE;
        snapshot.deviceConnected = true;
        snapshot.renderedForceN[0] = 1.5;
        snapshot.commandedForceN[0] = 1.25;
        snapshot.physicsLoadPercent = 21;
    }

    /** The compiler's one-off allocations on the measuring thread, done before anything is measured. */
    @BeforeAll
    static void primeJit() {
        JitPrimer.primeClassPath();
    }

    @Test
    void shouldCarryThePosesContactsAndForcesOfTheSnapshot() throws Exception {
        byte[] bytes = frames.stateBinary(snapshot);
        StateMessage m = (StateMessage) StreamCodec.decode(bytes);
        assertEquals(12_345L, m.tick());
        assertEquals(SafetyCode.ACTIVE, m.safetyState());
        assertEquals(21, m.loop().physicsLoadPercent());
        assertEquals(999.5f, m.loop().achievedRateHz());
        assertEquals(4L, m.loop().overruns());
        assertEquals(SPHERES, m.poses().size());
        assertEquals(CONTACTS, m.contacts().size());
        int s0 = scene.bodyNames().indexOf(firstSphere);
        ContactPoint c = m.contacts().get(3);
        assertEquals(s0 + 3, c.bodyA());
        assertEquals(s0 + 4, c.bodyB());
        // The spec's normal runs from A toward B and its force is on B: the engine's, negated.
        // (Negated zeros are -0.0, as the object model wrote them.)
        assertEquals(new Vec3(-0f, -0f, -1f), c.normal());
        assertEquals(new Vec3(-0f, -0f, -9.81f), c.forceN());
        assertEquals(0.003f, c.pointM().x());
        assertEquals(1e-4f, c.depthM());
        Vector3d expected = scene.haptic().mapping().deviceForceToScene(new Vector3d(1.5, 0, 0), new Vector3d());
        assertEquals(new Vec3((float) expected.x, (float) expected.y, (float) expected.z), m.renderedForceN());
        // The pose of the first sphere is its snapshot pose, to float precision.
        int world0 = scene.bodyIndices()[s0];
        assertEquals((float) snapshot.bodyPose[world0 * LoopSnapshot.POSE_STRIDE + 2],
            m.poses().stream().filter(p -> p.bodyId() == s0).findFirst().orElseThrow().positionM().z());
        // JSON clients get the same message, in JSON.
        assertEquals(StreamJson.encodeJson(m), frames.stateJson(snapshot));
        // And a client's buffer holds exactly these bytes.
        StateBuffer buffer = new StateBuffer();
        frames.stateBinary(snapshot, buffer);
        assertArrayEquals(bytes, Arrays.copyOf(buffer.bytes(), buffer.length()));
    }

    @Test
    void shouldAllocateNothingPerStateOnceTheClientsBufferHasGrown() {
        com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assertTrue(threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled());
        StateBuffer buffer = new StateBuffer();
        // Warm-up, as LoopAllocationTest's: JIT compilation charges a few hundred bytes, once, to the thread whose
        // code it compiles (string constants resolved, scalar-replaced objects re-materialised on deoptimisation),
        // and can land in any window. So at least 8 windows of 5,000 messages, then until 3 in a row allocate
        // nothing, at most 60: code that allocates per message never gets there.
        warmUpToZero(n -> allocatedBytes(threads, buffer, n), "STATEs");
        // Tolerance: zero bytes over 20,000 messages (the object model: about 1.6 kB each for the default scene).
        assertEquals(0, allocatedBytes(threads, buffer, 20_000),
            "bytes allocated by 20,000 STATEs of a 200-sphere pile");
        assertEquals(4 + 94 + 30 * SPHERES + 44 * CONTACTS, buffer.length(), "the last message whole");
    }

    /**
     * A client's run also reads its events: with nothing new (the pile's 400 contacts held tick after tick), the
     * event log's tick and the run's read allocate nothing; the first read, with the contacts' beginnings, is whole.
     */
    @Test
    void shouldAllocateNothingForAClientRunWithNoNewEvents() {
        com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        EventLog log = new EventLog(1_000_000L);
        EventLog.Receiver receiver = log.newClientReceiver();
        // A tick without contacts, then the pile's: its 200 touching pairs begin.
        snapshot.publishedContacts = 0;
        log.onTick(snapshot);
        snapshot.tick++;
        snapshot.publishedContacts = CONTACTS;
        log.onTick(snapshot);
        java.util.List<Object> first = frames.eventsFrames(receiver, false);
        assertEquals(1, first.size(), "one EVENTS message");
        java.util.List<org.hapticsd.protocol.stream.StreamEvent> began =
            ((org.hapticsd.protocol.stream.EventsMessage) StreamCodec.decode((byte[]) first.get(0))).events();
        assertEquals(SPHERES, began.stream()
            .filter(e -> e instanceof org.hapticsd.protocol.stream.StreamEvent.ContactBegan).count(),
            "the pile's 200 touching pairs began");
        warmUpToZero(n -> allocatedByRuns(threads, log, receiver, n), "runs");
        // Tolerance: zero bytes over 20,000 ticks and runs (before: two lists, a lambda and method references a run).
        assertEquals(0, allocatedByRuns(threads, log, receiver, 20_000), "bytes allocated by 20,000 event reads");
    }

    /**
     * At least 8 windows of 5,000, then until 3 in a row allocate nothing, at most 60: code that allocates every time
     * never gets there and fails.
     */
    private static void warmUpToZero(java.util.function.IntToLongFunction window, String what) {
        int zeros = 0;
        int windows = 0;
        while ((windows < 8 || zeros < 3) && windows < 60) {
            zeros = window.applyAsLong(5_000) == 0 ? zeros + 1 : 0;
            windows++;
        }
        assertTrue(zeros >= 3, "three allocation-free windows of 5,000 " + what + " in a row within 60, had " + zeros);
    }

    private long allocatedByRuns(com.sun.management.ThreadMXBean threads, EventLog log, EventLog.Receiver receiver,
                                 int runs) {
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < runs; i++) {
            snapshot.tick++;
            log.onTick(snapshot);
            if (!frames.eventsFrames(receiver, false).isEmpty()) {
                throw new AssertionError("an event with nothing changed");
            }
        }
        return threads.getCurrentThreadAllocatedBytes() - before;
    }

    private long allocatedBytes(com.sun.management.ThreadMXBean threads, StateBuffer buffer, int messages) {
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < messages; i++) {
            snapshot.tick++;
            frames.stateBinary(snapshot, buffer);
        }
        return threads.getCurrentThreadAllocatedBytes() - before;
    }
}
