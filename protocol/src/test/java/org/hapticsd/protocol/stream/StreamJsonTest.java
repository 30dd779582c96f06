package org.hapticsd.protocol.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The JSON form: same content as the binary form, strict parsing, units in the names. */
class StreamJsonTest {

    @Test
    void shouldRoundTripEveryMessageExactly() {
        Set<StreamMessageType> seen = EnumSet.noneOf(StreamMessageType.class);
        for (StreamMessage m : StreamSamples.all()) {
            assertEquals(m, StreamJson.decodeJson(StreamJson.encodeJson(m)), m.type().name());
            assertEquals(m, StreamCodec.decode(StreamCodec.encode(StreamJson.decodeJson(StreamJson.encodeJson(m)))));
            seen.add(m.type());
        }
        assertEquals(EnumSet.allOf(StreamMessageType.class), seen);
    }

    @Test
    void shouldRoundTripRandomFloat32ValuesBitForBit() {
        // The decimal text of a float is rounded once, to float32; reading it through float64 first could be off
        // by one ulp (double rounding). 10^5 random bit patterns, finite and non-finite.
        Random random = new Random(0xF10A7);
        for (int i = 0; i < 100_000; i++) {
            float f = Float.intBitsToFloat(random.nextInt());
            if (Float.isNaN(f)) {
                f = Float.NaN;
            }
            StreamMessage m = new SceneMessage(0, "", f, List.of());
            SceneMessage back = (SceneMessage) StreamJson.decodeJson(StreamJson.encodeJson(m));
            assertEquals(Float.floatToIntBits(f), Float.floatToIntBits(back.toolRadiusM()), "float " + f);
        }
    }

    @Test
    void shouldWriteNonFiniteFloatsAsTheirNames() {
        StreamMessage m = new SceneMessage(0, "", Float.NEGATIVE_INFINITY, List.of());
        assertEquals("{\"type\":\"SCENE\",\"revision\":0,\"name\":\"\",\"toolRadiusM\":\"-Infinity\",\"bodies\":[]}",
            StreamJson.encodeJson(m));
        SceneMessage nan = (SceneMessage) StreamJson.decodeJson(
            "{\"type\":\"SCENE\",\"revision\":0,\"name\":\"\",\"toolRadiusM\":\"NaN\",\"bodies\":[]}");
        assertTrue(Float.isNaN(nan.toolRadiusM()));
    }

    @Test
    void shouldAcceptIntegersAndExponentsForFloatFields() {
        SceneMessage m = (SceneMessage) StreamJson.decodeJson(
            "{\"type\":\"SCENE\",\"revision\":0,\"name\":\"\",\"toolRadiusM\":5e-3,\"bodies\":[]}");
        assertEquals(0.005f, m.toolRadiusM());
        SubscribeMessage s = (SubscribeMessage) StreamJson.decodeJson("{\"rateHz\": 30, \"type\": \"SUBSCRIBE\"}");
        assertEquals(30, s.rateHz());
    }

    @Test
    void shouldRefuseWithThePathOfTheField() {
        assertRefused("{\"type\":\"SUBSCRIBE\",\"rateHz\":30,\"rate\":1}", "rate is not a field of message");
        assertRefused("{\"type\":\"SUBSCRIBE\",\"rateHz\":30,\"rateHz\":31}", "invalid JSON: Duplicate field");
        assertRefused("{\"type\":\"SUBSCRIBE\",\"rateHz\":30.5}", "rateHz must be a whole number");
        assertRefused("{\"type\":\"SUBSCRIBE\",\"rateHz\":65536}", "rateHz must be 0..65535, was 65536");
        assertRefused("{\"type\":\"SUBSCRIBE\"}", "rateHz is missing");
        assertRefused("{\"type\":\"SUBSCRIBE\",\"rateHz\":1} {}", "invalid JSON");
        assertRefused("[1]", "message must be a JSON object");
        // A bare Infinity (Python's json.dumps(1e400)): the protocol's spelling, not the parser's settings.
        String bare = "{\"type\":\"COMMAND\",\"commandId\":12,\"authToken\":\"t\",\"command\":\"MOVE_HAND\","
            + "\"x\":Infinity,\"y\":0,\"z\":0}";
        assertRefused(bare, "invalid JSON: Non-standard token 'Infinity' (a non-finite number is written as the string "
            + "\"NaN\", \"Infinity\" or \"-Infinity\")");
        StreamFormatException e = assertThrows(StreamFormatException.class, () -> StreamJson.decodeJson(bare));
        assertFalse(e.getMessage().contains("JsonReadFeature") || e.getMessage().contains("enable"), e.getMessage());
        assertRefused("{\"type\":\"BYE\"}", "type \"BYE\" is not a message type");
        assertRefused("{\"type\":\"COMMAND\",\"commandId\":1,\"authToken\":\"\",\"command\":\"FLY\"}",
            "command \"FLY\" is not one of PAUSE, RESUME, RESET_SCENE, LOAD_SCENE, EMERGENCY_STOP, RESET_STOP, "
                + "SET_PARAMETER, MOVE_HAND");
        String state = StreamJson.encodeJson(StreamSamples.state());
        assertRefused(state.replace("\"depthM\"", "\"depthMm\""), "contacts[0].depthM is missing");
        assertRefused(state.replace("[0.0625,0.0,-0.03]", "[0.0625,0.0]"),
            "contacts[0].pointM must have 3 entries, had 2");
        assertRefused(state.replace("\"overruns\":3", "\"overruns\":-3"), "loop.overruns must be 0..4294967295");
        String scene = StreamJson.encodeJson(StreamSamples.scenePrimitives());
        assertRefused(scene.replace("#808080ff", "grey"), "bodies[0].colourRgba must be \"#rrggbbaa\"");
        assertRefused(scene.replace("\"radiusM\":0.01", "\"radiusM\":1e39"), "bodies[1].shape.radiusM = 1E+39 is"
            + " beyond float32");
        String meshes = StreamJson.encodeJson(StreamSamples.sceneMeshes());
        assertRefused(meshes.replace("[[0,1,2]]", "[[0,1,3]]"), "bodies[1].shape.triangles[0][2] must be 0..2, was 3");
    }

    @Test
    void shouldRefuseClientMessagesOverSixtyFourKibibytes() {
        String padded = "{\"type\":\"SUBSCRIBE\",\"rateHz\":1}" + " ".repeat(StreamJson.MAX_CLIENT_JSON_BYTES);
        assertRefused(padded, "SUBSCRIBE JSON is over the 65536-byte limit");
    }

    private static void assertRefused(String json, String expectedMessagePart) {
        StreamFormatException e = assertThrows(StreamFormatException.class, () -> StreamJson.decodeJson(json));
        assertTrue(e.getMessage().contains(expectedMessagePart),
            "expected \"" + expectedMessagePart + "\" in \"" + e.getMessage() + "\"");
    }
}
