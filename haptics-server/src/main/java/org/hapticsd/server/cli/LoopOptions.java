package org.hapticsd.server.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.function.DoubleConsumer;
import java.util.stream.Collectors;
import org.hapticsd.device.DeviceException;
import org.hapticsd.device.HapticDevice;
import org.hapticsd.device.link.LinkAddress;
import org.hapticsd.protocol.stream.StreamFormatException;
import org.hapticsd.server.ServerCommands;
import org.hapticsd.server.loop.TickSchedule;
import org.hapticsd.server.device.DeviceSelector;
import org.hapticsd.server.device.OpenedDevice;
import org.hapticsd.server.net.LoopStatsBoard;
import org.hapticsd.server.net.ProtocolStreamFrames;
import org.hapticsd.server.render.ToolStiffness;
import org.hapticsd.server.scene.BuiltScene;
import org.hapticsd.server.scene.DeviceSpec;
import org.hapticsd.server.scene.SceneBuilder;
import org.hapticsd.server.scene.SceneException;
import org.hapticsd.server.scene.SceneLoader;
import org.hapticsd.server.scene.SceneSpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Option;

/** Options shared by the commands that run the loop: which scene, which device, what rate. */
final class LoopOptions {
    private static final Logger LOG = LoggerFactory.getLogger(LoopOptions.class);
    static final String SIM_DEVICE = "sim";
    static final String REPLAY_PREFIX = DeviceSelector.REPLAY_PREFIX;

    @Option(names = "--scene", paramLabel = "FILE",
        description = "Scene file (YAML). Default: the embedded scenes/wall.yaml.")
    Path scene;

    @Option(names = "--device", paramLabel = "DEVICE", defaultValue = SIM_DEVICE,
        description = "Device to drive: sim (the simulated stylus), replay:FILE (a tick recording played back), "
            + "serial:PORT[:BAUD] (a device on a serial port, default 1000000 baud), tcp:HOST:PORT (a device "
            + "behind a network bridge, or ./hapticsd emulate --tcp), emulator[:falcon|:touch] (the device "
            + "emulator in this process, over a real link). Default: ${DEFAULT-VALUE}.")
    String device;

    @Option(names = "--sim-mass", paramLabel = "KG",
        description = "Simulated stylus: moving mass (overrides device.massKg).")
    Double simMassKg;

    @Option(names = "--sim-damping", paramLabel = "NS/M",
        description = "Simulated stylus: mechanism damping (overrides device.dampingNspm).")
    Double simDampingNspm;

    @Option(names = "--hand-stiffness", paramLabel = "N/M",
        description = "Simulated stylus: virtual hand spring (overrides device.hand.stiffnessNpm).")
    Double handStiffnessNpm;

    @Option(names = "--hand-damping", paramLabel = "NS/M",
        description = "Simulated stylus: virtual hand damping (overrides device.hand.dampingNspm).")
    Double handDampingNspm;

    @Option(names = "--hand-target", paramLabel = "X,Y,Z", split = ",",
        description = "Simulated stylus: hold the virtual hand at this point in metres (device frame) instead of "
            + "following the scene's path.")
    double[] handTargetM;

    @Option(names = "--rate", paramLabel = "HZ",
        description = "Loop rate, " + TickSchedule.MIN_RATE_HZ + ".." + TickSchedule.MAX_RATE_HZ
            + " Hz. Default: the scene's rateHz (1000).")
    Integer rateHz;

    /** Loads and builds the scene, or throws a {@link UsageException} naming file, line and field. */
    BuiltScene loadScene() {
        SceneLoader loader = new SceneLoader();
        try {
            SceneSpec spec = scene == null ? loader.loadEmbedded() : loader.load(scene);
            applyDeviceOverrides(spec.device());
            if (rateHz != null) {
                // Before the build: the deformable bodies' stability checks (and every Δt) are the rate's that runs.
                checkRate(rateHz);
                spec.setRateHz(rateHz);
            }
            return SceneBuilder.build(spec);
        } catch (SceneException e) {
            String overrides = overridesGiven();
            throw new UsageException(e.getMessage() + (overrides.isEmpty() ? "" : " (with " + overrides + ")"));
        } catch (UsageException e) {
            // A bad --sim-* or --hand-* value: it names its flag, not the scene.
            throw e;
        } catch (RuntimeException e) {
            // Not a refusal the loader or builder wrote, yet caused by this scene's content: still a bad scene.
            throw new UsageException(sceneName() + ": cannot build the scene: " + Main.oneLine(e));
        } catch (OutOfMemoryError e) {
            throw SceneLoadFailure.notEnoughMemory(sceneName());
        }
    }

    /**
     * What the stream's RESET_SCENE rebuilds: {@link #loadScene}, whose refusal (a {@link UsageException} naming
     * file, line and field) becomes the scene refusal the ACK quotes, so its reason is the message alone and not
     * {@code cannot build the scene: org.hapticsd...UsageException: ...} (a tester's, after the file went bad).
     */
    ServerCommands.SceneFactory sceneFactory() {
        return () -> {
            try {
                return loadScene();
            } catch (UsageException e) {
                throw new SceneException(e.getMessage(), e);
            }
        };
    }

    /**
     * Refuses, as a bad scene (exit 2), a scene the stream cannot describe: more bodies than a SCENE message holds,
     * a hull or mesh over its limits, a SCENE over 1 MiB (docs/stream-protocol.md, 2.3). Called before the stream
     * starts, so the user learns it at once rather than after the warm-up.
     */
    void requireStreamable(BuiltScene built, int rateHz) {
        try {
            new ProtocolStreamFrames(built, rateHz, new LoopStatsBoard());
        } catch (StreamFormatException e) {
            throw new UsageException(sceneName() + ": scene '" + built.name() + "' cannot be streamed: "
                + e.getMessage() + " (docs/stream-protocol.md, 2.3 Limits): make it smaller, or run with --no-stream");
        }
    }

    private String sceneName() {
        return scene == null ? "embedded default scene" : scene.toString();
    }

    /** A scene that could not be loaded for a reason other than its content (memory): exit code 1, one line. */
    static final class SceneLoadFailure extends RuntimeException {
        SceneLoadFailure(String message) {
            super(message, null, false, false);
        }

        /** {@code what} (a scene file, or a script's scene) did not fit the JVM's heap. */
        /** The heap ran out while running, not while building: what to give, without blaming the scene. */
        static SceneLoadFailure notEnoughMemoryToRun(String what) {
            return new SceneLoadFailure(what + ": not enough memory to run (max heap "
                + Runtime.getRuntime().maxMemory() / (1024 * 1024) + " MB): give the JVM more heap (HAPTICSD_JAVA_OPTS, "
                + "e.g. -Xmx2g)");
        }

        static SceneLoadFailure notEnoughMemory(String what) {
            return new SceneLoadFailure(what + ": not enough memory to build the scene (max heap "
                + Runtime.getRuntime().maxMemory() / (1024 * 1024) + " MB): give the JVM more heap (HAPTICSD_JAVA_OPTS, "
                + "e.g. -Xmx2g) or make the scene smaller");
        }
    }

    /** Command-line values for the simulated stylus, checked by the same setters as the scene file's. */
    private void applyDeviceOverrides(DeviceSpec device) {
        override("--sim-mass", simMassKg, device::setMassKg);
        override("--sim-damping", simDampingNspm, device::setDampingNspm);
        override("--hand-stiffness", handStiffnessNpm, device.hand()::setStiffnessNpm);
        override("--hand-damping", handDampingNspm, device.hand()::setDampingNspm);
        if (handTargetM != null) {
            try {
                device.hand().setTarget(handTargetM);
            } catch (IllegalArgumentException e) {
                throw new UsageException("--hand-target: expected X,Y,Z in metres: " + e.getMessage());
            }
            device.hand().setPath(List.of());
        }
    }

    /** The --sim-* and --hand-* flags given, as typed, so a scene refused after them names them too. */
    private String overridesGiven() {
        StringBuilder given = new StringBuilder();
        if (rateHz != null) {
            given.append("--rate ").append(rateHz);
        }
        appendOverride(given, "--sim-mass", simMassKg);
        appendOverride(given, "--sim-damping", simDampingNspm);
        appendOverride(given, "--hand-stiffness", handStiffnessNpm);
        appendOverride(given, "--hand-damping", handDampingNspm);
        if (handTargetM != null) {
            given.append(given.length() == 0 ? "" : " ").append("--hand-target ").append(Arrays.stream(handTargetM)
                .mapToObj(Double::toString).collect(Collectors.joining(",")));
        }
        return given.toString();
    }

    private static void appendOverride(StringBuilder given, String option, Double value) {
        if (value != null) {
            given.append(given.length() == 0 ? "" : " ").append(option).append(' ').append(value);
        }
    }

    private static void override(String option, Double value, DoubleConsumer setter) {
        if (value == null) {
            return;
        }
        try {
            setter.accept(value);
        } catch (IllegalArgumentException e) {
            throw new UsageException(option + ": " + e.getMessage());
        }
    }

    int rateHz(BuiltScene built) {
        int rate = rateHz == null ? built.rateHz() : rateHz;
        checkRate(rate);
        return rate;
    }

    static void checkRate(int rate) {
        if (rate < TickSchedule.MIN_RATE_HZ || rate > TickSchedule.MAX_RATE_HZ) {
            throw new UsageException("--rate must be " + TickSchedule.MIN_RATE_HZ + ".." + TickSchedule.MAX_RATE_HZ
                + " Hz, got " + rate);
        }
    }

    /**
     * Checks the {@code --device} name before anything is opened or created, and that a {@code replay:} recording is
     * a file that exists (its content is checked when it is opened).
     */
    void checkDevice() {
        try {
            DeviceSelector.check(device);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--device: " + e.getMessage());
        }
        // A serial port given as a path that does not exist cannot open: say so before the warm-up, not after it.
        if (LinkAddress.isLinkAddress(device)) {
            LinkAddress address = LinkAddress.parse(device);
            if (address.kind() == LinkAddress.Kind.SERIAL && address.target().startsWith("/")
                    && !Files.exists(Path.of(address.target()))) {
                throw new UsageException("--device " + device + ": no such port (" + address.target()
                    + " does not exist; `hapticsd devices` lists the serial ports)");
            }
            // Nor can a directory or a regular file (a tester's waited 2 s for "not a serial port (errno 21)").
            if (address.kind() == LinkAddress.Kind.SERIAL && address.target().startsWith("/")
                    && (Files.isDirectory(Path.of(address.target())) || Files.isRegularFile(Path.of(address.target())))) {
                throw new UsageException("--device " + device + ": " + address.target() + " is a "
                    + (Files.isDirectory(Path.of(address.target())) ? "directory" : "regular file")
                    + ", not a serial port (`hapticsd devices` lists the serial ports)");
            }
        }
        Path replay = replayFile();
        if (replay != null && Files.isDirectory(replay)) {
            throw new UsageException("--device " + device + ": " + replay + " is a directory, not a recording");
        }
        if (replay != null && !Files.exists(replay)) {
            throw new UsageException("--device " + device + ": recording " + replay + " not found");
        }
        if (replay != null) {
            // Read now, as the replay will read it: a file that is not a recording was refused only after the 7 s
            // warm-up (a tester). The rate is checked when the device opens, against the loop's.
            try {
                org.hapticsd.server.record.Recording.read(replay);
            } catch (java.io.IOException e) {
                throw new UsageException("--device " + device + ": " + e.getMessage());
            }
        }
    }

    /** The recording {@code --device replay:FILE} plays, or null for any other device. */
    Path replayFile() {
        if (device == null || !device.startsWith(REPLAY_PREFIX) || device.length() == REPLAY_PREFIX.length()) {
            return null;
        }
        return Path.of(device.substring(REPLAY_PREFIX.length()));
    }

    /**
     * Refuses (exit 2), before anything is created, an output file that is a file this run reads: the scene, a mesh
     * file of {@code built}, or the recording it replays. {@code simulate --record a.rec --device replay:a.rec} truncated the recording before
     * reading it, and with {@code run} the new recording replaced the one just played.
     */
    void refuseOverwritingInputs(String outputOption, Path output, BuiltScene built) {
        refuseSameFile(outputOption, output, "--scene", scene);
        refuseSameFile(outputOption, output, "--device " + REPLAY_PREFIX, replayFile());
        // A mesh the scene reads: simulate --out floor.obj replaced the scene's floor with a CSV (a tester).
        for (Path mesh : built.meshFiles()) {
            refuseSameFile(outputOption, output, "the scene", mesh);
        }
    }

    /** Refuses {@code output} when it is the same file as {@code input} (either may be null: nothing to compare). */
    static void refuseSameFile(String outputOption, Path output, String inputOption, Path input) {
        if (output != null && input != null && SameFile.test(output, input)) {
            throw new UsageException(outputOption + " " + output + ": is the file that " + inputOption + " reads ("
                + input + "); writing it would destroy it: choose another file");
        }
    }

    /** Opens the device named by {@code --device}, whatever kind; the loop will drive it in real time. */
    OpenedDevice openDevice(BuiltScene built, int rateHz) {
        return openDevice(built, rateHz, 0);
    }

    /**
     * As {@link #openDevice(BuiltScene, int)}, a link's threads and an in-process emulator's under the real-time FIFO
     * policy at {@code rtPriority} (0: normal), as the loop's ({@code --rt-priority}).
     */
    OpenedDevice openDevice(BuiltScene built, int rateHz, int rtPriority) {
        checkDevice();
        OpenedDevice opened;
        try {
            opened = DeviceSelector.open(device, built, rateHz, null, rtPriority);
        } catch (DeviceException | IllegalArgumentException e) {
            // A link's message starts with its own name ("tcp:host:port: ..."): say the flag's value once.
            String message = String.valueOf(e.getMessage());
            String detail = message.startsWith(device + ": ") ? message.substring(device.length() + 2) : message;
            if (detail == message && message.startsWith(device + ":") && message.indexOf(": ", device.length()) > 0) {
                // The link names itself with what the flag left to its default ("serial:X" opens "serial:X:1000000").
                detail = message.substring(message.indexOf(": ", device.length()) + 2);
            }
            if (e instanceof DeviceException && !device.startsWith(REPLAY_PREFIX)) {
                // A device named correctly that did not answer, refused the connection or speaks no common protocol
                // version is not misuse of the command (a tester's scripts read exit 2 as "my command line is wrong").
                throw new DeviceUnavailable("--device " + device + ": " + detail);
            }
            throw new UsageException("--device " + device + ": " + detail);
        }
        for (String warning : built.warnings()) {
            LOG.warn(warning);
        }
        for (String warning : ToolStiffness.warnings(built.name(), built.haptic(), opened.device().info(), rateHz)) {
            LOG.warn(warning);
        }
        return opened;
    }

    /**
     * A device on a link (serial, TCP, the in-process emulator) that could not be opened: nothing listening, no
     * answer, no common protocol version. Exit code 1, one line; a malformed {@code --device} or a recording that
     * cannot be replayed is misuse (exit 2).
     */
    static final class DeviceUnavailable extends RuntimeException {
        DeviceUnavailable(String message) {
            super(message, null, false, false);
        }
    }

    /**
     * Opens a device that can run on simulated time ({@code sim} or {@code replay:FILE}); a device on a link runs
     * on its own clock and cannot be simulated faster than real time.
     */
    HapticDevice openSimulatedTimeDevice(BuiltScene built, int rateHz) {
        checkDevice();
        if (!SIM_DEVICE.equals(device) && !device.startsWith(REPLAY_PREFIX)) {
            throw new UsageException("--device " + device + ": simulated time needs sim or replay:FILE; "
                + "use run for devices on a link");
        }
        return openDevice(built, rateHz).device();
    }

    static double positiveSeconds(String option, double seconds) {
        if (!(seconds > 0) || Double.isInfinite(seconds)) {
            throw new UsageException(option + " must be a positive number of seconds, got " + seconds);
        }
        return seconds;
    }

    /** {@code seconds} when it is finite and not negative; a {@link UsageException} naming the option otherwise. */
    static double nonNegativeSeconds(String option, double seconds) {
        if (!(seconds >= 0) || Double.isInfinite(seconds)) {
            throw new UsageException(option + " must be >= 0 seconds, got " + seconds);
        }
        return seconds;
    }
}
