package org.hapticsd.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.CachedNanoClock;
import org.hapticsd.device.sim.SimulatedDevice;
import org.hapticsd.protocol.stream.Command;
import org.hapticsd.server.LoopAssembly;
import org.hapticsd.server.ServerCommands;
import org.hapticsd.server.net.LoopStatsBoard;
import org.hapticsd.server.net.SceneBoard;
import org.hapticsd.server.scene.BuiltScene;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A scene load that fails for a reason nobody wrote a message for still ends in one line and an exit code. */
class SceneLoadFailureTest {
    @TempDir
    Path dir;

    /**
     * A 100,000-vertex mesh in a JVM with a 16 MB heap: parsing it runs out of memory. The user gets one line naming
     * the scene and the heap, exit code 1 (the scene is valid; the machine is too small for it), no stack trace.
     */
    @Test
    void shouldReportRunningOutOfMemoryWhileLoadingAsOneLineAndExitCodeOne() throws Exception {
        Path scene = bigMeshScene();
        List<String> lines = runWithSmallHeap("simulate", "--scene", scene.toString(), "--duration", "0.01", "--out",
            dir.resolve("out.csv").toString());
        assertEquals(1, lines.size(), "one line: " + lines);
        assertTrue(lines.get(0).startsWith("hapticsd: " + scene + ": not enough memory to build the scene (max heap "),
            lines.get(0));
        assertFalse(Files.exists(dir.resolve("out.csv")), "nothing was simulated");
    }

    /** The same scene in a test script: `test` printed a raw OutOfMemoryError (a tester). */
    @Test
    void shouldReportRunningOutOfMemoryInATestScriptAsOneLineAndExitCodeOne() throws Exception {
        Path scene = bigMeshScene();
        Path script = dir.resolve("s.yaml");
        Files.writeString(script, "scene: " + scene.getFileName() + "\n"
            + "assertions:\n  - {name: gated, at: 0.005, safety: gated}\n");
        List<String> lines = runWithSmallHeap("test", script.toString());
        assertEquals(1, lines.size(), "one line: " + lines);
        assertTrue(lines.get(0).startsWith("hapticsd: " + script + ": scene: not enough memory to build the scene"),
            lines.get(0));
    }

    /**
     * RESET_SCENE after the scene file on disk went bad: the ACK's reason was "SCENE: cannot build the scene:
     * org.hapticsd.server.cli.UsageException: mywall2.yaml:3:1: YAML syntax: ..." (a tester). It is the refusal alone.
     */
    @Test
    void shouldQuoteTheRefusalWithoutAJavaClassWhenAResetFindsTheSceneFileBroken() throws Exception {
        Path file = dir.resolve("mywall2.yaml");
        Files.writeString(file, "name: mywall2\nrateHz: 1000\n");
        LoopOptions options = new LoopOptions();
        options.device = LoopOptions.SIM_DEVICE;
        options.scene = file;
        BuiltScene scene = options.loadScene();
        SimulatedDevice stylus = scene.newSimulatedDevice();
        stylus.open();
        LoopAssembly assembly = new LoopAssembly(scene, stylus, 1000, new CachedNanoClock());
        LoopStatsBoard stats = new LoopStatsBoard();
        SceneBoard board = new SceneBoard(ServerCommands.firstEpoch(scene, assembly.snapshots(), 1000, stats));
        try (ServerCommands commands = new ServerCommands(assembly.commands(), board, stats, 1000, scene,
                options.sceneFactory(), null, true)) {
            Files.writeString(file, "name: mywall2\nrateHz: 1000\n: [\n");

            String reason = commands.execute(new Command.ResetScene()).toCompletableFuture().get(10, TimeUnit.SECONDS);

            assertEquals("SCENE: " + file + ":3:1: YAML syntax: expected <block end>, but found ':' "
                + "(while parsing a block mapping)", reason);
        }
    }

    /** Runs hapticsd in a JVM with a 16 MB heap; asserts exit code 1 and returns its standard error's lines. */
    private List<String> runWithSmallHeap(String... args) throws IOException, InterruptedException {
        Path err = dir.resolve("err.txt");
        List<String> command = new java.util.ArrayList<>(List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx16m",
            "-cp", System.getProperty("java.class.path"), Main.class.getName()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .redirectError(err.toFile()).start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the JVM ended");
        List<String> lines = Files.readAllLines(err);
        assertEquals(1, p.exitValue(), String.join("\n", lines));
        return lines;
    }

    private Path bigMeshScene() throws IOException {
        Path mesh = dir.resolve("big.obj");
        try (Writer w = Files.newBufferedWriter(mesh, StandardCharsets.US_ASCII)) {
            int n = 100_000;
            for (int i = 0; i < n; i++) {
                w.write("v " + i % 1000 + " 0 " + i / 1000 + "\n");
            }
            for (int i = 1; i + 1001 <= n; i++) {
                w.write("f " + i + " " + (i + 1) + " " + (i + 1000) + "\n");
            }
        }
        Path scene = dir.resolve("big.yaml");
        Files.writeString(scene, "name: big\nbodies:\n  - name: m\n    shape: {type: mesh, file: big.obj}\n");
        return scene;
    }

    @Test
    void shouldWriteAnUnexpectedErrorAndItsRootCauseOnOneLine() throws IOException {
        IllegalStateException error = new IllegalStateException("outer\nsecond line",
            new ArithmeticException("root"));
        String line = Main.oneLine(error);
        assertFalse(line.contains("\n"), line);
        assertTrue(line.startsWith("java.lang.IllegalStateException: outer second line (at org.hapticsd.server.cli."
            + "SceneLoadFailureTest.shouldWriteAnUnexpectedErrorAndItsRootCauseOnOneLine:"), line);
        assertTrue(line.contains("; caused by java.lang.ArithmeticException: root (at "), line);
    }

    /** A tester at -Xmx10m got "failed: java.lang.OutOfMemoryError: Java heap space (at org.HdrHistogram...)". */
    @Test
    void shouldSayRunningOutOfHeapAnywhereIsNotEnoughMemory() {
        String expected = "not enough memory (max heap " + Runtime.getRuntime().maxMemory() / (1024 * 1024)
            + " MB): give the JVM more heap (HAPTICSD_JAVA_OPTS, e.g. -Xmx2g)";
        assertEquals(expected, Main.failure(new OutOfMemoryError("Java heap space")));
        assertEquals(expected, Main.failure(new IllegalStateException("wrapped", new OutOfMemoryError("Java heap"))));
        assertTrue(Main.failure(new ArithmeticException("x")).startsWith("failed: java.lang.ArithmeticException: x"));
    }
}
