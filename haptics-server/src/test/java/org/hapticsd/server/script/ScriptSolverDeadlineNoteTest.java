package org.hapticsd.server.script;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code test} command's notes for a real-time script whose contact solver was stopped at the tick's deadline, and
 * for one whose physics steps were dropped as too slow for the tick.
 * With the deadline at the start of the tick (share 0) every step that needs a second sweep is cut after its first,
 * whatever the machine's speed, so the note is certain on the ten-cube stack (whose contacts often need more than
 * one sweep), and absent when the deadline is off.
 */
class ScriptSolverDeadlineNoteTest {
    private static final Pattern NOTE =
        Pattern.compile("contact solver stopped at the tick's deadline on (\\d+) ticks \\((\\d+\\.\\d{3}) s\\)");

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void shouldNoteTheTicksWhoseSolverTheDeadlineStoppedAndNothingWhenItIsOff(@TempDir Path dir) throws Exception {
        Path script = stackScript(dir);
        ScriptRunner cut = new ScriptRunner();
        cut.setSolverDeadlineShare(0.0);
        Matcher m = note(cut, script, NOTE);
        long ticks = Long.parseLong(m.group(1));
        // At least one tick, and no more than the run can have (0.5 s at 1 kHz and the ticks until the loop stops,
        // which the script's trace is sized for; in practice every tick here, 501–502).
        assertTrue(ticks > 0 && ticks <= TickTrace.capacity(0.5, 1000), m.group());
        assertEquals(String.format(Locale.ROOT, "%.3f", ticks / 1000.0), m.group(2), m.group());

        ScriptRunner off = new ScriptRunner();
        off.setSolverDeadlineShare(0.0);
        off.setSolverDeadline(false);
        assertNoNote(off, script, "contact solver");
    }

    private static final Pattern DROPPED = Pattern.compile("physics step dropped on (\\d+) ticks \\(the machine ran it"
        + " too slow for the tick\\): simulated time (\\d+\\.\\d{3}) s behind the loop's");

    /**
     * A world clock on which every stage of the step takes 20 µs, except for 2,000 readings in the middle of the run
     * (several ticks) when it takes 200 µs: the real-time script drops those ticks' steps and its notes say how many;
     * with the deadline off, it drops none and says nothing.
     */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void shouldNoteTheTicksWhoseStepWasDroppedAndNothingWhenTheDeadlineIsOff(@TempDir Path dir) throws Exception {
        Path script = stackScript(dir);
        ScriptRunner slow = new ScriptRunner();
        slow.setWorldClockForTest(new SlowStretchClock());
        Matcher m = note(slow, script, DROPPED);
        long ticks = Long.parseLong(m.group(1));
        // At most ten close drops (whatever whole steps come between them), then one whole step learnt afresh and 64
        // before the next drop: the stretch holds one run of drops.
        assertTrue(ticks >= 1 && ticks <= 10, m.group());
        assertEquals(String.format(Locale.ROOT, "%.3f", ticks / 1000.0), m.group(2), m.group());

        ScriptRunner off = new ScriptRunner();
        off.setWorldClockForTest(new SlowStretchClock());
        off.setSolverDeadline(false);
        assertNoNote(off, script, "physics step dropped");
    }

    /** The ten-cube stack, half a second in real time, with the tool parked away from it. */
    private static Path stackScript(Path dir) throws Exception {
        Files.copy(Path.of("..", "scenes", "cube-stack.yaml"), dir.resolve("stack.yaml"));
        Path script = dir.resolve("stack-script.yaml");
        Files.writeString(script, """
            name: stack at the deadline
            timing: realtime
            scene: stack.yaml
            duration: 0.5
            assertions:
              - {name: tool parked, at: 0.4, force: {axis: magnitude, max: 0.001}}
            """);
        return script;
    }

    /** Runs the script, which must pass, and returns its one note that matches {@code pattern}, matched. */
    private static Matcher note(ScriptRunner runner, Path script, Pattern pattern) throws Exception {
        List<AssertionResult> results = runner.run(script, runner.load(script));
        assertTrue(results.get(0).passed(), results.toString());
        return runner.lastNotes().stream().map(pattern::matcher).filter(Matcher::matches).findFirst()
            .orElseThrow(() -> new AssertionError("no note like " + pattern + " in " + runner.lastNotes()));
    }

    private static void assertNoNote(ScriptRunner runner, Path script, String start) throws Exception {
        List<AssertionResult> results = runner.run(script, runner.load(script));
        assertTrue(results.get(0).passed(), results.toString());
        assertTrue(runner.lastNotes().stream().noneMatch(n -> n.startsWith(start)), runner.lastNotes().toString());
    }

    /** 20 µs a reading, 200 µs for readings 3,000 to 4,999. */
    private static final class SlowStretchClock implements java.util.function.LongSupplier {
        private long nowNs;
        private long readings;

        @Override
        public long getAsLong() {
            readings++;
            nowNs += readings >= 3_000 && readings < 5_000 ? 200_000L : 20_000L;
            return nowNs;
        }
    }
}
