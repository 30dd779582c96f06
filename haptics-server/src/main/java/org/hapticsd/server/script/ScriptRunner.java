package org.hapticsd.server.script;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongFunction;
import org.agrona.concurrent.SystemNanoClock;
import org.hapticsd.device.DeviceException;
import org.hapticsd.device.Uninterruptibly;
import org.hapticsd.device.emulator.EmulatedDevice;
import org.hapticsd.device.emulator.EmulatorControl;
import org.hapticsd.device.link.LinkAddress;
import org.hapticsd.device.link.LinkStatistics;
import org.hapticsd.device.lockstep.LockstepClock;
import org.hapticsd.device.sim.DeferredStartHandTarget;
import org.hapticsd.device.sim.HandTarget;
import org.hapticsd.device.sim.ScriptedHand;
import org.hapticsd.device.sim.SimulatedDevice;
import org.hapticsd.device.sim.WaypointHandTarget;
import org.hapticsd.server.device.DeviceSelector;
import org.hapticsd.server.device.InProcessEmulator;
import org.hapticsd.server.device.OpenedDevice;
import org.hapticsd.server.JitWarmUp;
import org.hapticsd.server.LinkWarmUp;
import org.hapticsd.server.LoopAssembly;
import org.hapticsd.server.loop.HapticLoop;
import org.hapticsd.server.loop.LockstepRunner;
import org.hapticsd.server.loop.LoopCommand;
import org.hapticsd.server.loop.LoopRunner;
import org.hapticsd.server.loop.WaitStrategies;
import org.hapticsd.server.loop.LoopSnapshot;
import org.hapticsd.server.loop.TickSink;
import org.hapticsd.server.record.Recording;
import org.hapticsd.server.record.TickRecorder;
import org.hapticsd.server.SceneParameters;
import org.hapticsd.server.render.Numbers;
import org.hapticsd.server.render.ToolStiffness;
import org.hapticsd.server.safety.SafetyFault;
import org.hapticsd.server.safety.SafetyState;
import org.hapticsd.server.scene.BuiltScene;
import org.hapticsd.server.scene.Located;
import org.hapticsd.server.scene.SceneBuilder;
import org.hapticsd.server.scene.SceneException;
import org.hapticsd.server.scene.SceneLoader;
import org.hapticsd.server.scene.SceneSpec;

/**
 * Loads a device-in-the-loop test script, runs it in real time and checks its assertions.
 *
 * <p>The timeline's hand steps become the virtual hand's path (a hold jumps the target, a move is a straight line
 * over its duration), of the simulated stylus or of the emulator's, so no thread steers the hand during the run.
 * Faults (unplug, garbage, stall) are injected at their times by {@link FaultSchedule} on the script's thread.
 * Every tick is traced by a {@link TickTrace}, the loop's sink; assertions are checked after the run against the
 * trace, or for link checks against the link's statistics.
 */
public final class ScriptRunner {
    private final ThreadLocal<JsonLocation[]> lastList = ThreadLocal.withInitial(() -> new JsonLocation[2]);
    private final ObjectMapper mapper = SceneLoader.strictYamlMapper(lastList);
    private List<String> lastNotes = List.of();
    /** The tick of the last real-time run during which the emulator's hand path was started; -1 when none was. */
    private int lastHandStartTick = -1;
    private boolean sceneBuilt;
    /** Set by {@link #requestStop} (a signal handler's thread); read by the running script. */
    private volatile boolean stopRequested;
    /** The thread in {@link #run}, for {@link #requestStop} to wake from its wait. */
    private volatile Thread running;
    /** The real-time priority a real-time script's loop thread asks for (0: the normal policy). */
    private int rtPriority = LoopRunner.DEFAULT_RT_PRIORITY;
    /** Whether a real-time script's loop keeps its CPU awake ({@link LoopRunner#keepCpuAwake}; the CLI's default). */
    private boolean keepCpuAwake;
    /** Whether a real-time script's physics step stops its solver at the tick's deadline (the default). */
    private boolean solverDeadline = true;
    /** Where in the tick that deadline falls, as a share of the period ({@link HapticLoop#SOLVER_DEADLINE_SHARE}). */
    private double solverDeadlineShare = HapticLoop.SOLVER_DEADLINE_SHARE;
    /** The physics world's clock, a test's ({@link #setWorldClockForTest}); null: the system's. */
    private java.util.function.LongSupplier worldClock;

    /** A script that cannot be run as written: the message names the file, line and field (CLI exit 2). */
    public static final class ScriptException extends Exception {
        public ScriptException(String message) {
            super(message);
        }
    }

    /** Reads and checks a script. */
    public ScriptSpec load(Path file) throws ScriptException {
        String text;
        try {
            text = Files.readString(file);
        } catch (NoSuchFileException e) {
            throw new ScriptException(file + ": test script not found");
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new ScriptException(file + ": not UTF-8 text" + SceneLoader.firstInvalidUtf8(file));
        } catch (IOException e) {
            throw new ScriptException(file + ": cannot read: " + e.getMessage());
        }
        if (text.lines().allMatch(line -> line.isBlank() || line.strip().startsWith("#"))) {
            throw new ScriptException(file + ": test script is empty");
        }
        String alias = SceneLoader.findUnsupported(mapper, file.toString(), text);
        if (alias != null) {
            throw new ScriptException(alias);
        }
        ScriptSpec spec;
        lastList.get()[0] = null;
        try {
            spec = mapper.readValue(text, ScriptSpec.class);
        } catch (JsonProcessingException e) {
            throw new ScriptException(SceneLoader.describe(file.toString(), e, lastList.get()));
        }
        spec.keepText(text);
        check(file, text, spec);
        Path replayed = replayedFile(file, spec);
        if (replayed != null && Files.isDirectory(replayed)) {
            throw new ScriptException(file + spec.where("device") + ": device: recording " + replayed
                + " is a directory, not a tick recording");
        }
        if (replayed != null && !Files.exists(replayed)) {
            throw new ScriptException(file + spec.where("device") + ": device: recording " + replayed
                + " not found (a relative path is taken from the script's folder)");
        }
        return spec;
    }

    /**
     * The files a run of the script reads: the script, its scene file and its {@code replay:} recording, as far as
     * it has them. The command refuses to write any output over one of them.
     */
    public static List<Path> inputsOf(Path scriptFile, ScriptSpec spec) {
        List<Path> inputs = new ArrayList<>(List.of(scriptFile));
        if (spec.scene() != null) {
            inputs.add(scenePath(scriptFile, spec));
        }
        Path replayed = replayedFile(scriptFile, spec);
        if (replayed != null) {
            inputs.add(replayed);
        }
        return inputs;
    }

    /** The script's scene file, relative to the script's folder. */
    private static Path scenePath(Path scriptFile, ScriptSpec spec) {
        Path folder = scriptFile.toAbsolutePath().getParent();
        return folder == null ? Path.of(spec.scene()) : folder.resolve(spec.scene());
    }

    /** The {@code replay:} recording the script plays, its relative path taken from the script's folder; or null. */
    static Path replayedFile(Path scriptFile, ScriptSpec spec) {
        String device = deviceOf(scriptFile, spec);
        return device.startsWith(DeviceSelector.REPLAY_PREFIX)
            ? Path.of(device.substring(DeviceSelector.REPLAY_PREFIX.length())) : null;
    }

    /**
     * A {@code replay:} recording that could never be played is a malformed script, refused before anything runs
     * as a missing one is: one that is not a recording (corrupt, truncated, empty), or one made at another rate
     * than the loop's (one record is played per tick, so it would play faster or slower than it was recorded).
     * Read with the reader {@code simulate --device replay:} uses, so both refuse the same files.
     */
    private static void requireReplayable(Path scriptFile, ScriptSpec spec, int rateHz) throws ScriptException {
        Path file = replayedFile(scriptFile, spec);
        if (file == null) {
            return;
        }
        String at = scriptFile + spec.where("device") + ": device: recording " + file;
        int recordedHz;
        try {
            Recording recording = Recording.read(file);
            if (recording.recordCount() == 0) {
                throw new IOException(file + ": the recording holds no ticks");
            }
            recordedHz = recording.rateHz();
        } catch (IOException e) {
            String why = String.valueOf(e.getMessage());
            throw new ScriptException(at + " cannot be replayed: "
                + (why.startsWith(file + ": ") ? why.substring(file.toString().length() + 2) : why));
        }
        if (recordedHz != rateHz) {
            throw new ScriptException(at + " was made at " + recordedHz + " Hz and the loop runs at " + rateHz
                + " Hz: one record is played per tick, so it would play at the wrong speed; give rateHz: "
                + recordedHz + " (or a scene at " + recordedHz + " Hz)");
        }
    }

    private static void check(Path file, String text, ScriptSpec spec) throws ScriptException {
        String device = spec.device();
        boolean emulator = device.startsWith(DeviceSelector.EMULATOR);
        boolean linked = emulator || LinkAddress.isLinkAddress(device);
        boolean handScriptable = emulator || DeviceSelector.SIM.equals(device);
        if ((!Double.isNaN(spec.emulatorWatchdogMs()) || spec.emulatorTransport() != null) && !emulator) {
            throw new ScriptException(file + topLevelKey(text, "emulator")
                + ": emulator: settings for the emulator need device: emulator, not '"
                + device + "'");
        }
        boolean simulatedTime = emulator || DeviceSelector.SIM.equals(device)
            || device.startsWith(DeviceSelector.REPLAY_PREFIX);
        if (spec.isLockstep() && !simulatedTime) {
            throw new ScriptException(file + topLevelKey(text, "timing")
                + ": timing: lockstep needs device: emulator, sim or replay:FILE (devices that can advance with the "
                + "loop); a real device keeps its own time, so '" + device + "' runs in real time");
        }
        if (spec.hostTimingGiven() && Double.isNaN(spec.hostBudgetMs())) {
            throw new ScriptException(file + topLevelKey(text, "hostTiming")
                + ": hostTiming.budgetMs: missing (milliseconds)");
        }
        if (spec.isLockstep() && spec.hostTimingGiven()) {
            throw new ScriptException(file + topLevelKey(text, "hostTiming")
                + ": hostTiming: no meaning in lockstep (time is simulated: the host's "
                + "timing cannot change the verdict); leave it out or use timing: realtime");
        }
        double previousS = -1;
        double previousButtonsS = -1;
        double previousForceS = -1;
        double previousSetS = -1;
        for (int i = 0; i < spec.timeline().size(); i++) {
            ScriptSpec.Step step = spec.timeline().get(i);
            String at = "timeline[" + i + "]";
            if (Double.isNaN(step.atS())) {
                throw error(file, step, at + ".at", "missing (seconds from the start)");
            }
            if (step.kinds() != 1) {
                throw error(file, step, at, "give exactly one of hold, moveTo, press, release, buttons, "
                    + "renderForce, set, unplug, garbage or stall");
            }
            if (step.frequencyHz() != 0 && step.renderForceN() == null) {
                throw error(file, step, at + ".frequencyHz", "only a renderForce step has a frequency");
            }
            if ((step.movesHand() || step.buttons() >= 0) && !handScriptable) {
                throw error(file, step, at, "the hand of device '" + device + "' cannot be scripted (use device sim "
                    + "or emulator, or move an external emulator's hand with ./hapticsd emulate --hand-path)");
            }
            if ((step.unplugS() > 0 || step.garbageBytes() > 0) && !emulator) {
                throw error(file, step, at, "unplug and garbage need device: emulator, not '" + device + "'");
            }
            if (!Double.isNaN(spec.durationS()) && step.atS() >= spec.durationS()) {
                throw error(file, step, at + ".at", String.format(Locale.ROOT, "%.3f s is not before the run's end "
                    + "(duration %.3f s): the step would never happen", step.atS(), spec.durationS()));
            }
            if (step.set() != null) {
                ScriptSpec.SetSpec set = step.set();
                if (set.name() == null || Double.isNaN(set.value())) {
                    throw error(file, set, at + ".set", "give both name (bodies.NAME.FIELD) and value");
                }
                // Set in timeline order: a grating's amplitude is judged with the period the steps before it left.
                if (!(step.atS() > previousSetS)) {
                    throw error(file, step, at + ".at", "times must increase along the timeline's set steps");
                }
                previousSetS = step.atS();
                continue;
            }
            if (step.renderForceN() != null) {
                // A known force may start or change during a move or a hold; force steps follow each other.
                if (!(step.atS() > previousForceS)) {
                    throw error(file, step, at + ".at", "times must increase along the timeline's renderForce steps");
                }
                previousForceS = step.atS();
                continue;
            }
            if (step.buttons() >= 0) {
                // Buttons may change during a move or a hold; button steps follow each other.
                if (!(step.atS() > previousButtonsS)) {
                    throw error(file, step, at + ".at", "times must increase along the timeline's buttons steps");
                }
                previousButtonsS = step.atS();
                continue;
            }
            if (!step.movesHand()) {
                // Faults may happen at any time, during a move or a hold: only hand steps must follow each other.
                continue;
            }
            if (step.moveToM() != null && step.overS() == 0) {
                throw error(file, step, at + ".over", "missing (seconds the move takes)");
            }
            if (step.moveToM() == null && step.overS() != 0) {
                throw error(file, step, at + ".over", "only a moveTo takes time; this step happens at its at");
            }
            if (!(step.atS() > previousS)) {
                throw error(file, step, at + ".at", "times must increase along the timeline");
            }
            previousS = step.atS() + (step.moveToM() != null ? step.overS() : 0);
        }
        for (int i = 0; i < spec.assertions().size(); i++) {
            ScriptSpec.Assertion a = spec.assertions().get(i);
            String at = "assertions[" + i + "]";
            if (a.kinds() != 1) {
                throw error(file, a, at, "give exactly one of force, toolPosition, bodyPosition, safety, contact, "
                    + "connected, maxOverruns, linkLatency, maxFramesLost, framesLost, reconnects or "
                    + "deviceWatchdogTrips");
            }
            if (a.isLinkCheck() && !linked) {
                throw error(file, a, at, "link checks need a device on a link (emulator, serial:, tcp:), not '"
                    + device + "'");
            }
            if (a.linkLatency() != null && Double.isNaN(a.linkLatency().maxMs())) {
                throw error(file, a, at + ".linkLatency.maxMs", "missing (milliseconds)");
            }
            if (a.linkLatency() != null && spec.isLockstep()) {
                throw error(file, a, at + ".linkLatency", "measures the host's real round trip; in lockstep time is "
                    + "simulated (use timing: realtime for this check)");
            }
            boolean instant = !Double.isNaN(a.atS());
            boolean interval = !Double.isNaN(a.fromS()) || !Double.isNaN(a.toS());
            if (a.isWholeRun() && (instant || interval)) {
                throw error(file, a, at, "this check covers the whole run: no at, from or to");
            }
            if (!a.isWholeRun() && instant == interval) {
                throw error(file, a, at, "give either at, or from and to");
            }
            if (interval && Double.isNaN(a.fromS())) {
                throw error(file, a, at + ".from", "missing (seconds from the start: an interval needs from and to)");
            }
            if (interval && Double.isNaN(a.toS())) {
                throw error(file, a, at + ".to", "missing (seconds from the start: an interval needs from and to)");
            }
            if (interval && !(a.toS() > a.fromS())) {
                throw error(file, a, at, "an interval needs from < to");
            }
            if (a.force() != null && a.force().minN() == Double.NEGATIVE_INFINITY
                && a.force().maxN() == Double.POSITIVE_INFINITY) {
                throw error(file, a, at + ".force", "give min, max or both (newtons)");
            }
            ScriptSpec.PositionBound position = a.toolPosition() != null ? a.toolPosition() : a.bodyPosition();
            String positionField = at + (a.toolPosition() != null ? ".toolPosition" : ".bodyPosition");
            if (position != null && position.axis() == null) {
                throw error(file, a, positionField + ".axis", "missing (x, y or z)");
            }
            if (position != null && position.minM() == Double.NEGATIVE_INFINITY
                && position.maxM() == Double.POSITIVE_INFINITY) {
                throw error(file, a, positionField, "give min, max or both (metres)");
            }
            if (position != null && position.minM() > position.maxM()) {
                throw error(file, a, positionField, "min " + position.minM() + " m is above max "
                    + position.maxM() + " m: no position could pass");
            }
            if (a.bodyPosition() != null && position.body() == null) {
                throw error(file, a, positionField + ".body", "missing (the name of a body of the scene)");
            }
            if (a.toolPosition() != null && position.body() != null) {
                throw error(file, a, positionField + ".body", "only bodyPosition names a body; toolPosition checks "
                    + "the tool");
            }
            String[] countNames = {"framesLost", "reconnects", "deviceWatchdogTrips"};
            ScriptSpec.CountBound[] counts = {a.framesLost(), a.reconnects(), a.deviceWatchdogTrips()};
            for (int c = 0; c < counts.length; c++) {
                if (counts[c] != null && !counts[c].given()) {
                    throw error(file, a, at + "." + countNames[c], "give min, max or both (a count)");
                }
                if (counts[c] != null && counts[c].min() > counts[c].max()) {
                    throw error(file, a, at + "." + countNames[c], "min " + counts[c].min() + " is above max "
                        + counts[c].max() + ": no count could pass");
                }
            }
            if (a.force() != null && a.force().minN() > a.force().maxN()) {
                throw error(file, a, at + ".force", "min " + a.force().minN() + " N is above max " + a.force().maxN()
                    + " N: no force could pass");
            }
            double endS = instant ? a.atS() : a.toS();
            if (!Double.isNaN(spec.durationS()) && (instant || interval) && endS > spec.durationS()) {
                throw error(file, a, at + (instant ? ".at" : ".to"), String.format(Locale.ROOT, "%.3f s is after the "
                    + "run's end (duration %.3f s): nothing would be measured there", endS, spec.durationS()));
            }
        }
    }

    /** How an ERROR's reason begins when the script's device could not be opened (JUnit type DeviceUnavailable). */
    static final String DEVICE_UNAVAILABLE = "the device could not be opened";
    /** How an ERROR's reason begins when a lockstep link broke during the run (JUnit type LinkBroken). */
    static final String LINK_BROKEN = "the run could not be completed";
    /** How an assertion of a script stopped by a signal begins (JUnit error type Interrupted). */
    static final String INTERRUPTED = "interrupted";

    /**
     * Where a top-level key of the script starts, as ":LINE:1", or "" if it is not found as such (a flow-style
     * document): the script's top-level mapping is not {@link Located}, so its fields are found by their text.
     */
    static String topLevelKey(String text, String key) {
        int line = 0;
        for (String row : text.split("\n", -1)) {
            line++;
            if (row.startsWith(key + ":")) {
                return ":" + line + ":1";
            }
        }
        return "";
    }

    private static ScriptException error(Path file, Located where, String field, String problem) {
        return new ScriptException(file + ":" + where.line() + ":" + where.column() + ": " + field + ": " + problem);
    }

    /**
     * The loop commands of the {@code set} steps, at their times, for {@code scene} (the one the loop will run): each
     * name one of the scene's parameters (the force scale, the contact's, the coupling's, the bodies' material
     * effects), each value within what the scene file sets, judged in timeline order ({@link SceneParameters}, the
     * stream's SET_PARAMETER rule).
     */
    private static List<FaultSchedule.Timed> parameterChanges(Path file, ScriptSpec spec, BuiltScene scene, int rateHz)
            throws ScriptException {
        SceneParameters parameters = SceneParameters.of(scene, rateHz, 1.0);
        List<FaultSchedule.Timed> changes = new ArrayList<>();
        for (int i = 0; i < spec.timeline().size(); i++) {
            ScriptSpec.SetSpec set = spec.timeline().get(i).set();
            if (set == null) {
                continue;
            }
            String at = "timeline[" + i + "].set";
            if (!parameters.has(set.name())) {
                throw error(file, set, at + ".name", "'" + set.name() + "' is not a parameter of scene '"
                    + scene.name() + "'; it has " + String.join(", ", parameters.names()));
            }
            String refused = parameters.refusal(set.name(), set.value());
            if (refused != null) {
                throw error(file, set, at + ".value", refused.substring(refused.indexOf(':') + 2));
            }
            changes.add(new FaultSchedule.Timed(spec.timeline().get(i).atS(), parameters.command(set.name(),
                set.value())));
            parameters.accepted(set.name(), set.value());
        }
        return changes;
    }

    /** Builds the script's scene: its file relative to the script's folder, or the embedded default. */
    public BuiltScene scene(Path scriptFile, ScriptSpec spec) throws ScriptException {
        SceneLoader loader = new SceneLoader();
        try {
            SceneSpec scene;
            if (spec.scene() == null) {
                scene = loader.loadEmbedded();
            } else {
                scene = loader.load(scenePath(scriptFile, spec));
            }
            if (spec.rateHz() != null) {
                // Before the build: the deformable bodies' stability checks (and every Δt) are the rate's that runs.
                scene.setRateHz(spec.rateHz());
            }
            BuiltScene built = SceneBuilder.build(scene);
            requireEmulatorKeepsUp(scriptFile, spec, built);
            int rateHz = spec.rateHz() != null ? spec.rateHz() : built.rateHz();
            requireTraceFits(scriptFile, spec, rateHz);
            requireReplayable(scriptFile, spec, rateHz);
            requireBudgetOfATick(scriptFile, spec, rateHz);
            requireSampledForces(scriptFile, spec, rateHz);
            return built;
        } catch (SceneException e) {
            throw new ScriptException(scriptFile + spec.where("scene") + ": scene: " + e.getMessage());
        }
    }

    /** A {@code renderForce} sine at most half the loop's rate: sampled once a tick, a faster one would alias. */
    private static void requireSampledForces(Path scriptFile, ScriptSpec spec, int rateHz) throws ScriptException {
        for (int i = 0; i < spec.timeline().size(); i++) {
            ScriptSpec.Step step = spec.timeline().get(i);
            if (step.frequencyHz() > rateHz / 2.0) {
                throw error(scriptFile, step, "timeline[" + i + "].frequencyHz", String.format(Locale.ROOT,
                    "%s Hz is above half the loop's rate (%d Hz): sampled once a tick, the force would alias",
                    Numbers.significant(step.frequencyHz()), rateHz));
            }
        }
    }

    /**
     * The in-process emulator streams STATE at the rate its profile picks for the loop's (at most 1000 Hz). A loop
     * so much faster that more than the scene's {@code safety.watchdogTicks} ticks pass between two states goes SAFE
     * on its own watchdog and never renders force: refused before anything runs, with the rates that would do.
     */
    private static void requireEmulatorKeepsUp(Path scriptFile, ScriptSpec spec, BuiltScene scene)
            throws ScriptException {
        String device = spec.device();
        if (!device.startsWith(DeviceSelector.EMULATOR)) {
            return;
        }
        int rateHz = spec.rateHz() != null ? spec.rateHz() : scene.rateHz();
        org.hapticsd.device.emulator.EmulatorProfile profile = DeviceSelector.profile(device);
        int deviceHz = 125 << profile.selectRateIndex(rateHz);
        int ticksPerState = (int) Math.ceil((double) rateHz / deviceHz);
        int watchdogTicks = scene.safety().watchdogTicks();
        if (ticksPerState > watchdogTicks) {
            // The rate is the script's when it gives one, else its scene's (the embedded one's: name the device).
            String where = spec.rateHz() != null ? spec.where("rateHz")
                : !spec.where("scene").isEmpty() ? spec.where("scene") : spec.where("device");
            throw new ScriptException(scriptFile + where + ": rateHz: the in-process emulator ('" + profile.name()
                + "') sends STATE at " + deviceHz + " Hz at most, so a " + rateHz + " Hz loop would see one every "
                + ticksPerState + " ticks, more than the scene's safety.watchdogTicks (" + watchdogTicks + "): the "
                + "loop watchdog would hold it SAFE; use rateHz up to " + deviceHz * watchdogTicks
                + ", or raise watchdogTicks");
        }
    }

    /** Runs the script and returns the checked assertions, in script order. */
    public List<AssertionResult> run(Path scriptFile, ScriptSpec spec) throws ScriptException {
        return run(scriptFile, spec, null);
    }

    /**
     * As {@link #run(Path, ScriptSpec)}, also recording every tick to {@code recording} (docs/recording.md) when it
     * is not null, so a failed run can be examined tick by tick. In real time (the default) the loop, the link and
     * the device keep wall-clock time; with {@code timing: lockstep} the loop and the in-process emulator advance
     * together on simulated time ({@link LockstepRunner}), so the verdict is the same on any machine.
     */
    public List<AssertionResult> run(Path scriptFile, ScriptSpec spec, Path recording) throws ScriptException {
        running = Thread.currentThread();
        try {
            return runScript(scriptFile, spec, recording);
        } finally {
            running = null;
        }
    }

    /**
     * Any thread (Ctrl-C's handler): the running script stops at its next wait (real time) or tick (lockstep), its
     * device is closed at zero force as at its end, and its assertions come back as not checked. Later scripts are
     * the caller's to skip ({@link #stopRequested}).
     */
    public void requestStop() {
        stopRequested = true;
        Thread thread = running;
        if (thread != null) {
            // Unparked, not interrupted: an interrupt stays on the thread, and the next file it opens or writes (the
            // script's recording) closes itself with ClosedByInterruptException (a tester: "cannot record: null").
            LockSupport.unpark(thread);
        }
    }

    /** Whether {@link #requestStop} was called. */
    public boolean stopRequested() {
        return stopRequested;
    }

    private List<AssertionResult> runScript(Path scriptFile, ScriptSpec spec, Path recording) throws ScriptException {
        lastNotes = List.of();
        lastHandStartTick = -1;
        sceneBuilt = false;
        BuiltScene scene = scene(scriptFile, spec);
        sceneBuilt = true;
        List<FaultSchedule.Timed> changes = parameterChanges(scriptFile, spec, scene,
            spec.rateHz() != null ? spec.rateHz() : scene.rateHz());
        int[] traced = tracedBodies(scriptFile, spec, scene);
        int rateHz = spec.rateHz() != null ? spec.rateHz() : scene.rateHz();
        double durationS = durationS(spec);
        boolean lockstep = spec.isLockstep();
        if (!lockstep) {
            // Real time: the tick's code, and the link's and the emulator's, compiled before the first deadline.
            JitWarmUp.run(scene(scriptFile, spec), rateHz, JitWarmUp.DEFAULT_TICKS, false);
            LinkWarmUp.run(rateHz);
        }

        boolean hasHandSteps = spec.timeline().stream().anyMatch(ScriptSpec.Step::movesHand);
        HandTarget handPath = hasHandSteps ? path(spec.timeline(), scene) : scene.handTargets().get();
        // The emulator's hand runs on the emulator's clock: its path starts when the loop does.
        DeferredStartHandTarget emulatorHand = new DeferredStartHandTarget(handPath);
        LockstepClock lockstepClock = lockstep ? new LockstepClock(0L) : null;
        OpenedDevice opened;
        try {
            long watchdogNs = Double.isNaN(spec.emulatorWatchdogMs()) ? EmulatedDevice.WATCHDOG_MIN_TIMEOUT_NS
                : Math.round(spec.emulatorWatchdogMs() * 1e6);
            InProcessEmulator.Transport transport = spec.emulatorTransport() == null ? InProcessEmulator.Transport.AUTO
                : InProcessEmulator.Transport.valueOf(spec.emulatorTransport().toUpperCase(Locale.ROOT));
            opened = DeviceSelector.open(deviceOf(scriptFile, spec), scene, rateHz, emulatorHand, watchdogNs,
                transport, lockstepClock, lockstep ? 0 : rtPriority);
        } catch (DeviceException e) {
            // A device that cannot be reached (nothing on the port, a link that does not answer) is not a malformed
            // script: this script's checks cannot be made, the other scripts still run, and the report is written.
            String why = DEVICE_UNAVAILABLE + ": " + scriptFile + ": device: " + e.getMessage();
            List<AssertionResult> unchecked = new java.util.ArrayList<>();
            for (int i = 0; i < spec.assertions().size(); i++) {
                unchecked.add(new AssertionResult(nameOf(spec.assertions().get(i), i), false, "nothing", "a run")
                    .asError(why));
            }
            if (unchecked.isEmpty()) {
                unchecked.add(new AssertionResult("device", false, "nothing", "a run").asError(why));
            }
            return unchecked;
        }
        // In the script's notes, beside its verdicts, rather than the log: a wall that buzzes explains a failed
        // force assertion.
        List<String> stiffnessWarnings = new ArrayList<>(scene.warnings());
        stiffnessWarnings.addAll(ToolStiffness.warnings(scene.name(), scene.haptic(), opened.device().info(), rateHz));
        if (opened.device() instanceof SimulatedDevice stylus && hasHandSteps) {
            stylus.setHandTarget(handPath);
        }
        LoopAssembly assembly = new LoopAssembly(scene, opened.device(), rateHz, SystemNanoClock.INSTANCE);
        // In lockstep, time is simulated: a wall-clock verdict on the step would differ from run to run.
        assembly.loop().setJudgePhysicsBudget(!lockstep);
        assembly.loop().setSolverDeadline(solverDeadline);
        assembly.loop().setSolverDeadlineShare(solverDeadlineShare);
        if (worldClock != null) {
            assembly.loop().world().setClock(worldClock);
        }
        TickTrace trace = new TickTrace((int) TickTrace.capacity(durationS, rateHz), traced,
            tracedBodyNames(spec));
        TickRecorder recorder = null;
        if (recording != null) {
            try {
                recorder = TickRecorder.start(recording, scene.name(), rateHz,
                    org.hapticsd.server.record.Recording.Ratings.of(opened.device().info()),
                    TickRecorder.DEFAULT_RING_BYTES, false);
            } catch (IOException e) {
                opened.close();
                throw new ScriptException(recording + ": cannot record: " + e.getMessage());
            }
        }
        TickSink sink = recorder == null ? trace : TickSink.tee(trace, recorder);
        // In real time the emulator's hand path starts on the loop thread, with the first tick: script time 0. Started
        // once LoopRunner.start() had returned, it began 17-28 ms after the first tick on an idle machine and about
        // 1 s after with both cores busy (start() waits for the keep-awake companion), and press-wall.yaml failed
        // without a stall. In lockstep the first tick's callback starts it (runLockstep).
        assembly.loop().setTickSink(lockstep ? sink : TickSink.tee(snapshot -> emulatorHand.start(), sink));
        EmulatorControl emulator = opened.emulator() == null ? null : opened.emulator().control();
        LinkStatistics link;
        String loopPolicy = null;
        long emulatorWatchdogTrips = -1;
        EmulatorControl.HostTiming emulatorTiming = null;
        try {
            if (lockstep) {
                runLockstep(spec, changes, assembly, trace, emulator, emulatorHand, lockstepClock, rateHz, durationS,
                    () -> stopRequested);
            } else {
                FaultSchedule faults = new FaultSchedule(spec.timeline(), changes, assembly.commands(), emulator,
                    FaultSchedule.parkingStall(trace));
                LoopRunner runner = new LoopRunner(assembly.loop(), rateHz, WaitStrategies.HYBRID,
                    SystemNanoClock.INSTANCE, rtPriority).keepCpuAwake(keepCpuAwake);
                runner.start();
                try {
                    faults.run(firstTickNs(assembly), durationS, () -> stopRequested);
                } finally {
                    runner.close();
                    if (rtPriority > 0 && !runner.isRealTime()) {
                        loopPolicy = "loop thread: " + runner.policy();
                    }
                    if (keepCpuAwake && runner.loopCpu() < 0) {
                        // Asked for and refused (the wait parks): say why, as a refused policy is said.
                        loopPolicy = (loopPolicy == null ? "loop thread: " : loopPolicy + "; ") + runner.placement();
                    }
                    // The link's and the emulator's threads ask for the same priority, and may be refused alike.
                    if (rtPriority > 0 && opened.link() != null
                            && !opened.link().threadPolicy().startsWith("real-time")) {
                        loopPolicy = (loopPolicy == null ? "" : loopPolicy + "; ") + opened.threadPolicies();
                    }
                }
            }
        } finally {
            link = opened.linkStatistics();
            opened.close();
            if (emulator != null) {
                // The emulator has stopped: its thread's counters and logs are final and visible.
                emulatorWatchdogTrips = emulator.watchdogTrips();
                emulatorTiming = emulator.hostTiming();
            }
            if (recorder != null) {
                try {
                    recorder.close();
                } catch (IOException e) {
                    throw new ScriptException(recording + ": recording failed: " + e.getMessage());
                }
            }
        }
        if (!lockstep && emulator != null) {
            lastHandStartTick = tickAt(trace, emulatorHand.startRequestedNs() - assembly.loop().firstTickNs());
        }
        lastNotes = notes(trace, assembly, rateHz);
        lastNotes.addAll(stiffnessWarnings);
        String budget = lockstep ? null : budgetBeyondWatchdog(spec, scene, rateHz);
        if (budget != null) {
            lastNotes.add(budget);
        }
        if (loopPolicy != null) {
            // Why the host's stalls may have reached this run: the loop was not under the real-time policy.
            lastNotes.add(loopPolicy);
        }
        List<AssertionResult> results = new ArrayList<>();
        long periodNs = assembly.loop().periodNs();
        HostTimingCheck timing = lockstep ? null
            : new HostTimingCheck(trace, emulatorTiming, assembly.loop().firstTickNs(),
                HostTimingCheck.scriptFaults(spec.timeline()));
        String harnessError = stopRequested
            ? String.format(java.util.Locale.ROOT, INTERRUPTED + ": the run was stopped (Ctrl-C or SIGTERM) after %.2f s of "
                + "its %.2f s", trace.count / (double) rateHz, durationS)
            : lockstep ? lockstepFailure(assembly) : null;
        for (int i = 0; i < spec.assertions().size(); i++) {
            ScriptSpec.Assertion a = spec.assertions().get(i);
            AssertionResult result = a.isLinkCheck() ? LinkChecks.check(a, i, link, emulatorWatchdogTrips)
                : check(a, i, trace, periodNs);
            if (harnessError != null) {
                result = result.asError(harnessError);
            } else if (timing != null) {
                HostTimingCheck.Window window = timing.window(windowStartS(spec, a), windowEndS(a, durationS));
                result = result.withHostTiming(window.describe());
                String stall = Double.isNaN(spec.hostBudgetMs()) ? null : window.worst(spec.hostBudgetMs());
                if (stall != null) {
                    result = result.asError(stall);
                }
            }
            results.add(result);
        }
        return results;
    }

    /**
     * The lockstep run: the loop on its own thread (as in real time, it owns the device), its clock the lockstep
     * clock, the script's faults applied before the tick they fall on.
     */
    private static void runLockstep(ScriptSpec spec, List<FaultSchedule.Timed> changes, LoopAssembly assembly,
                                    TickTrace trace, EmulatorControl emulator, DeferredStartHandTarget emulatorHand,
                                    LockstepClock clock, int rateHz, double durationS,
                                    java.util.function.BooleanSupplier stop) throws ScriptException {
        LongFunction<LoopCommand> stall = stallNs -> loop -> {
            trace.markInjectedStall();
            clock.advanceBy(stallNs);
        };
        FaultSchedule faults = new FaultSchedule(spec.timeline(), changes, assembly.commands(), emulator, stall);
        LockstepRunner runner = new LockstepRunner(assembly.loop(), rateHz, clock);
        long durationNs = Math.round(durationS * 1e9);
        Throwable[] failure = new Throwable[1];
        Thread loopThread = new Thread(() -> {
            try {
                runner.run(durationNs, sinceFirstNs -> {
                    if (stop.getAsBoolean()) {
                        throw new LinkBrokeStop();
                    }
                    if (lockstepFailure(assembly) != null) {
                        // The link broke on the last tick: the run ends there. Going on ticked the rest of the script
                        // on a dead link, and the recording and the measured values said the device stayed connected.
                        throw new LinkBrokeStop();
                    }
                    if (sinceFirstNs == 0) {
                        emulatorHand.start();
                    }
                    faults.runDue(sinceFirstNs);
                });
            } catch (LinkBrokeStop stopped) {
                // Reported by lockstepFailure: every verdict of the run is an error.
            } catch (Throwable t) {
                failure[0] = t;
            }
        }, LoopRunner.THREAD_NAME);
        loopThread.setPriority(Thread.MAX_PRIORITY);
        loopThread.start();
        Uninterruptibly.join(loopThread);
        if (failure[0] != null) {
            throw new ScriptException("lockstep run failed: " + failure[0]);
        }
    }

    /**
     * What the run did that an assertion may not show and a reader of a failure needs: the physics over its budget,
     * contacts dropped over the contact budget, the thermal limit holding the force, the safety faults raised. A
     * tester's pile at 4 kHz failed on OVERRUNS and the report never said the physics was too heavy for the rate.
     */
    private static List<String> notes(TickTrace trace, LoopAssembly assembly, int rateHz) {
        List<String> notes = new ArrayList<>();
        if (trace.overBudgetTicks > 0) {
            notes.add(String.format(Locale.ROOT, "physics over budget on %d ticks (%.3f s): step p99 up to %.0f us, "
                + "budget %.0f us", trace.overBudgetTicks, trace.overBudgetTicks / (double) rateHz,
                trace.worstStepP99Ns / 1e3, trace.budgetNs / 1e3));
        }
        if (trace.droppedPairs > 0 || trace.droppedPoints > 0) {
            notes.add("contacts dropped (contact budget full): " + trace.droppedPairs + " pairs, " + trace.droppedPoints
                + " points");
        }
        long cut = assembly.loop().lastSnapshot().solverDeadlineTicks;
        if (cut > 0) {
            notes.add(String.format(Locale.ROOT, "contact solver stopped at the tick's deadline on %d ticks (%.3f s)",
                cut, cut / (double) rateHz));
        }
        long dropped = assembly.loop().lastSnapshot().droppedSteps;
        if (dropped > 0) {
            notes.add(String.format(Locale.ROOT, "physics step dropped on %d ticks (the machine ran it too slow for"
                + " the tick): simulated time %.3f s behind the loop's", dropped, dropped / (double) rateHz));
        }
        notes.addAll(assembly.safety().endOfRunLines());
        if (assembly.loop().passivitySummary() != null) {
            notes.add(assembly.loop().passivitySummary());
        }
        return notes;
    }

    /**
     * The real-time FIFO priority the loop thread of a {@code timing: realtime} script asks for, or 0 for the normal
     * policy ({@link LoopRunner}); lockstep scripts have no loop thread of their own.
     */
    public void setRtPriority(int rtPriority) {
        this.rtPriority = org.hapticsd.device.ThreadPolicy.checkedPriority(rtPriority);
    }

    /**
     * Whether the loop thread of a {@code timing: realtime} script keeps its CPU awake ({@link LoopRunner#keepCpuAwake}).
     */
    public void setKeepCpuAwake(boolean on) {
        this.keepCpuAwake = on;
    }

    /**
     * Whether the physics step of a {@code timing: realtime} script stops its contact solver at the tick's deadline
     * ({@link org.hapticsd.server.loop.HapticLoop#setSolverDeadline}; true unless set). A lockstep script never has
     * the deadline.
     */
    public void setSolverDeadline(boolean on) {
        this.solverDeadline = on;
    }

    /**
     * The solver's deadline at {@code share} of the tick ({@link HapticLoop#setSolverDeadlineShare}): 0 stops every
     * step's sweeps after their first, which makes the deadline's note certain on a scene that needs more sweeps.
     * For tests: the CLI keeps the loop's default.
     */
    void setSolverDeadlineShare(double share) {
        this.solverDeadlineShare = share;
    }

    /**
     * The physics world's clock ({@link org.hapticsd.physics.PhysicsWorld#setClock}): a test's makes the step's stage
     * times, and so its dropped steps, what the test says. For tests: the CLI keeps the system's.
     */
    void setWorldClockForTest(java.util.function.LongSupplier nanoClock) {
        this.worldClock = nanoClock;
    }

    /** Whether the last {@link #run} got past building its scene: what ran out of memory after it is not the scene. */
    public boolean sceneBuilt() {
        return sceneBuilt;
    }

    /** The notes of the last {@link #run}: what the run did beyond its assertions (empty when nothing to say). */
    public List<String> lastNotes() {
        return lastNotes;
    }

    /**
     * The tick (0 is the first) of the last real-time run with the in-process emulator during which its hand path
     * was started, which script time 0 requires to be the first; -1 when there was none.
     */
    int lastHandStartTick() {
        return lastHandStartTick;
    }

    /** The tick running at {@code sinceFirstTickNs} after the first began: the last to begin at or before it. */
    private static int tickAt(TickTrace trace, long sinceFirstTickNs) {
        int tick = -1;
        while (tick + 1 < trace.count && trace.timeNs[tick + 1] <= sinceFirstTickNs) {
            tick++;
        }
        return tick;
    }

    /** Ends a lockstep run early: its link broke, or a stop was requested. */
    private static final class LinkBrokeStop extends RuntimeException {
        private static final long serialVersionUID = 1L;

        LinkBrokeStop() {
            super(null, null, false, false);
        }
    }

    /** A lockstep link that broke (socat gone, a port error) makes every verdict of the run unknowable. */
    private static String lockstepFailure(LoopAssembly assembly) {
        Throwable error = assembly.loop().lastError();
        if (error != null && String.valueOf(error.getMessage()).startsWith("lockstep link")) {
            return LINK_BROKEN + ": " + error.getMessage();
        }
        return null;
    }

    /**
     * Where an assertion's dependence on the host's timing starts: at the hand step in force when its window
     * opens. What the loop shows from then on can be the result of anything that happened since the hand last
     * changed what it does (a trip there holds the start-up gate closed for as long as the hand keeps pressing);
     * before it, the hand itself reset the situation. A whole-run check depends on the whole run.
     */
    static double windowStartS(ScriptSpec spec, ScriptSpec.Assertion a) {
        if (a.isWholeRun()) {
            return 0.0;
        }
        double startS = Double.isNaN(a.atS()) ? a.fromS() : a.atS();
        double stepS = 0.0;
        for (ScriptSpec.Step step : spec.timeline()) {
            if (step.movesHand() && step.atS() <= startS) {
                stepS = Math.max(stepS, step.atS());
            }
        }
        return stepS;
    }

    static double windowEndS(ScriptSpec.Assertion a, double durationS) {
        if (a.isWholeRun()) {
            return durationS;
        }
        return Double.isNaN(a.atS()) ? a.toS() : a.atS();
    }

    /**
     * When the loop's first tick ran, on {@code System.nanoTime()}: script times count from it, as the trace's do.
     * Waits for the first snapshot (at most 2 s; after that the start of waiting is used).
     */
    private static long firstTickNs(LoopAssembly assembly) {
        LoopSnapshot snapshot = assembly.snapshots().newSnapshot();
        long waitStartNs = System.nanoTime();
        while (System.nanoTime() - waitStartNs < 2_000_000_000L) {
            if (assembly.snapshots().read(snapshot) != 0) {
                return System.nanoTime() - snapshot.timeNs;
            }
            LockSupport.parkNanos(100_000L);
        }
        return waitStartNs;
    }

    /** How long the script runs: its {@code duration}, or 0.2 s after its last step or assertion time. */
    static double durationS(ScriptSpec spec) {
        return Double.isNaN(spec.durationS()) ? defaultDurationS(spec) : spec.durationS();
    }

    /**
     * Every tick of the run is kept for the assertions ({@link TickTrace}): a run longer than the trace may hold is
     * refused before anything runs, naming what makes it that long (its {@code duration}, or else the latest step
     * or assertion time), instead of running out of memory once the run starts.
     */
    /**
     * A host-timing budget shorter than one tick period is broken by every interval between two ticks, so every
     * real-time assertion would be an ERROR (a tester's {@code budgetMs: 0.001}): refused before anything runs.
     */
    private static void requireBudgetOfATick(Path scriptFile, ScriptSpec spec, int rateHz) throws ScriptException {
        double periodMs = 1000.0 / rateHz;
        if (Double.isNaN(spec.hostBudgetMs()) || spec.hostBudgetMs() >= periodMs) {
            return;
        }
        // The period to four significant digits (3.333 ms at 300 Hz); the least budget rounded up, so it is accepted.
        String period = new java.math.BigDecimal(periodMs).round(new java.math.MathContext(4))
            .stripTrailingZeros().toPlainString();
        String least = new java.math.BigDecimal(periodMs)
            .round(new java.math.MathContext(4, java.math.RoundingMode.CEILING)).stripTrailingZeros().toPlainString();
        throw new ScriptException(scriptFile + spec.where("hostTiming") + ": hostTiming.budgetMs: "
            + java.math.BigDecimal.valueOf(spec.hostBudgetMs()).stripTrailingZeros().toPlainString()
            + " ms is shorter than one tick period at " + rateHz + " Hz (" + period + " ms): every interval between "
            + "two ticks would break it and every assertion would be an ERROR; give at least " + least + " ms");
    }

    /**
     * A host-timing budget longer than the scene's loop watchdog: a stall between the two trips the watchdog, and
     * the force and safety assertions then FAIL where a longer stall would have made them an ERROR (a tester's first
     * real-time script, on the default scene's 3-tick watchdog with a 20 ms budget, failed on a 9 ms stall). Said in
     * the script's notes; null when the budget is within the watchdog.
     */
    static String budgetBeyondWatchdog(ScriptSpec spec, BuiltScene scene, int rateHz) {
        double watchdogMs = scene.safety().watchdogTicks() * 1000.0 / rateHz;
        if (Double.isNaN(spec.hostBudgetMs()) || spec.hostBudgetMs() <= watchdogMs) {
            return null;
        }
        return String.format(Locale.ROOT, "hostTiming budget %s ms is longer than the scene's loop watchdog (%d ticks, "
            + "%s ms at %d Hz): a host stall between the two trips the watchdog, and force and safety assertions FAIL "
            + "where a longer stall would be an ERROR; give a budget under the watchdog or a scene with a longer "
            + "safety.watchdogTicks (tests/dil/scenes/wall-ci.yaml has 25)",
            java.math.BigDecimal.valueOf(spec.hostBudgetMs()).stripTrailingZeros().toPlainString(),
            scene.safety().watchdogTicks(),
            java.math.BigDecimal.valueOf(watchdogMs).stripTrailingZeros().toPlainString(), rateHz);
    }

    /** The distinct bodies the {@code bodyPosition} assertions name, in first-named order. */
    private static String[] tracedBodyNames(ScriptSpec spec) {
        java.util.LinkedHashSet<String> names = new java.util.LinkedHashSet<>();
        for (ScriptSpec.Assertion a : spec.assertions()) {
            if (a.bodyPosition() != null && a.bodyPosition().body() != null) {
                names.add(a.bodyPosition().body());
            }
        }
        return names.toArray(new String[0]);
    }

    /**
     * The world indices of {@link #tracedBodyNames}, once the scene is built; a name the scene does not have is
     * refused, naming the assertion and the scene's bodies.
     */
    private static int[] tracedBodies(Path scriptFile, ScriptSpec spec, BuiltScene scene) throws ScriptException {
        String[] names = tracedBodyNames(spec);
        int[] indices = new int[names.length];
        for (int k = 0; k < names.length; k++) {
            int at = scene.bodyNames().indexOf(names[k]);
            if (at < 0) {
                for (int i = 0; i < spec.assertions().size(); i++) {
                    ScriptSpec.Assertion a = spec.assertions().get(i);
                    if (a.bodyPosition() != null && names[k].equals(a.bodyPosition().body())) {
                        throw error(scriptFile, a, "assertions[" + i + "].bodyPosition.body", "no body named '"
                            + names[k] + "' in scene '" + scene.name() + "' (its bodies: "
                            + String.join(", ", scene.bodyNames()) + "; the tool is checked with toolPosition)");
                    }
                }
            }
            indices[k] = scene.bodyIndices()[at];
        }
        return indices;
    }

    private static void requireTraceFits(Path scriptFile, ScriptSpec spec, int rateHz) throws ScriptException {
        double durationS = durationS(spec);
        long ticks = TickTrace.capacity(durationS, rateHz);
        int bodies = tracedBodyNames(spec).length;
        long maxTicks = TickTrace.maxTicks(bodies);
        if (ticks <= maxTicks) {
            return;
        }
        String why = String.format(Locale.ROOT, "a run of %s s at %d Hz traces %d ticks, more than the %d a script "
            + "may (%s s at this rate): every tick is kept in memory for the assertions (%d bytes each%s); split it "
            + "into shorter scripts", seconds(durationS), rateHz, ticks, maxTicks,
            seconds((double) (maxTicks - rateHz) / rateHz), TickTrace.bytesPerTick(bodies),
            bodies == 0 ? "" : ", with the " + bodies + " bodies bodyPosition traces");
        if (!Double.isNaN(spec.durationS())) {
            throw new ScriptException(scriptFile + spec.where("duration") + ": duration: " + why);
        }
        Located latest = null;
        String field = null;
        double latestS = -1;
        for (int i = 0; i < spec.timeline().size(); i++) {
            ScriptSpec.Step step = spec.timeline().get(i);
            double endS = step.atS() + step.overS() + Math.max(0, step.unplugS());
            if (endS > latestS) {
                latest = step;
                field = "timeline[" + i + "]";
                latestS = endS;
            }
        }
        for (int i = 0; i < spec.assertions().size(); i++) {
            ScriptSpec.Assertion a = spec.assertions().get(i);
            double endS = Double.isNaN(a.atS()) ? (Double.isNaN(a.toS()) ? 0 : a.toS()) : a.atS();
            if (endS > latestS) {
                latest = a;
                field = "assertions[" + i + "]";
                latestS = endS;
            }
        }
        throw error(scriptFile, latest, field, "ends the run (no duration given): " + why);
    }

    /**
     * Seconds as the script wrote them: at least the millisecond (as every time in the output), and as many more
     * digits as the value has, so that a window set to 0.1 ms is not printed as 0.000 s.
     */
    static String seconds(double s) {
        String exact = java.math.BigDecimal.valueOf(s).stripTrailingZeros().toPlainString();
        int dot = exact.indexOf('.');
        return dot >= 0 && exact.length() - dot - 1 > 3 ? exact : String.format(Locale.ROOT, "%.3f", s);
    }

    private static double defaultDurationS(ScriptSpec spec) {
        double endS = 0;
        for (ScriptSpec.Step step : spec.timeline()) {
            // A step ends after its move, or once the cable is plugged back in.
            endS = Math.max(endS, step.atS() + step.overS() + Math.max(0, step.unplugS()));
        }
        for (ScriptSpec.Assertion a : spec.assertions()) {
            endS = Math.max(endS, Double.isNaN(a.atS()) ? (Double.isNaN(a.toS()) ? 0 : a.toS()) : a.atS());
        }
        return endS + 0.2;
    }

    /**
     * The timeline's hand: positions as waypoints (hold = a jump, two points 1 µs apart; move = a straight
     * segment), and from each press or release on, the hand pushes or lets go until the next hold or move; from each
     * buttons step on, it holds those buttons down.
     */
    private static ScriptedHand path(List<ScriptSpec.Step> steps, BuiltScene scene) {
        List<ScriptedHand.Phase> phases = new ArrayList<>();
        int mode = HandTarget.HOLDS;
        for (ScriptSpec.Step step : steps) {
            if (step.pressN() != null) {
                double[] f = step.pressN();
                phases.add(new ScriptedHand.Phase(step.atS(), HandTarget.PRESSES, f[0], f[1], f[2]));
                mode = HandTarget.PRESSES;
            } else if (step.release()) {
                phases.add(new ScriptedHand.Phase(step.atS(), HandTarget.RELEASED, 0, 0, 0));
                mode = HandTarget.RELEASED;
            } else if (step.positionsHand() && mode != HandTarget.HOLDS) {
                phases.add(new ScriptedHand.Phase(step.atS(), HandTarget.HOLDS, 0, 0, 0));
                mode = HandTarget.HOLDS;
            }
        }
        List<ScriptedHand.Buttons> buttons = new ArrayList<>();
        for (ScriptSpec.Step step : steps) {
            if (step.buttons() >= 0) {
                buttons.add(new ScriptedHand.Buttons(step.atS(), step.buttons()));
            }
        }
        return new ScriptedHand(waypoints(steps, scene), phases, buttons);
    }

    /** The position steps as waypoints: hold = a jump (two points 1 µs apart), move = a straight segment. */
    private static WaypointHandTarget waypoints(List<ScriptSpec.Step> steps, BuiltScene scene) {
        List<WaypointHandTarget.Waypoint> points = new ArrayList<>();
        double[] current = {scene.simDevice().initialXM(), scene.simDevice().initialYM(), scene.simDevice().initialZM()};
        points.add(new WaypointHandTarget.Waypoint(0.0, current[0], current[1], current[2]));
        for (ScriptSpec.Step step : steps) {
            if (!step.positionsHand()) {
                continue;
            }
            double[] to = step.holdM() != null ? step.holdM() : step.moveToM();
            double startS = step.atS();
            double endS = step.holdM() != null ? startS + 1e-6 : startS + step.overS();
            if (startS > points.get(points.size() - 1).timeS()) {
                points.add(new WaypointHandTarget.Waypoint(startS, current[0], current[1], current[2]));
            }
            points.add(new WaypointHandTarget.Waypoint(endS, to[0], to[1], to[2]));
            current = to;
        }
        return new WaypointHandTarget(points, false);
    }

    /**
     * The script's device, with a {@code replay:} recording's relative path taken from the script's folder, as the
     * scene's is: a suite run from another directory finds the same file.
     */
    static String deviceOf(Path scriptFile, ScriptSpec spec) {
        String device = spec.device();
        if (!device.startsWith(DeviceSelector.REPLAY_PREFIX)) {
            return device;
        }
        Path recording = Path.of(device.substring(DeviceSelector.REPLAY_PREFIX.length()));
        Path folder = scriptFile.toAbsolutePath().getParent();
        return recording.isAbsolute() || folder == null ? device
            : DeviceSelector.REPLAY_PREFIX + folder.resolve(recording);
    }

    static String nameOf(ScriptSpec.Assertion a, int index) {
        return a.name() != null ? a.name() : "assertion " + (index + 1);
    }

    private static AssertionResult check(ScriptSpec.Assertion a, int index, TickTrace trace, long periodNs) {
        String name = nameOf(a, index);
        if (a.maxOverruns() != null) {
            return new AssertionResult(name, trace.overruns <= a.maxOverruns(), trace.overruns + " overruns",
                "at most " + a.maxOverruns());
        }
        boolean instant = !Double.isNaN(a.atS());
        long fromNs = Math.round((instant ? a.atS() : a.fromS()) * 1e9);
        long toNs = Math.round((instant ? a.atS() : a.toS()) * 1e9);
        int first = -1;
        int last = -1;
        for (int i = 0; i < trace.count; i++) {
            boolean inside = instant ? trace.timeNs[i] <= fromNs : trace.timeNs[i] >= fromNs && trace.timeNs[i] <= toNs;
            if (inside) {
                if (!instant && first < 0) {
                    first = i;
                }
                last = i;
            }
        }
        if (instant) {
            // The tick at the instant, or the last one before it: the loop skips deadlines it missed rather than
            // bursting, so after a host stall the instant may fall in a gap, and the state then is the last tick's.
            // An instant past the end of the run (no later tick, and none within a period) has no tick.
            boolean covered = last >= 0 && (fromNs - trace.timeNs[last] < periodNs || last + 1 < trace.count);
            first = covered ? last : -1;
        }
        // As written: a window narrower than a tick, rounded to the millisecond, would read as one the ticks cover.
        String window = instant ? "at " + seconds(a.atS()) + " s"
            : "from " + seconds(a.fromS()) + " s to " + seconds(a.toS()) + " s";
        if (first < 0) {
            return new AssertionResult(name, false, "no tick " + window, "ticks " + window);
        }
        if (!instant && trace.timeNs[trace.count - 1] + periodNs < toNs) {
            // The run ended inside the window (a link that broke, a run cut short): what it did not reach was not
            // measured, so the window cannot pass.
            return new AssertionResult(name, false, String.format(Locale.ROOT, "the run ended at %.3f s, inside the "
                + "window", trace.timeNs[trace.count - 1] * 1e-9), "ticks " + window);
        }
        if (a.safety() != null) {
            for (int i = first; i <= last; i++) {
                String state = SafetyState.ALL[trace.safety[i]].name();
                if (!state.equals(a.safety())) {
                    return new AssertionResult(name, false, state + " " + timeOf(trace, i) + lastFault(trace, i),
                        a.safety() + " " + window);
                }
            }
            return new AssertionResult(name, true, a.safety() + " " + window, a.safety() + " " + window);
        }
        if (a.connected() != null) {
            for (int i = first; i <= last; i++) {
                if (trace.connected[i] != a.connected()) {
                    return new AssertionResult(name, false, (trace.connected[i] ? "connected " : "disconnected ")
                        + timeOf(trace, i), (a.connected() ? "connected " : "disconnected ") + window);
                }
            }
            String state = a.connected() ? "connected " : "disconnected ";
            return new AssertionResult(name, true, state + window, state + window);
        }
        if (a.contact() != null) {
            boolean touched = false;
            for (int i = first; i <= last && !touched; i++) {
                touched = trace.contacts[i] > 0;
            }
            return new AssertionResult(name, touched == a.contact(), (touched ? "contact " : "no contact ") + window,
                (a.contact() ? "contact " : "no contact ") + window);
        }
        if (a.toolPosition() != null || a.bodyPosition() != null) {
            ScriptSpec.PositionBound bound = a.toolPosition() != null ? a.toolPosition() : a.bodyPosition();
            int k = a.bodyPosition() == null ? -1 : java.util.Arrays.asList(trace.bodyNames).indexOf(bound.body());
            float[] values = switch (bound.axis()) {
                case "x" -> k < 0 ? trace.toolX : trace.bodyX[k];
                case "y" -> k < 0 ? trace.toolY : trace.bodyY[k];
                default -> k < 0 ? trace.toolZ : trace.bodyZ[k];
            };
            double low = Double.POSITIVE_INFINITY;
            double high = Double.NEGATIVE_INFINITY;
            for (int i = first; i <= last; i++) {
                low = Math.min(low, values[i]);
                high = Math.max(high, values[i]);
            }
            boolean passed = low >= bound.minM() && high <= bound.maxM();
            return new AssertionResult(name, passed, String.format(Locale.ROOT, "%s.%s %s [%.6f, %.6f] m",
                k < 0 ? "tool" : bound.body(), bound.axis(), window, low, high), String.format(Locale.ROOT, "within [%s, %s] m",
                bound.minM() == Double.NEGATIVE_INFINITY ? "-inf" : Double.toString(bound.minM()),
                bound.maxM() == Double.POSITIVE_INFINITY ? "+inf" : Double.toString(bound.maxM())));
        }
        ScriptSpec.ForceBound bound = a.force();
        double low = Double.POSITIVE_INFINITY;
        double high = Double.NEGATIVE_INFINITY;
        for (int i = first; i <= last; i++) {
            double value = component(trace, i, bound.axis(), bound.source().equals("delivered"));
            low = Math.min(low, value);
            high = Math.max(high, value);
        }
        boolean passed = low >= bound.minN() && high <= bound.maxN();
        String measured = String.format(Locale.ROOT, "%sforce.%s %s [%.4f, %.4f] N",
            bound.source().equals("delivered") ? "delivered " : "", bound.axis(), window, low, high)
            + (passed ? "" : lastFault(trace, last));
        String expected = String.format(Locale.ROOT, "within [%s, %s] N",
            bound.minN() == Double.NEGATIVE_INFINITY ? "-inf" : Double.toString(bound.minN()),
            bound.maxN() == Double.POSITIVE_INFINITY ? "+inf" : Double.toString(bound.maxN()));
        return new AssertionResult(name, passed, measured, expected);
    }

    /** Why the output was last cut before tick {@code i}: the fault and time of the last tick spent SAFE. */
    private static String lastFault(TickTrace trace, int i) {
        for (int k = i; k >= 0; k--) {
            if (trace.safety[k] == SafetyState.SAFE.ordinal()) {
                return " (last SAFE " + timeOf(trace, k) + ", fault " + SafetyFault.values()[trace.fault[k]] + ")";
            }
        }
        return "";
    }

    private static String timeOf(TickTrace trace, int i) {
        return String.format(Locale.ROOT, "at %.3f s", trace.timeNs[i] * 1e-9);
    }

    /** One axis, or the magnitude, of the commanded or the delivered force at tick {@code i}. */
    private static double component(TickTrace trace, int i, String axis, boolean delivered) {
        double x = delivered ? trace.deliveredX[i] : trace.forceX[i];
        double y = delivered ? trace.deliveredY[i] : trace.forceY[i];
        double z = delivered ? trace.deliveredZ[i] : trace.forceZ[i];
        return switch (axis) {
            case "x" -> x;
            case "y" -> y;
            case "z" -> z;
            default -> Math.sqrt(x * x + y * y + z * z);
        };
    }
}
