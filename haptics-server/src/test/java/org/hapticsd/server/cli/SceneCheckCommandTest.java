package org.hapticsd.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hapticsd scene check}: scene files judged as {@code run} would judge them, without running: the shipped
 * scenes build quietly; a contact spring the default stylus cannot render passively is a warning (exit 0, or 1 with
 * --strict); a file run would refuse fails with run's line (exit 2), and the files after it are still checked.
 */
class SceneCheckCommandTest {
    @TempDir
    Path dir;

    @Test
    void shouldPassShippedScenesWarnOfAStiffSpringAndFailWhatRunWouldRefuse() throws Exception {
        CliCall shipped = CliCall.run("scene", "check", "../scenes/wall.yaml", "../scenes/coupling.yaml",
            "../scenes/proxy.yaml");
        assertEquals(Main.EXIT_OK, shipped.exitCode(), shipped.toString());
        assertEquals(List.of(
                "OK   ../scenes/wall.yaml: scene 'wall', 2 bodies, tool rendered by contact, 1000 Hz",
                "OK   ../scenes/coupling.yaml: scene 'coupling', 2 bodies, tool rendered by coupling, 1000 Hz",
                "OK   ../scenes/proxy.yaml: scene 'proxy', 1 body, tool rendered by proxy, 1000 Hz",
                "3 scenes: 3 built (0 with warnings), 0 failed"),
            shipped.out().lines().toList(), shipped.toString());

        Path stiff = Files.writeString(dir.resolve("stiff.yaml"), Files.readString(Path.of("../scenes/wall.yaml"))
            .replace("stiffnessNpm: 1000.0", "stiffnessNpm: 5000.0"));
        Path bad = Files.writeString(dir.resolve("bad.yaml"),
            "name: bad\nbodies: [ {name: x, shape: {type: cube}} ]\n");
        CliCall mixed = CliCall.run("scene", "check", bad.toString(), stiff.toString());
        assertEquals(Main.EXIT_USAGE, mixed.exitCode(), mixed.toString());
        List<String> lines = mixed.out().lines().toList();
        assertEquals("FAIL " + bad + ":2:35: bodies[0].shape: unknown type 'cube' (expected sphere, plane, box, "
            + "capsule, hull or mesh)", lines.get(0), mixed.toString());
        assertEquals("WARN " + stiff + ": scene 'wall', 2 bodies, tool rendered by contact, 1000 Hz, 2 warnings",
            lines.get(1), mixed.toString());
        assertTrue(lines.get(2).startsWith("  scene 'wall': the tool's penalty contacts are not passive on device "
            + "'simulated stylus'"), mixed.toString());
        assertTrue(lines.get(3).contains("above device 'simulated stylus''s nominal stable stiffness 3000 N/m"),
            mixed.toString());
        assertEquals("2 scenes: 1 built (1 with warnings), 1 failed", lines.get(4), mixed.toString());

        CliCall warned = CliCall.run("scene", "check", stiff.toString());
        assertEquals(Main.EXIT_OK, warned.exitCode(), warned.toString());
        CliCall strict = CliCall.run("scene", "check", "--strict", stiff.toString());
        assertEquals(Main.EXIT_FAILURE, strict.exitCode(), strict.toString());

        // The rate run would use: the coupling's proxy is unstable at 250 Hz, as run --rate 250 says.
        CliCall slow = CliCall.run("scene", "check", "--rate", "250", "../scenes/coupling.yaml");
        assertEquals(Main.EXIT_USAGE, slow.exitCode(), slow.toString());
        assertTrue(slow.out().startsWith("FAIL ../scenes/coupling.yaml:") && slow.out().contains("(with --rate 250)"),
            slow.toString());
    }

    /** Found by a tester: a bad --rate was a FAIL line per file on standard output, blamed on the scenes. */
    @Test
    void shouldRefuseABadRateOnceAsMisuse() {
        CliCall call = CliCall.run("scene", "check", "--rate", "100", "../scenes/wall.yaml", "../scenes/proxy.yaml");
        assertEquals(Main.EXIT_USAGE, call.exitCode(), call.toString());
        assertEquals("", call.out(), call.toString());
        assertEquals(List.of("hapticsd: --rate must be 250..4000 Hz, got 100"), call.err().lines().toList(),
            call.toString());
    }
}
