package org.hapticsd.protocol.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The test vectors of docs/stream-protocol.md section 9. Each is a "### Vector NAME" heading followed by a hex block
 * and a JSON block; each is encoded from its message here and compared byte for byte, decoded back, and its JSON
 * compared as a tree and decoded. The spec is scanned so a vector added there without a test here fails, and the
 * vectors were cross-checked against an independent encoder (protocol/src/test/python/stream_vectors.py --check).
 */
class StreamGoldenVectorTest {
    private static final Path SPEC = Path.of("..", "docs", "stream-protocol.md");
    private static final Pattern VECTOR = Pattern.compile(
        "(?ms)^### Vector (\\w+)$.*?^```hex\\n(.*?)^```$.*?^```json\\n(.*?)^```$");

    private static final Map<String, Supplier<StreamMessage>> VECTORS = new LinkedHashMap<>();

    static {
        VECTORS.put("HELLO", StreamSamples::hello);
        VECTORS.put("SCENE_PRIMITIVES", StreamSamples::scenePrimitives);
        VECTORS.put("SCENE_MESHES", StreamSamples::sceneMeshes);
        VECTORS.put("STATE", StreamSamples::state);
        VECTORS.put("STATE_OVER_BUDGET", StreamSamples::stateOverBudget);
        VECTORS.put("SCENE_DEFORMABLE", StreamSamples::sceneDeformable);
        VECTORS.put("STATE_DEFORMABLE", StreamSamples::stateDeformable);
        VECTORS.put("EVENTS", StreamSamples::events);
        VECTORS.put("EVENTS_PHYSICS", StreamSamples::physicsEvents);
        VECTORS.put("EVENTS_IMPULSE", StreamSamples::impulseEvents);
        VECTORS.put("ACK_ACCEPTED", StreamSamples::ackAccepted);
        VECTORS.put("ACK_REFUSED", StreamSamples::ackRefused);
        VECTORS.put("SUBSCRIBE", StreamSamples::subscribe);
        VECTORS.put("COMMAND_PAUSE", StreamSamples::pause);
        VECTORS.put("COMMAND_LOAD_SCENE", StreamSamples::loadScene);
        VECTORS.put("COMMAND_SET_PARAMETER", StreamSamples::setParameter);
        VECTORS.put("COMMAND_MOVE_HAND", StreamSamples::moveHand);
    }

    private record SpecVector(String hex, String json) {
    }

    private static Map<String, SpecVector> specVectors() throws IOException {
        String spec = Files.readString(SPEC, StandardCharsets.UTF_8);
        Map<String, SpecVector> out = new LinkedHashMap<>();
        Matcher m = VECTOR.matcher(spec);
        while (m.find()) {
            String hex = String.join(" ", m.group(2).trim().split("\\s+"));
            assertEquals(null, out.put(m.group(1), new SpecVector(hex, m.group(3))), "vector " + m.group(1) + " twice");
        }
        // Every "### Vector" heading must have been matched with its two blocks.
        Matcher headings = Pattern.compile("(?m)^### Vector ").matcher(spec);
        int count = 0;
        while (headings.find()) {
            count++;
        }
        assertEquals(count, out.size(), "a vector heading without its hex and json blocks");
        return out;
    }

    /** The message a spec vector stands for; a vector the table here lacks fails by name, not with an NPE. */
    private static StreamMessage expected(String name) {
        Supplier<StreamMessage> s = VECTORS.get(name);
        assertNotNull(s, "the spec has vector " + name + " that this test does not check");
        return s.get();
    }

    @Test
    void shouldTestEveryVectorPrintedInTheSpecAndCoverEveryType() throws IOException {
        assertEquals(VECTORS.keySet(), specVectors().keySet());
        Set<StreamMessageType> types = EnumSet.noneOf(StreamMessageType.class);
        VECTORS.values().forEach(s -> types.add(s.get().type()));
        assertEquals(EnumSet.allOf(StreamMessageType.class), types);
    }

    @Test
    void shouldEncodeEveryVectorByteForByte() throws IOException {
        Map<String, SpecVector> spec = specVectors();
        for (Map.Entry<String, Supplier<StreamMessage>> v : VECTORS.entrySet()) {
            SpecVector s = spec.get(v.getKey());
            assertNotNull(s, v.getKey());
            assertEquals(s.hex(), StreamSamples.hex(StreamCodec.encode(v.getValue().get())), v.getKey());
        }
    }

    @Test
    void shouldDecodeEveryVectorBackToItsMessage() throws IOException {
        for (Map.Entry<String, SpecVector> s : specVectors().entrySet()) {
            assertEquals(expected(s.getKey()), StreamCodec.decode(StreamSamples.unhex(s.getValue().hex())),
                s.getKey());
        }
    }

    @Test
    void shouldMatchEveryJsonExample() throws IOException {
        ObjectMapper mapper = new ObjectMapper();
        for (Map.Entry<String, SpecVector> s : specVectors().entrySet()) {
            StreamMessage expected = expected(s.getKey());
            // As trees, so the spec may indent its examples; numbers compare by their printed value.
            assertEquals(mapper.readTree(StreamJson.encodeJson(expected)), mapper.readTree(s.getValue().json()),
                s.getKey());
            assertEquals(expected, StreamJson.decodeJson(s.getValue().json()), s.getKey());
        }
    }

    @Test
    void shouldDecodeTheStateVectorFieldsExactly() throws IOException {
        StateMessage s = (StateMessage) StreamCodec.decode(StreamSamples.unhex(specVectors().get("STATE").hex()));
        // Exact equality where the value is exact in binary32 (multiples of powers of two); 0.0015 is compared
        // with the float nearest it, which is what the spec prints (a6 9b c4 3a).
        assertEquals(123_456L, s.tick());
        assertEquals(123_456_000_000L, s.simTimeNs());
        assertEquals(SafetyCode.ACTIVE, s.safetyState());
        assertTrue(s.deviceConnected());
        assertEquals(-0.0234375f, s.toolPositionM().z());
        assertEquals(1.25f, s.commandedForceN().z());
        assertEquals(999.5f, s.loop().achievedRateHz());
        assertEquals(85_000L, s.loop().tickTimeP99Ns());
        assertEquals(StreamProtocol.TOOL_ID, s.contacts().get(0).bodyB());
        assertEquals(0x3ac49ba6, Float.floatToRawIntBits(s.contacts().get(0).depthM()));
        assertEquals(0.0015, s.contacts().get(0).depthM(), 1e-10, "nearest binary32 is within 2^-33 of 0.0015");
    }
}
