package org.hapticsd.server.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code simulate --lanes 2}: each physics step of a large scene split over two threads, the same CSV on every run,
 * a line that says how many steps split and one with the threads' round trip, and misuse refused.
 */
class SimulateLanesTest {

    @Test
    void shouldSplitThePileTheSameWayEveryRun(@TempDir Path dir) throws Exception {
        Path scene = dir.resolve("pile-100.yaml");
        CliCall pile = CliCall.run("scene", "pile", "--spheres", "100", "--out", scene.toString());
        assertEquals(0, pile.exitCode(), pile.toString());

        CliCall first = simulate(scene, dir.resolve("a.csv"), "2");
        CliCall second = simulate(scene, dir.resolve("b.csv"), "2");
        CliCall oneLane = simulate(scene, dir.resolve("c.csv"), "1");
        assertTrue(first.out().contains("physics: 400 of 400 steps split over two lanes"), first.out());
        // What the split's speed follows on a shared host, measured after the run.
        assertTrue(first.out().matches("(?s).*physics: spin round trip between two threads after the run \\d+ ns.*"),
            first.out());
        assertFalse(oneLane.out().contains("split over two lanes"), oneLane.out());
        assertFalse(oneLane.out().contains("round trip"), oneLane.out());
        byte[] a = Files.readAllBytes(dir.resolve("a.csv"));
        assertArrayEquals(a, Files.readAllBytes(dir.resolve("b.csv")), "two runs on two lanes, byte for byte");
        // Not one lane's numbers (the rows are solved in another order), but the same columns.
        byte[] c = Files.readAllBytes(dir.resolve("c.csv"));
        assertFalse(Arrays.equals(a, c), "two lanes wrote exactly one lane's CSV");
        assertEquals(Files.readAllLines(dir.resolve("c.csv")).get(0), Files.readAllLines(dir.resolve("a.csv")).get(0));
    }

    @Test
    void shouldSayWhenTheSceneIsTooSmallToSplit(@TempDir Path dir) {
        CliCall call = CliCall.run("simulate", "--duration", "0.1", "--out", dir.resolve("w.csv").toString(),
            "--lanes", "2");
        assertEquals(0, call.exitCode(), call.toString());
        assertTrue(call.out().contains("physics: 0 of 100 steps split over two lanes (a step runs on one with fewer "
            + "than 64 dynamic bodies"), call.out());
    }

    @Test
    void shouldRefuseOtherLaneCounts(@TempDir Path dir) {
        for (String lanes : new String[] {"0", "3"}) {
            CliCall call = CliCall.run("simulate", "--duration", "0.1", "--out", dir.resolve("w.csv").toString(),
                "--lanes", lanes);
            assertEquals(2, call.exitCode(), call.toString());
            assertTrue(call.err().contains("--lanes " + lanes + ": must be 1 or 2"), call.err());
            assertFalse(Files.exists(dir.resolve("w.csv")), "nothing written on misuse");
        }
    }

    private static CliCall simulate(Path scene, Path csv, String lanes) {
        CliCall call = CliCall.run("simulate", "--scene", scene.toString(), "--duration", "0.4", "--out",
            csv.toString(), "--lanes", lanes);
        assertEquals(0, call.exitCode(), call.toString());
        return call;
    }
}
