package org.hapticsd.server.cli;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;
import org.HdrHistogram.Histogram;
import org.hapticsd.device.HapticDevice;
import org.hapticsd.physics.SpinRoundTrip;
import org.hapticsd.server.LoopAssembly;
import org.hapticsd.server.record.TickRecorder;
import org.hapticsd.server.loop.HapticLoop;
import org.hapticsd.server.loop.LoopSnapshot;
import org.hapticsd.server.loop.LoopStage;
import org.hapticsd.server.scene.BuiltScene;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code hapticsd simulate}: the same loop, stages and safety layer on a simulated clock, headless and as fast as
 * possible, one CSV row per tick. The column layout is a stable interface (docs/scenes.md).
 */
@Command(name = "simulate", mixinStandardHelpOptions = true,
    description = "Run the loop on a simulated clock as fast as possible and write one CSV row per tick.")
final class SimulateCommand implements java.util.concurrent.Callable<Integer> {

    @ParentCommand
    HapticsdCommand parent;

    @Mixin
    LoopOptions options = new LoopOptions();

    @Option(names = "--duration", paramLabel = "S", required = true, description = "Simulated seconds to run.")
    double durationS;

    @Option(names = "--out", paramLabel = "FILE.csv", required = true, description = "CSV file to write.")
    Path out;

    @Option(names = "--record", paramLabel = "FILE",
        description = "Also record every tick to FILE (format: docs/recording.md).")
    Path recordFile;

    @Option(names = "--lanes", paramLabel = "N", defaultValue = "1",
        description = "Threads per physics step: 1 (default), or 2 to split each step of a large scene over two "
            + "threads (the same run every time, but not the same numbers as one; docs/performance.md).")
    int lanes;

    @Override
    public Integer call() {
        LoopOptions.positiveSeconds("--duration", durationS);
        if (lanes != 1 && lanes != 2) {
            throw new UsageException("--lanes " + lanes + ": must be 1 or 2");
        }
        BuiltScene scene = options.loadScene();
        int rateHz = options.rateHz(scene);
        checkOutputDirectory(out);
        options.checkDevice();
        options.refuseOverwritingInputs("--out", out, scene);
        options.refuseOverwritingInputs("--record", recordFile, scene);
        Recorders.check(recordFile);
        if (recordFile != null && SameFile.test(recordFile, out)) {
            throw new UsageException("--record " + recordFile + ": is also the --out file: give each its own file");
        }
        long ticks = Math.round(durationS * rateHz);
        if (ticks < 1) {
            // 0.0001 s at 1 kHz wrote a CSV of no rows with exit 0.
            throw new UsageException("--duration " + durationS + ": shorter than one tick at " + rateHz + " Hz (at least "
                + 0.5 / rateHz + " s: the duration is rounded to whole ticks)");
        }
        checkRoomFor(out, ticks, scene);
        // The output file is created last, after every argument has been checked, so misuse never truncates
        // an existing file.
        // Simulated time: the loop may wait for the recorder, so the recording is complete whatever the disk.
        // The device first: the recording's header holds its ratings, and a replay that cannot start leaves no file.
        HapticDevice device = options.openSimulatedTimeDevice(scene, rateHz);
        TickRecorder recorder;
        try {
            recorder = Recorders.open(recordFile, scene, rateHz, device.info(), true);
        } catch (RuntimeException e) {
            device.close();
            throw e;
        }
        LoopAssembly assembly = simulatedAssembly(scene, device, rateHz, SystemNanoClock.INSTANCE);
        HapticLoop loop = assembly.loop();
        loop.setStepLanes(lanes);
        if (recorder != null) {
            loop.setTickSink(recorder);
        }
        double maxResidualNs = 0;
        int maxRows = 0;
        long written = 0;
        try (BufferedWriter csv = Files.newBufferedWriter(out)) {
            CsvTickWriter writer = new CsvTickWriter(csv, scene);
            writer.header();
            for (long k = 0; k < ticks; k++) {
                written = k;
                loop.tick(k * loop.periodNs());
                loop.afterTick(false);
                writer.row(loop.lastSnapshot());
                maxResidualNs = Math.max(maxResidualNs, loop.lastSnapshot().lcpResidualNs);
                maxRows = Math.max(maxRows, loop.lastSnapshot().lcpRows);
            }
        } catch (OutOfMemoryError e) {
            // The scene loaded, but the run needs more than the heap has left (a huge scene under a small -Xmx): one
            // line that says so and what the CSV holds, rather than the error's name and a stack frame.
            throw new LoopOptions.SceneLoadFailure("simulate: out of memory at tick " + written + " of " + ticks
                + " (max heap " + Runtime.getRuntime().maxMemory() / (1024 * 1024) + " MB): give the JVM more heap "
                + "(HAPTICSD_JAVA_OPTS, e.g. -Xmx2g) or make the scene smaller; " + out + " holds the ticks before it");
        } catch (IOException e) {
            throw new UsageException("--out " + out + ": cannot write: " + e.getMessage());
        } catch (UncheckedIOException e) {
            throw new UsageException("--out " + out + ": cannot write: " + e.getCause().getMessage());
        } finally {
            loop.shutdown();
            Recorders.close(recorder, parent.out());
        }
        // After the loop has ended lane 1's thread (the two threads alone on the two vCPUs), and not before the run,
        // when the compilers still share them: a cold start measured 1,577 ns before and 512 after.
        long roundTripNs = lanes == 2 ? spinRoundTripNs() : 0;
        PrintWriter err = parent.err();
        if (loop.errorCount() > 0) {
            err.println("hapticsd: " + Main.failedTicks(loop.errorCount(), loop.lastError()));
        }
        parent.out().printf(Locale.ROOT, "wrote %d ticks (%.3f s at %d Hz) to %s%n", ticks, ticks / (double) rateHz,
            rateHz, out);
        parent.out().printf(Locale.ROOT, "LCP: at most %d constraint rows per step, final residual at most %.3g N·s%n",
            maxRows, maxResidualNs);
        LoopSnapshot last = loop.lastSnapshot();
        if (last.droppedPairsTotal > 0 || last.droppedPointsTotal > 0) {
            // As run says it: a tester's pile with a small budget dropped points every tick and only the CSV's events
            // column showed it.
            parent.out().println("contacts dropped (contact budget full): " + last.droppedPairsTotal + " pairs, "
                + last.droppedPointsTotal + " points (docs/scenes.md, contact budget)");
        }
        if (lanes == 2) {
            // Whether the split happened: a scene too small for it, or a step that could not split, ran on one.
            parent.out().printf(Locale.ROOT, "physics: %d of %d steps split over two lanes%s%n", loop.splitSteps(),
                ticks, loop.splitSteps() == ticks ? "" : " (a step runs on one with fewer than 64 dynamic bodies, "
                    + "deformable or held bodies, sleeping on, more contacts than the budget, or a body crossing the "
                    + "cut; docs/performance.md)");
            // What the split's speed follows: how far apart the host runs the two threads' vCPUs right now.
            parent.out().printf(Locale.ROOT, "physics: spin round trip between two threads after the run %d ns%s%n",
                roundTripNs, roundTripNs > SpinRoundTrip.FAR_NS ? ": the two vCPUs are far apart, where a split step "
                    + "can be slower than one lane (docs/performance.md, thirty-eighth session)" : "");
        }
        assembly.safety().endOfRunLines().forEach(parent.out()::println);
        if (assembly.loop().passivitySummary() != null) {
            parent.out().println(assembly.loop().passivitySummary());
        }
        parent.out().flush();
        Histogram step = assembly.stats().sample().stageTime(LoopStage.STEP_PHYSICS).total();
        err.printf(Locale.ROOT, "step_us p50=%.3f p99=%.3f%n", StatsReport.us(step.getValueAtPercentile(50)),
            StatsReport.us(step.getValueAtPercentile(99)));
        err.flush();
        return loop.errorCount() > 0 ? Main.EXIT_FAILURE : Main.EXIT_OK;
    }

    /**
     * Refuses a run whose CSV cannot fit on the disk of {@code file}, before anything is written: every row holds
     * at least one byte per column (a value or its comma), so {@code ticks × columns} bytes is a lower bound, and
     * a duration whose bound already exceeds the free space would only end, hours later, in a full disk.
     */
    private static void checkRoomFor(Path file, long ticks, BuiltScene scene) {
        StringWriter header = new StringWriter();
        new CsvTickWriter(header, scene).header();
        long columns = header.toString().chars().filter(c -> c == ',').count() + 1;
        double leastBytes = (double) ticks * columns;
        long freeBytes;
        try {
            freeBytes = Files.getFileStore(file.toAbsolutePath().getParent()).getUsableSpace();
        } catch (IOException e) {
            return; // the store cannot say: a full disk is still reported as a write error
        }
        if (leastBytes > freeBytes) {
            throw new UsageException(String.format(Locale.ROOT, "--duration: %d ticks of %d columns need at least "
                + "%.3g GB for --out %s, more than the %.3g GB free on its disk", ticks, columns, leastBytes * 1e-9,
                file, freeBytes * 1e-9));
        }
    }

    private static void checkOutputDirectory(Path file) {
        Path parentDir = file.toAbsolutePath().getParent();
        if (parentDir != null && !Files.isDirectory(parentDir)) {
            throw new UsageException("--out " + file + ": directory " + parentDir + " does not exist");
        }
        if (Files.isDirectory(file)) {
            throw new UsageException("--out " + file + ": is a directory");
        }
    }

    /**
     * The loop of a simulated-clock run. It does not judge the physics step's wall-clock time against the tick:
     * nothing waits for the step, and a verdict from the wall clock (a first second of interpreted code, a busy
     * machine) put PHYSICS_BUDGET_CHANGED events on different ticks from run to run, so the CSV and the recording
     * of the same scene were not byte-identical. The step times still go to the stage timer ({@code step_us}).
     */
    static LoopAssembly simulatedAssembly(BuiltScene scene, HapticDevice device, int rateHz, NanoClock stageTimer) {
        LoopAssembly assembly = new LoopAssembly(scene, device, rateHz, stageTimer);
        assembly.loop().setJudgePhysicsBudget(false);
        return assembly;
    }

    /** The mean of 20,000 spin round trips between this thread and another, ns ({@link SpinRoundTrip}): 2–16 ms. */
    private static long spinRoundTripNs() {
        try (SpinRoundTrip roundTrip = new SpinRoundTrip()) {
            return roundTrip.meanNs(20_000);
        }
    }
}
