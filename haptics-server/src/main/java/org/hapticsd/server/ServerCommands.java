package org.hapticsd.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.hapticsd.device.DeviceInfo;
import org.hapticsd.device.Workspace;
import org.hapticsd.device.sim.ExternalHandTarget;
import org.hapticsd.device.sim.HandTarget;
import org.hapticsd.device.sim.SimulatedDevice;
import org.hapticsd.protocol.stream.Command;
import org.hapticsd.protocol.stream.StreamFormatException;
import org.hapticsd.server.loop.CommandQueue;
import org.hapticsd.server.loop.LoopCommand;
import org.hapticsd.server.loop.LoopSnapshot;
import org.hapticsd.server.loop.SnapshotExchange;
import org.hapticsd.server.net.CommandExecutor;
import org.hapticsd.server.net.LoopStatsBoard;
import org.hapticsd.server.net.ParameterTable;
import org.hapticsd.server.net.ProtocolStreamFrames;
import org.hapticsd.server.net.SceneBoard;
import org.hapticsd.server.net.SceneCatalog;
import org.hapticsd.server.net.SceneWarnings;
import org.hapticsd.server.net.SettableParameter;
import org.hapticsd.server.net.StreamEpoch;
import org.hapticsd.server.render.ToolStiffness;
import org.hapticsd.server.scene.BuiltScene;
import org.hapticsd.server.scene.SceneBuilder;
import org.hapticsd.server.scene.SceneException;
import org.hapticsd.server.scene.SceneLoader;
import org.hapticsd.server.scene.SceneSpec;
import org.joml.Vector3d;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's side of the stream's COMMANDs: each is checked against local limits, turned into loop commands
 * built here (off the loop thread, so the loop only swaps references) and enqueued. Accepted means enqueued: the
 * loop carries it out at the start of its next tick.
 *
 * <p>What a remote user may do, and the local limits:
 * <ul>
 *   <li>PAUSE, RESUME: freeze or continue the simulation (zero force while paused; force returns through the
 *       start-up gate).</li>
 *   <li>RESET_SCENE: rebuild the current scene from its file; LOAD_SCENE: build a scene named in the local scene
 *       directory ({@code run --scene-dir}), nothing else. Building runs on a thread of its own; the loop then
 *       swaps the whole scene in one tick. The safety limits and the loop rate stay those the server was started
 *       with: a loaded scene cannot raise them.</li>
 *   <li>SET_PARAMETER: {@value #FORCE_SCALE} in [0, 1]; {@value #STIFFNESS} and {@value #DAMPING} between 0 and the
 *       values the current scene was loaded with, and so {@value #COUPLING_STIFFNESS} and {@value #COUPLING_DAMPING}
 *       for a scene rendered by coupling; the bodies' material effects, {@code bodies.NAME.FIELD}
 *       ({@link SceneParameters}); {@value #BUTTONS} with the simulated stylus. Every parameter can only soften what
 *       the local files set.</li>
 *   <li>MOVE_HAND: only with the simulated stylus.</li>
 *   <li>EMERGENCY_STOP, RESET_STOP: straight to the safety layer.</li>
 * </ul>
 */
public final class ServerCommands implements CommandExecutor, AutoCloseable {
    public static final String FORCE_SCALE = SceneParameters.FORCE_SCALE;
    public static final String STIFFNESS = SceneParameters.STIFFNESS;
    public static final String DAMPING = SceneParameters.DAMPING;
    /** The virtual coupling's spring, for a scene whose tool is rendered by coupling. */
    public static final String COUPLING_STIFFNESS = SceneParameters.COUPLING_STIFFNESS;
    /** The virtual coupling's damper, for a scene whose tool is rendered by coupling. */
    public static final String COUPLING_DAMPING = SceneParameters.COUPLING_DAMPING;
    /** Why {@link #reloadFirstScene()} left the running scene alone. */
    public static final String NOT_THE_FIRST_SCENE = "the loop runs a scene LOAD_SCENE brought, not the first one";
    /** The simulated stylus's buttons the remote hand holds down, a bit mask (the page's grab button). */
    public static final String BUTTONS = "hand.buttons";
    private static final Logger LOG = LoggerFactory.getLogger(ServerCommands.class);
    private static final String NAME_PATTERN = "[A-Za-z0-9][A-Za-z0-9._-]*";

    /** Builds a scene anew; throws with the file and place when it cannot. */
    @FunctionalInterface
    public interface SceneFactory {
        BuiltScene build() throws SceneException;
    }

    private final CommandQueue queue;
    private final SceneBoard board;
    private final LoopStatsBoard stats;
    private final int rateHz;
    private final Path sceneDir;
    private final boolean simulated;
    /** The device the loop drives, for the tool-stiffness warnings of a scene loaded later; null: no warnings. */
    private final DeviceInfo device;
    private final ExecutorService builder = Executors.newSingleThreadExecutor(runnable -> {
        Thread thread = new Thread(runnable, "hapticsd-scene-builder");
        thread.setDaemon(true);
        return thread;
    });
    private final AtomicLong revision = new AtomicLong(1);
    /** Commands the loop has been offered whose ACK waits for their effect, in the order offered. */
    private final java.util.ArrayDeque<Waiting> waiting = new java.util.ArrayDeque<>();
    private final java.util.concurrent.ScheduledExecutorService acks =
        Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "hapticsd-acks");
            thread.setDaemon(true);
            return thread;
        });

    /** How the first scene was built: what {@link #reloadFirstScene()} builds again. */
    private final SceneFactory first;
    // The current scene as far as commands are concerned; guarded by this.
    private SceneFactory current;
    /** The current scene's revision on the stream (1 for the first). */
    private long sceneRevision;
    /** The current scene's build warnings. */
    private List<String> sceneWarnings = List.of();
    /** Why the last save of the first scene's file was not reloaded ({@code run --reload}), or null. */
    private String reloadFailure;
    /** The stylus's buttons as last set: the stylus's, kept by a new scene. */
    private int buttons;
    /** What SET_PARAMETER may change in the current scene, with the values last set. */
    private SceneParameters parameters;

    /**
     * Call before the loop starts: reads the first scene's parameters.
     *
     * @param first     the scene the loop starts with, and how to build it again for RESET_SCENE
     * @param sceneDir  where LOAD_SCENE may look, or null to refuse LOAD_SCENE
     * @param simulated the loop drives the simulated stylus (MOVE_HAND is refused otherwise)
     */
    public ServerCommands(CommandQueue queue, SceneBoard board, LoopStatsBoard stats, int rateHz,
                          BuiltScene first, SceneFactory firstFactory, Path sceneDir, boolean simulated) {
        this(queue, board, stats, rateHz, first, firstFactory, sceneDir, simulated, null);
    }

    /**
     * As above, and a scene that RESET_SCENE or LOAD_SCENE builds is checked against {@code device}: its
     * {@link ToolStiffness} warnings go to the server's log, as the first scene's did at start.
     */
    public ServerCommands(CommandQueue queue, SceneBoard board, LoopStatsBoard stats, int rateHz,
                          BuiltScene first, SceneFactory firstFactory, Path sceneDir, boolean simulated,
                          DeviceInfo device) {
        this.device = device;
        this.queue = queue;
        this.board = board;
        this.stats = stats;
        this.rateHz = rateHz;
        this.sceneDir = sceneDir;
        this.simulated = simulated;
        this.first = firstFactory;
        // Logged where the first scene's device was opened (run); kept here for /api/warnings.
        adopt(first, firstFactory, 1, warnings(first));
    }

    /** The first epoch of the stream, for the {@link SceneBoard}: revision 1 of {@code scene}. */
    public static StreamEpoch firstEpoch(BuiltScene scene, SnapshotExchange exchange, int rateHz,
                                         LoopStatsBoard stats) {
        return new StreamEpoch(exchange, new ProtocolStreamFrames(scene, rateHz, stats, 1));
    }

    /**
     * Carries the command out (below) and, once the server has accepted it, logs it with the tick by which it was in
     * force: the record an experiment needs of what changed when (a stimulus between trials, a scene, a stop). A
     * SET_PARAMETER line gives the value before; MOVE_HAND, up to 60 a second from a dragging page, is not logged.
     */
    @Override
    public CompletionStage<String> execute(Command command) {
        String before = command instanceof Command.SetParameter set ? valueNow(set.name()) : null;
        AppliedTick applied = new AppliedTick();
        CompletionStage<String> outcome = carryOut(command, applied);
        if (command instanceof Command.MoveHand) {
            return outcome;
        }
        return outcome.thenApply(refusal -> {
            if (refusal == null) {
                long tick = applied.tick();
                LOG.info("command {}{}: in force {}", describe(command), before == null ? "" : " (was " + before + ")",
                    tick >= 0 ? "from tick " + tick : "by tick " + publishedTick());
            }
            return refusal;
        });
    }

    /**
     * The tick during which the loop carried a command out: the first whose published state shows it, the new
     * scene's first for RESET_SCENE and LOAD_SCENE. The log said "by" the newest published tick when the ACK was
     * ready, one or two ticks after a scene's first (a tester); -1 until the loop has run it.
     */
    private static final class AppliedTick {
        private final java.util.concurrent.atomic.AtomicLong tick = new java.util.concurrent.atomic.AtomicLong(-1);

        long tick() {
            return tick.get();
        }

        /** {@code command}, recording the tick it runs in (on the loop thread, which allocates nothing here). */
        LoopCommand recording(LoopCommand command) {
            return loop -> {
                command.applyTo(loop);
                tick.set(loop.currentTick());
            };
        }
    }

    /** {@code name}'s value now as SET_PARAMETER would change it, or null for a name the server does not have. */
    private synchronized String valueNow(String name) {
        if (name.equals(BUTTONS)) {
            return simulated ? String.valueOf(buttons) : null;
        }
        return parameters.has(name) ? String.valueOf(parameters.value(name)) : null;
    }

    /** The newest tick the loop has published, or -1 before the first. */
    private long publishedTick() {
        SnapshotExchange exchange = board.current().exchange();
        LoopSnapshot snapshot = exchange.newSnapshot();
        return exchange.read(snapshot) == 0 ? -1 : snapshot.tick;
    }

    /** A command as a person reads it in a log or a terminal: its kind, and what it names. */
    public static String describe(Command command) {
        if (command instanceof Command.SetParameter set) {
            return String.format(Locale.ROOT, "SET_PARAMETER %s = %s", set.name(), set.value());
        }
        if (command instanceof Command.LoadScene load) {
            return "LOAD_SCENE " + load.sceneName();
        }
        if (command instanceof Command.MoveHand move) {
            return String.format(Locale.ROOT, "MOVE_HAND (%s, %s, %s)", move.xM(), move.yM(), move.zM());
        }
        return command.getClass().getSimpleName().replaceAll("([a-z])([A-Z])", "$1_$2").toUpperCase(Locale.ROOT);
    }

    private CompletionStage<String> carryOut(Command command, AppliedTick applied) {
        if (command instanceof Command.EmergencyStop) {
            return afterEffect(() -> offer(applied.recording(LoopCommand.EMERGENCY_STOP)), null);
        }
        if (command instanceof Command.ResetStop) {
            return afterEffect(() -> offer(applied.recording(LoopCommand.RESET_SAFETY)), null);
        }
        if (command instanceof Command.Pause || command instanceof Command.Resume) {
            boolean pause = command instanceof Command.Pause;
            // The loop decides, as it runs the command: PAUSE when paused and RESUME when running change nothing
            // and are refused (the spec's example of a refusal).
            String[] verdict = new String[1];
            return afterEffect(() -> offer(applied.recording(loop -> {
                if (loop.paused() == pause) {
                    verdict[0] = pause ? "ALREADY_PAUSED: already paused" : "NOT_PAUSED: not paused, nothing to resume";
                } else {
                    loop.setPaused(pause);
                }
            })), () -> verdict[0]);
        }
        if (command instanceof Command.MoveHand move) {
            return afterEffect(() -> moveHand(move), null);
        }
        if (command instanceof Command.SetParameter set) {
            return afterEffect(() -> setParameter(set.name(), set.value(), applied), null);
        }
        if (command instanceof Command.ResetScene) {
            return replace(() -> currentFactory().build(), null, applied);
        }
        if (command instanceof Command.LoadScene load) {
            Path file;
            try {
                file = sceneFile(load.sceneName());
            } catch (IllegalArgumentException e) {
                return done("SCENE: " + e.getMessage());
            }
            SceneFactory factory = () -> {
                SceneSpec spec = new SceneLoader().load(file);
                // The loop keeps its rate, so the file's is not the one that runs: the build's stability checks (a
                // PENALTY body, a deformable's coupling and substeps) and every Δt must be the loop's. A 4 kHz file
                // whose spring holds only at 4 kHz was built and accepted into a 1 kHz server.
                spec.setRateHz(rateHz);
                return SceneBuilder.build(spec);
            };
            return replace(factory, factory, applied);
        }
        return done("UNSUPPORTED: " + command.getClass().getSimpleName() + " is not supported by this server");
    }

    /**
     * Runs {@code offering} (checks, then offers the loop its command; a refusal, or null when offered) and, when
     * offered, completes once the effect is in the published state: two publishes after the offer (the tick under
     * way may have drained its commands already; the next one runs it and publishes its result), so that every STATE
     * sent after the ACK shows it (spec sections 3.1 and 4.5). Then the outcome is {@code verdict}'s (null: accepted),
     * read after the loop ran the command. Polls the exchange's version every millisecond off the loop; gives up
     * after 5 s of a loop that does not tick.
     */
    private CompletionStage<String> afterEffect(java.util.function.Supplier<String> offering,
                                                java.util.function.Supplier<String> verdict) {
        SnapshotExchange exchange = board.current().exchange();
        long offeredAt = exchange.version();
        String refusal = offering.get();
        if (refusal != null) {
            return done(refusal);
        }
        // Carried out once two publishes followed the offer, or the scene was replaced meanwhile (then the command
        // ran on the old scene or not at all, and nothing of the old scene is published any more).
        return whenPublished(() -> exchange.version() >= offeredAt + 4 || board.current().exchange() != exchange,
            verdict);
    }

    /** A future completed once {@code published} holds (then with {@code verdict}'s outcome, null: accepted). */
    private CompletableFuture<String> whenPublished(java.util.function.BooleanSupplier published,
                                                    java.util.function.Supplier<String> verdict) {
        CompletableFuture<String> outcome = new CompletableFuture<>();
        synchronized (waiting) {
            waiting.add(new Waiting(outcome, published, System.nanoTime(), verdict));
            if (waiting.size() == 1) {
                acks.schedule(this::completeCarriedOut, 1, TimeUnit.MILLISECONDS);
            }
        }
        return outcome;
    }

    /** A command offered to the loop whose ACK waits for its effect to be published. */
    private record Waiting(CompletableFuture<String> outcome, java.util.function.BooleanSupplier published,
                           long sinceNs, java.util.function.Supplier<String> verdict) {
    }

    /**
     * Completes the waiting commands whose effect is published, oldest first and on one thread, so that a client's
     * ACKs leave in the order of its commands; polls again in a millisecond while any wait.
     */
    private void completeCarriedOut() {
        while (true) {
            Waiting w;
            synchronized (waiting) {
                w = waiting.peek();
                if (w == null) {
                    return;
                }
                boolean published = w.published().getAsBoolean();
                boolean stalled = System.nanoTime() - w.sinceNs() > TimeUnit.SECONDS.toNanos(5);
                if (!published && !stalled) {
                    acks.schedule(this::completeCarriedOut, 1, TimeUnit.MILLISECONDS);
                    return;
                }
                waiting.poll();
                if (!published) {
                    w.outcome().complete("NOT_CARRIED_OUT: the loop has not run the command within 5 s");
                    continue;
                }
            }
            w.outcome().complete(w.verdict() == null ? null : w.verdict().get());
        }
    }

    private static CompletionStage<String> done(String refusal) {
        return CompletableFuture.completedFuture(refusal);
    }

    private String offer(LoopCommand command) {
        return queue.offer(command) ? null : "BUSY: the loop's command queue is full; try again";
    }

    private String moveHand(Command.MoveHand move) {
        if (!simulated) {
            return "UNSUPPORTED: MOVE_HAND needs the simulated stylus; this server drives a real device";
        }
        ExternalHandTarget target = new ExternalHandTarget();
        Vector3d pointM = new Vector3d(move.xM(), move.yM(), move.zM());
        return offer(loop -> {
            loop.mapping().scenePointToDevice(pointM, pointM);
            // A hand cannot take the stylus beyond its mechanism: a point outside the device's workspace is held at
            // the nearest point of it, so no client can fling the simulated stylus (and the scene) kilometres away.
            Workspace w = loop.device().info().workspace();
            target.set(Math.min(w.maxX(), Math.max(w.minX(), pointM.x)), Math.min(w.maxY(), Math.max(w.minY(), pointM.y)),
                Math.min(w.maxZ(), Math.max(w.minZ(), pointM.z)));
            if (loop.device() instanceof SimulatedDevice stylus) {
                stylus.setHandTarget(target);
            }
        });
    }

    private synchronized String setParameter(String name, double value, AppliedTick applied) {
        if (name.equals(BUTTONS)) {
            return setButtons(value, applied);
        }
        if (!parameters.has(name)) {
            if (name.equals(COUPLING_STIFFNESS) || name.equals(COUPLING_DAMPING)) {
                return "UNSUPPORTED: " + name + " needs a scene whose tool is rendered by coupling (tool.rendering: "
                    + "coupling); the current scene's is not";
            }
            return "UNKNOWN_PARAMETER: unknown parameter '" + name + "'; this server has "
                + String.join(", ", parameters.names()) + (simulated ? ", " + BUTTONS : "");
        }
        String refused = parameters.refusal(name, value);
        if (refused != null) {
            return refused;
        }
        String refusal = offer(applied.recording(parameters.command(name, value)));
        if (refusal == null) {
            parameters.accepted(name, value);
        }
        return refusal;
    }

    /** {@value #BUTTONS}: a mask, with the simulated stylus only. */
    private String setButtons(double value, AppliedTick applied) {
        if (!simulated) {
            return "UNSUPPORTED: " + BUTTONS + " needs the simulated stylus; this server drives a real device, "
                + "whose own buttons are pressed by hand";
        }
        if (!(value >= 0.0 && value <= 0xFFFF && value == Math.rint(value))) {
            return String.format(Locale.ROOT, "OUT_OF_LIMITS: %s = %s is not a button mask, a whole number in "
                + "[0, 65535] (bit i = button i)", BUTTONS, value);
        }
        int mask = (int) value;
        String refusal = offer(applied.recording(loop -> {
            if (loop.device() instanceof SimulatedDevice stylus) {
                stylus.setButtons(mask);
            }
        }));
        if (refusal == null) {
            buttons = mask;
        }
        return refusal;
    }

    /**
     * What SET_PARAMETER accepts now, each name with the value last accepted and the limits {@link #setParameter}
     * checks: the current scene's ({@link SceneParameters}), and the buttons with the simulated stylus.
     */
    @Override
    public synchronized ParameterTable parameters() {
        List<SettableParameter> list = new ArrayList<>(parameters.settable());
        if (simulated) {
            // After the coupling's (or the contact's), before the bodies': the page reads them in this order.
            int at = parameters.names().size() - parameters.materialNames().size();
            list.add(at, new SettableParameter(BUTTONS, buttons, 0.0, 0.0, true, 0xFFFF, true,
                "the simulated stylus's buttons held down, bit i = button i"));
        }
        return new ParameterTable(sceneRevision, list);
    }

    /**
     * The scene directory's scene files as LOAD_SCENE names them: {@code .yaml} or {@code .yml} files whose names it
     * accepts, without the extension, sorted. Read anew each time, so a file added while the server runs is listed.
     */
    @Override
    public SceneCatalog scenes() {
        if (sceneDir == null) {
            return SceneCatalog.NONE;
        }
        TreeSet<String> names = new TreeSet<>();
        try (Stream<Path> files = Files.list(sceneDir)) {
            files.filter(Files::isRegularFile).map(file -> file.getFileName().toString()).forEach(file -> {
                String name = file.replaceFirst("\\.(yaml|yml)$", "");
                if (!name.equals(file) && name.matches(NAME_PATTERN) && !name.contains("..")) {
                    names.add(name);
                }
            });
        } catch (IOException | UncheckedIOException e) {
            LOG.warn("cannot list the scene directory {}: {}", sceneDir, e.toString());
            return new SceneCatalog(true, List.of());
        }
        return new SceneCatalog(true, List.copyOf(names));
    }

    /** A file of the scene directory for {@code name}, with or without its .yaml/.yml extension. */
    private Path sceneFile(String name) {
        if (sceneDir == null) {
            throw new IllegalArgumentException("LOAD_SCENE is off: this server was started without --scene-dir");
        }
        if (!name.matches(NAME_PATTERN) || name.contains("..")) {
            throw new IllegalArgumentException("scene name '" + name + "' must match " + NAME_PATTERN
                + " (a file name in the scene directory, no path)");
        }
        for (String candidate : new String[] {name, name + ".yaml", name + ".yml"}) {
            Path file = sceneDir.resolve(candidate);
            if (Files.isRegularFile(file)) {
                return file;
            }
        }
        throw new IllegalArgumentException("no scene '" + name + "' in the scene directory " + sceneDir);
    }

    /**
     * Builds the first scene's file again and swaps it in, as RESET_SCENE does, while the loop still runs that scene
     * (not one LOAD_SCENE brought since): what {@code run --reload} does when the file changes. Completes with null
     * once the new scene is in force, or with the reason it was not ({@value #NOT_THE_FIRST_SCENE}, or the build's
     * {@code SCENE:} error, the running scene untouched).
     */
    public CompletionStage<String> reloadFirstScene() {
        // Checked on the builder thread, in order with every LOAD_SCENE: one queued before it is seen.
        return replace(() -> {
            if (currentFactory() != first) {
                throw new SceneException(NOT_THE_FIRST_SCENE);
            }
            return first.build();
        }, null, new AppliedTick()).thenApply(outcome -> {
            if (outcome != null && !outcome.endsWith(NOT_THE_FIRST_SCENE)) {
                reloadFailed(outcome);
            }
            return outcome;
        });
    }

    /** Until the next scene is adopted, {@link #warnings()} also says that the saved file did not build, and why. */
    private synchronized void reloadFailed(String reason) {
        reloadFailure = "the scene file was saved but does not build, so the scene before it still runs: " + reason;
    }

    private synchronized SceneFactory currentFactory() {
        return current;
    }

    /**
     * Builds the scene on the builder thread, then enqueues the swap. {@code becomes} is what RESET_SCENE rebuilds
     * afterwards (null: unchanged).
     */
    private CompletionStage<String> replace(SceneFactory factory, SceneFactory becomes, AppliedTick applied) {
        return CompletableFuture.<CompletionStage<String>>supplyAsync(() -> {
            BuiltScene scene;
            try {
                scene = factory.build();
            } catch (SceneException e) {
                return done("SCENE: " + e.getMessage());
            } catch (RuntimeException e) {
                return done("SCENE: cannot build the scene: " + e);
            } catch (OutOfMemoryError e) {
                // The builder thread's allocation failed; the loop and its current scene are untouched.
                return done("SCENE: not enough memory to build the scene (max heap "
                    + Runtime.getRuntime().maxMemory() / (1 << 20) + " MB)");
            }
            List<String> warnings = warnings(scene);
            for (String warning : warnings) {
                LOG.warn(warning);
            }
            // The builder is one thread, the revision's only writer: a scene refused here takes no revision.
            long next = revision.get() + 1;
            ProtocolStreamFrames frames;
            try {
                frames = new ProtocolStreamFrames(scene, rateHz, stats, next);
            } catch (StreamFormatException e) {
                return done("SCENE: scene '" + scene.name() + "' cannot be streamed: " + e.getMessage()
                    + " (docs/stream-protocol.md, 2.3 Limits)");
            }
            revision.set(next);
            SnapshotExchange exchange = SnapshotExchange.forWorld(scene.haptic().world());
            LoopSnapshot snapshot = exchange.newSnapshot();
            StreamEpoch epoch = new StreamEpoch(exchange, frames);
            HandTarget hand = simulated ? scene.handTargets().get() : null;
            String refusal = offer(applied.recording(loop -> {
                loop.replaceScene(scene.haptic(), exchange, snapshot);
                if (hand != null && loop.device() instanceof SimulatedDevice stylus) {
                    stylus.setHandTarget(hand);
                }
                board.publish(epoch);
            }));
            if (refusal != null) {
                return done(refusal);
            }
            adopt(scene, becomes == null ? currentFactory() : becomes, next, warnings);
            // Answered once the loop has swapped and published a tick of the new scene (spec 3.1: the ACK comes once
            // the swap is done), not when the swap is offered.
            return whenPublished(() -> exchange.version() >= 2, null);
        }, builder).thenCompose(outcome -> outcome);
    }

    /** The build's own warnings, then the tool-stiffness checks against the device (when the server knows it). */
    private List<String> warnings(BuiltScene scene) {
        List<String> warnings = new ArrayList<>(scene.warnings());
        if (device != null) {
            warnings.addAll(ToolStiffness.warnings(scene.name(), scene.haptic(), device, rateHz));
        }
        return warnings;
    }

    /** The current scene's build warnings, as logged when it was built; and a failed reload of its file, if any. */
    @Override
    public synchronized SceneWarnings warnings() {
        if (reloadFailure == null) {
            return new SceneWarnings(sceneRevision, sceneWarnings);
        }
        List<String> lines = new ArrayList<>(sceneWarnings);
        lines.add(reloadFailure);
        return new SceneWarnings(sceneRevision, lines);
    }

    private synchronized void adopt(BuiltScene scene, SceneFactory factory, long revision, List<String> warnings) {
        current = factory;
        sceneRevision = revision;
        sceneWarnings = List.copyOf(warnings);
        reloadFailure = null;
        // The force scale is the loop's, and a new scene keeps it.
        parameters = SceneParameters.of(scene, rateHz, parameters == null ? 1.0 : parameters.value(FORCE_SCALE));
    }

    @Override
    public void close() {
        builder.shutdownNow();
    }
}
