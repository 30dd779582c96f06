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
}
