package org.hapticsd.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code simulate} ends with the contacts its budget dropped, as {@code run} does: a tester's pile with a small budget
 * dropped points every tick and only the CSV's events column said so.
 */
class SimulateDroppedContactsTest {

    @Test
    void shouldEndWithTheContactsDroppedOverTheBudget(@TempDir Path dir) throws Exception {
        Path scene = Path.of(getClass().getResource("/scenes/tight-budget.yaml").toURI());
        CliCall call = CliCall.run("simulate", "--scene", scene.toString(), "--duration", "1", "--out",
            dir.resolve("t.csv").toString());
        assertEquals(0, call.exitCode(), call.toString());
        // Both spheres land on the same tick (a 1 cm fall, 45 ms) and then drop one of their two points every tick.
        Matcher end = Pattern.compile("(?m)^contacts dropped \\(contact budget full\\): 0 pairs, (\\d+) points "
            + "\\(docs/scenes.md, contact budget\\)$").matcher(call.out());
        assertTrue(end.find(), call.out());
        long points = Long.parseLong(end.group(1));
        assertTrue(points > 900 && points < 1000, "one a tick after landing: " + points);

        CliCall quiet = CliCall.run("simulate", "--duration", "0.5", "--out", dir.resolve("w.csv").toString());
        assertEquals(0, quiet.exitCode(), quiet.toString());
        assertTrue(!quiet.out().contains("contacts dropped"), "nothing dropped, nothing said: " + quiet.out());
    }
}
