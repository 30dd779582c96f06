package org.hapticsd.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.CachedNanoClock;
import org.hapticsd.device.sim.SimulatedDevice;
import org.hapticsd.physics.PhysicsWorld;
import org.hapticsd.protocol.stream.Command;
import org.hapticsd.protocol.stream.StreamCodec;
import org.hapticsd.protocol.stream.SceneMessage;
import org.hapticsd.server.loop.LoopEvents;
import org.hapticsd.server.loop.LoopSnapshot;
import org.hapticsd.server.net.LoopStatsBoard;
import org.hapticsd.server.net.ParameterTable;
import org.hapticsd.server.net.SceneBoard;
import org.hapticsd.server.net.SceneCatalog;
import org.hapticsd.server.net.SceneWarnings;
import org.hapticsd.server.net.SettableParameter;
import org.hapticsd.server.net.StreamEpoch;
import org.hapticsd.server.render.BodyViscosity;
import org.hapticsd.server.render.ContactVibration;
import org.hapticsd.server.render.GratingTexture;
import org.hapticsd.server.render.HapticScene;
import org.hapticsd.server.render.StickSlip;
import org.hapticsd.server.render.SurfaceMagnet;
import org.hapticsd.server.safety.SafetyState;
import org.hapticsd.server.scene.BuiltScene;
import org.hapticsd.server.scene.SceneBuilder;
import org.hapticsd.server.scene.SceneLoader;
import org.joml.Vector3d;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The stream's commands carried out on a real loop driven tick by tick on simulated time: each is checked against
 * the local limits, and what is accepted changes the loop at its next tick and nothing else.
 */
class ServerCommandsTest {
    private static final long PERIOD_NS = 1_000_000L;
    /** A ball above a floor, the stylus's hand held at the origin; penalty spring 800 N/m, damper 0.5 N·s/m. */
    private static final String DROP = """
        name: drop
        rateHz: 1000
        device:
          hand:
            target: [0.0, 0.0, 0.0]
        tool: {name: tool, radiusM: 0.005}
        contact: {stiffnessNpm: 800.0, dampingNspm: 0.5}
        bodies:
          - name: floor
            shape: {type: plane, normal: [0.0, 0.0, 1.0]}
            position: [0.0, 0.0, -0.05]
          - name: ball
            motion: dynamic
            shape: {type: sphere, radiusM: 0.01}
            position: [0.05, 0.05, 0.0]
            massKg: 0.05
        """;

    @TempDir
    Path sceneDir;

    private LoopAssembly assembly;
    private SceneBoard board;
    private ServerCommands commands;
    private final CachedNanoClock clock = new CachedNanoClock();
    private long nowNs;

    @BeforeEach
    void start() throws Exception {
        Files.writeString(sceneDir.resolve("drop.yaml"), DROP);
        Files.writeString(sceneDir.resolve("broken.yaml"), "name: broken\nbodies: [ {name: x, shape: {type: cube}} ]\n");
        BuiltScene scene = build();
        SimulatedDevice stylus = scene.newSimulatedDevice();
        stylus.open();
        assembly = new LoopAssembly(scene, stylus, 1000, clock);
        LoopStatsBoard stats = new LoopStatsBoard();
        board = new SceneBoard(ServerCommands.firstEpoch(scene, assembly.snapshots(), 1000, stats));
        commands = new ServerCommands(assembly.commands(), board, stats, 1000, scene, this::build, sceneDir, true);
    }

    private BuiltScene build() throws org.hapticsd.server.scene.SceneException {
        return SceneBuilder.build(new SceneLoader().load(sceneDir.resolve("drop.yaml")));
    }

    @AfterEach
    void stop() {
        commands.close();
    }

    private void ticks(int n) {
        for (int i = 0; i < n; i++) {
            nowNs += PERIOD_NS;
            clock.update(nowNs);
            assembly.loop().tick(nowNs);
        }
    }

    /** Something a test does whose server log lines it reads. */
    private interface Logged {
        void run() throws Exception;
    }

    /** What the server logged (its standard error, slf4j-simple's) while {@code action} ran. */
    private static String serverLog(Logged action) throws Exception {
        java.io.PrintStream original = System.err;
        java.io.ByteArrayOutputStream log = new java.io.ByteArrayOutputStream();
        try {
            System.setErr(new java.io.PrintStream(log, true, java.nio.charset.StandardCharsets.UTF_8));
            action.run();
        } finally {
            System.setErr(original);
        }
        return log.toString(java.nio.charset.StandardCharsets.UTF_8);
    }

    /** Events of the ticks {@link #run} stepped while it waited for an ACK. */
    private int eventsWhileRunning;

    /**
     * Executes {@code command} and steps the loop until its outcome: an accepted command is answered once its effect
     * is published (spec 3.1), which takes ticks of this lockstep loop.
     */
    private String run(Command command) throws Exception {
        java.util.concurrent.CompletableFuture<String> outcome = commands.execute(command).toCompletableFuture();
        eventsWhileRunning = 0;
        for (int i = 0; i < 1000 && !outcome.isDone(); i++) {
            ticks(1);
            eventsWhileRunning |= assembly.loop().lastSnapshot().events;
            try {
                return outcome.get(2, TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.TimeoutException notYet) {
                // The ACK waits for the next publish; step on.
            }
        }
        return outcome.get(10, TimeUnit.SECONDS);
    }

    private Vector3d ball(Vector3d dest) {
        return assembly.loop().world().bodyPosition(assembly.scene().bodyIndices()[1], dest);
    }

    @Test
    void shouldFreezeTheSimulationAndZeroTheForceWhilePausedAndGateTheForceOnResume() throws Exception {
        ticks(50);
        assertNull(run(new Command.Pause()));
        ticks(1);
        LoopSnapshot s = assembly.loop().lastSnapshot();
        assertTrue(s.paused);
        assertTrue((eventsWhileRunning & LoopEvents.PAUSE_CHANGED) != 0, "the pause is marked on its tick");
        Vector3d before = ball(new Vector3d());
        ticks(200);
        // Paused: the ball hangs exactly still (stepped, it would fall 4 cm in these 200 ms).
        assertEquals(0.0, ball(new Vector3d()).distance(before), 0.0);
        assertEquals(0.0, assembly.loop().lastSnapshot().renderedForceN[2], 0.0);
        assertNull(run(new Command.Resume()));
        ticks(1);
        assertFalse(assembly.loop().lastSnapshot().paused);
        assertEquals(SafetyState.GATED, assembly.loop().lastSnapshot().safety,
            "force comes back through the start-up gate");
        ticks(100);
        assertTrue(before.z - ball(new Vector3d()).z > 1e-3, "stepping again: the ball falls");
    }

    @Test
    void shouldApplyParametersInsideTheLocalLimitsAndRefuseTheRestWithAReason() throws Exception {
        PhysicsWorld world = assembly.loop().world();
        String tooStiff = run(new Command.SetParameter(ServerCommands.STIFFNESS, 800.5));
        assertNotNull(tooStiff);
        assertTrue(tooStiff.contains("outside the local limits (0, 800.0]"), tooStiff);
        String zero = run(new Command.SetParameter(ServerCommands.STIFFNESS, 0.0));
        assertTrue(zero.contains("0.0 is outside the local limits (0, 800.0] (a spring needs a stiffness above 0"),
            zero);
        assertTrue(run(new Command.SetParameter(ServerCommands.DAMPING, -0.1)).contains("outside"));
        assertTrue(run(new Command.SetParameter(ServerCommands.FORCE_SCALE, 1.01)).contains("[0.0, 1.0]"));
        assertTrue(run(new Command.SetParameter(ServerCommands.FORCE_SCALE, Double.NaN)).contains("outside"));
        String unknown = run(new Command.SetParameter("safety.maxForceN", 1.0));
        assertTrue(unknown.contains("unknown parameter 'safety.maxForceN'") && unknown.contains(ServerCommands.STIFFNESS),
            unknown);

        assertNull(run(new Command.SetParameter(ServerCommands.STIFFNESS, 400.0)));
        assertNull(run(new Command.SetParameter(ServerCommands.DAMPING, 0.25)));
        // Each ACK came once its change was in force (spec 3.1); both hold: the second kept the first's stiffness.
        assertEquals(400.0, world.contactSettings().penalty().stiffnessNpm(), 0.0);
        assertEquals(0.25, world.contactSettings().penalty().dampingNspm(), 0.0);
        // Raising back up to the loaded value is allowed; beyond it is not.
        assertNull(run(new Command.SetParameter(ServerCommands.STIFFNESS, 800.0)));
        ticks(1);
        assertEquals(800.0, world.contactSettings().penalty().stiffnessNpm(), 0.0);
    }

    /**
     * Every accepted command but MOVE_HAND is logged with the tick by which it was in force, a SET_PARAMETER with the
     * value before: an experiment's record of what changed when. Refused commands are not.
     */
    @Test
    void shouldLogEachAcceptedCommandWithTheTickItWasInForceBy() throws Exception {
        long[] tickBefore = new long[1];
        String text = serverLog(() -> {
            ticks(5);
            tickBefore[0] = assembly.loop().lastSnapshot().tick;
            assertNull(run(new Command.SetParameter(ServerCommands.STIFFNESS, 400.0)));
            assertNotNull(run(new Command.SetParameter(ServerCommands.STIFFNESS, 5000.0)));
            assertNull(run(new Command.Pause()));
            assertNull(run(new Command.MoveHand(0.01, 0.0, 0.0)));
        });
        java.util.regex.Matcher set = java.util.regex.Pattern.compile("INFO command SET_PARAMETER contact.stiffnessNpm "
            + "= 400.0 \\(was 800.0\\): in force from tick (\\d+)").matcher(text);
        assertTrue(set.find(), text);
        assertTrue(Long.parseLong(set.group(1)) > tickBefore[0], text);
        assertTrue(text.contains("INFO command PAUSE: in force from tick "), text);
        assertFalse(text.contains("5000"), "a refused command is not logged: " + text);
        assertFalse(text.contains("MOVE_HAND"), text);
    }

    /**
     * Found by a tester: RESET_SCENE's line gave the newest tick published when its ACK was ready, one or two after
     * the new scene's first. The line gives the tick the loop carried it out in: the new scene's first
     * ({@code simTimeNs} 0), and for a parameter the first tick whose state shows the new value.
     */
    @Test
    void shouldLogTheTickACommandTookEffectIn() throws Exception {
        String text = serverLog(() -> {
            ticks(5);
            assertNull(run(new Command.ResetScene()));
            ticks(3);
        });
        java.util.regex.Matcher reset = java.util.regex.Pattern.compile("INFO command RESET_SCENE: in force from tick "
            + "(\\d+)").matcher(text);
        assertTrue(reset.find(), text);
        LoopSnapshot newest = board.current().exchange().newSnapshot();
        board.current().exchange().read(newest);
        long firstTick = newest.tick - newest.simTimeNs / PERIOD_NS;
        assertEquals(firstTick, Long.parseLong(reset.group(1)), "the new scene's first tick; newest " + newest.tick
            + " at " + newest.simTimeNs + " ns: " + text);
    }

    @Test
    void shouldSoftenTheCouplingOfACoupledSceneOnly() throws Exception {
        String unsupported = run(new Command.SetParameter(ServerCommands.COUPLING_STIFFNESS, 500.0));
        assertTrue(unsupported.startsWith("UNSUPPORTED: coupling.stiffnessNpm needs a scene whose tool is rendered by "
            + "coupling"), unsupported);
        Files.writeString(sceneDir.resolve("coupled.yaml"), DROP.replace("name: drop", "name: coupled").replace(
            "tool: {name: tool, radiusM: 0.005}", "tool: {name: tool, radiusM: 0.005, rendering: coupling, "
                + "coupling: {stiffnessNpm: 900.0, dampingNspm: 0.3}}"));
        assertNull(run(new Command.LoadScene("coupled")));
        ticks(1);
        assertEquals(900.0, assembly.loop().renderer().coupling().stiffnessNpm(), 0.0);

        String stiffer = run(new Command.SetParameter(ServerCommands.COUPLING_STIFFNESS, 900.5));
        assertTrue(stiffer.contains("coupling.stiffnessNpm = 900.5 is outside the local limits (0, 900.0]"), stiffer);
        assertTrue(run(new Command.SetParameter(ServerCommands.COUPLING_DAMPING, 0.31)).contains("[0.0, 0.3]"));
        assertNull(run(new Command.SetParameter(ServerCommands.COUPLING_STIFFNESS, 450.0)));
        assertNull(run(new Command.SetParameter(ServerCommands.COUPLING_DAMPING, 0.0)));
        // Both hold: the second kept the first's stiffness.
        assertEquals(450.0, assembly.loop().renderer().coupling().stiffnessNpm(), 0.0);
        assertEquals(0.0, assembly.loop().renderer().coupling().dampingNspm(), 0.0);
        // RESET_SCENE builds the file's coupling again.
        assertNull(run(new Command.ResetScene()));
        ticks(1);
        assertEquals(900.0, assembly.loop().renderer().coupling().stiffnessNpm(), 0.0);
        assertEquals(0.3, assembly.loop().renderer().coupling().dampingNspm(), 0.0);
    }

    @Test
    void shouldChangeTheMaterialEffectsOfTheBodiesWithinWhatTheFileSets() throws Exception {
        Files.writeString(sceneDir.resolve("surfaces.yaml"), DROP.replace("name: drop", "name: surfaces").replace(
            "    position: [0.0, 0.0, -0.05]\n", "    position: [0.0, 0.0, -0.05]\n    material: {texture: {periodM: "
                + "0.006, amplitudeM: 0.0001, direction: [1.0, 0.0, 0.0]}, vibration: {frequencyHz: 80.0, "
                + "amplitudeN: 0.3}, stickSlip: {stiffnessNpm: 400.0, maxForceN: 0.4}, viscosityNspm: 0.5, "
                + "magnet: {maxForceN: 1.0, distanceM: 0.01}}\n"));
        String before = run(new Command.SetParameter("bodies.floor.texture.amplitudeM", 0.00005));
        assertTrue(before.contains("unknown parameter 'bodies.floor.texture.amplitudeM'"), before);
        assertNull(run(new Command.LoadScene("surfaces")));
        ticks(1);
        PhysicsWorld loaded = assembly.loop().world();
        int floor = 0;
        while (!loaded.bodyName(floor).equals("floor")) {
            floor++;
        }
        HapticScene scene = assembly.loop().scene();
        GratingTexture texture = scene.effect(GratingTexture.class);

        // The grating: a smaller amplitude; a longer period, and then the amplitude back up to what keeps A·(2π/λ)²
        // at its loaded 109.66 /m: 0.0001 × (9 mm / 6 mm)² = 0.000225 m.
        assertNull(run(new Command.SetParameter("bodies.floor.texture.amplitudeM", 0.00005)));
        assertEquals(0.00005, texture.amplitudeM(floor), 0.0);
        assertNull(run(new Command.SetParameter("bodies.floor.texture.periodM", 0.009)));
        assertEquals(0.009, texture.periodM(floor), 0.0);
        assertEquals(0.00005, texture.amplitudeM(floor), 0.0, "the period's change kept the amplitude");
        assertNull(run(new Command.SetParameter("bodies.floor.texture.amplitudeM", 0.000225)));
        String stiffer = run(new Command.SetParameter("bodies.floor.texture.amplitudeM", 0.00023));
        assertTrue(stiffer.startsWith("OUT_OF_LIMITS: bodies.floor.texture.amplitudeM = 2.3E-4 is outside the local "
            + "limits (0, 2.25") && stiffer.contains("loaded stiffness"), stiffer);
        String finer = run(new Command.SetParameter("bodies.floor.texture.periodM", 0.008));
        assertTrue(finer.startsWith("OUT_OF_LIMITS: bodies.floor.texture.periodM = 0.008 is outside the local limits "
            + "[0.009"), finer);

        // The vibration: any frequency up to half the rate, an amplitude up to the file's.
        ContactVibration vibration = scene.effect(ContactVibration.class);
        assertNull(run(new Command.SetParameter("bodies.floor.vibration.frequencyHz", 250.0)));
        assertTrue(run(new Command.SetParameter("bodies.floor.vibration.frequencyHz", 501.0)).contains("alias"));
        assertNull(run(new Command.SetParameter("bodies.floor.vibration.amplitudeN", 0.0)));
        assertTrue(run(new Command.SetParameter("bodies.floor.vibration.amplitudeN", 0.31)).contains("[0.0, 0.3]"));
        assertEquals(250.0, vibration.frequencyHz(floor), 0.0);
        assertEquals(0.0, vibration.amplitudeN(floor), 0.0);

        // The stick-slip, the viscosity and the magnet: lower only.
        StickSlip stickSlip = scene.effect(StickSlip.class);
        assertNull(run(new Command.SetParameter("bodies.floor.stickSlip.maxForceN", 0.2)));
        assertNull(run(new Command.SetParameter("bodies.floor.stickSlip.stiffnessNpm", 300.0)));
        assertTrue(run(new Command.SetParameter("bodies.floor.stickSlip.stiffnessNpm", 0.0)).contains("(0, 400.0]"));
        assertEquals(300.0, stickSlip.stiffnessNpm(0), 0.0);
        assertEquals(0.2, stickSlip.maxForceN(0), 0.0, "the stiffness's change kept the force");
        assertNull(run(new Command.SetParameter("bodies.floor.viscosityNspm", 0.0)));
        assertTrue(run(new Command.SetParameter("bodies.floor.viscosityNspm", 0.6)).contains("[0.0, 0.5]"));
        assertEquals(0.0, scene.effect(BodyViscosity.class).dampingNspm(0), 0.0);
        assertNull(run(new Command.SetParameter("bodies.floor.magnet.maxForceN", 0.5)));
        assertEquals(0.5, scene.effect(SurfaceMagnet.class).maxForceN(0), 0.0);
        String unknown = run(new Command.SetParameter("bodies.ball.viscosityNspm", 0.1));
        assertTrue(unknown.contains("unknown parameter 'bodies.ball.viscosityNspm'")
            && unknown.contains("bodies.floor.texture.periodM, bodies.floor.texture.amplitudeM"), unknown);

        // RESET_SCENE builds the file's values again.
        assertNull(run(new Command.ResetScene()));
        ticks(1);
        HapticScene reset = assembly.loop().scene();
        assertEquals(0.0001, reset.effect(GratingTexture.class).amplitudeM(floor), 0.0);
        assertEquals(0.3, reset.effect(ContactVibration.class).amplitudeN(floor), 0.0);
        assertNull(run(new Command.SetParameter("bodies.floor.texture.amplitudeM", 0.0001)));
    }

    /**
     * The table the page's parameter panel reads: each name SET_PARAMETER accepts for the current scene, its value as
     * last accepted, and limits that agree with the check: on every listed parameter of a scene with all five
     * material effects, its ends are accepted where included and a value just past each end is refused.
     */
    @Test
    void shouldListWhatSetParameterAcceptsWithTheValuesLastSetAndTheLimitsItChecks() throws Exception {
        ParameterTable first = commands.parameters();
        assertEquals(1, first.sceneRevision());
        assertEquals(List.of(ServerCommands.FORCE_SCALE, ServerCommands.STIFFNESS, ServerCommands.DAMPING,
            ServerCommands.BUTTONS), names(first));
        SettableParameter stiffness = first.parameters().get(1);
        assertEquals(new SettableParameter(ServerCommands.STIFFNESS, 800.0, 800.0, 0.0, false, 800.0, false,
            "a spring needs a stiffness above 0; a remote user may only lower what the scene file sets"), stiffness);
        assertEquals("N/m", stiffness.unit());
        assertEquals("N·s/m", first.parameters().get(2).unit());

        assertNull(run(new Command.SetParameter(ServerCommands.STIFFNESS, 400.0)));
        assertNull(run(new Command.SetParameter(ServerCommands.FORCE_SCALE, 0.5)));
        assertNull(run(new Command.SetParameter(ServerCommands.BUTTONS, 3.0)));
        assertNotNull(run(new Command.SetParameter(ServerCommands.DAMPING, 0.6)));
        ParameterTable set = commands.parameters();
        assertEquals(List.of(0.5, 400.0, 0.5, 3.0), values(set), "the accepted values, not the refused damping");
        assertEquals(800.0, set.parameters().get(1).loaded(), 0.0);

        Files.writeString(sceneDir.resolve("surfaces.yaml"), DROP.replace("name: drop", "name: surfaces")
            .replace("tool: {name: tool, radiusM: 0.005}", "tool: {name: tool, radiusM: 0.005, rendering: coupling, "
                + "coupling: {stiffnessNpm: 900.0, dampingNspm: 0.3}}")
            .replace("    position: [0.0, 0.0, -0.05]\n", "    position: [0.0, 0.0, -0.05]\n    material: {texture: "
                + "{periodM: 0.006, amplitudeM: 0.0001, direction: [1.0, 0.0, 0.0]}, vibration: {frequencyHz: 80.0, "
                + "amplitudeN: 0.3}, stickSlip: {stiffnessNpm: 400.0, maxForceN: 0.4}, viscosityNspm: 0.5, "
                + "magnet: {maxForceN: 1.0, distanceM: 0.01}}\n"));
        assertNull(run(new Command.LoadScene("surfaces")));
        ParameterTable loaded = commands.parameters();
        assertEquals(2, loaded.sceneRevision());
        assertEquals(List.of(ServerCommands.FORCE_SCALE, ServerCommands.STIFFNESS, ServerCommands.DAMPING,
            ServerCommands.COUPLING_STIFFNESS, ServerCommands.COUPLING_DAMPING, ServerCommands.BUTTONS,
            "bodies.floor.texture.periodM", "bodies.floor.texture.amplitudeM", "bodies.floor.vibration.frequencyHz",
            "bodies.floor.vibration.amplitudeN", "bodies.floor.stickSlip.stiffnessNpm",
            "bodies.floor.stickSlip.maxForceN", "bodies.floor.viscosityNspm", "bodies.floor.magnet.maxForceN"),
            names(loaded));
        // The force scale and the buttons are the loop's and the stylus's: a new scene keeps them.
        assertEquals(List.of(0.5, 800.0, 0.5, 900.0, 0.3, 3.0, 0.006, 0.0001, 80.0, 0.3, 400.0, 0.4, 0.5, 1.0),
            values(loaded));

        for (SettableParameter p : loaded.parameters()) {
            // Past each end by a part in a million of the range (of the value, for an open one): refused.
            double margin = 1e-6 * (p.max() == Double.POSITIVE_INFINITY ? p.min() : Math.max(p.max() - p.min(), 1.0));
            String below = run(new Command.SetParameter(p.name(), p.min() - margin));
            assertTrue(below != null && below.startsWith("OUT_OF_LIMITS"), p + ": " + below);
            if (!p.minIncluded()) {
                assertNotNull(run(new Command.SetParameter(p.name(), p.min())), p.toString());
            }
            if (p.max() != Double.POSITIVE_INFINITY) {
                String above = run(new Command.SetParameter(p.name(), p.max() + margin));
                assertTrue(above != null && above.startsWith("OUT_OF_LIMITS"), p + ": " + above);
                assertNull(run(new Command.SetParameter(p.name(), p.max())), p.toString());
            } else {
                assertNull(run(new Command.SetParameter(p.name(), p.min())), p.toString());
            }
            if (p.minIncluded()) {
                assertNull(run(new Command.SetParameter(p.name(), p.min())), p.toString());
            }
            // Back to its value, within the limits as they are now (a grating's move with its partner's value).
            assertNull(run(new Command.SetParameter(p.name(), p.value())), p.toString());
        }
        assertEquals(values(loaded), values(commands.parameters()), "every value set back");

        assertNull(run(new Command.ResetScene()));
        ParameterTable reset = commands.parameters();
        assertEquals(3, reset.sceneRevision());
        assertEquals(names(loaded), names(reset));
    }

    /**
     * What the page's scene menu offers: the scene directory's .yaml and .yml files that LOAD_SCENE would take by
     * name, sorted, read anew each time; nothing to load without a scene directory.
     */
    @Test
    void shouldListTheScenesLoadSceneTakesFromTheSceneDirectory() throws Exception {
        assertEquals(new SceneCatalog(true, List.of("broken", "drop")), commands.scenes());
        Files.writeString(sceneDir.resolve("pen.yml"), DROP.replace("name: drop", "name: pen"));
        Files.writeString(sceneDir.resolve("notes.txt"), "not a scene");
        Files.writeString(sceneDir.resolve("two words.yaml"), DROP);
        Files.createDirectory(sceneDir.resolve("folder.yaml"));
        assertEquals(new SceneCatalog(true, List.of("broken", "drop", "pen")), commands.scenes());
        assertNull(run(new Command.LoadScene("pen")), "every name listed loads");

        BuiltScene scene = build();
        try (ServerCommands noDir = new ServerCommands(assembly.commands(), board, new LoopStatsBoard(), 1000, scene,
                this::build, null, true)) {
            assertEquals(SceneCatalog.NONE, noDir.scenes());
        }
    }

    private static List<String> names(ParameterTable table) {
        return table.parameters().stream().map(SettableParameter::name).toList();
    }

    private static List<Double> values(ParameterTable table) {
        return table.parameters().stream().map(SettableParameter::value).toList();
    }

    @Test
    void shouldLoadASceneOnlyFromTheSceneDirectoryAndServeItAsTheNextRevision() throws Exception {
        StreamEpoch first = board.current();
        PhysicsWorld firstWorld = assembly.loop().world();
        assertTrue(run(new Command.LoadScene("../drop")).contains("must match"));
        assertTrue(run(new Command.LoadScene("missing")).contains("no scene 'missing'"));
        String broken = run(new Command.LoadScene("broken"));
        assertTrue(broken.contains("broken.yaml"), "the refusal names the file: " + broken);
        StringBuilder crowd = new StringBuilder("name: crowd\nbodies:\n");
        for (int i = 0; i < 4100; i++) {
            crowd.append("  - {name: b").append(i).append(", shape: {type: box, halfExtents: [0.001, 0.001, 0.001]}, ")
                .append("position: [").append(0.5 + 0.003 * (i % 100)).append(", ").append(0.003 * (i / 100))
                .append(", 0.0]}\n");
        }
        Files.writeString(sceneDir.resolve("crowd.yaml"), crowd);
        String tooMany = run(new Command.LoadScene("crowd"));
        assertTrue(tooMany.startsWith("SCENE: scene 'crowd' cannot be streamed") && tooMany.contains("4096"),
            "more bodies than a SCENE message carries: " + tooMany);
        ticks(2);
        assertSame(first, board.current(), "refused loads change nothing");

        assertNull(run(new Command.LoadScene("drop")));
        // The ACK comes once the swap is done (spec 3.1): the new scene is the board's, and a tick of it published.
        assertNotSame(first, board.current(), "swapped by the ACK");
        assertTrue(board.current().exchange().version() >= 2, "a tick of the new scene published by the ACK");
        assertNotSame(firstWorld, assembly.loop().world());
        assertTrue((eventsWhileRunning & LoopEvents.SCENE_CHANGED) != 0, "the swap's tick ran while waiting");
        SceneMessage scene = (SceneMessage) StreamCodec.decode(board.current().frames().sceneBinary());
        assertEquals(2, scene.revision());
        assertEquals("drop", scene.name());
        LoopSnapshot copy = board.current().exchange().newSnapshot();
        assertTrue(board.current().exchange().read(copy) != 0, "the loop publishes into the new scene's exchange");
        assertEquals(assembly.loop().lastSnapshot().tick, copy.tick);
    }

    @Test
    void shouldWarnOfALoadedScenesToolSpringThatTheDeviceCannotRenderPassively() throws Exception {
        // The stylus's damping is 1 N·s/m and its rating 3000 N/m (the scene's device defaults). DROP's spring,
        // 800·0.001/2 + 0.5 = 0.9 N·s/m, passes; 5000 N/m spends 2.5 + 0.5 = 3 N·s/m and exceeds the rating.
        Files.writeString(sceneDir.resolve("stiff.yaml"), DROP.replace("name: drop", "name: stiff")
            .replace("stiffnessNpm: 800.0", "stiffnessNpm: 5000.0"));
        commands.close();
        commands = new ServerCommands(assembly.commands(), board, new LoopStatsBoard(), 1000, assembly.scene(),
            this::build, sceneDir, true, assembly.device().info());
        java.io.PrintStream original = System.err;
        java.io.ByteArrayOutputStream log = new java.io.ByteArrayOutputStream();
        String quiet;
        String warned;
        try {
            System.setErr(new java.io.PrintStream(log, true, java.nio.charset.StandardCharsets.UTF_8));
            assertNull(run(new Command.LoadScene("drop")));
            ticks(1);
            assertEquals(new SceneWarnings(2, List.of()), commands.warnings());
            quiet = log.toString(java.nio.charset.StandardCharsets.UTF_8);
            assertNull(run(new Command.LoadScene("stiff")));
            ticks(1);
            warned = log.toString(java.nio.charset.StandardCharsets.UTF_8).substring(quiet.length());
        } finally {
            System.setErr(original);
        }
        assertFalse(quiet.contains("WARN scene 'drop'"), quiet);
        assertTrue(warned.contains("WARN scene 'stiff': the tool's penalty contacts are not passive on device "
            + "'simulated stylus': K·T/2 + B = 3 N·s/m"), warned);
        assertTrue(warned.contains("WARN scene 'stiff': the tool's penalty contacts render 5000 N/m"), warned);
        // The same lines for the page (/api/warnings), with the revision they belong to.
        SceneWarnings kept = commands.warnings();
        assertEquals(3, kept.sceneRevision());
        assertEquals(2, kept.warnings().size(), kept.toString());
        for (String line : kept.warnings()) {
            assertTrue(warned.contains("WARN " + line), line);
        }
        assertEquals("stiff", ((SceneMessage) StreamCodec.decode(board.current().frames().sceneBinary())).name(),
            "a warning does not refuse the scene");
    }

    /**
     * A loaded scene runs at the server's rate, so it is built and checked at that rate, not its file's: a 1 g ball
     * on a 30,000 N/m PENALTY floor holds at 4 kHz (limit 62,400 N/m) and not at this server's 1 kHz (3,600 N/m).
     */
    @Test
    void shouldBuildALoadedSceneAtTheServersRate() throws Exception {
        String light = """
            name: light
            rateHz: 4000
            contact: {mode: penalty, stiffnessNpm: 30000}
            bodies:
              - name: floor
                shape: {type: plane, normal: [0, 0, 1]}
              - name: b
                motion: dynamic
                shape: {type: sphere, radiusM: 0.01}
                position: [0.3, 0, 0.0101]
                massKg: 0.001
            """;
        Files.writeString(sceneDir.resolve("light.yaml"), light);
        SceneBuilder.build(new SceneLoader().load(sceneDir.resolve("light.yaml")));
        String refusal = run(new Command.LoadScene("light"));
        assertTrue(refusal != null && refusal.startsWith("SCENE: ")
            && refusal.contains("light.yaml:7:5: bodies[1] (b): its PENALTY contact with 'floor' is unstable at 1000 Hz")
            && refusal.contains("below 3600 N/m"), String.valueOf(refusal));
        Files.writeString(sceneDir.resolve("light.yaml"), light.replace("30000", "3000"));
        assertNull(run(new Command.LoadScene("light")));
    }

    @Test
    void shouldRefuseLoadingWithoutASceneDirectory() throws Exception {
        try (ServerCommands none = new ServerCommands(assembly.commands(), board, new LoopStatsBoard(), 1000,
                assembly.scene(), this::build, null, true)) {
            assertTrue(none.execute(new Command.LoadScene("drop")).toCompletableFuture().get()
                .contains("without --scene-dir"));
        }
    }

    /**
     * A tester: at -Xmx128m a pile that fit the heap could be loaded once, and then every RESET_SCENE was refused
     * for memory or the server died of an OutOfMemoryError. The first scene stayed reachable (from the assembly and
     * the run command) beside the one that replaced it, so two worlds were alive; `run` now releases it.
     */
    @Test
    void shouldLetTheFirstSceneBeCollectedOnceItIsReplaced() throws Exception {
        java.lang.ref.WeakReference<org.hapticsd.physics.PhysicsWorld> first =
            new java.lang.ref.WeakReference<>(assembly.scene().haptic().world());
        assembly.releaseScene();
        assertNull(run(new Command.ResetScene()));
        ticks(2);
        for (int i = 0; i < 100 && first.get() != null; i++) {
            System.gc();
            Thread.sleep(10);
        }
        assertNull(first.get(), "the first scene's world is still reachable after RESET_SCENE");
    }

    @Test
    void shouldResetTheBodiesToTheirLoadedPoses() throws Exception {
        Vector3d loaded = ball(new Vector3d());
        ticks(200);
        // Free fall reaches the floor (4 cm below) after 90 ms; it rests there.
        assertEquals(0.04, loaded.z - ball(new Vector3d()).z, 1e-3, "the ball has fallen onto the floor");
        assertNull(run(new Command.ResetScene()));
        // The ACK comes once a tick of the new scene is published: n steps of it have run (simTimeNs restarts at 0 and
        // is the start of the tick's step). Back where it was loaded, less n steps of free fall from rest, g·dt²·n(n+1)/2
        // (semi-implicit Euler; 10 µm after one step).
        long n = assembly.loop().lastSnapshot().simTimeNs / PERIOD_NS + 1;
        assertTrue(n >= 1 && n <= 1000, "steps of the new scene: " + n);
        double fallM = 9.81 * 1e-6 * n * (n + 1) / 2.0;
        assertEquals(fallM, ball(new Vector3d()).distance(loaded), 1e-7, "after " + n + " steps");
        assertEquals(2, ((SceneMessage) StreamCodec.decode(board.current().frames().sceneBinary())).revision());
    }

    @Test
    void shouldMoveTheSimulatedHandToAScenePoint() throws Exception {
        ticks(100);
        assertNull(run(new Command.MoveHand(0.02, -0.01, 0.015)));
        ticks(1500);
        // The hand's spring pulls the stylus to the point through free space; after 1.5 s it rests there
        // (a 1 mm tolerance covers the spring's sag under the stylus's damping and gravity-free hold).
        LoopSnapshot s = assembly.loop().lastSnapshot();
        Vector3d tool = new Vector3d(s.toolPositionM[0], s.toolPositionM[1], s.toolPositionM[2]);
        assertEquals(0.0, tool.distance(0.02, -0.01, 0.015), 1e-3, "tool at " + tool);
    }

    /**
     * A client asking for a point 1000 km away gets the hand held at the workspace's edge (the default cube of
     * ±0.1 m about the device origin): the stylus ends within 1 mm of that edge, not flung off with the scene.
     */
    @Test
    void shouldHoldAHandSentOutsideTheWorkspaceAtItsEdge() throws Exception {
        ticks(100);
        assertNull(run(new Command.MoveHand(1e6, 0.0, 0.0)));
        ticks(1500);
        LoopSnapshot s = assembly.loop().lastSnapshot();
        Vector3d device = new Vector3d(s.devicePositionM[0], s.devicePositionM[1], s.devicePositionM[2]);
        double edge = assembly.loop().device().info().workspace().maxX();
        assertEquals(edge, device.x, 1e-3, "device at " + device);
    }

    /**
     * SET_PARAMETER {@code hand.buttons}: the remote hand holds the simulated stylus's buttons down (the page's grab
     * button) until it sets them again; a value that is no button mask is refused with the range.
     */
    @Test
    void shouldPressAndReleaseTheSimulatedStylusButtons() throws Exception {
        ticks(10);
        SimulatedDevice stylus = (SimulatedDevice) assembly.loop().device();
        assertNull(run(new Command.SetParameter(ServerCommands.BUTTONS, 1.0)));
        assertEquals(1, stylus.buttons());
        assertNull(run(new Command.SetParameter(ServerCommands.BUTTONS, 0.0)));
        assertEquals(0, stylus.buttons());
        String fraction = run(new Command.SetParameter(ServerCommands.BUTTONS, 1.5));
        assertTrue(fraction.startsWith("OUT_OF_LIMITS: hand.buttons = 1.5 is not a button mask"), fraction);
        String tooMany = run(new Command.SetParameter(ServerCommands.BUTTONS, 65536.0));
        assertTrue(tooMany.startsWith("OUT_OF_LIMITS: "), tooMany);
        assertEquals(0, stylus.buttons(), "refusals change nothing");
    }

    @Test
    void shouldRefuseMovingTheHandOfARealDevice() throws Exception {
        try (ServerCommands real = new ServerCommands(assembly.commands(), board, new LoopStatsBoard(), 1000,
                assembly.scene(), this::build, sceneDir, false)) {
            String refusal = real.execute(new Command.MoveHand(0, 0, 0)).toCompletableFuture().get();
            assertTrue(refusal.contains("simulated stylus"), refusal);
            String buttons = real.execute(new Command.SetParameter(ServerCommands.BUTTONS, 1.0)).toCompletableFuture()
                .get();
            assertTrue(buttons.startsWith("UNSUPPORTED: hand.buttons needs the simulated stylus"), buttons);
        }
    }
}
