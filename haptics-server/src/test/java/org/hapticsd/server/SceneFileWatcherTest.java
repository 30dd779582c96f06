package org.hapticsd.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.hapticsd.protocol.stream.Command;
import org.hapticsd.server.net.StreamServerConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code run --reload} on the real loop and stream service: each save of the scene file swaps the rebuilt scene in
 * (the loop's world then has the file's new contact spring, the stream a new revision); a save that does not build
 * leaves the running scene and says why; an editor's save by renaming a new file over the old one is seen too; and
 * once a client has loaded another scene, a save of the first leaves it alone.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SceneFileWatcherTest {
    @TempDir
    Path dir;

    @Test
    void shouldReloadTheSceneOnEachSaveAndKeepTheRunningOneWhenTheFileDoesNotBuild() throws Exception {
        Path file = dir.resolve("wall.yaml");
        String wall = Files.readString(Path.of("../scenes/wall.yaml"));
        Files.writeString(file, wall);
        Files.writeString(dir.resolve("other.yaml"), wall.replace("name: wall", "name: other"));
        try (LiveServer live = LiveServer.start(file, StreamServerConfig.defaults().withPorts(0, -1), dir);
             SceneFileWatcher watcher = SceneFileWatcher.start(file, live.service().commands()::reloadFirstScene)) {
            ServerCommands commands = live.service().commands();
            assertEquals(1000.0, stiffnessNpm(live), 0.0);

            Files.writeString(file, wall.replace("stiffnessNpm: 1000.0", "stiffnessNpm: 600.0"));
            // Awaited by outcome, not by count: a save whose write the machine split would be two attempts.
            await(() -> watcher.attempts() >= 1 && watcher.lastOutcome() == null && stiffnessNpm(live) == 600.0,
                "the loop running the saved file");
            assertEquals(2, commands.parameters().sceneRevision());

            Files.writeString(file, wall.replace("stiffnessNpm: 1000.0", "stiffnessNpm: soft"));
            await(() -> watcher.lastOutcome() != null, "the broken save acted on");
            assertTrue(watcher.lastOutcome().startsWith("SCENE: ") && watcher.lastOutcome().contains("wall.yaml"),
                watcher.lastOutcome());
            assertEquals(600.0, stiffnessNpm(live), 0.0, "the running scene kept");
            assertEquals(2, commands.parameters().sceneRevision());
            // Said to the page as a warning of the running scene, until a save builds again.
            assertEquals(List.of("the scene file was saved but does not build, so the scene before it still runs: "
                + watcher.lastOutcome()), commands.warnings().warnings());

            // An editor that writes a new file and renames it over the scene file.
            Path saved = Files.writeString(dir.resolve(".wall.yaml.swp"), wall.replace("stiffnessNpm: 1000.0",
                "stiffnessNpm: 700.0"));
            Files.move(saved, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            await(() -> watcher.lastOutcome() == null && stiffnessNpm(live) == 700.0, "the renamed save running");
            assertEquals(List.of(), commands.warnings().warnings(), "the failure forgotten with the scene it was of");
            assertEquals(2, watcher.reloads());

            String loaded = commands.execute(new Command.LoadScene("other")).toCompletableFuture().get(30,
                TimeUnit.SECONDS);
            assertNull(loaded);
            Files.writeString(file, wall.replace("stiffnessNpm: 1000.0", "stiffnessNpm: 500.0"));
            await(() -> watcher.lastOutcome() != null, "the save after LOAD_SCENE acted on");
            assertTrue(watcher.lastOutcome().endsWith(ServerCommands.NOT_THE_FIRST_SCENE), watcher.lastOutcome());
            assertEquals(1000.0, stiffnessNpm(live), 0.0, "the loaded scene runs on, with its own file's spring");
        }
    }

    private static double stiffnessNpm(LiveServer live) {
        return live.assembly().loop().world().contactSettings().penalty().stiffnessNpm();
    }

    /** Waits for what the watcher's own thread does; the timeout only turns a hang into a failure. */
    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                fail("waited 20 s for " + what);
            }
            Thread.sleep(10);
        }
    }
}
