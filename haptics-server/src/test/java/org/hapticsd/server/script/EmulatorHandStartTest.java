package org.hapticsd.server.script;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * In real time the in-process emulator's hand follows the script's timeline from script time 0, the loop's first
 * tick. It was started once the loop runner's start had returned, which waits for the keep-awake companion: through
 * {@code ./hapticsd test} 17-28 ms after the first tick on an idle machine (the stylus 1-2 mm behind the lockstep
 * run's at 0.55 s), about 1 s with both cores busy, when press-wall.yaml failed up to six assertions with no host stall
 * in their windows; here, a tick late. The check is on the tick during which the path was started, whatever the
 * machine's speed: the first.
 */
class EmulatorHandStartTest {

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldStartTheEmulatorsHandPathDuringTheFirstTick(@TempDir Path dir) throws Exception {
        Files.createDirectories(dir.resolve("scenes"));
        Files.copy(Path.of("..", "tests", "dil", "scenes", "wall-ci.yaml"), dir.resolve("scenes").resolve("wall-ci.yaml"));
        Path script = dir.resolve("hand.yaml");
        Files.writeString(script, """
            name: the hand starts with the first tick
            device: emulator
            scene: scenes/wall-ci.yaml
            emulator: {watchdogMs: 25, transport: tcp}
            timeline:
              - {at: 0.0, moveTo: [0.01, 0.0, 0.0], over: 0.3}
            duration: 0.4
            assertions:
              - {name: moved along x, at: 0.35, toolPosition: {axis: x, min: 0.001}}
            """);
        ScriptRunner runner = new ScriptRunner();
        List<AssertionResult> results = runner.run(script, runner.load(script));

        assertEquals(1, results.size(), results.toString());
        assertTrue(results.get(0).passed() || results.get(0).error() != null, results.toString());
        assertEquals(0, runner.lastHandStartTick(), "the tick during which the emulator's hand path started");
    }
}
