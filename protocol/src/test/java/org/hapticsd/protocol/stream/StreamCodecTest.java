package org.hapticsd.protocol.stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Binary round trips, sizes and the decoder's refusals, each naming what it refused. */
class StreamCodecTest {

    @Test
    void shouldRoundTripEveryMessageExactly() {
        Set<StreamMessageType> seen = EnumSet.noneOf(StreamMessageType.class);
        for (StreamMessage m : StreamSamples.all()) {
            byte[] bytes = StreamCodec.encode(m);
            assertEquals(StreamCodec.encodedSize(m), bytes.length, m.type().name());
            // Record equality compares floats bit for bit (Float.compare), so this is an exact round trip.
            assertEquals(m, StreamCodec.decode(bytes), m.type().name());
            seen.add(m.type());
        }
        assertEquals(EnumSet.allOf(StreamMessageType.class), seen);
    }

    @Test
    void shouldEncodeAndDecodeThroughByteBuffersLeavingTheirOrderAlone() {
        for (ByteBuffer buffer : List.of(ByteBuffer.allocate(4096), ByteBuffer.allocateDirect(4096))) {
            buffer.order(ByteOrder.BIG_ENDIAN).position(3);
            List<StreamMessage> all = StreamSamples.all();
            List<Integer> sizes = new ArrayList<>();
            for (StreamMessage m : all) {
                sizes.add(StreamCodec.encode(m, buffer));
            }
            assertEquals(ByteOrder.BIG_ENDIAN, buffer.order());
            buffer.flip().position(3);
            for (int i = 0; i < all.size(); i++) {
                ByteBuffer one = buffer.slice();
                one.limit(sizes.get(i));
                assertEquals(all.get(i), StreamCodec.decode(one));
                assertEquals(sizes.get(i), one.position(), "decode consumes the whole message");
                buffer.position(buffer.position() + sizes.get(i));
            }
        }
    }

    @Test
    void shouldRefuseToEncodeIntoATooSmallBufferWithoutWriting() {
        ByteBuffer small = ByteBuffer.allocate(10);
        StreamFormatException e = assertThrows(StreamFormatException.class,
            () -> StreamCodec.encode(StreamSamples.state(), small));
        assertTrue(e.getMessage().contains("172"), e.getMessage());
        assertEquals(0, small.position());
    }

    @Test
    void shouldCostNinetyEightBytesPlusThirtyPerPoseFortyFourPerContactAndTwelvePerNode() {
        assertEquals(98, StreamCodec.encodedSize(StreamSamples.emptyState()));
        assertEquals(98 + 30 + 44, StreamCodec.encodedSize(StreamSamples.state()));
        assertEquals(98 + 4 + 3 * 12, StreamCodec.encodedSize(StreamSamples.stateDeformable()));
        StateMessage s = StreamSamples.state();
        StateMessage many = new StateMessage(s.tick(), s.simTimeNs(), s.sceneRevision(), s.safetyState(),
            s.safetyFault(), s.deviceConnected(), s.paused(), s.devicePositionM(), s.toolPositionM(),
            s.renderedForceN(), s.commandedForceN(), s.loop(), Collections.nCopies(10, s.poses().get(0)),
            Collections.nCopies(7, s.contacts().get(0)));
        assertEquals(98 + 10 * 30 + 7 * 44, StreamCodec.encode(many).length);
    }

    @Test
    void shouldKeepNonFiniteFloatsBitForBit() {
        float oddNan = Float.intBitsToFloat(0x7fc0_1234);
        StateMessage s = StreamSamples.state();
        StateMessage bad = new StateMessage(s.tick(), s.simTimeNs(), s.sceneRevision(), SafetyCode.SAFE,
            FaultCode.NON_FINITE_FORCE, true, false, s.devicePositionM(), s.toolPositionM(),
            new Vec3(oddNan, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY), Vec3.ZERO, s.loop(), List.of(),
            List.of());
        StateMessage back = (StateMessage) StreamCodec.decode(StreamCodec.encode(bad));
        assertEquals(0x7fc0_1234, Float.floatToRawIntBits(back.renderedForceN().x()));
        assertEquals(Float.POSITIVE_INFINITY, back.renderedForceN().y());
        assertEquals(Float.NEGATIVE_INFINITY, back.renderedForceN().z());
    }

    @Test
    void shouldIgnoreReservedBytesAndFlagBits() {
        byte[] bytes = StreamCodec.encode(StreamSamples.state());
        bytes[2] = 0x55;
        bytes[3] = (byte) 0xAA;
        bytes[4 + 22] |= (byte) 0xF8;
        assertEquals(StreamSamples.state(), StreamCodec.decode(bytes));
    }

    @Test
    void shouldCarryThePhysicsBudgetInFlagBit2AndByte23() {
        byte[] bytes = StreamCodec.encode(StreamSamples.state());
        bytes[4 + 22] |= (byte) 0x04;
        bytes[4 + 23] = (byte) 0xFF;
        StateMessage m = (StateMessage) StreamCodec.decode(bytes);
        assertTrue(m.loop().physicsOverBudget(), "flag bit 2");
        assertEquals(255, m.loop().physicsLoadPercent(), "byte 23 is unsigned");
        assertTrue(m.deviceConnected(), "bit 0 untouched");
    }

    @Test
    void shouldNameTheFieldAndOffsetOfEveryRefusal() {
        byte[] state = StreamCodec.encode(StreamSamples.state());
        assertRefused(withByte(state, 0, 1), "unsupported protocol version 1 at offset 0");
        assertRefused(withByte(state, 0, 3), "unsupported protocol version 3 at offset 0");
        byte[] deformable = StreamCodec.encode(StreamSamples.sceneDeformable());
        // The first edge index: header 4, revision 4, tool radius 4, "cloth" 7, count 2, body fields 36, "sheet" 7,
        // "" 2, node/edge/triangle counts 10, nodes 36.
        assertRefused(withByte(deformable, 112, 3), "edge index 0 at offset 112 is 3, not below nodeCount 3");
        byte[] nodes = StreamCodec.encode(StreamSamples.stateDeformable());
        assertRefused(java.util.Arrays.copyOf(nodes, nodes.length - 12), "truncated");
        byte[] impulses = StreamCodec.encode(StreamSamples.impulseEvents());
        assertRefused(withByte(impulses, 4 + 2 + 8 + 1 + 4, 4), "event 0 mode at offset 19 is unknown code 4");
        assertRefused(withByte(impulses, 4 + 2 + 8, 11), "event 0 kind at offset 14 is unknown code 11");
        assertRefused(withByte(state, 1, 0x7f), "unknown message type 0x7f at offset 1");
        assertRefused(withByte(state, 4 + 20, 9), "safetyState at offset 24 is unknown code 9");
        assertRefused(withByte(state, 4 + 21, 6), "safetyFault at offset 25 is unknown code 6");
        assertRefused(withByte(state, 4 + 7, 0x80), "tick at offset 4 is above 2^63-1");
        assertRefused(java.util.Arrays.copyOf(state, state.length + 1), "after");
        assertRefused(java.util.Arrays.copyOf(state, 3), "truncated: header reserved at offset 2");

        byte[] ack = StreamCodec.encode(StreamSamples.ackAccepted());
        assertRefused(withByte(ack, 8, 2), "accepted at offset 8 must be 0 or 1, was 2");

        byte[] hello = StreamCodec.encode(StreamSamples.hello());
        assertRefused(withByte(hello, 10, 0xff), "serverVersion at offset 10 is not valid UTF-8");
        assertRefused(withByte(withByte(hello, 8, 0x01), 9, 0x04), "serverVersion at offset 8 is 1025 bytes");

        // SCENE: revision at 4, toolRadiusM at 8, name "demo" at 12, bodyCount at 18, body 0 from 20.
        byte[] scene = StreamCodec.encode(StreamSamples.scenePrimitives());
        assertRefused(withByte(scene, 23, 9), "body 0 shape at offset 23 is unknown code 9");
        assertRefused(withByte(scene, 22, 3), "body 0 motion at offset 22 is unknown code 3");
        assertRefused(withByte(withByte(scene, 20, 0xff), 21, 0xff), "body 0 id at offset 20 is the tool's id");

        byte[] meshes = StreamCodec.encode(StreamSamples.sceneMeshes());
        int lastIndex = meshes.length - 2;
        assertRefused(withByte(meshes, lastIndex, 3), "index 2 at offset " + lastIndex
            + " is 3, not below vertexCount 3");
    }

    @Test
    void shouldRefuseForgedCountsBeforeAllocatingForThem() {
        // A 4096-body SCENE claimed by a 18-byte message: refused on the count, with no list of 4096 built.
        byte[] scene = StreamCodec.encode(new SceneMessage(1, "", 0f, List.of()));
        assertRefused(withByte(withByte(scene, 14, 0x00), 15, 0x10),
            "truncated: bodyCount 4096 at offset 14 needs at least 180224 bytes after it, 0 left");
        assertRefused(withByte(withByte(scene, 14, 0x01), 15, 0x10), "bodyCount at offset 14 is 4097, more than 4096");
        byte[] events = StreamCodec.encode(new EventsMessage(List.of()));
        assertRefused(withByte(events, 4, 0xff), "eventCount 255 at offset 4 needs at least 2295 bytes");
    }

    @Test
    void shouldRefuseMessagesOverTheirDirectionsLimit() {
        float[] vertices = new float[3 * 60_000];
        int[] indices = new int[3 * 60_000];
        SceneMessage huge = new SceneMessage(1, "huge", 0.005f, List.of(new Body(0, "m", Motion.STATIC,
            new Shape.TriangleMesh(vertices, indices), "", 0, Vec3.ZERO, Quat.IDENTITY)));
        StreamFormatException e = assertThrows(StreamFormatException.class, () -> StreamCodec.encode(huge));
        assertTrue(e.getMessage().contains("more than the 1048576-byte limit"), e.getMessage());

        // A client message may not be over 64 KiB even if its fields would parse: a SUBSCRIBE padded past it.
        byte[] big = new byte[StreamProtocol.MAX_CLIENT_MESSAGE_BYTES + 1];
        big[0] = (byte) StreamProtocol.VERSION;
        big[1] = (byte) 0x81;
        assertRefused(big, "SUBSCRIBE of 65537 bytes is over the 65536-byte limit");
    }

    @Test
    void shouldRefuseInvalidRecordsAtConstruction() {
        assertThrows(StreamFormatException.class, () -> new SubscribeMessage(70_000));
        assertThrows(StreamFormatException.class, () -> new AckMessage(-1, true, ""));
        assertThrows(StreamFormatException.class, () -> new HelloMessage(1, 1000, "x".repeat(1025)));
        assertThrows(StreamFormatException.class, () -> new HelloMessage(1, 1000, "\ud800"));
        assertThrows(StreamFormatException.class, () -> new Shape.TriangleMesh(new float[3], new int[] {0, 0, 1}));
        assertThrows(StreamFormatException.class, () -> new Body(StreamProtocol.TOOL_ID, "t", Motion.STATIC,
            new Shape.Sphere(1f), "", 0, Vec3.ZERO, Quat.IDENTITY));
        Body b = new Body(1, "a", Motion.STATIC, new Shape.Sphere(1f), "", 0, Vec3.ZERO, Quat.IDENTITY);
        assertThrows(StreamFormatException.class, () -> new SceneMessage(1, "", 0f, List.of(b, b)));
    }

    @Test
    void shouldCopyArraysSoAShapeCannotChangeAfterConstruction() {
        float[] v = {0f, 0f, 0f};
        Shape.ConvexHull hull = new Shape.ConvexHull(v);
        v[0] = 5f;
        hull.verticesM()[1] = 7f;
        assertArrayEquals(new float[] {0f, 0f, 0f}, hull.verticesM());
    }

    static byte[] withByte(byte[] bytes, int index, int value) {
        byte[] copy = bytes.clone();
        copy[index] = (byte) value;
        return copy;
    }

    static void assertRefused(byte[] bytes, String expectedMessagePart) {
        StreamFormatException e = assertThrows(StreamFormatException.class, () -> StreamCodec.decode(bytes));
        assertTrue(e.getMessage().contains(expectedMessagePart),
            "expected \"" + expectedMessagePart + "\" in \"" + e.getMessage() + "\"");
    }
}
