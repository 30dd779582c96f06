package org.hapticsd.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code run} and {@code bench loop} in real time for a couple of seconds each. They assert what the commands
 * print and report, never how fast the shared machine was.
 */
class RealTimeCommandsTest {

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldPrintAStatusLineEverySecondAndTheStatisticsAtTheEnd() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new PrintWriter(out), new PrintWriter(err), "run", "--duration", "2.5", "--http-port", "0",
            "--tcp-port", "0");
        assertEquals(0, code, err.toString());
        List<Double> statusAtS = new ArrayList<>();
        java.util.regex.Pattern statusLine = java.util.regex.Pattern.compile(
            "\\[\\s*(\\d+\\.\\d) s] rate .* Hz\\s+period error p99 .* us\\s+force .* N\\s+safety \\w+.*");
        for (String line : out.toString().split("\n")) {
            java.util.regex.Matcher m = statusLine.matcher(line);
            if (m.matches()) {
                statusAtS.add(Double.parseDouble(m.group(1)));
            }
        }
        // A status line at each whole second of the 2.5 s run: at 1 s and at 2 s when the status thread is on time.
        // When it wakes late, its line is printed late and a whole second it slept through gets none (never a burst
        // of two), so the count is 2 only on an idle machine. What holds on any machine is the pacing rule, read off
        // the lines' own times: at least one line, none before 1 s, in order, and no more than the run's two whole
        // seconds.
        assertTrue(!statusAtS.isEmpty() && statusAtS.size() <= 2, "1 or 2 status lines in 2.5 s:\n" + out);
        assertTrue(statusAtS.get(0) >= 1.0, "the first status line waits for 1 s:\n" + out);
        for (int i = 1; i < statusAtS.size(); i++) {
            assertTrue(statusAtS.get(i) >= statusAtS.get(i - 1), "status lines in order:\n" + out);
        }
        assertTrue(out.toString().matches("(?s).*stream: http://127\\.0\\.0\\.1:\\d+/ \\(WebSocket /ws\\), tcp "
            + "127\\.0\\.0\\.1:\\d+; command token [0-9a-f]{32}\n.*"), out.toString());
        assertTrue(out.toString().contains("loop statistics"), out.toString());
        assertTrue(out.toString().contains("period error"));
        // The loop thread's scheduling and CPU, whichever this machine allows (the policy itself: LoopRunnerTest; the
        // CPU: KeepAwakeTest).
        assertTrue(out.toString().matches("(?s).*\n  loop thread: (real-time FIFO priority 10|normal: .+); "
            + "(CPU \\d+, kept awake by an idle-priority thread|any CPU: not kept awake \\(.+\\))\n.*"),
            out.toString());
        // The collector's pauses, just before: none, or how many by which collector and how long (CollectorPauses).
        assertTrue(out.toString().matches("(?s).*\n  collector pauses: (none|\\d+ \\(.+\\), (each |)under 1 ms|"
            + "\\d+ \\(.+\\), longest \\d+ ms, \\d+ ms in all)\n  loop thread: .*"), out.toString());
        for (String stage : new String[] {"read device", "map into scene", "step physics", "render force", "safety",
            "write device", "publish snapshot"}) {
            assertTrue(out.toString().contains(stage), "per-stage line for " + stage);
        }
    }

    /**
     * A tester's run on a scene whose contact budget stays full: the status line's total was up to a second old at the
     * end, and the end report had none. The end report gives the run's total.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldEndWithTheContactsDroppedOverTheBudget(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        java.nio.file.Path scene = java.nio.file.Path.of(getClass().getResource("/scenes/tight-budget.yaml").toURI());
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new PrintWriter(out), new PrintWriter(err), "run", "--scene", scene.toString(),
            "--duration", "1", "--no-stream");
        assertEquals(0, code, err.toString());
        // The two spheres land within 50 ms and then drop one of their two points every tick.
        java.util.regex.Matcher end = java.util.regex.Pattern
            .compile("(?m)^contacts dropped \\(contact budget full\\): 0 pairs, (\\d+) points$")
            .matcher(out.toString());
        assertTrue(end.find(), out.toString());
        assertTrue(Long.parseLong(end.group(1)) > 100, out.toString());
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldPrintExactlyOneJsonObjectWithTheBenchmarkKeys() throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new PrintWriter(out), new PrintWriter(err),
            "bench", "loop", "--seconds", "2", "--warmup", "2", "--json");
        assertEquals(0, code, err.toString());
        String text = out.toString().strip();
        assertEquals(1, text.lines().count(), "one line of output: " + text);
        JsonNode json = new ObjectMapper().readTree(text);
        List<String> keys = new ArrayList<>();
        json.fieldNames().forEachRemaining(keys::add);
        assertEquals(List.of("loopThread", "loopCpu", "rateHz", "ticks", "periodErrorUs", "tickUs", "overruns",
            "allocatedBytesPerTick", "solverDeadlineTicks", "overrunCauses", "droppedSteps", "lateStarts",
            "skippedDeadlines", "skippedDeadlinesByCause", "collectorPauses"), keys);
        List<String> causeKeys = new ArrayList<>();
        json.get("overrunCauses").fieldNames().forEachRemaining(causeKeys::add);
        assertEquals(List.of("wokenLate", "offCpu", "onCpu", "longTicks", "behindOverrun"), causeKeys);
        // After an overrun the loop starts the next tick late or skips deadlines (TickSchedule): never more late
        // starts than overruns since the loop started, each of which the causes count once.
        long overrunsSinceStart = 0;
        for (String cause : causeKeys) {
            overrunsSinceStart += json.get("overrunCauses").get(cause).asLong();
        }
        assertTrue(json.get("lateStarts").asLong() <= overrunsSinceStart, text);
        // Only an overrun skips deadlines: those after each, under its cause, add up to all of them.
        List<String> skippedKeys = new ArrayList<>();
        json.get("skippedDeadlinesByCause").fieldNames().forEachRemaining(skippedKeys::add);
        assertEquals(causeKeys, skippedKeys);
        long skippedByCause = 0;
        for (String cause : skippedKeys) {
            skippedByCause += json.get("skippedDeadlinesByCause").get(cause).asLong();
        }
        assertEquals(json.get("skippedDeadlines").asLong(), skippedByCause, text);
        // The collector's pauses: count, longest and total, whole milliseconds; the longest is within the total, and
        // nothing is counted without a pause.
        JsonNode pauses = json.get("collectorPauses");
        List<String> pauseKeys = new ArrayList<>();
        pauses.fieldNames().forEachRemaining(pauseKeys::add);
        assertEquals(List.of("count", "longestMs", "totalMs"), pauseKeys);
        assertTrue(pauses.get("count").asLong() >= 0 && pauses.get("longestMs").asLong() >= 0, text);
        assertTrue(pauses.get("longestMs").asLong() <= pauses.get("totalMs").asLong(), text);
        assertTrue(pauses.get("count").asLong() > 0 || pauses.get("totalMs").asLong() == 0, text);
        // Every overrun since the loop started under one cause; the CPU clock is readable on Linux.
        assertEquals(0L, json.get("overrunCauses").get("longTicks").asLong(), text);
        // The default scene's steps are microseconds: none comes near the solver's deadline.
        assertEquals(0L, json.get("solverDeadlineTicks").asLong(), text);
        // Nor is any dropped: the rest of a step of microseconds is not worth saving (StepPace).
        assertEquals(0L, json.get("droppedSteps").asLong(), text);
        // By default the loop's CPU is kept awake (hybrid wait): where Linux lets it, on the last CPU it may use.
        assertTrue(json.get("loopCpu").asText().matches("CPU \\d+, kept awake by an idle-priority thread"),
            json.get("loopCpu").asText());
        List<String> periodKeys = new ArrayList<>();
        json.get("periodErrorUs").fieldNames().forEachRemaining(periodKeys::add);
        assertEquals(List.of("p50", "p99", "p999", "max"), periodKeys);
        assertTrue(json.get("tickUs").has("p50") && json.get("tickUs").has("p99"));
        assertTrue(json.get("ticks").asLong() > 0);
        assertTrue(json.get("rateHz").asDouble() > 0);
        // The smallest Java object is 16 bytes, so any allocation per tick shows as >= 16 bytes/tick; a one-off
        // JIT transient of a few hundred bytes over 2 s of ticks stays below 1.
        assertTrue(json.get("allocatedBytesPerTick").asDouble() < 1.0, text);
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldRunAtTheNormalPolicyWhenAskedAndRefuseAPriorityOutOfRange() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new PrintWriter(out), new PrintWriter(err), "run", "--duration", "0.5", "--no-stream",
            "--rt-priority", "0");
        assertEquals(0, code, err.toString());
        assertTrue(out.toString().contains("\n  loop thread: normal; CPU "), out.toString());
        StringWriter anyOut = new StringWriter();
        assertEquals(0, Main.run(new PrintWriter(anyOut), new PrintWriter(err), "run", "--duration", "0.5",
            "--no-stream", "--rt-priority", "0", "--no-keep-cpu-awake"), err.toString());
        assertTrue(anyOut.toString().contains("\n  loop thread: normal; any CPU\n"), anyOut.toString());
        String[][] commands = {{"run", "--duration", "0.5", "--no-stream"}, {"bench", "loop", "--seconds", "0.5"},
            {"bench", "stream", "--seconds", "0.5"}, {"test", "no-such-script.yaml"}};
        for (int i = 0; i < 8; i++) {
            String bad = i % 2 == 0 ? "99" : "-1";
            List<String> args = new ArrayList<>(List.of(commands[i / 2]));
            args.addAll(List.of("--rt-priority", bad));
            StringWriter badOut = new StringWriter();
            StringWriter badErr = new StringWriter();
            assertEquals(2, Main.run(new PrintWriter(badOut), new PrintWriter(badErr), args.toArray(new String[0])),
                args + ": " + badErr);
            assertTrue(badErr.toString().contains("--rt-priority must be 0 (the normal policy) or 1..98, got " + bad),
                badErr.toString());
            assertTrue(!badOut.toString().contains("loop statistics"), "refused before the loop ran: " + badOut);
        }
    }
}
