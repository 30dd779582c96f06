package org.hapticsd.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.hapticsd.server.scene.CubeStack;
import org.hapticsd.server.scene.SpherePile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hapticsd scene pile|stack}: the generated scene on standard output or in a file, and the committed scene
 * files equal to what the generators write today, byte for byte, so that neither can drift from the other. After a
 * deliberate change to a generator, regenerate: {@code ./hapticsd scene pile --spheres 200 --out
 * scenes/pile-200.yaml} and {@code ./hapticsd scene stack --out scenes/cube-stack.yaml}.
 */
class SceneCommandTest {

    @Test
    void shouldWriteTheCommittedPileOfTwoHundredSpheresByteForByte() throws Exception {
        CliCall call = CliCall.run("scene", "pile", "--spheres", "200");

        assertEquals(Main.EXIT_OK, call.exitCode(), call.toString());
        assertEquals(Files.readString(Path.of("../scenes/pile-200.yaml")), call.out(),
            "scenes/pile-200.yaml is what `scene pile --spheres 200` writes");
        assertEquals("", call.err());
    }

    @Test
    void shouldWriteTheCommittedCubeStackByteForByte() throws Exception {
        CliCall call = CliCall.run("scene", "stack");

        assertEquals(Main.EXIT_OK, call.exitCode(), call.toString());
        assertEquals(Files.readString(Path.of("../scenes/cube-stack.yaml")), call.out(),
            "scenes/cube-stack.yaml is what `scene stack` writes");
        assertEquals("", call.err());
    }

    @Test
    void shouldWriteAnyPileOfTheScaleSeriesAsSpherePileDefinesIt() {
        CliCall call = CliCall.run("scene", "pile", "--spheres", "50");

        assertEquals(Main.EXIT_OK, call.exitCode(), call.toString());
        assertEquals(new SpherePile(50).yaml(), call.out());
    }

    @Test
    void shouldWriteThePileToTheOutFileAndSayWhatItWrote(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("pile-800.yaml");
        Files.writeString(file, "an older pile\n");

        CliCall call = CliCall.run("scene", "pile", "--spheres", "800", "--out", file.toString());

        assertEquals(Main.EXIT_OK, call.exitCode(), call.toString());
        assertEquals(new SpherePile(800).yaml(), Files.readString(file), "the file is replaced");
        assertEquals("wrote pile-800 (800 spheres) to " + file + "\n", call.out());
        assertEquals("", call.err());
    }

    /**
     * Found by a tester: up to 10,000 were written, and from about 1,700 the settled pile rose above the walls. The
     * largest pile that fits is written; one more is misuse, and nothing is written.
     */
    @Test
    void shouldRefuseMoreSpheresThanTheBoxTakes(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("pile.yaml");
        CliCall most = CliCall.run("scene", "pile", "--spheres", "1377", "--out", file.toString());
        assertEquals(Main.EXIT_OK, most.exitCode(), most.toString());
        assertTrue(Files.readString(file).contains("s1376"), "the last sphere is written");

        Path refused = dir.resolve("pile-1378.yaml");
        CliCall more = CliCall.run("scene", "pile", "--spheres", "1378", "--out", refused.toString());
        assertEquals(Main.EXIT_USAGE, more.exitCode(), more.toString());
        assertEquals("hapticsd: --spheres: spheres must be 1..1377 (17 layers of 81: more would start at the parked "
            + "tool and overflow the 1.5 m walls once settled), got 1378\n", more.err());
        assertFalse(Files.exists(refused));
    }

    /** {@code --spheres 1} said "wrote pile-1 (1 spheres)", and its scene's first comment "# 1 spheres" (a tester). */
    @Test
    void shouldSayOneSphereInTheSingular(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("pile-1.yaml");

        CliCall call = CliCall.run("scene", "pile", "--spheres", "1", "--out", file.toString());

        assertEquals(Main.EXIT_OK, call.exitCode(), call.toString());
        assertEquals("wrote pile-1 (1 sphere) to " + file + "\n", call.out());
        assertTrue(Files.readString(file).startsWith("# 1 sphere (r = 0.05 m,"), Files.readString(file));
    }

    @Test
    void shouldWriteTheStackToTheOutFileAndSayWhatItWrote(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("stack.yaml");

        CliCall call = CliCall.run("scene", "stack", "--out", file.toString());

        assertEquals(Main.EXIT_OK, call.exitCode(), call.toString());
        assertEquals(new CubeStack(CubeStack.BENCHMARK_CUBES).yaml(), Files.readString(file));
        assertEquals("wrote cube-stack-10 (10 cubes) to " + file + "\n", call.out());
    }
}
