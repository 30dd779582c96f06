package org.hapticsd.server.script;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.hapticsd.server.cli.Main;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code hapticsd test}: scripts run in real time; results printed, JUnit XML written, exit codes 0 / 1 / 2. */
class TestScriptCommandTest {

    private record Outcome(int code, String out, String err) {
    }

    private static Outcome run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new PrintWriter(out), new PrintWriter(err), args);
        return new Outcome(code, out.toString(), err.toString());
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldPassTheShippedWallScriptAndWriteJUnitXml(@TempDir Path dir) throws Exception {
        Path xml = dir.resolve("results.xml");
        Outcome outcome = run("test", "../scripts/press-wall.yaml", "--junit-xml", xml.toString());
        assertEquals(0, outcome.code(), outcome.out() + outcome.err());
        assertTrue(outcome.out().contains("5 passed, 0 failed"), outcome.out());
        assertTrue(outcome.out().contains("PASS steady wall force: measured force.x from 1.600 s to 2.100 s"),
            outcome.out());
        String report = Files.readString(xml);
        assertTrue(report.contains("<testsuites tests=\"5\" failures=\"0\""), report);
        assertTrue(report.contains("<testcase classname=\"press the wall\" name=\"steady wall force\"/>"), report);
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldFailWithExitOneAndReportTheMeasuredValue(@TempDir Path dir) throws Exception {
        Path script = dir.resolve("wrong.yaml");
        Files.writeString(script, """
            name: expects too much
            timeline:
              - {at: 0.2, moveTo: [0.05, 0, 0], over: 0.3}
            assertions:
              - {name: impossible force, from: 1.3, to: 1.5, force: {axis: magnitude, min: 6.0}}
              - {name: never overran much, maxOverruns: 1000000}
            """);
        Path xml = dir.resolve("results.xml");
        Outcome outcome = run("test", script.toString(), "--junit-xml", xml.toString());
        assertEquals(1, outcome.code(), outcome.out());
        assertTrue(outcome.out().contains("FAIL impossible force: measured force.magnitude from 1.300 s to 1.500 s"),
            outcome.out());
        assertTrue(outcome.out().contains("1 passed, 1 failed"), outcome.out());
        String report = Files.readString(xml);
        assertTrue(report.contains("failures=\"1\"") && report.contains("<failure message=\"measured force.magnitude"),
            report);
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldFailAnInstantAfterTheEndOfTheRun(@TempDir Path dir) throws Exception {
        Path script = dir.resolve("late.yaml");
        Files.writeString(script, """
            name: late
            duration: 0.5
            assertions:
              - {name: after the end, at: 2.0, safety: gated}
            """);
        Outcome outcome = run("test", script.toString());
        assertEquals(1, outcome.code(), outcome.out());
        assertTrue(outcome.out().contains("FAIL after the end: measured no tick at 2.000 s"), outcome.out());
    }

    @Test
    void shouldRejectAMalformedScriptNamingFileLineAndField(@TempDir Path dir) throws Exception {
        Path script = dir.resolve("bad.yaml");
        Files.writeString(script, """
            name: bad
            assertions:
              - {at: 1.0, safety: active}
              - {at: 1.0, force: {axis: w, max: 1}}
            """);
        Outcome outcome = run("test", script.toString());
        assertEquals(2, outcome.code());
        List<String> lines = outcome.err().strip().lines().toList();
        assertEquals(1, lines.size(), outcome.err());
        assertTrue(lines.get(0).contains(script + ":4:") && lines.get(0).contains("assertions[1].force.axis"),
            lines.get(0));
        assertEquals("", outcome.out(), "nothing ran");
    }

    @Test
    void shouldRejectAnAssertionWithoutAnInstantOrInterval(@TempDir Path dir) throws Exception {
        Path script = dir.resolve("bad.yaml");
        Files.writeString(script, "name: bad\nassertions:\n  - {name: when, safety: active}\n");
        Outcome outcome = run("test", script.toString());
        assertEquals(2, outcome.code());
        assertTrue(outcome.err().contains(script + ":3:") && outcome.err().contains("give either at, or from and to"),
            outcome.err());
    }

    @Test
    void shouldRejectADeviceThisBuildDoesNotHave(@TempDir Path dir) throws Exception {
        Path script = dir.resolve("serial.yaml");
        Files.writeString(script, "name: s\ndevice: serial:/dev/ttyUSB0\n");
        Outcome outcome = run("test", script.toString());
        assertEquals(2, outcome.code());
        assertTrue(outcome.err().contains("device: 'serial:/dev/ttyUSB0' is not available in this build"),
            outcome.err());
    }
}
