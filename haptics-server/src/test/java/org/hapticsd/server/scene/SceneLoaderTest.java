package org.hapticsd.server.scene;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.hapticsd.physics.BoxShape;
import org.hapticsd.physics.ContactSettings;
import org.hapticsd.physics.PlaneShape;
import org.hapticsd.physics.SleepSettings;
import org.hapticsd.server.safety.SafetyConfig;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Scene files in, {@link SceneSpec} or one-line {@link SceneException} out. Line numbers in the expectations are
 * counted by hand from the text blocks (line 1 is the first line after the opening quotes).
 */
class SceneLoaderTest {

    private static final String SOURCE = "test.yaml";
    /** Surefire runs in the module directory; the scenes directory is its sibling. */
    private static final Path WALL_YAML = Path.of("..", "scenes", "wall.yaml");

    private final SceneLoader loader = new SceneLoader();

    private SceneSpec parse(String yaml) throws SceneException {
        return loader.parse(SOURCE, new StringReader(yaml));
    }

    private SceneException parseFails(String yaml) {
        return assertThrows(SceneException.class, () -> parse(yaml));
    }

    /**
     * Asserts the message is one line of the form {@code SOURCE:LINE:COLUMN: FIELD.PATH: problem} with this
     * line, this field path and a problem containing {@code problem}; returns the column.
     */
    private static int assertLocated(SceneException e, String source, int line, String fieldPath, String problem) {
        String message = e.getMessage();
        assertFalse(message.contains("\n"), "one line: " + message);
        Matcher m = Pattern.compile(Pattern.quote(source) + ":(\\d+):(\\d+): " + Pattern.quote(fieldPath) + ": (.+)")
            .matcher(message);
        assertTrue(m.matches(), "expected '" + source + ":" + line + ":COLUMN: " + fieldPath + ": ...', got: "
            + message);
        assertEquals(line, Integer.parseInt(m.group(1)), "line in: " + message);
        int column = Integer.parseInt(m.group(2));
        assertTrue(column >= 1, "column in: " + message);
        assertTrue(m.group(3).contains(problem), "problem '" + problem + "' in: " + message);
        return column;
    }

    private static int reportedLine(SceneException e) {
        Matcher m = Pattern.compile(Pattern.quote(SOURCE) + ":(\\d+):\\d+: .*").matcher(e.getMessage());
        assertTrue(m.matches(), "expected a location in: " + e.getMessage());
        return Integer.parseInt(m.group(1));
    }

    @Nested
    class DefaultScene {

        @Test
        void shouldLoadAndBuildEmbeddedDefaultScene() throws SceneException {
            SceneSpec spec = loader.loadEmbedded();

            assertWallScene(spec, SceneBuilder.build(spec));
        }

        @Test
        void shouldLoadAndBuildScenesWallYaml() throws SceneException {
            SceneSpec spec = loader.load(WALL_YAML);

            assertWallScene(spec, SceneBuilder.build(spec));
        }

        @Test
        void shouldEmbedByteForByteCopyOfScenesWallYaml() throws IOException {
            byte[] embedded;
            try (InputStream in = SceneLoader.class.getResourceAsStream("/scenes/wall.yaml")) {
                assertTrue(in != null, "/scenes/wall.yaml on the classpath");
                embedded = in.readAllBytes();
            }

            assertArrayEquals(Files.readAllBytes(WALL_YAML), embedded);
        }

        /** Values copied from scenes/wall.yaml; all are exact in binary or parsed from the same decimal text. */
        private void assertWallScene(SceneSpec spec, BuiltScene built) {
            assertEquals("wall", spec.name());
            assertEquals(1000.0, spec.contact().stiffnessNpm(), 0.0);
            assertEquals(0.2, spec.contact().dampingNspm(), 0.0);
            assertEquals(10, spec.device().hand().path().size());
            assertTrue(spec.device().hand().loop());

            assertEquals("wall", built.name());
            assertEquals(1000, built.rateHz());
            assertEquals(List.of("wall", "box"), built.bodyNames());
            assertEquals(2, built.bodyIndices().length);
            assertEquals(3, built.haptic().world().bodyCount(), "wall, box and the tool");
            assertEquals("wall", built.haptic().world().bodyName(built.bodyIndices()[0]));
            assertEquals("box", built.haptic().world().bodyName(built.bodyIndices()[1]));
            assertInstanceOf(PlaneShape.class, built.haptic().world().shape(built.bodyIndices()[0]));
            assertInstanceOf(BoxShape.class, built.haptic().world().shape(built.bodyIndices()[1]));
            assertEquals(SafetyConfig.defaults(), built.safety(), "wall.yaml states the default limits");
            assertEquals(10.0, built.simDevice().info().maxForceN(), 0.0);
            assertEquals(4.0, built.simDevice().info().maxContinuousForceN(), 0.0);
            assertEquals(200.0, built.simDevice().handStiffnessNpm(), 0.0);
        }
    }

    @Nested
    class FieldErrors {

        @Test
        void shouldNameTheToolsRenderingAndShadingProblems() {
            assertLocated(parseFails("name: t\ntool: {rendering: god}\n"), SOURCE, 2, "tool.rendering",
                "must be contact, proxy or coupling, got 'god'");
            assertLocated(parseFails("name: t\ntool: {rendering: proxy, creaseAngleDeg: 180}\n"), SOURCE, 2,
                "tool.creaseAngleDeg", "must be > 0 and < 180, got 180.0");
            assertEquals(SOURCE + ": tool.forceShading: needs tool.rendering: proxy (force shading moves the proxy; "
                + "the tool's own contacts are not shaded)",
                parseFails("name: t\ntool: {forceShading: true}\n").getMessage());
            assertEquals(SOURCE + ":3:13: tool.coupling: needs tool.rendering: coupling (the coupling joins the device "
                + "to a dynamic proxy; the other renderings have none)",
                parseFails("name: t\ntool:\n  coupling: {massKg: 0.01}\n").getMessage());
            assertLocated(parseFails("name: t\ntool: {rendering: coupling, coupling: {massKg: 0}}\n"), SOURCE, 2,
                "tool.coupling.massKg", "must be > 0 and finite, got 0.0");
        }

        @Test
        void shouldNameUnknownFieldAndListExpectedOnes() {
            SceneException e = parseFails("""
                name: typo
                contact:
                  stiffnessNpm: 1000.0
                  stifnessNpm: 500.0
                """);

            assertLocated(e, SOURCE, 4, "contact.stifnessNpm", "unknown field 'stifnessNpm'");
            assertTrue(e.getMessage().contains("expected one of: dampingNspm, errorCorrectionRate, frictionThresholdMps, impactThresholdMps, "
                + "impulse, lcpIterations, lcpSweepBudget, lcpTolerance, maxPairs, maxPoints, mode, positionIterations, sleepAfterS, "
                + "sleepAngularRadps, sleepLinearMps, stiffnessNpm, toleranceM)"), e.getMessage());
        }

        @Test
        void shouldRejectNegativeSleepTime() {
            SceneException e = parseFails("""
                name: insomniac
                contact:
                  sleepAfterS: -0.5
                """);

            assertLocated(e, SOURCE, 3, "contact.sleepAfterS", "must be >= 0");
        }

        @Test
        void shouldBuildAWorldThatSleepsOnlyWhenTheSceneAsksForIt() throws SceneException {
            SceneSpec asleep = parse("""
                name: sleepy
                contact:
                  sleepAfterS: 0.5
                  sleepLinearMps: 0.002
                """);
            SleepSettings sleep = SceneBuilder.build(asleep).haptic().world().sleepSettings();
            assertEquals(0.5, sleep.afterS(), "sleepAfterS");
            assertEquals(0.002, sleep.linearMps(), "sleepLinearMps");
            assertEquals(SleepSettings.DEFAULT_ANGULAR_RADPS, sleep.angularRadps(), "sleepAngularRadps default");

            SceneSpec awake = parse("""
                name: default
                """);
            assertFalse(SceneBuilder.build(awake).haptic().world().sleepSettings().enabled(), "sleeping by default");
        }

        @Test
        void shouldCarryTheSweepBudgetIntoTheWorldAndDefaultToTheEngines() throws SceneException {
            SceneSpec budgeted = parse("""
                name: budgeted
                contact:
                  lcpSweepBudget: 12.5
                """);
            assertEquals(12.5, SceneBuilder.build(budgeted).haptic().world().contactSettings().lcpSweepBudget(),
                "lcpSweepBudget");
            SceneSpec plain = parse("""
                name: default
                """);
            assertEquals(ContactSettings.DEFAULT_LCP_SWEEP_BUDGET,
                SceneBuilder.build(plain).haptic().world().contactSettings().lcpSweepBudget(), "default budget");
        }

        @Test
        void shouldRejectASweepBudgetBelowOneSweep() {
            SceneException e = parseFails("""
                name: stingy
                contact:
                  lcpSweepBudget: 0.5
                """);

            assertLocated(e, SOURCE, 3, "contact.lcpSweepBudget", "must be >= 1");
        }

        @Test
        void shouldRejectNegativeStiffness() {
            SceneException e = parseFails("""
                name: negative
                rateHz: 1000
                contact:
                  dampingNspm: 0.5
                  stiffnessNpm: -1000.0
                """);

            assertLocated(e, SOURCE, 5, "contact.stiffnessNpm", "must be > 0");
        }

        @Test
        void shouldRejectTextWhereNumberIsExpected() {
            SceneException e = parseFails("""
                name: text
                device:
                  massKg: heavy
                """);

            assertLocated(e, SOURCE, 3, "device.massKg", "expected a number");
        }

        @Test
        void shouldRejectVectorWithTwoComponents() {
            SceneException e = parseFails("""
                name: short-vector
                bodies:
                  - name: ball
                    shape: {type: sphere, radiusM: 0.01}
                    position: [0.0, 0.04]
                """);

            assertLocated(e, SOURCE, 5, "bodies[0].position", "must be a list of 3 numbers");
        }

        /** The same mistake in block style: the message must point into the list, not below it. */
        @Test
        void shouldPointIntoBlockStyleVectorWithTwoComponents() {
            SceneException e = parseFails("""
                bodies:
                  - name: ball
                    shape: {type: sphere, radiusM: 0.01}
                    position:
                      - 0.0
                      - 0.04
                name: short-vector
                """);

            assertTrue(e.getMessage().contains(": bodies[0].position: must be a list of 3 numbers"), e.getMessage());
            int line = reportedLine(e);
            // Lines 4-6 hold the field and its value; line 7 is the next, unrelated field.
            assertTrue(line >= 4 && line <= 6, "line " + line + " should be within 4..6: " + e.getMessage());
        }

        @Test
        void shouldRejectUnknownShapeType() {
            SceneException e = parseFails("""
                name: cylinder
                bodies:
                  - name: wall
                    shape: {type: plane, normal: [-1.0, 0.0, 0.0]}
                  - name: can
                    shape: {type: cylinder, radiusM: 0.01}
                """);

            assertLocated(e, SOURCE, 6, "bodies[1].shape", "unknown type 'cylinder' (expected sphere, plane, box, capsule, hull or mesh)");
        }

        @Test
        void shouldSayShapeTypeIsMissing() {
            SceneException e = parseFails("""
                name: untyped
                bodies:
                  - name: ball
                    shape: {radiusM: 0.1}
                """);

            assertLocated(e, SOURCE, 4, "bodies[0].shape", "missing 'type' (one of sphere, plane, box");
        }

        @Test
        void shouldSayASecondDocumentIsNotAllowed() {
            SceneException e = parseFails("name: first\n---\nname: second\n");

            assertEquals(SOURCE + ":3:1: a second YAML document (after '---'): the file holds one",
                e.getMessage());
        }

        @Test
        void shouldSayANullValueIsMissing() {
            SceneException e = parseFails("name: nothing\nrateHz: null\n");

            assertLocated(e, SOURCE, 2, "rateHz", "no value given (expected a whole number)");
        }

        @Test
        void shouldSayYamlNanAndInfinityAreNotFiniteNumbers() {
            assertLocated(parseFails("name: n\ncontact: {stiffnessNpm: .nan}\n"), SOURCE, 2, "contact.stiffnessNpm",
                "must be a finite number, got '.nan'");
            assertLocated(parseFails("name: n\ncontact: {stiffnessNpm: -.inf}\n"), SOURCE, 2, "contact.stiffnessNpm",
                "must be a finite number, got '-.inf'");
        }

        @Test
        void shouldNotRepeatAFieldNameWithADigitNorEatAMessagesFirstWord() {
            assertEquals(SOURCE + ":5:35: deformables[0].string.bendingStiffnessNm2: must be > 0 and finite, got -1.0",
                parseFails("name: s\ndeformables:\n  - name: s\n    type: string\n"
                    + "    string: {bendingStiffnessNm2: -1}\n").getMessage());
            assertTrue(parseFails("name: s\nbodies:\n  - {name: a, motion: dynamic, shape: {type: sphere, radiusM: 0.1}}\n"
                + "  - {name: b, motion: dynamic, shape: {type: sphere, radiusM: 0.1}, position: [1, 0, 0]}\n"
                + "contactModes:\n  - {pair: [a, b], mode: impulse, correlationRatio: 0}\n").getMessage()
                .endsWith("contactModes[0].correlationRatio: must be in (0, 1], got 0.0"));
        }

        /** Found by a tester: these loaded, and the first tick's force overflowed, latching SAFE at once. */
        @Test
        void shouldBoundSizes() {
            assertTrue(parseFails("name: t\ntool: {radiusM: 1.0e308}\n").getMessage()
                .endsWith("tool.radiusM: must be <= 1e6, got 1.0E308"));
            assertTrue(parseFails("name: t\nmapping: {scale: 1.0e300}\n").getMessage()
                .endsWith("mapping.scale: must be <= 1e6, got 1.0E300"));
            assertTrue(parseFails("name: t\nbodies:\n"
                + "  - {name: c, shape: {type: capsule, radiusM: 0.1, halfLengthM: 2e6}}\n").getMessage()
                .endsWith("bodies[0].shape.halfLengthM: must be <= 1e6, got 2000000.0"));
            assertTrue(parseFails("name: t\ndevice: {maxContinuousForceN: 1.0e-200}\n").getMessage()
                .endsWith("device.maxContinuousForceN: must be at least 0.001 N, got 1.0E-200"));
            assertTrue(parseFails("name: t\ndeformables:\n  - {name: c, type: mass-spring, nodeRadiusM: 1.0e300}\n")
                .getMessage().endsWith("deformables[0].nodeRadiusM: must be <= 1e6, got 1.0E300"));
        }

        /** Found by a tester: an alias loaded as the text of its name, or was blamed on the field's type. */
        @Test
        void shouldRefuseYamlAliasesWithTheirPlace() {
            assertEquals(SOURCE + ":3:25: device.hand.target: YAML alias '*o': aliases are not supported; "
                + "write the value out",
                parseFails("name: a\nmapping: {origin: &o [0, 0, 1]}\ndevice: {hand: {target: *o}}\n").getMessage());
            assertTrue(parseFails("name: &n a\ntool: {name: *n}\n").getMessage().startsWith(SOURCE + ":2:"));
        }

        /**
         * Found by a tester: YAML 1.1 number spellings loaded as other numbers ({@code rateHz: 0500} ran the loop at
         * 320 Hz, octal) and its boolean spellings as booleans; each is refused at its place, with the field.
         */
        @Test
        void shouldRefuseYaml11NumberAndBooleanSpellingsAtTheirPlace() {
            assertEquals(SOURCE + ":2:9: rateHz: 0500 has a leading zero, which YAML reads as an octal number (320): "
                + "write 500, or quote it if text is meant", parseFails("name: t\nrateHz: 0500\n").getMessage());
            assertEquals(SOURCE + ":3:12: tool.radiusM: 010 has a leading zero, which YAML reads as an octal number "
                + "(8): write 10, or quote it if text is meant",
                parseFails("name: t\ntool:\n  radiusM: 010\n").getMessage());
            assertEquals(SOURCE + ":2:9: rateHz: 0x3E8 is a number in base 16 (1000): write it in decimal",
                parseFails("name: t\nrateHz: 0x3E8\n").getMessage());
            assertEquals(SOURCE + ":2:9: rateHz: 1_000 groups its digits with '_': write 1000",
                parseFails("name: t\nrateHz: 1_000\n").getMessage());
            assertEquals(SOURCE + ":2:17: tool.radiusM: 1e-400 is closer to zero than a double can hold (4.9e-324): it "
                + "would read as 0", parseFails("name: t\ntool: {radiusM: 1e-400}\n").getMessage());
            assertEquals(SOURCE + ":2:26: tool.passivityControl: 'yes' is read by YAML as true: write true, or quote it "
                + "if text is meant", parseFails("name: t\ntool: {passivityControl: yes}\n").getMessage());
            assertTrue(parseFails("name: t\nbodies:\n  - {name: a, shape: {type: sphere, radiusM: 0.1}, "
                + "position: [0, 0, -0.50]}\n  - {name: b, shape: {type: sphere, radiusM: 0.1}, position: [0, 0, 01]}\n")
                .getMessage().startsWith(SOURCE + ":4:"), "the second body's position[2]");
        }

        /** What these spellings do not touch: zero, negative zero, a leading-zero fraction, true and false. */
        @Test
        void shouldStillReadPlainNumbersAndBooleans() throws SceneException {
            SceneSpec spec = parse("name: t\ngravity: [0, -0, -9.81]\ntool: {passivityControl: false}\n"
                + "contact: {stiffnessNpm: 0.5e4}\n");
            assertEquals(-9.81, spec.gravityMps2()[2]);
        }

        /** Found by a tester: Jackson's advice to disable one of its features, SnakeYAML's event class, line 1:1. */
        @Test
        void shouldDescribeNullItemsComplexKeysAndControlCharactersInTheFilesWords() {
            assertEquals(SOURCE + ":2:17: gravity[2]: an empty item (~ or null): expected a number",
                parseFails("name: t\ngravity: [0, 0, ~]\n").getMessage());
            assertEquals(SOURCE + ":2:4: a mapping key that is not a plain name (a '? ' key, or a list or mapping used "
                + "as a key): keys are field names", parseFails("name: t\n? [a, b]\n: 1\n").getMessage());
            assertEquals(SOURCE + ":2:13: control character U+0000, which a YAML file may not hold",
                parseFails("name: t\nrateHz: 1000\u0000\n").getMessage());
            assertEquals(SOURCE + ":2:9: rateHz: expected a whole number, got 1e3, written with a point or an exponent "
                + "(a whole number is written in digits alone)", parseFails("name: t\nrateHz: 1e3\n").getMessage());
        }

        /** Found by a tester: a spring of rest length 1e300 loaded, and its nodes went NaN in a few steps. */
        @Test
        void shouldBoundASpringsRestLength() {
            String message = parseFails("name: s\ndeformables:\n  - name: c\n    type: mass-spring\n"
                + "    nodes: [{position: [0, 0, 0]}, {position: [0.1, 0, 0]}]\n"
                + "    springs: [{nodes: [0, 1], restLengthM: 1.0e300}]\n").getMessage();
            assertTrue(message.endsWith("deformables[0].springs[0].restLengthM: must be <= 1e6, got 1.0E300"), message);
        }

        /**
         * Found by a tester: {@code device.initialPosition: [1e308, 0, 0]} and {@code mapping.rotation: [1e200,
         * 1e200, 0, 0]} loaded, and then every tick failed (an infinite tool position; a zero quaternion from an
         * infinite norm). Vectors are now bounded and quaternions normalised without overflow.
         */
        @Test
        void shouldBoundVectorsAndNormaliseHugeQuaternions() throws SceneException {
            assertLocated(parseFails("name: s\ndevice: {initialPosition: [1.0e308, 0, 0]}\n"), SOURCE, 2,
                "device.initialPosition", "must be within ±1e6, got 1.0E308");
            assertLocated(parseFails("name: s\ngravity: [0, 0, -2.0e6]\n"), SOURCE, 2, "gravity",
                "must be within ±1e6");
            double[] q = parse("name: s\nmapping: {rotation: [1.0e200, 1.0e200, 0, 0]}\n").mapping().rotation();
            assertEquals(Math.sqrt(0.5), q[0], 1e-15);
            assertEquals(Math.sqrt(0.5), q[1], 1e-15);
        }

        /** Found by a tester: a scene name with a newline forged a second error line; a tool name took any text. */
        @Test
        void shouldKeepNamesOnOneLine() {
            assertLocated(parseFails("name: \"bad\\nhapticsd: all good\"\n"), SOURCE, 1, "name",
                "one line of text without control characters");
            assertLocated(parseFails("name: s\ntool: {name: \"x,y\"}\n"), SOURCE, 2, "tool.name",
                "must start with a letter");
        }

        /** Found by a tester: a contact mode naming a deformable body passed the loader, then the builder threw. */
        @Test
        void shouldRefuseAContactModeNamingADeformableBody() {
            String deformable = "name: s\ndeformables:\n  - name: c\n    type: string\n";
            assertLocated(parseFails(deformable + "contactModes:\n  - {body: c, mode: none}\n"), SOURCE, 6,
                "contactModes[0]", "'c' is a deformable body: contact modes are for rigid bodies");
            assertLocated(parseFails(deformable + "contactModes:\n  - {pair: [c, tool], mode: lcp}\n"), SOURCE, 6,
                "contactModes[0]", "'c' is a deformable body");
        }

        /** Found by a tester: minimumDurationMs 1e9 (a pulse of 11 days) was accepted and hung the loop at a strike. */
        @Test
        void shouldRefuseAnImpactTransientLongerThanAPulseMayLast() {
            assertEquals(SOURCE + ":2:40: contact.impulse.minimumDurationMs: must be at most 200 ms (a pulse lasts at "
                + "most 0.2 s), got 1.0E9", parseFails("name: s\ncontact: {impulse: {minimumDurationMs: 1.0e9}}\n")
                .getMessage());
        }

        @Test
        void shouldNameABodyGivenTwiceInAPair() {
            SceneException e = parseFails("""
                name: self
                bodies:
                  - name: ball
                    shape: {type: sphere, radiusM: 0.05}
                    motion: dynamic
                contactModes:
                  - {pair: [ball, ball], mode: none}
                """);

            assertLocated(e, SOURCE, 7, "contactModes[0].pair", "names 'ball' twice");
        }

        @Test
        void shouldRejectRateOutOfRange() {
            SceneException high = parseFails("""
                name: fast
                rateHz: 5000
                """);
            SceneException low = parseFails("""
                name: slow

                rateHz: 100
                """);

            assertLocated(high, SOURCE, 2, "rateHz", "must be 250..4000, got 5000");
            assertLocated(low, SOURCE, 3, "rateHz", "must be 250..4000, got 100");
        }

        @Test
        void shouldRejectFractionalGateTicksInsteadOfTruncating() {
            SceneException e = parseFails("""
                name: fractional
                safety:
                  maxForceN: 8.0
                  gateTicks: 2.5
                """);

            assertLocated(e, SOURCE, 4, "safety.gateTicks", "expected a whole number");
        }

        /** A number where a mapping is wanted printed Jackson's "Cannot construct instance of `...HandSpec`". */
        @Test
        void shouldSayANumberWhereAMappingIsWantedWithoutJavaNames() {
            assertEquals(SOURCE + ":2:16: device.hand: expected a mapping, got the whole number 5",
                parseFails("name: n\ndevice: {hand: 5}\n").getMessage());
            assertEquals(SOURCE + ":2:10: mapping: expected a mapping, got the whole number 7",
                parseFails("name: n\nmapping: 7\n").getMessage());
            assertEquals(SOURCE + ":2:10: mapping: expected a mapping, got the fractional number 1.5",
                parseFails("name: n\nmapping: 1.5\n").getMessage());
            assertEquals(SOURCE + ":2:10: mapping: expected a mapping, got true",
                parseFails("name: n\nmapping: true\n").getMessage());
        }

        /**
         * A whole number too large for its field: 1e12 was called "the fractional number 1e12", and 2147483648 printed
         * Jackson's "Numeric value (2147483648) out of range of int (-2147483648 - 2147483647)" (a tester).
         */
        @Test
        void shouldSayAWholeNumberIsTooLargeForItsField() {
            assertEquals(SOURCE + ":2:22: contact.maxPoints: expected a whole number up to 2147483647, got 1e12",
                parseFails("name: n\ncontact: {maxPoints: 1e12}\n").getMessage());
            assertEquals(SOURCE + ":2:32: contact.maxPoints: expected a whole number up to 2147483647, got 2147483648",
                parseFails("name: n\ncontact: {maxPoints: 2147483648}\n").getMessage());
            assertEquals(SOURCE + ":2:33: contact.maxPoints: expected a whole number of at least -2147483648, got "
                + "-2147483649", parseFails("name: n\ncontact: {maxPoints: -2147483649}\n").getMessage());
            // Refused, but not too large: a fraction, and a point in a whole value the field could hold.
            assertEquals(SOURCE + ":2:22: contact.maxPoints: expected a whole number, got the fractional number 2.5",
                parseFails("name: n\ncontact: {maxPoints: 2.5}\n").getMessage());
            assertEquals(SOURCE + ":2:22: contact.maxPoints: expected a whole number, got 2147483647.0, written with a "
                + "point or an exponent (a whole number is written in digits alone)",
                parseFails("name: n\ncontact: {maxPoints: 2147483647.0}\n").getMessage());
        }

        /** Two values for one key is a YAML error; silently keeping the last would hide a raised force limit. */
        @Test
        void shouldRejectDuplicateKey() {
            SceneException e = parseFails("""
                name: twice
                safety:
                  maxForceN: 8.0
                  maxForceN: 80.0
                """);

            int line = reportedLine(e);
            assertEquals(4, line, e.getMessage());
            assertTrue(e.getMessage().contains("maxForceN"), e.getMessage());
        }
    }

    @Nested
    class WholeSceneErrors {

        @Test
        void shouldNameLineOfBoxWithoutHalfExtents() {
            SceneException e = parseFails("""
                name: no-extents
                bodies:
                  - name: wall
                    shape: {type: plane}
                  - name: crate
                    shape: {type: box}
                    position: [0.0, 0.04, -0.03]
                """);

            assertLocated(e, SOURCE, 6, "bodies[1].shape.halfExtents", "missing");
        }

        /** Block style: the shape is lines 6-7; line 8 is the body's next field. */
        @Test
        void shouldNameLineOfBlockStyleBoxWithoutHalfExtents() {
            SceneException e = parseFails("""
                name: no-extents
                bodies:
                  - name: wall
                    shape: {type: plane}
                  - name: crate
                    shape:
                      type: box
                    position: [0.0, 0.04, -0.03]
                """);

            assertTrue(e.getMessage().contains(": bodies[1].shape.halfExtents: missing"), e.getMessage());
            int line = reportedLine(e);
            assertTrue(line >= 6 && line <= 7, "line " + line + " should be within 6..7: " + e.getMessage());
        }

        @Test
        void shouldNameLineOfBodyWithoutName() {
            SceneException e = parseFails("""
                name: anonymous
                bodies:
                  - name: wall
                    shape: {type: plane}
                  - shape: {type: sphere, radiusM: 0.01}
                    position: [0.0, 0.0, 0.0]
                """);

            assertLocated(e, SOURCE, 5, "bodies[1].name", "missing");
        }

        @Test
        void shouldNameLineOfSecondBodyWithDuplicateName() {
            SceneException e = parseFails("""
                name: twins
                bodies:
                  - name: wall
                    shape: {type: plane}
                  - name: box
                    shape: {type: box, halfExtents: [0.01, 0.01, 0.01]}
                  - name: wall
                    shape: {type: sphere, radiusM: 0.01}
                """);

            assertLocated(e, SOURCE, 7, "bodies[2].name", "'wall' is already used");
        }

        @Test
        void shouldRejectBodyNamedLikeTool() {
            SceneException e = parseFails("""
                name: tool-clash
                bodies:
                  - name: tool
                    shape: {type: plane}
                """);

            assertLocated(e, SOURCE, 3, "bodies[0].name", "'tool' is already used");
        }

        @Test
        void shouldNameWaypointWhoseTimeDoesNotIncrease() {
            SceneException e = parseFails("""
                name: time-travel
                device:
                  hand:
                    loop: true
                    path:
                      - {t: 0.0, position: [0.0, 0.0, 0.0]}
                      - {t: 0.5, position: [0.05, 0.0, 0.0]}
                      - {t: 0.5, position: [0.0, 0.0, 0.0]}
                """);

            assertLocated(e, SOURCE, 8, "device.hand.path[2].t", "times must increase along the path, got 0.5 after 0.5");
        }
    }

    @Nested
    class FileErrors {

        @Test
        void shouldGiveLineOfYamlSyntaxError() {
            SceneException e = parseFails("""
                name: bad-indent
                contact:
                    stiffnessNpm: 1000.0
                  dampingNspm: 0.5
                """);

            assertTrue(e.getMessage().startsWith(SOURCE + ":4:"), e.getMessage());
            assertFalse(e.getMessage().contains("\n"), "one line: " + e.getMessage());
        }

        @Test
        void shouldGiveLineOfMisplacedColon() {
            SceneException e = parseFails("""
                name: colon
                rateHz: : 1000
                """);

            assertTrue(e.getMessage().startsWith(SOURCE + ":2:"), e.getMessage());
            assertTrue(e.getMessage().contains("mapping values are not allowed here"), e.getMessage());
        }

        /**
         * SnakeYAML reports "while scanning for the next token" (the context) and then the problem: the tab. The
         * message must keep the problem and point at the tab's line, not only at the context.
         */
        @Test
        void shouldNameTabIndentationAndItsLine() {
            SceneException e = parseFails("name: tab\ncontact:\n  stiffnessNpm: 1000.0\n\tdampingNspm: 0.5\n");

            assertTrue(e.getMessage().startsWith(SOURCE + ":4:"), e.getMessage());
            assertTrue(e.getMessage().contains("TAB"), e.getMessage());
        }

        @Test
        void shouldSayEmptyFileIsEmpty() {
            SceneException e = parseFails("");

            assertTrue(e.getMessage().startsWith(SOURCE + ":"), e.getMessage());
            assertTrue(e.getMessage().contains("empty"), e.getMessage());
        }

        @Test
        void shouldSayNullDocumentIsEmpty() {
            SceneException e = parseFails("~\n");

            assertEquals(SOURCE + ": scene file is empty", e.getMessage());
        }

        /**
         * Found by a tester: a FIFO hung the load; /dev/zero and a 279 MB file ran out of heap (with advice to add
         * heap); 8 MB of comment on one line took 30 s to parse.
         */
        @Test
        void shouldRefuseWhatIsNotASceneFileBeforeReadingIt(@TempDir Path dir) throws IOException {
            SceneException device = assertThrows(SceneException.class, () -> loader.load(Path.of("/dev/zero")));
            assertEquals("/dev/zero: not a regular file (a device, FIFO or socket): a scene is a file",
                device.getMessage());
            Path big = dir.resolve("big.yaml");
            Files.writeString(big, "name: x\n" + ("#" + "a".repeat(1000) + "\n").repeat(3200));
            SceneException large = assertThrows(SceneException.class, () -> loader.load(big));
            assertEquals(big + ": scene file is 3.2 MB, more than the 3 MB a scene file may be", large.getMessage());
            Path longLine = dir.resolve("long.yaml");
            Files.writeString(longLine, "name: x\n# " + "a".repeat(1_100_000) + "\n");
            SceneException line = assertThrows(SceneException.class, () -> loader.load(longLine));
            assertEquals(longLine + ": a line of 1100002 characters, more than the 1048576 a scene file's line may "
                + "have", line.getMessage());
        }

        @Test
        void shouldNameMissingFile(@TempDir Path dir) {
            Path missing = dir.resolve("missing.yaml");

            SceneException e = assertThrows(SceneException.class, () -> loader.load(missing));

            assertEquals(missing + ": scene file not found", e.getMessage());
        }

        @Test
        void shouldNameFileAndLineOfBadValueInLoadedFile(@TempDir Path dir) throws IOException {
            Path file = dir.resolve("bad.yaml");
            Files.writeString(file, """
                name: from-file
                contact:
                  stiffnessNpm: -5.0
                """);

            SceneException e = assertThrows(SceneException.class, () -> loader.load(file));

            assertLocated(e, file.toString(), 3, "contact.stiffnessNpm", "must be > 0");
        }

        @Test
        void shouldSayWhereAFileStopsBeingUtf8(@TempDir Path dir) throws IOException {
            Path file = dir.resolve("latin1.yaml");
            Files.write(file, new byte[] {'n', 'a', 'm', 'e', ':', ' ', 'x', '\n', '#', ' ', (byte) 0xe9, '\n'});

            SceneException e = assertThrows(SceneException.class, () -> loader.load(file));

            assertEquals(file + ": not UTF-8 text (line 2, byte offset 10: 0xe9)", e.getMessage());
        }

        @Test
        void shouldSayEmptyLoadedFileIsEmpty(@TempDir Path dir) throws IOException {
            Path file = dir.resolve("blank.yaml");
            Files.writeString(file, "");

            SceneException e = assertThrows(SceneException.class, () -> loader.load(file));

            assertTrue(e.getMessage().startsWith(file + ":"), e.getMessage());
            // Only the text after the path: the temporary directory's name must not satisfy the check.
            assertTrue(e.getMessage().substring(file.toString().length()).contains("empty"), e.getMessage());
        }

        @Test
        void shouldLoadMinimalSceneWithDefaults(@TempDir Path dir) throws IOException, SceneException {
            Path file = dir.resolve("minimal.yaml");
            Files.writeString(file, "name: minimal\n");

            BuiltScene built = SceneBuilder.build(loader.load(file));

            assertEquals("minimal", built.name());
            assertEquals(1000, built.rateHz());
            assertEquals(List.of(), built.bodyNames());
            assertEquals(SafetyConfig.defaults(), built.safety());
        }
    }
}
