package org.hapticsd.server.script;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a test script's loading accepts and how it words a refusal: nothing here runs a loop. */
class ScriptLoadTest {

    private static ScriptSpec load(Path dir, String name, String yaml) throws Exception {
        Path script = Files.writeString(dir.resolve(name), yaml);
        ScriptRunner runner = new ScriptRunner();
        ScriptSpec spec = runner.load(script);
        runner.scene(script, spec);
        return spec;
    }

    private static String refusal(Path dir, String name, String yaml) {
        return assertThrows(ScriptRunner.ScriptException.class, () -> load(dir, name, yaml)).getMessage();
    }

    /**
     * Found by a tester: a 20 ms budget on the default scene's 3-tick loop watchdog made two assertions FAIL on a 9 ms
     * stall. The script's notes say so; the shipped scene for real-time scripts (a 25-tick watchdog) draws no note.
     */
    @Test
    void shouldNoteAHostBudgetLongerThanTheLoopWatchdog(@TempDir Path dir) throws Exception {
        String script = "device: emulator\nhostTiming: {budgetMs: 20}\nassertions:\n"
            + "  - {from: 0.1, to: 0.2, force: {axis: magnitude, max: 1}}\n";
        Path file = Files.writeString(dir.resolve("rt.yaml"), script);
        ScriptRunner runner = new ScriptRunner();
        ScriptSpec spec = runner.load(file);
        assertEquals("hostTiming budget 20 ms is longer than the scene's loop watchdog (3 ticks, 3 ms at 1000 Hz): a "
            + "host stall between the two trips the watchdog, and force and safety assertions FAIL where a longer stall "
            + "would be an ERROR; give a budget under the watchdog or a scene with a longer safety.watchdogTicks "
            + "(tests/dil/scenes/wall-ci.yaml has 25)",
            ScriptRunner.budgetBeyondWatchdog(spec, runner.scene(file, spec), 1000));

        Path shipped = Path.of("../tests/dil/press-wall.yaml");
        ScriptSpec ci = runner.load(shipped);
        assertEquals(null, ScriptRunner.budgetBeyondWatchdog(ci, runner.scene(shipped, ci), 1000));
    }

    @Test
    void shouldAcceptACountBoundOfMinZero(@TempDir Path dir) throws Exception {
        for (String check : new String[] {"deviceWatchdogTrips", "framesLost", "reconnects"}) {
            ScriptSpec spec = load(dir, check + ".yaml", "device: emulator\ntiming: lockstep\nassertions:\n"
                + "  - {" + check + ": {min: 0}}\n");
            assertEquals(1, spec.assertions().size(), check);
        }
        String empty = refusal(dir, "empty.yaml", "device: emulator\nassertions:\n  - {reconnects: {}}\n");
        assertTrue(empty.endsWith("empty.yaml:3:5: assertions[0].reconnects: give min, max or both (a count)"), empty);
    }

    @Test
    void shouldSayWhatWasExpectedAndWhatTheFileHasInItsOwnWords(@TempDir Path dir) {
        // Jackson's own text ("Cannot coerce String value ... `CoercionConfig`") named Java types and settings.
        String[][] cases = {
            {"device: emulator\nassertions:\n  - {at: 0.5, connected: maybe}\n",
                ":3:26: assertions[0].connected: expected true or false, got text \"maybe\""},
            {"assertions:\n  - {maxOverruns: 1.5}\n",
                ":2:19: assertions[0].maxOverruns: expected a whole number, got the fractional number 1.5"},
            {"rateHz: 1000.0\n", ":1:9: rateHz: expected a whole number, got 1000.0, written with a point or an "
                + "exponent (a whole number is written in digits alone)"},
            {"assertions:\n  - {at: 0.5, contact: 1}\n",
                ":2:24: assertions[0].contact: expected true or false, got the whole number 1"},
            {"timeline:\n  - {at: 0.2, moveTo: [0.05, 0, 0], over: 0.5\nassertions:\n  - {at: 0.5, safety: active}\n",
                ":2:43: timeline[0].over: expected a number, got text \"0.5 assertions\" (if a '{' or '[' above is "
                    + "left unclosed, YAML reads on into the next line)"},
        };
        for (int i = 0; i < cases.length; i++) {
            String message = refusal(dir, "w" + i + ".yaml", cases[i][0]);
            assertTrue(message.endsWith("w" + i + ".yaml" + cases[i][1]), message);
            assertTrue(!message.contains("Cannot coerce") && !message.contains("`"), message);
        }
    }

    /**
     * A number where a mapping is wanted printed Jackson's "Cannot construct instance of
     * `org.hapticsd.server.script.ScriptSpec$CountBound` (although at least one Creator exists)" (a tester).
     */
    @Test
    void shouldSayANumberWhereAMappingIsWantedWithoutJavaNames(@TempDir Path dir) {
        String[][] cases = {
            {"device: emulator\nassertions:\n  - {reconnects: 3}\n",
                ":3:18: assertions[0].reconnects: expected a mapping, got the whole number 3"},
            {"assertions:\n  - {at: 0.5, force: 3}\n", ":2:22: assertions[0].force: expected a mapping, got the "
                + "whole number 3"},
            {"device: emulator\nemulator: 5\n", ":2:11: emulator: expected a mapping, got the whole number 5"},
            {"hostTiming: 20\n", ":1:13: hostTiming: expected a mapping, got the whole number 20"},
            {"hostTiming: 2.5\n", ":1:13: hostTiming: expected a mapping, got the fractional number 2.5"},
        };
        for (int i = 0; i < cases.length; i++) {
            String message = refusal(dir, "m" + i + ".yaml", cases[i][0]);
            assertEquals(dir.resolve("m" + i + ".yaml") + cases[i][1], message);
        }
    }

    /** A count's min and max are whole numbers: "expected a mapping, got the fractional number 0.5" (a tester). */
    @Test
    void shouldSayACountBoundIsAWholeNumber(@TempDir Path dir) {
        String[][] cases = {
            {"{reconnects: {min: 0.5}}", ":3:24: assertions[0].reconnects.min: expected a whole number, got the "
                + "fractional number 0.5"},
            {"{framesLost: {max: 1.5}}", ":3:24: assertions[0].framesLost.max: expected a whole number, got the "
                + "fractional number 1.5"},
            {"{deviceWatchdogTrips: {min: x}}", ":3:33: assertions[0].deviceWatchdogTrips.min: expected a whole "
                + "number, got text \"x\""},
            {"{reconnects: {max: 1e30}}", ":3:24: assertions[0].reconnects.max: expected a whole number up to "
                + "9223372036854775807, got 1e30"},
        };
        for (int i = 0; i < cases.length; i++) {
            String message = refusal(dir, "c" + i + ".yaml", "device: emulator\nassertions:\n  - " + cases[i][0]
                + "\n");
            assertEquals(dir.resolve("c" + i + ".yaml") + cases[i][1], message);
        }
    }

    /** An interval with one end given said "an interval needs from < to" (a tester): it names the missing end. */
    @Test
    void shouldNameTheMissingEndOfAnInterval(@TempDir Path dir) {
        String noTo = refusal(dir, "to.yaml", "assertions:\n  - {from: 0.1, safety: gated}\n");
        assertEquals(dir.resolve("to.yaml") + ":2:5: assertions[0].to: missing (seconds from the start: an interval "
            + "needs from and to)", noTo);
        String noFrom = refusal(dir, "from.yaml", "assertions:\n  - {to: 0.3, safety: gated}\n");
        assertEquals(dir.resolve("from.yaml") + ":2:5: assertions[0].from: missing (seconds from the start: an "
            + "interval needs from and to)", noFrom);
        String reversed = refusal(dir, "rev.yaml", "assertions:\n  - {from: 0.3, to: 0.1, safety: gated}\n");
        assertEquals(dir.resolve("rev.yaml") + ":2:5: assertions[0]: an interval needs from < to", reversed);
    }

    /**
     * A budget under one tick period is broken by every interval between two ticks: {@code budgetMs: 0.001} was
     * accepted and then every real-time assertion was an ERROR (a tester). The least accepted budget is the period.
     */
    @Test
    void shouldRefuseAHostBudgetShorterThanOneTickPeriod(@TempDir Path dir) throws Exception {
        String micro = refusal(dir, "b1.yaml", "name: b\nhostTiming: {budgetMs: 0.001}\n");
        assertEquals(dir.resolve("b1.yaml") + ":2:1: hostTiming.budgetMs: 0.001 ms is shorter than one tick period "
            + "at 1000 Hz (1 ms): every interval between two ticks would break it and every assertion would be an "
            + "ERROR; give at least 1 ms", micro);
        String slow = refusal(dir, "b2.yaml", "name: b\nrateHz: 300\nhostTiming: {budgetMs: 3}\n");
        assertEquals(dir.resolve("b2.yaml") + ":3:1: hostTiming.budgetMs: 3 ms is shorter than one tick period "
            + "at 300 Hz (3.333 ms): every interval between two ticks would break it and every assertion would be an "
            + "ERROR; give at least 3.334 ms", slow);
        assertEquals(3.334, load(dir, "b3.yaml", "name: b\nrateHz: 300\nhostTiming: {budgetMs: 3.334}\n")
            .hostBudgetMs(), 0.0, "the least budget the message names is accepted");
        assertEquals(1.0, load(dir, "b4.yaml", "name: b\nhostTiming: {budgetMs: 1}\n").hostBudgetMs(), 0.0,
            "one period exactly is accepted");
    }

    @Test
    void shouldNameTheLineOfTheSceneAndOfTheRateItRefuses(@TempDir Path dir) {
        String scene = refusal(dir, "s1.yaml", "name: s\nscene: nope.yaml\n");
        assertTrue(scene.startsWith(dir.resolve("s1.yaml") + ":2:1: scene: ") && scene.endsWith("scene file not found"),
            scene);
        String rate = refusal(dir, "e6.yaml", "name: e\ndevice: emulator\nrateHz: 4000\n");
        assertTrue(rate.startsWith(dir.resolve("e6.yaml") + ":3:1: rateHz: the in-process emulator"), rate);
    }

    @Test
    void shouldRefuseYamlAliasesWithTheirPlace(@TempDir Path dir) {
        String alias = refusal(dir, "a.yaml", "name: &n a\ndevice: emulator\nscene: *n\n");
        assertEquals(dir.resolve("a.yaml") + ":3:8: scene: YAML alias '*n': aliases are not supported; "
            + "write the value out", alias);
    }

    @Test
    void shouldSayAScriptIsNotUtf8NamingTheLineAndByteOffset(@TempDir Path dir) throws Exception {
        Path script = Files.write(dir.resolve("bin.yaml"), new byte[] {'n', 'a', 'm', 'e', ':', ' ', 'a', '\n',
            'd', 'e', 'v', 'i', 'c', 'e', ':', ' ', (byte) 0xff, '\n'});
        String message = assertThrows(ScriptRunner.ScriptException.class, () -> new ScriptRunner().load(script))
            .getMessage();
        assertEquals(script + ": not UTF-8 text (line 2, byte offset 16: 0xff)", message);
    }

    @Test
    void shouldSayAReplayedPathIsADirectory(@TempDir Path dir) throws Exception {
        Files.createDirectory(dir.resolve("r"));
        Path sub = Files.createDirectory(dir.resolve("sub"));
        String message = refusal(sub, "d.yaml", "name: d\ndevice: replay:../r\n");
        assertTrue(message.startsWith(sub.resolve("d.yaml") + ":2:1: device: recording ")
            && message.endsWith(" is a directory, not a tick recording"), message);
    }

    /** A long run used to be accepted and then run out of heap sizing its trace (100000 s at 1 kHz: 6.4 GB). */
    @Test
    void shouldRefuseARunLongerThanTheTraceHoldsNamingWhatMakesItLong(@TempDir Path dir) throws Exception {
        String given = refusal(dir, "long.yaml", "device: sim\ntiming: lockstep\nduration: 100000\n");
        assertEquals(dir.resolve("long.yaml") + ":3:1: duration: a run of 100000.000 s at 1000 Hz traces 100001000 "
            + "ticks, more than the 3600000 a script may (3599.000 s at this rate): every tick is kept in memory for "
            + "the assertions (77 bytes each); split it into shorter scripts", given);
        String implied = refusal(dir, "late.yaml", "device: sim\nrateHz: 4000\nassertions:\n"
            + "  - {at: 0.5, safety: gated}\n  - {at: 1000, safety: gated}\n");
        assertTrue(implied.startsWith(dir.resolve("late.yaml") + ":5:5: assertions[1]: ends the run (no duration "
            + "given): a run of 1000.200 s at 4000 Hz"), implied);
        ScriptSpec hour = load(dir, "hour.yaml", "device: sim\nduration: 3599\n");
        assertEquals(TickTrace.MAX_TICKS, TickTrace.capacity(hour.durationS(), 1000), "the longest run accepted");
    }

    /**
     * {@code bodyPosition} traces its bodies' centres too (12 bytes a tick each), so the trace's memory allows fewer
     * ticks: 3,600,000 × 77 / 89 with one body. Its fields are checked as toolPosition's, and it must name a body.
     */
    @Test
    void shouldCheckBodyPositionAndCountItsBodiesInTheTracesMemory(@TempDir Path dir) throws Exception {
        String oneBody = "  - {at: 1.0, bodyPosition: {body: cube, axis: z, min: 0.0}}\n";
        String given = refusal(dir, "long.yaml", "device: sim\ntiming: lockstep\nduration: 3599\nassertions:\n"
            + oneBody);
        assertEquals(dir.resolve("long.yaml") + ":3:1: duration: a run of 3599.000 s at 1000 Hz traces 3600000 "
            + "ticks, more than the 3114606 a script may (3113.606 s at this rate): every tick is kept in memory for "
            + "the assertions (89 bytes each, with the 1 bodies bodyPosition traces); split it into shorter scripts",
            given);
        assertEquals(3_114_606L, TickTrace.maxTicks(1));
        assertTrue(refusal(dir, "nobody.yaml", "device: sim\nassertions:\n"
            + "  - {at: 1.0, bodyPosition: {axis: z, min: 0.0}}\n")
            .endsWith("assertions[0].bodyPosition.body: missing (the name of a body of the scene)"));
        assertTrue(refusal(dir, "noaxis.yaml", "device: sim\nassertions:\n"
            + "  - {at: 1.0, bodyPosition: {body: cube, min: 0.0}}\n")
            .endsWith("assertions[0].bodyPosition.axis: missing (x, y or z)"));
        assertTrue(refusal(dir, "toolbody.yaml", "device: sim\nassertions:\n"
            + "  - {at: 1.0, toolPosition: {body: cube, axis: z, min: 0.0}}\n")
            .endsWith("assertions[0].toolPosition.body: only bodyPosition names a body; toolPosition checks the tool"));
    }

    @Test
    void shouldPrintSecondsWithAtLeastTheMillisecondAndAllTheDigitsWritten() {
        assertEquals("0.000", ScriptRunner.seconds(0));
        assertEquals("1.600", ScriptRunner.seconds(1.6));
        assertEquals("0.0001", ScriptRunner.seconds(0.0001));
        assertEquals("0.0039", ScriptRunner.seconds(0.0039));
        assertEquals("2.12345", ScriptRunner.seconds(2.12345));
    }
}
