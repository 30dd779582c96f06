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
        List<String> status = new ArrayList<>();
        for (String line : out.toString().split("\n")) {
            if (line.matches("\\[\\s*\\d+\\.\\d s] rate .* Hz\\s+period error p99 .* us\\s+force .* N\\s+safety \\w+.*")) {
                status.add(line);
            }
        }
        assertEquals(2, status.size(), "one status line per whole second of a 2.5 s run:\n" + out);
        assertTrue(out.toString().matches("(?s).*stream: http://127\\.0\\.0\\.1:\\d+/ \\(WebSocket /ws\\), tcp "
            + "127\\.0\\.0\\.1:\\d+; command token [0-9a-f]{32}\n.*"), out.toString());
        assertTrue(out.toString().contains("loop statistics"), out.toString());
        assertTrue(out.toString().contains("period error"));
        for (String stage : new String[] {"read device", "map into scene", "step physics", "render force", "safety",
            "write device", "publish snapshot"}) {
            assertTrue(out.toString().contains(stage), "per-stage line for " + stage);
        }
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
        assertEquals(List.of("rateHz", "ticks", "periodErrorUs", "tickUs", "overruns", "allocatedBytesPerTick"), keys);
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
}
