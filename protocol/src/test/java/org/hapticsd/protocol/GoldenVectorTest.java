package org.hapticsd.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The hex test vectors of docs/device-protocol.md: each is encoded from its message and compared byte for byte,
 * decoded back and re-encoded, and the spec is scanned so a vector added there without a test here fails.
 */
class GoldenVectorTest {
    private static final Path SPEC = Path.of("..", "docs", "device-protocol.md");

    /** @param version the session's protocol version the message is framed for */
    private record Vector(String name, Supplier<Message> message, int version, int sequence, String frame,
                          String wire) {
        Vector(String name, Supplier<Message> message, int sequence, String frame, String wire) {
            this(name, message, Frame.VERSION_1, sequence, frame, wire);
        }
    }

    private static final List<Vector> VECTORS = List.of(
        new Vector("HELLO", Samples::hello, 0,
            "01 01 00 00 01 01 e8 03 70 26",
            "03 01 01 01 07 01 01 e8 03 70 26 00"),
        new Vector("INFO", Samples::info, 0,
            "01 81 00 00 01 06 03 03 02 05 11 00 00 00 00 be 00 00 80 bd cd cc cc bd 00 00 00 3e 00 00 80 3d "
                + "cd cc cc 3d 00 00 08 41 00 00 40 40 00 40 1c 45 00 00 00 40 0c 00 08 00 46 61 6c 63 6f 6e 2d 58 "
                + "00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 04 94",
            "03 01 81 01 08 01 06 03 03 02 05 11 01 01 01 02 be 01 07 80 bd cd cc cc bd 01 01 02 3e 01 07 80 "
                + "3d cd cc cc 3d 01 03 08 41 01 03 40 40 04 40 1c 45 01 01 03 40 0c 02 08 09 46 61 6c 63 6f 6e 2d "
                + "58 01 01 01 01 01 01 01 01 01 01 01 01 01 01 01 01 01 01 01 01 01 01 01 03 04 94 00"),
        new Vector("STATE", Samples::state, 0x1234,
            "01 82 34 12 40 42 0f 00 0a d7 23 3c 0a d7 a3 bc 8f c2 f5 3c 00 00 00 3f 00 00 00 00 00 00 80 be "
                + "00 00 80 3f 00 00 00 00 00 00 00 00 00 00 00 00 01 00 03 00 00 00 c0 3f 00 00 00 c0 00 00 80 3e "
                + "f1 f8",
            "08 01 82 34 12 40 42 0f 0d 0a d7 23 3c 0a d7 a3 bc 8f c2 f5 3c 01 01 02 3f 01 01 01 01 01 03 80 be "
                + "01 03 80 3f 01 01 01 01 01 01 01 01 01 01 01 02 01 02 03 01 01 03 c0 3f 01 01 02 c0 01 05 80 3e "
                + "f1 f8 00"),
        new Vector("FORCE", Samples::force, 0x00FF,
            "01 02 ff 00 00 00 c0 3f 00 00 00 c0 00 00 80 3e 00 00 00 00 00 00 00 00 00 00 00 00 01 00 cd 74",
            "04 01 02 ff 01 01 03 c0 3f 01 01 02 c0 01 03 80 3e 01 01 01 01 01 01 01 01 01 01 01 02 01 03 cd 74 00"),
        new Vector("HOST_HEARTBEAT", Samples::hostHeartbeat, 7,
            "01 03 07 00 15 cd 5b 07 c8 07",
            "04 01 03 07 07 15 cd 5b 07 c8 07 00"),
        new Vector("DEVICE_HEARTBEAT", Samples::deviceHeartbeat, 0xFFFF,
            "01 83 ff ff ff ff ff ff 49 92",
            "0b 01 83 ff ff ff ff ff ff 49 92 00"),
        new Vector("STATUS", Samples::status, 42,
            "01 85 2a 00 0e 00 05 00 07 00 00 00 d9 a6",
            "04 01 85 2a 02 0e 02 05 02 07 01 01 03 d9 a6 00"),
        new Vector("HOMING_REQUEST", Samples::homingRequest, 8,
            "01 04 08 00 01 00 88 13 be 7c",
            "04 01 04 08 02 01 05 88 13 be 7c 00"),
        new Vector("HOMING_PROGRESS", Samples::homingProgress, 9,
            "01 84 09 00 01 28 00 00 e3 0d",
            "04 01 84 09 03 01 28 01 03 e3 0d 00"),
        new Vector("PING", Samples::ping, 10,
            "01 05 0a 00 ef be ad de 23 7d",
            "04 01 05 0a 07 ef be ad de 23 7d 00"),
        new Vector("PONG", Samples::pong, 11,
            "01 86 0b 00 ef be ad de 80 84 1e 00 ae 20",
            "04 01 86 0b 08 ef be ad de 80 84 1e 03 ae 20 00"),
        // Version 2 (section 4.11): STATE and STATUS gain fields; every other type only changes its header version.
        new Vector("STATE v2", Samples::stateV2, Frame.VERSION_2, 0x1234,
            "02 82 34 12 40 42 0f 00 0a d7 23 3c 0a d7 a3 bc 8f c2 f5 3c 00 00 00 3f 00 00 00 00 00 00 80 be "
                + "00 00 80 3f 00 00 00 00 00 00 00 00 00 00 00 00 01 00 03 00 00 00 c0 3f 00 00 00 c0 00 00 80 3e "
                + "fe 00 02 00 80 da",
            "08 02 82 34 12 40 42 0f 0d 0a d7 23 3c 0a d7 a3 bc 8f c2 f5 3c 01 01 02 3f 01 01 01 01 01 03 80 be "
                + "01 03 80 3f 01 01 01 01 01 01 01 01 01 01 01 02 01 02 03 01 01 03 c0 3f 01 01 02 c0 01 04 80 3e "
                + "fe 02 02 03 80 da 00"),
        new Vector("STATUS v2", Samples::statusV2, Frame.VERSION_2, 42,
            "02 85 2a 00 0e 00 05 00 07 00 00 00 03 00 7c 35",
            "04 02 85 2a 02 0e 02 05 02 07 01 01 02 03 03 7c 35 00"),
        new Vector("FORCE v2", Samples::force, Frame.VERSION_2, 0x00FF,
            "02 02 ff 00 00 00 c0 3f 00 00 00 c0 00 00 80 3e 00 00 00 00 00 00 00 00 00 00 00 00 01 00 ec 6f",
            "04 02 02 ff 01 01 03 c0 3f 01 01 02 c0 01 03 80 3e 01 01 01 01 01 01 01 01 01 01 01 02 01 03 ec 6f 00"));

    @Test
    void shouldEncodeEveryVectorByteForByte() {
        FrameEncoder encoder = new FrameEncoder();
        byte[] out = new byte[Frame.MAX_WIRE_BYTES];
        for (Vector v : VECTORS) {
            int n = encoder.encode(v.message().get(), v.version(), v.sequence(), out, 0);
            assertEquals(v.wire(), Samples.hex(out, 0, n), v.name());
        }
    }

    @Test
    void shouldMatchTheUnencodedFrameAndItsCrc() {
        for (Vector v : VECTORS) {
            byte[] frame = Samples.unhex(v.frame());
            byte[] wire = Samples.unhex(v.wire());
            byte[] decoded = new byte[wire.length];
            int n = Cobs.decode(wire, 0, wire.length - 1, decoded, 0);
            assertEquals(v.frame(), Samples.hex(decoded, 0, n), v.name());
            int crc = (frame[frame.length - 2] & 0xFF) | (frame[frame.length - 1] & 0xFF) << 8;
            assertEquals(crc, Crc16Ccitt.compute(frame, 0, frame.length - 2), v.name());
        }
    }

    @Test
    void shouldDecodeEveryVectorBackToItsMessage() {
        FrameEncoder encoder = new FrameEncoder();
        byte[] reencoded = new byte[Frame.MAX_WIRE_BYTES];
        List<String> seen = new ArrayList<>();
        for (Vector v : VECTORS) {
            Message expected = v.message().get();
            FrameDecoder decoder = new FrameDecoder(m -> {
                assertSame(expected.type(), m.type());
                assertEquals(v.sequence(), m.sequence());
                assertTrue(m.isNewer());
                assertEquals(v.version(), m.version(), v.name());
                int n = encoder.encode(m, m.version(), m.sequence(), reencoded, 0);
                assertEquals(v.wire(), Samples.hex(reencoded, 0, n), v.name());
                seen.add(v.name());
            });
            byte[] wire = Samples.unhex(v.wire());
            decoder.feed(wire, 0, wire.length);
            assertEquals(1, decoder.framesDecoded(), v.name());
        }
        assertEquals(VECTORS.size(), seen.size());
    }

    @Test
    void shouldDecodeTheSampleFieldsExactly() {
        byte[] wire = Samples.unhex(VECTORS.get(2).wire());
        State[] got = new State[1];
        FrameDecoder decoder = new FrameDecoder(m -> got[0] = (State) m);
        decoder.feed(wire, 0, wire.length);
        // Exact equality: every sample value is a float32 value written and read as raw bits.
        assertEquals(1_000_000L, got[0].deviceTimeUs());
        assertEquals(0.01f, got[0].positionM(0));
        assertEquals(-0.02f, got[0].positionM(1));
        assertEquals(-0.25f, got[0].velocityMps(2));
        assertEquals(1f, got[0].orientation(0));
        assertEquals(StatusFlags.OUTPUT_ENABLED | StatusFlags.HOMED, got[0].statusFlags());
        assertEquals(1.5f, got[0].appliedForceN(0));
        assertEquals(-2.0f, got[0].appliedForceN(1));
        assertEquals(0.25f, got[0].appliedForceN(2));

        byte[] v2Wire = Samples.unhex(VECTORS.get(11).wire());
        new FrameDecoder(m -> got[0] = (State) m).feed(v2Wire, 0, v2Wire.length);
        assertEquals(0x00FE, got[0].ackSequence());
        assertEquals(2, got[0].watchdogTrips());
        assertEquals(0.25f, got[0].appliedForceN(2));

        byte[] infoWire = Samples.unhex(VECTORS.get(1).wire());
        Info[] info = new Info[1];
        new FrameDecoder(m -> info[0] = (Info) m).feed(infoWire, 0, infoWire.length);
        assertEquals("Falcon-X", info[0].name());
        assertEquals(2500f, info[0].nominalStiffnessNpm());
        assertTrue(info[0].supportsRateHz(1000));
        assertTrue(info[0].supportsRateHz(500));
        assertTrue(!info[0].supportsRateHz(2000));
    }

    /** The spec's vectors are also what an encoder written from the spec alone produces (device_vectors.py). */
    @Test
    void shouldAgreeWithTheIndependentPythonEncoder() throws Exception {
        Path script = Path.of("src", "test", "python", "device_vectors.py");
        Process python;
        try {
            python = new ProcessBuilder("python3", script.toString(), "--check").redirectErrorStream(true).start();
        } catch (IOException e) {
            org.junit.jupiter.api.Assumptions.assumeTrue(System.getenv("CI") == null, "python3 is not installed");
            throw e;
        }
        String out = new String(python.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(python.waitFor(60, java.util.concurrent.TimeUnit.SECONDS), out);
        assertEquals(0, python.exitValue(), out);
        assertTrue(out.contains(VECTORS.size() + " vectors, 0 mismatches"), out);
    }

    @Test
    void shouldTestEveryVectorPrintedInTheSpec() throws IOException {
        String spec = Files.readString(SPEC, StandardCharsets.UTF_8);
        Set<String> inSpec = new TreeSet<>();
        Set<String> inSpecFrames = new TreeSet<>();
        Matcher wire = Pattern.compile("(?m)^wire:\\s+([0-9a-f ]+)$").matcher(spec);
        while (wire.find()) {
            inSpec.add(wire.group(1).trim());
        }
        Matcher frame = Pattern.compile("(?m)^frame:\\s+([0-9a-f ]+)$").matcher(spec);
        while (frame.find()) {
            inSpecFrames.add(frame.group(1).trim());
        }
        Set<String> tested = new TreeSet<>();
        Set<String> testedFrames = new TreeSet<>();
        for (Vector v : VECTORS) {
            tested.add(v.wire());
            testedFrames.add(v.frame());
        }
        assertEquals(tested, inSpec);
        assertEquals(testedFrames, inSpecFrames);
    }
}
