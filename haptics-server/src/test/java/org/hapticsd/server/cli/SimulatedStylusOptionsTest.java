package org.hapticsd.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The simulated stylus's parameters from the command line override the scene's. */
class SimulatedStylusOptionsTest {

    @Test
    void shouldHoldTheHandAtTheGivenTargetInsteadOfThePath(@TempDir Path dir) throws Exception {
        String[] last = simulate(dir, "--hand-target", "0.01,0.0,-0.005");
        // Free space (the wall's surface is 5 mm beyond x = 0.025): the stylus settles on the target. After 2 s at
        // damping ratio ~0.8 the residual is far below 1 µm.
        assertEquals(0.01, Double.parseDouble(last[1]), 1e-6);
        assertEquals(0.0, Double.parseDouble(last[2]), 1e-6);
        assertEquals(-0.005, Double.parseDouble(last[3]), 1e-6);
        assertEquals(0.0, Double.parseDouble(last[7]), 0.0, "no contact, no force");
    }

    @Test
    void shouldUseTheGivenHandStiffness(@TempDir Path dir) throws Exception {
        // The scene's path holds the hand at x = 0.05 (2 cm into the wall) from 0.8 s to 2.6 s.
        String[] last = simulate(dir, "--hand-stiffness", "400");
        // 400·(0.05 − x) = 1000·(x + 0.005 − 0.03)  ⇒  x = 0.045/1.4; force 7.142857 N (under the 8 N ceiling).
        double expectedX = 0.045 / 1.4;
        assertEquals(expectedX, Double.parseDouble(last[4]), 1e-6);
        assertEquals(-1000.0 * (expectedX - 0.025), Double.parseDouble(last[7]), 1e-3);
        assertEquals("ACTIVE", last[10]);
    }

    @Test
    void shouldNeverEnableForceWhenTheStylusStartsOutPressingIntoTheWall(@TempDir Path dir) throws Exception {
        // The hand pulls into the wall from the first tick: within 25 ms the stylus is in contact, before the
        // start-up gate has seen its 50 quiet ticks. The gate must keep the output at zero however long it lasts.
        String[] last = simulate(dir, "--hand-target", "0.05,0,0");
        assertEquals("GATED", last[10]);
        assertEquals(0.0, Double.parseDouble(last[7]), 0.0);
        assertTrue(Double.parseDouble(last[4]) > 0.025, "the tool is inside the wall");
    }

    @Test
    void shouldRejectAnInvalidStylusParameterNamingTheFlag() {
        StringWriter err = new StringWriter();
        int code = Main.run(new PrintWriter(new StringWriter()), new PrintWriter(err),
            "simulate", "--sim-mass", "-1", "--duration", "0.01", "--out", "unused.csv");
        assertEquals(2, code);
        List<String> lines = err.toString().strip().lines().toList();
        assertEquals(1, lines.size(), err.toString());
        assertTrue(lines.get(0).contains("--sim-mass") && lines.get(0).contains("must be > 0"), lines.get(0));
        assertTrue(Files.notExists(Path.of("unused.csv")));
    }

    @Test
    void shouldNameTheFlagWhenTheSceneIsRefusedWithIt() {
        StringWriter err = new StringWriter();
        // 0.1 g on the default hand spring is valid on its own, but the stylus's substep cannot integrate it.
        int code = Main.run(new PrintWriter(new StringWriter()), new PrintWriter(err),
            "simulate", "--sim-mass", "0.0001", "--duration", "0.01", "--out", "unused.csv");
        assertEquals(2, code);
        List<String> lines = err.toString().strip().lines().toList();
        assertEquals(1, lines.size(), err.toString());
        assertTrue(lines.get(0).contains("is too long for massKg 1.0E-4") && lines.get(0).endsWith("(with --sim-mass 1.0E-4)"),
            lines.get(0));
        assertTrue(Files.notExists(Path.of("unused.csv")));
    }

    @Test
    void shouldRejectAHandTargetWithoutThreeCoordinates() {
        StringWriter err = new StringWriter();
        int code = Main.run(new PrintWriter(new StringWriter()), new PrintWriter(err),
            "run", "--hand-target", "0.1,0.2", "--duration", "0.5");
        assertEquals(2, code);
        assertTrue(err.toString().contains("--hand-target"), err.toString());
        assertEquals(1, err.toString().strip().lines().count(), err.toString());
    }

    private static String[] simulate(Path dir, String... extra) throws Exception {
        Path csv = dir.resolve("out.csv");
        List<String> args = new java.util.ArrayList<>(List.of("simulate", "--duration", "2.5", "--out", csv.toString()));
        args.addAll(List.of(extra));
        StringWriter err = new StringWriter();
        int code = Main.run(new PrintWriter(new StringWriter()), new PrintWriter(err), args.toArray(String[]::new));
        assertEquals(0, code, err.toString());
        List<String> lines = Files.readAllLines(csv);
        return lines.get(lines.size() - 1).split(",");
    }
}
