package org.hapticsd.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class FrameDecoderTest {
    private final FrameEncoder encoder = new FrameEncoder();
    private final List<String> received = new ArrayList<>();
    private final List<Boolean> newer = new ArrayList<>();
    private final FrameDecoder decoder = new FrameDecoder(m -> {
        received.add(m.type() + "#" + m.sequence());
        newer.add(m.isNewer());
    });

    private byte[] wire(Message message, int sequence) {
        byte[] out = new byte[Frame.MAX_WIRE_BYTES];
        int n = encoder.encode(message, sequence, out, 0);
        return java.util.Arrays.copyOf(out, n);
    }

    private byte[] wireV2(Message message, int sequence) {
        byte[] out = new byte[Frame.MAX_WIRE_BYTES];
        int n = encoder.encode(message, Frame.VERSION_2, sequence, out, 0);
        return java.util.Arrays.copyOf(out, n);
    }

    private void feed(byte[]... parts) {
        for (byte[] p : parts) {
            decoder.feed(p, 0, p.length);
        }
    }

    /** A frame built by hand: lets a test set any version, type and payload length, with a correct CRC. */
    private static byte[] rawWire(int version, int type, int sequence, int payloadBytes) {
        byte[] frame = new byte[4 + payloadBytes + 2];
        frame[0] = (byte) version;
        frame[1] = (byte) type;
        frame[2] = (byte) sequence;
        frame[3] = (byte) (sequence >>> 8);
        int crc = Crc16Ccitt.compute(frame, 0, frame.length - 2);
        frame[frame.length - 2] = (byte) crc;
        frame[frame.length - 1] = (byte) (crc >>> 8);
        byte[] out = new byte[Cobs.maxEncodedLength(frame.length) + 1];
        int n = Cobs.encode(frame, 0, frame.length, out, 0);
        return java.util.Arrays.copyOf(out, n + 1);
    }

    @Test
    void shouldRoundTripRandomValuesOfEveryMessageType() {
        Random random = new Random(7);
        byte[] again = new byte[Frame.MAX_WIRE_BYTES];
        for (int trial = 0; trial < 2000; trial++) {
            Message[] messages = {
                new Hello().set(1 + random.nextInt(3), 4 + random.nextInt(3), random.nextInt(65536)),
                new Info().setVersionAndDof(1, 1 + random.nextInt(6), random.nextInt(7))
                    .setFirmware(random.nextInt(256), random.nextInt(256), random.nextInt(65536))
                    .setWorkspaceM(-random.nextFloat(), -random.nextFloat(), -random.nextFloat(),
                        random.nextFloat(), random.nextFloat(), random.nextFloat())
                    .setRatings(1f + random.nextFloat(), 0.5f + 0.5f * random.nextFloat(), random.nextFloat(),
                        random.nextFloat())
                    .setSupportedRates(random.nextInt(128)).setName("dev" + random.nextInt(1000)),
                new State().setDeviceTimeUs(random.nextInt() & 0xFFFF_FFFFL)
                    .setPositionM(random.nextFloat(), -random.nextFloat(), finiteFloat(random))
                    .setVelocityMps(random.nextFloat(), random.nextFloat(), random.nextFloat())
                    .setOrientation(random.nextFloat(), random.nextFloat(), random.nextFloat(), random.nextFloat())
                    .setButtons(random.nextInt(65536)).setStatusFlags(random.nextInt(128)),
                new Force().setForceN(random.nextFloat(), random.nextFloat(), random.nextFloat())
                    .setTorqueNm(random.nextFloat(), random.nextFloat(), random.nextFloat())
                    .setOutputEnabled(random.nextBoolean()),
                new Heartbeat(Direction.HOST_TO_DEVICE).setSenderTimeUs(random.nextInt() & 0xFFFF_FFFFL),
                new Heartbeat(Direction.DEVICE_TO_HOST).setSenderTimeUs(random.nextInt() & 0xFFFF_FFFFL),
                new Status().set(random.nextInt(65536), random.nextInt(65536), random.nextInt() & 0xFFFF_FFFFL),
                new HomingRequest().set(1 + random.nextInt(2), random.nextInt(65536)),
                new HomingProgress().set(random.nextInt(5), random.nextInt(101), random.nextInt(65536)),
            };
            for (Message m : messages) {
                int sequence = random.nextInt(65536);
                byte[] w = wire(m, sequence);
                assertEquals(m.type().wireBytes(Frame.VERSION_1), w.length);
                List<Message> got = new ArrayList<>();
                new FrameDecoder(got::add).feed(w, 0, w.length);
                assertEquals(1, got.size(), m.type().name());
                assertSame(m.type(), got.get(0).type());
                assertEquals(sequence, got.get(0).sequence());
                // Re-encoding the decoded instance reproduces every byte, so every field survived.
                int n = encoder.encode(got.get(0), sequence, again, 0);
                assertEquals(Samples.hex(w, 0, w.length), Samples.hex(again, 0, n), m.type().name());
            }
        }
    }

    @Test
    void shouldDecodeTheSameFramesWhenFedOneByteAtATime() {
        byte[] stream = concat(wire(Samples.state(), 1), wire(Samples.force(), 1), wire(Samples.info(), 2));
        for (byte b : stream) {
            decoder.feed(new byte[] {b}, 0, 1);
        }
        assertEquals(List.of("STATE#1", "FORCE#1", "INFO#2"), received);
    }

    @Test
    void shouldDecodeTheFirstValidFrameAfterGarbageWithoutADelimiter() {
        feed(Samples.unhex("13 57 9b df 02 46 8a ce"), wire(Samples.state(), 5), wire(Samples.state(), 6));
        assertEquals(List.of("STATE#5", "STATE#6"), received);
        assertEquals(1, decoder.resyncs());
        assertEquals(0, decoder.crcErrors() + decoder.malformedFrames());
    }

    @Test
    void shouldDecodeTheFirstValidFrameAfterGarbageLongerThanTheMaximumFrame() {
        byte[] garbage = new byte[1000];
        new Random(3).nextBytes(garbage);
        for (int i = 0; i < garbage.length; i++) {
            garbage[i] = garbage[i] == 0 ? 1 : garbage[i];
        }
        feed(garbage, wire(Samples.force(), 9));
        assertEquals(List.of("FORCE#9"), received);
        assertEquals(1, decoder.oversizeFrames());
    }

    @Test
    void shouldCountGarbageEndedByADelimiterAndDecodeTheNextFrame() {
        feed(Samples.unhex("05 11 22 00"), wire(Samples.hello(), 0));
        assertEquals(List.of("HELLO#0"), received);
        assertEquals(1, decoder.malformedFrames());
    }

    @Test
    void shouldIgnoreEmptyFramesBetweenDelimiters() {
        feed(Samples.unhex("00 00 00"), wire(Samples.hello(), 0), Samples.unhex("00"));
        assertEquals(List.of("HELLO#0"), received);
        assertEquals(0, decoder.malformedFrames() + decoder.crcErrors());
    }

    @Test
    void shouldCountACorruptedPayloadAsACrcErrorAndDeliverNothing() {
        byte[] frame = Samples.unhex("01 82 34 12 40 42 0f 00 0a d7 23 3c 0a d7 a3 bc 8f c2 f5 3c 00 00 00 3f "
            + "00 00 00 00 00 00 80 be 00 00 80 3f 00 00 00 00 00 00 00 00 00 00 00 00 01 00 03 00 53 7e");
        frame[10] ^= 0x40;
        byte[] out = new byte[Frame.MAX_WIRE_BYTES];
        int n = Cobs.encode(frame, 0, frame.length, out, 0);
        out[n] = 0;
        decoder.feed(out, 0, n + 1);
        assertEquals(List.of(), received);
        assertEquals(1, decoder.crcErrors());
        assertEquals(0, decoder.malformedFrames());
    }

    @Test
    void shouldCountEveryFlippedBitOfAFrameAsRejected() {
        byte[] good = wire(Samples.force(), 3);
        int flips = 0;
        for (int bit = 0; bit < (good.length - 1) * 8; bit++) {
            byte[] bad = good.clone();
            bad[bit / 8] ^= (byte) (1 << (bit % 8));
            decoder.feed(bad, 0, bad.length);
            flips++;
        }
        // A flip that makes a byte 0x00 splits the run in two, so rejections can exceed the flips.
        assertEquals(List.of(), received);
        assertTrue(decoder.crcErrors() + decoder.malformedFrames() + decoder.unsupportedVersionFrames()
            >= flips);
    }

    @Test
    void shouldCountGapsDuplicatesAndStaleFramesPerDirection() {
        feed(wire(Samples.state(), 10), wire(Samples.state(), 11), wire(Samples.state(), 14),
            wire(Samples.state(), 14), wire(Samples.state(), 12), wire(Samples.force(), 100),
            wire(Samples.force(), 100), wire(Samples.force(), 101));
        assertEquals(1, decoder.sequenceGaps(Direction.DEVICE_TO_HOST));
        assertEquals(2, decoder.lostFrames(Direction.DEVICE_TO_HOST));
        assertEquals(1, decoder.duplicates(Direction.DEVICE_TO_HOST));
        assertEquals(1, decoder.staleFrames(Direction.DEVICE_TO_HOST));
        assertEquals(0, decoder.sequenceGaps(Direction.HOST_TO_DEVICE));
        assertEquals(1, decoder.duplicates(Direction.HOST_TO_DEVICE));
        assertEquals(List.of(true, true, true, false, false, true, false, true), newer);
    }

    @Test
    void shouldTreatWraparoundFrom65535To0AsInOrder() {
        feed(wire(Samples.force(), 65534), wire(Samples.force(), 65535), wire(Samples.force(), 0),
            wire(Samples.force(), 1));
        assertEquals(0, decoder.sequenceGaps(Direction.HOST_TO_DEVICE));
        assertEquals(List.of(true, true, true, true), newer);
        feed(wire(Samples.force(), 65535));
        assertEquals(1, decoder.staleFrames(Direction.HOST_TO_DEVICE));
    }

    @Test
    void shouldRestartTheSequenceOnHello() {
        feed(wire(Samples.force(), 5000), wire(Samples.hello(), 0), wire(Samples.force(), 1));
        assertEquals(List.of(true, true, true), newer);
        assertEquals(0, decoder.staleFrames(Direction.HOST_TO_DEVICE));
    }

    @Test
    void shouldCountARunLongerThanTheMaximumAsOversize() {
        byte[] run = new byte[Frame.MAX_ENCODED_BYTES + 1];
        java.util.Arrays.fill(run, (byte) 0x55);
        feed(run, Samples.unhex("00"));
        assertEquals(1, decoder.oversizeFrames());
        assertEquals(0, decoder.framesDecoded());
    }

    @Test
    void shouldRejectAFrameWithAnUnsupportedVersion() {
        feed(rawWire(3, MessageType.FORCE.code(), 0, Force.PAYLOAD_BYTES),
            rawWire(0, MessageType.FORCE.code(), 0, Force.PAYLOAD_BYTES));
        assertEquals(2, decoder.unsupportedVersionFrames());
        assertEquals(List.of(), received);
    }

    @Test
    void shouldRejectVersion2FramesInADecoderThatSpeaksOnlyVersion1() {
        FrameDecoder v1Only = new FrameDecoder(m -> received.add(m.type() + "#" + m.sequence()), Frame.VERSION_1);
        byte[] v2State = wireV2(Samples.stateV2(), 4);
        byte[] v1State = wire(Samples.state(), 5);
        v1Only.feed(v2State, 0, v2State.length);
        v1Only.feed(v1State, 0, v1State.length);
        assertEquals(List.of("STATE#5"), received);
        assertEquals(1, v1Only.unsupportedVersionFrames());
    }

    @Test
    void shouldReadEachVersionsLayoutAndRejectTheOtherVersionsLength() {
        List<Message> got = new ArrayList<>();
        FrameDecoder both = new FrameDecoder(got::add);
        byte[] v2 = wireV2(Samples.stateV2(), 7);
        byte[] v1 = wire(Samples.state(), 8);
        both.feed(v2, 0, v2.length);
        State state = (State) got.get(0);
        assertEquals(Frame.VERSION_2, state.version());
        assertEquals(0x00FE, state.ackSequence());
        assertEquals(2, state.watchdogTrips());
        both.feed(v1, 0, v1.length);
        assertEquals(Frame.VERSION_1, state.version());
        assertEquals(State.NOT_CARRIED, state.ackSequence());
        assertEquals(State.NOT_CARRIED, state.watchdogTrips());
        // A version-1 header with version 2's length (and the reverse) is malformed: each version has one length.
        byte[] v1HeaderV2Length = rawWire(1, MessageType.STATE.code(), 9, State.PAYLOAD_BYTES_V2);
        byte[] v2HeaderV1Length = rawWire(2, MessageType.STATUS.code(), 9, Status.PAYLOAD_BYTES);
        both.feed(v1HeaderV2Length, 0, v1HeaderV2Length.length);
        both.feed(v2HeaderV1Length, 0, v2HeaderV1Length.length);
        assertEquals(2, both.malformedFrames());
        assertEquals(2, got.size());
    }

    @Test
    void shouldRejectHelloAndInfoFramedAsVersion2() {
        feed(rawWire(2, MessageType.HELLO.code(), 0, Hello.PAYLOAD_BYTES),
            rawWire(2, MessageType.INFO.code(), 0, Info.PAYLOAD_BYTES));
        assertEquals(2, decoder.malformedFrames());
        assertEquals(List.of(), received);
        // Encoding them for a version-2 session frames them as version 1, as spec 6.4 asks.
        byte[] hello = wireV2(Samples.hello(), 3);
        assertEquals(1, hello[1], "COBS code byte, then the version byte");
        feed(hello);
        assertEquals(List.of("HELLO#3"), received);
    }

    @Test
    void shouldResynchroniseOnAVersion2StateAfterGarbage() {
        feed(Samples.unhex("13 57 9b df 02 46 8a ce"), wireV2(Samples.stateV2(), 5), wireV2(Samples.statusV2(), 6));
        assertEquals(List.of("STATE#5", "STATUS#6"), received);
        assertEquals(1, decoder.resyncs());
    }

    @Test
    void shouldRejectUnknownTypesAndWrongPayloadLengthsAsMalformed() {
        feed(rawWire(1, 0x7F, 0, 4), rawWire(1, MessageType.FORCE.code(), 0, Force.PAYLOAD_BYTES - 1),
            rawWire(1, MessageType.STATE.code(), 0, State.PAYLOAD_BYTES + 1), Samples.unhex("02 01 00"));
        assertEquals(4, decoder.malformedFrames());
        assertEquals(List.of(), received);
    }

    @Test
    void shouldRejectOutOfRangeFieldsAsMalformed() {
        Info info = Samples.info();
        byte[] w = wire(info, 0);
        byte[] frame = new byte[w.length];
        int n = Cobs.decode(w, 0, w.length - 1, frame, 0);
        frame[4 + 50] = 33;
        int crc = Crc16Ccitt.compute(frame, 0, n - 2);
        frame[n - 2] = (byte) crc;
        frame[n - 1] = (byte) (crc >>> 8);
        byte[] out = new byte[Frame.MAX_WIRE_BYTES];
        int m = Cobs.encode(frame, 0, n, out, 0);
        decoder.feed(out, 0, m + 1);
        feed(rawWire(1, MessageType.HOMING_REQUEST.code(), 0, 4));
        assertEquals(2, decoder.malformedFrames());
        assertEquals(List.of(), received);
    }

    @Test
    void shouldNeverThrowOnABadFeedRange() {
        decoder.feed(null, 0, 1);
        decoder.feed(new byte[4], 3, 2);
        decoder.feed(new byte[4], -1, 1);
        decoder.feed(new byte[4], 0, -1);
        assertEquals(4, decoder.rejectedCalls());
    }

    @Test
    void shouldRefuseADestinationTooSmallForTheFrame() {
        byte[] small = new byte[MessageType.STATE.wireBytes(Frame.VERSION_1) - 1];
        assertThrows(IllegalArgumentException.class, () -> encoder.encode(Samples.state(), 0, small, 0));
        assertThrows(IllegalArgumentException.class, () -> encoder.encode(Samples.hello(), 0, new byte[20], 9));
    }

    @Test
    void shouldKeepEveryMessageWithinTheMaximumFrameLength() {
        for (MessageType type : MessageType.values()) {
            for (int version = Frame.VERSION_1; version <= Frame.LATEST_VERSION; version++) {
                assertTrue(type.payloadBytes(version) <= Frame.MAX_PAYLOAD_BYTES, type.name());
                assertTrue(type.wireBytes(version) <= Frame.MAX_WIRE_BYTES, type.name());
            }
            assertSame(type, MessageType.fromCode(type.code()));
            assertEquals(type.code() >= 0x80, type.direction() == Direction.DEVICE_TO_HOST, type.name());
        }
        assertEquals(128, Frame.MAX_WIRE_BYTES);
        assertFalse(MessageType.fromCode(-1) != null || MessageType.fromCode(256) != null);
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    /** A float of any bit pattern but the non-finite ones (a STATE carrying those is malformed). */
    private static float finiteFloat(Random random) {
        float f;
        do {
            f = Float.intBitsToFloat(random.nextInt());
        } while (!Float.isFinite(f));
        return f;
    }

    @Test
    void shouldRefuseAnInfoWithAFieldOutsideItsRangeAsMalformed() {
        // Spec 2.4 step 5 and 4.2: the host sizes its safety limits from INFO, so it takes none it cannot trust.
        List<java.util.function.UnaryOperator<Info>> breakers = List.of(
            i -> i.setRatings(Float.NaN, 1f, 100f, 1f),
            i -> i.setRatings(-1f, -2f, 100f, 1f),
            i -> i.setRatings(0f, 0f, 100f, 1f),
            i -> i.setRatings(2f, 5f, 100f, 1f),
            i -> i.setRatings(2f, 1f, Float.POSITIVE_INFINITY, 1f),
            i -> i.setRatings(2f, 1f, 100f, -1f),
            i -> i.setWorkspaceM(0.1f, -0.1f, -0.1f, -0.1f, 0.1f, 0.1f),
            i -> i.setWorkspaceM(-0.1f, -0.1f, Float.NaN, 0.1f, 0.1f, 0.1f),
            i -> i.setVersionAndDof(1, 0, 3),
            i -> i.setVersionAndDof(1, 7, 3),
            i -> i.setVersionAndDof(1, 3, 7),
            i -> i.setSelectedRateIndex(7),
            i -> i.setSupportedRates(0x88));
        for (int k = 0; k < breakers.size(); k++) {
            Info info = breakers.get(k).apply(validInfo());
            byte[] w = wire(info, 1);
            List<Message> got = new ArrayList<>();
            FrameDecoder decoder = new FrameDecoder(got::add);
            decoder.feed(w, 0, w.length);
            assertEquals(0, got.size(), "breaker " + k + " delivered");
            assertEquals(1, decoder.malformedFrames(), "breaker " + k + " counted as malformed");
        }
        byte[] good = wire(validInfo(), 1);
        List<Message> got = new ArrayList<>();
        new FrameDecoder(got::add).feed(good, 0, good.length);
        assertEquals(1, got.size(), "the unbroken INFO is delivered");
    }

    @Test
    void shouldRefuseAStateCarryingANonFiniteValueAsMalformed() {
        float[] bad = {Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY};
        for (float v : bad) {
            for (int field = 0; field < 4; field++) {
                State state = new State().setPositionM(0.01f, 0f, 0f).setVelocityMps(0f, 0f, 0f)
                    .setOrientation(1f, 0f, 0f, 0f);
                switch (field) {
                    case 0 -> state.setPositionM(v, 0f, 0f);
                    case 1 -> state.setVelocityMps(0f, v, 0f);
                    case 2 -> state.setOrientation(1f, 0f, 0f, v);
                    default -> state.setAppliedForceN(0f, 0f, v);
                }
                byte[] w = wire(state, 5);
                List<Message> got = new ArrayList<>();
                FrameDecoder decoder = new FrameDecoder(got::add);
                decoder.feed(w, 0, w.length);
                assertEquals(0, got.size(), v + " in field " + field);
                assertEquals(1, decoder.malformedFrames(), v + " in field " + field);
            }
        }
    }

    private static Info validInfo() {
        return new Info().setVersionAndDof(1, 3, 3).setSelectedRateIndex(3)
            .setWorkspaceM(-0.1f, -0.1f, -0.1f, 0.1f, 0.1f, 0.1f).setRatings(2f, 1f, 100f, 1f)
            .setSupportedRates(0x08).setName("dev");
    }
}
