package org.hapticsd.server.script;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.hapticsd.device.emulator.EmulatorControl;
import org.hapticsd.device.emulator.GapLog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The host-timing views of a real-time script's window, on a trace built by hand. */
class HostTimingCheckTest {
    private static final long MS = 1_000_000L;
    private static final EmulatorControl.HostTiming QUIET_EMULATOR =
        new EmulatorControl.HostTiming(new GapLog(2 * MS, 16), new GapLog(2 * MS, 16));

    /** 200 ticks 1 ms apart, a new state on every one except ticks [firstStale, firstStale + stale). */
    private static TickTrace traceWithStaleRun(int firstStale, int stale) {
        TickTrace trace = new TickTrace(200);
        for (int i = 0; i < 200; i++) {
            trace.timeNs[i] = i * MS;
            trace.fresh[i] = i < firstStale || i >= firstStale + stale;
        }
        trace.count = 200;
        return trace;
    }

    /**
     * Found by a tester on a loaded machine: the loop watchdog tripped after 25 ticks without a state while the loop,
     * the FORCE frames and the emulator's cycles each stayed under the 20 ms budget, and the script failed as if the
     * device had. The gap between states is the host's own view too.
     */
    @Test
    void shouldNameAGapBetweenStatesFromTheInProcessEmulatorAsAHostStall() {
        HostTimingCheck check = new HostTimingCheck(traceWithStaleRun(40, 27), QUIET_EMULATOR, 0L, new double[0]);
        HostTimingCheck.Window window = check.window(0.0, 0.2);
        assertEquals(28 * MS, window.stateGapNs(), "from the state of tick 39 to that of tick 67");
        assertEquals("host stalled 28.0 ms at 0.039 s (no new state from the emulator reached the loop; budget 20 ms)",
            window.worst(20));
        assertTrue(window.describe().endsWith(", state gap 28.0 ms at 0.039 s"), window.describe());
        assertNull(check.window(0.0, 0.2).worst(30), "within a 30 ms budget");
        assertNull(check.window(0.1, 0.2).worst(20), "outside the window");
    }

    /** Found in CI: a stall of a few µs over a 20 ms budget read "host stalled 20.0 ms ... budget 20 ms". */
    @Test
    void shouldPrintAStallWithTheDecimalsThatShowItOverTheBudget() {
        assertEquals("28.0", HostTimingCheck.Window.beyond(28.0, 20));
        assertEquals("20.04", HostTimingCheck.Window.beyond(20.04, 20));
        assertEquals("20.001", HostTimingCheck.Window.beyond(20.0012, 20));
        assertEquals("0.13", HostTimingCheck.Window.beyond(0.1254, 0.12));
    }

    @Test
    void shouldLeaveOutStateGapsOverlappingWhatTheScriptDidToTheDevice() {
        TickTrace trace = traceWithStaleRun(40, 27);
        assertNull(new HostTimingCheck(trace, QUIET_EMULATOR, 0L, new double[] {0.05, 0.06}).window(0.0, 0.2)
            .worst(20), "an unplug or garbage span across the gap: the script's");
        assertEquals("host stalled 28.0 ms at 0.039 s (no new state from the emulator reached the loop; budget 20 ms)",
            new HostTimingCheck(trace, QUIET_EMULATOR, 0L, new double[] {0.1, 0.15}).window(0.0, 0.2).worst(20),
            "a span after it leaves it the host's");
        trace.injectedStall[50] = true;
        assertNull(new HostTimingCheck(trace, QUIET_EMULATOR, 0L, new double[0]).window(0.0, 0.2).worst(20),
            "a script stall inside it");
    }

    @Test
    void shouldJudgeNoStateGapWithoutAnInProcessEmulator() {
        HostTimingCheck.Window window = new HostTimingCheck(traceWithStaleRun(40, 27), null, 0L, new double[0])
            .window(0.0, 0.2);
        assertEquals(-1, window.stateGapNs(), "a device on a real link keeps its own time");
        assertNull(window.worst(20));
    }

    @Test
    void shouldSpanUnplugsWithTheirRecoveryAndGarbageBursts(@TempDir Path dir) throws Exception {
        Path script = Files.writeString(dir.resolve("faults.yaml"),
            "device: emulator\ntimeline:\n  - {at: 0.5, unplug: 0.2}\n  - {at: 2.0, garbage: 100}\n");
        double[] spans = HostTimingCheck.scriptFaults(new ScriptRunner().load(script).timeline());
        assertEquals(4, spans.length);
        assertEquals(0.5, spans[0]);
        assertEquals(0.5 + 0.2 + HostTimingCheck.AFTER_UNPLUG_S, spans[1], 1e-12);
        assertEquals(2.0, spans[2]);
        assertEquals(2.0 + HostTimingCheck.AFTER_GARBAGE_S, spans[3], 1e-12);
    }
}
