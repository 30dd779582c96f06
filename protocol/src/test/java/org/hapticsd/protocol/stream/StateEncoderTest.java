package org.hapticsd.protocol.stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.hapticsd.testsupport.JitPrimer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class StateEncoderTest {

    /** The compiler's one-off allocations on the measuring thread, done before anything is measured. */
    @BeforeAll
    static void primeJit() {
        JitPrimer.primeClassPath();
    }

    @Test
    void shouldWriteTheCodecsBytesForEverySampleState() {
        StateEncoder encoder = new StateEncoder();
        for (StateMessage m : List.of(StreamSamples.state(), StreamSamples.emptyState(),
                StreamSamples.stateOverBudget(), StreamSamples.stateDeformable())) {
            assertArrayEquals(StreamCodec.encode(m), encode(encoder, m), m.toString());
        }
    }

    @Test
    void shouldWriteTheCodecsBytesForRandomStatesOfGrowingSize() {
        Random random = new Random(20261128L);
        StateEncoder encoder = new StateEncoder();
        for (int round = 0; round < 40; round++) {
            StateMessage m = randomState(random, random.nextInt(round * 10 + 1), random.nextInt(round * 8 + 1),
                random.nextInt(4));
            byte[] expected = StreamCodec.encode(m);
            assertArrayEquals(expected, encode(encoder, m), "round " + round);
            assertEquals(expected.length, StateEncoder.encodedSize(m.poses().size(), m.contacts().size(),
                m.deformables().size(), m.deformables().stream().mapToInt(DeformableNodes::nodeCount).sum()));
            assertEquals(m, StreamCodec.decode(Arrays.copyOf(encoder.array(), encoder.length())));
        }
    }

    @Test
    void shouldRefuseCallsOutOfOrder() {
        StateEncoder e = new StateEncoder();
        assertThrows(IllegalStateException.class, () -> e.fixed(0, 0, 0, SafetyCode.GATED, FaultCode.NONE, false,
            false, false, 0), "before begin()");
        e.begin(1, 1, 0, 0);
        assertThrows(IllegalStateException.class, () -> e.pose(1, 0, 0, 0, 1, 0, 0, 0), "pose before the fixed part");
        writeFixedPart(e);
        assertThrows(IllegalStateException.class, () -> e.contact(1, 2, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0),
            "a contact before the declared pose");
        e.pose(1, 0, 0, 0, 1, 0, 0, 0);
        assertThrows(IllegalStateException.class, () -> e.pose(2, 0, 0, 0, 1, 0, 0, 0), "one pose more than declared");
        assertThrows(IllegalStateException.class, e::finish, "the declared contact is missing");
        e.contact(1, StreamProtocol.TOOL_ID, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0);
        assertThrows(IllegalStateException.class, () -> e.contact(1, 2, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0),
            "one contact more than declared");
        assertEquals(StateEncoder.encodedSize(1, 1, 0, 0), e.finish());
    }

    @Test
    void shouldRefuseNodesThatDoNotAddUpToTheDeclaredCount() {
        StateEncoder e = new StateEncoder();
        e.begin(0, 0, 2, 3);
        writeFixedPart(e);
        assertThrows(StreamFormatException.class, () -> e.deformable(4, 3), "leaves no node for the second body");
        e.deformable(4, 1);
        assertThrows(IllegalStateException.class, () -> e.deformable(5, 2), "the first body's node is still due");
        e.node(0, 0, 0);
        assertThrows(IllegalStateException.class, e::finish, "the second body never written");
        assertThrows(StreamFormatException.class, () -> e.deformable(5, 1), "the last body takes the 2 nodes left");
        e.deformable(5, 2);
        e.node(1, 1, 1);
        assertThrows(IllegalStateException.class, e::finish, "one declared node never written");
        e.node(2, 2, 2);
        assertEquals(StateEncoder.encodedSize(0, 0, 2, 3), e.finish());
    }

    @Test
    void shouldRefuseValuesOutOfTheirFieldsRangeAndMessagesOverTheLimits() {
        StateEncoder e = new StateEncoder();
        assertThrows(StreamFormatException.class, () -> e.begin(StreamProtocol.MAX_POSES + 1, 0, 0, 0));
        assertThrows(StreamFormatException.class, () -> e.begin(0, StreamProtocol.MAX_CONTACTS + 1, 0, 0));
        assertThrows(StreamFormatException.class, () -> e.begin(0, 0, 0, 1), "nodes without a deformable body");
        assertThrows(StreamFormatException.class,
            () -> e.begin(0, 0, 1, StreamProtocol.MAX_DEFORMABLE_NODES + 1));
        e.begin(1, 0, 0, 0);
        assertThrows(StreamFormatException.class, () -> e.fixed(-1, 0, 0, SafetyCode.GATED, FaultCode.NONE, false,
            false, false, 0), "a negative tick");
        e.begin(1, 0, 0, 0);
        assertThrows(StreamFormatException.class, () -> e.fixed(0, 0, 0, SafetyCode.GATED, FaultCode.NONE, false,
            false, false, 256), "a load over 255 %");
        e.begin(1, 0, 0, 0);
        writeFixedPart(e);
        assertThrows(StreamFormatException.class, () -> e.pose(StreamProtocol.TOOL_ID, 0, 0, 0, 1, 0, 0, 0),
            "the tool has no pose");
    }

    @Test
    void shouldAllocateNothingPerMessageOnceWarm() {
        com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assertTrue(threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled());
        StateEncoder encoder = new StateEncoder();
        long checksum = 0;
        // Warm-up: JIT compilation, and the buffer grown to the 200-pose, 400-contact message (26 kB).
        for (int i = 0; i < 20_000; i++) {
            checksum += encodeLargeState(encoder, i);
        }
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < 10_000; i++) {
            checksum += encodeLargeState(encoder, i);
        }
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertEquals(30_000L * StateEncoder.encodedSize(200, 400, 0, 0), checksum);
        // Tolerance: zero bytes for 10,000 messages (the codec's object model made about 1.6 kB per message).
        assertEquals(0, allocated);
    }

    private static long encodeLargeState(StateEncoder e, int i) {
        e.begin(200, 400, 0, 0);
        e.fixed(i, 1_000_000L * i, 1, SafetyCode.ACTIVE, FaultCode.NONE, true, false, false, 12);
        e.devicePosition(0.1f, 0.2f, 0.3f);
        e.toolPosition(0.1f, 0.2f, 0.3f);
        e.renderedForce(0f, 0f, 1f);
        e.commandedForce(0f, 0f, 1f);
        e.loop(1000f, 5000, 200_000, 3);
        for (int b = 0; b < 200; b++) {
            e.pose(b, b, i, 0.05f, 1, 0, 0, 0);
        }
        for (int c = 0; c < 400; c++) {
            e.contact(c % 200, (c + 1) % 200, c, 0, 0, 0, 0, 1, 0, 0, 9.81f, 1e-4f);
        }
        return e.finish();
    }

    private static void writeFixedPart(StateEncoder e) {
        e.fixed(7, 7_000_000L, 1, SafetyCode.ACTIVE, FaultCode.NONE, true, false, false, 0);
        e.devicePosition(0, 0, 0);
        e.toolPosition(0, 0, 0);
        e.renderedForce(0, 0, 0);
        e.commandedForce(0, 0, 0);
        e.loop(1000f, 0, 0, 0);
    }

    /** The message through the encoder's public calls, as a server would write it. */
    private static byte[] encode(StateEncoder e, StateMessage m) {
        int nodes = m.deformables().stream().mapToInt(DeformableNodes::nodeCount).sum();
        e.begin(m.poses().size(), m.contacts().size(), m.deformables().size(), nodes);
        LoopStats loop = m.loop();
        e.fixed(m.tick(), m.simTimeNs(), m.sceneRevision(), m.safetyState(), m.safetyFault(), m.deviceConnected(),
            m.paused(), loop.physicsOverBudget(), loop.physicsLoadPercent());
        e.devicePosition(m.devicePositionM().x(), m.devicePositionM().y(), m.devicePositionM().z());
        e.toolPosition(m.toolPositionM().x(), m.toolPositionM().y(), m.toolPositionM().z());
        e.renderedForce(m.renderedForceN().x(), m.renderedForceN().y(), m.renderedForceN().z());
        e.commandedForce(m.commandedForceN().x(), m.commandedForceN().y(), m.commandedForceN().z());
        e.loop(loop.achievedRateHz(), loop.periodErrorP99Ns(), loop.tickTimeP99Ns(), loop.overruns());
        for (BodyPose p : m.poses()) {
            e.pose(p.bodyId(), p.positionM().x(), p.positionM().y(), p.positionM().z(), p.orientation().w(),
                p.orientation().x(), p.orientation().y(), p.orientation().z());
        }
        for (ContactPoint c : m.contacts()) {
            e.contact(c.bodyA(), c.bodyB(), c.pointM().x(), c.pointM().y(), c.pointM().z(), c.normal().x(),
                c.normal().y(), c.normal().z(), c.forceN().x(), c.forceN().y(), c.forceN().z(), c.depthM());
        }
        for (DeformableNodes d : m.deformables()) {
            e.deformable(d.bodyId(), d.nodeCount());
            for (int i = 0; i < d.nodeCount(); i++) {
                e.node(d.component(3 * i), d.component(3 * i + 1), d.component(3 * i + 2));
            }
        }
        return Arrays.copyOf(e.array(), e.finish());
    }

    private static StateMessage randomState(Random r, int poses, int contacts, int deformables) {
        List<BodyPose> poseList = new ArrayList<>();
        for (int i = 0; i < poses; i++) {
            poseList.add(new BodyPose(r.nextInt(4096), vec(r), new Quat(r.nextFloat(), r.nextFloat(), r.nextFloat(),
                r.nextFloat())));
        }
        List<ContactPoint> contactList = new ArrayList<>();
        for (int i = 0; i < contacts; i++) {
            contactList.add(new ContactPoint(r.nextInt(4096), r.nextBoolean() ? StreamProtocol.TOOL_ID
                : r.nextInt(4096), vec(r), vec(r), vec(r), r.nextFloat() * 1e-3f));
        }
        List<DeformableNodes> deformableList = new ArrayList<>();
        for (int i = 0; i < deformables; i++) {
            float[] nodes = new float[3 * (1 + r.nextInt(20))];
            for (int k = 0; k < nodes.length; k++) {
                nodes[k] = (float) r.nextGaussian();
            }
            deformableList.add(new DeformableNodes(100 + i, nodes));
        }
        return new StateMessage(r.nextLong() >>> 1, r.nextLong() >>> 1, r.nextInt() & 0xFFFFFFFFL,
            SafetyCode.values()[r.nextInt(SafetyCode.values().length)],
            FaultCode.values()[r.nextInt(FaultCode.values().length)], r.nextBoolean(), r.nextBoolean(), vec(r),
            vec(r), vec(r), vec(r), new LoopStats(r.nextFloat() * 1000f, r.nextInt() & 0xFFFFFFFFL,
            r.nextInt() & 0xFFFFFFFFL, r.nextInt() & 0xFFFFFFFFL, r.nextBoolean(), r.nextInt(256)),
            poseList, contactList, deformableList);
    }

    private static Vec3 vec(Random r) {
        return new Vec3((float) r.nextGaussian(), (float) r.nextGaussian(), (float) r.nextGaussian());
    }
}
