package org.hapticsd.server.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import org.agrona.concurrent.SystemNanoClock;
import org.HdrHistogram.Histogram;
import org.hapticsd.device.link.LinkStatistics;
import org.hapticsd.server.JitWarmUp;
import org.hapticsd.server.LoopAssembly;
import org.hapticsd.server.SceneFileWatcher;
import org.hapticsd.server.StreamService;
import org.hapticsd.server.device.OpenedDevice;
import org.hapticsd.server.loop.HapticLoop;
import org.hapticsd.server.loop.LoopRunner;
import org.hapticsd.server.loop.LoopSnapshot;
import org.hapticsd.server.loop.LoopStats;
import org.hapticsd.server.loop.PhysicsBudget;
import org.hapticsd.server.loop.SnapshotExchange;
import org.hapticsd.server.loop.TickSink;
import org.hapticsd.server.loop.WaitStrategies;
import org.hapticsd.server.loop.WaitStrategy;
import org.hapticsd.server.net.LoopStatsBoard;
import org.hapticsd.server.net.StreamServer;
import org.hapticsd.server.net.StreamEpoch;
import org.hapticsd.server.net.StreamServerConfig;
import org.hapticsd.server.net.StreamSource;
import org.hapticsd.server.record.TickRecorder;
import org.hapticsd.server.safety.SafetyConfig;
import org.hapticsd.server.scene.BuiltScene;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code hapticsd run}: the loop in real time until Ctrl-C or {@code --duration}, with a status line a second. */
@Command(name = "run", mixinStandardHelpOptions = true,
    description = "Run the haptic loop in real time until Ctrl-C (or --duration), printing a status line every second.")
final class RunCommand implements java.util.concurrent.Callable<Integer> {
    private static final Logger LOG = LoggerFactory.getLogger(RunCommand.class);

    @ParentCommand
    HapticsdCommand parent;

    @Mixin
    LoopOptions options = new LoopOptions();

    @Mixin
    StreamOptions stream = new StreamOptions();

    @Mixin
    RealTimeOption realTime = new RealTimeOption();

    @Mixin
    KeepAwakeOption keepAwake = new KeepAwakeOption();

    @Mixin
    SolverDeadlineOption solverDeadline = new SolverDeadlineOption();

    @Option(names = "--duration", paramLabel = "S", description = "Stop after S seconds. Default: run until Ctrl-C.")
    Double durationS;

    @Option(names = "--record", paramLabel = "FILE",
        description = "Record every tick to FILE (format: docs/recording.md).")
    Path recordFile;

    @Option(names = "--reload", description = "Watch the --scene file and, each time it is saved, build it again and "
        + "swap it in as RESET_SCENE does (off the loop, in one tick, through the safety gate); a file that does not "
        + "build is reported and the running scene kept. Needs the stream.")
    boolean reload;

    @Option(names = "--wait", paramLabel = "STRATEGY", defaultValue = "hybrid",
        description = "How the loop waits between ticks: hybrid, spin or sleep. Default: ${DEFAULT-VALUE}.")
    String waitName;

    @Override
    public Integer call() {
        PrintWriter out = parent.out();
        WaitStrategy wait = waitStrategy(waitName);
        int rtPriority = realTime.rtPriority();
        double limitS = durationS == null ? Double.POSITIVE_INFINITY : LoopOptions.positiveSeconds("--duration", durationS);
        BuiltScene scene = options.loadScene();
        int rateHz = options.rateHz(scene);
        options.checkDevice();
        options.refuseOverwritingInputs("--record", recordFile, scene);
        Recorders.check(recordFile);
        StreamServerConfig streamConfig = stream.disabled ? null : stream.config();
        if (reload && options.scene == null) {
            throw new UsageException("--reload watches the --scene file: give --scene FILE (the embedded default "
                + "scene has no file to edit)");
        }
        if (reload && streamConfig == null) {
            throw new UsageException("--reload swaps the scene as the stream's RESET_SCENE does: it cannot be used "
                + "with --no-stream");
        }
        if (streamConfig != null) {
            options.requireStreamable(scene, rateHz);
        }
        String noRoom = JitWarmUp.noRoomForACopy();
        if (noRoom == null) {
            LOG.info("compiling the tick on a throwaway copy of scene '{}' (at most {} s)", scene.name(),
                (JitWarmUp.MAX_DIRECT_NS + JitWarmUp.MAX_RUNNER_NS) / 1_000_000_000L);
            JitWarmUp.run(options.loadScene(), rateHz, JitWarmUp.DEFAULT_TICKS, streamConfig != null);
        } else {
            LOG.warn("no warm-up: {}; the tick is compiled while the loop runs, so its first seconds may overrun "
                + "(give the JVM more heap with HAPTICSD_JAVA_OPTS for a warm start)", noRoom);
        }
        OpenedDevice opened = options.openDevice(scene, rateHz, rtPriority);
        TickRecorder recorder;
        try {
            recorder = Recorders.open(recordFile, scene, rateHz, opened.device().info(), false);
        } catch (RuntimeException e) {
            opened.close();
            throw e;
        }
        SafetyConfig safetyConfig = scene.safety();
        if (opened.link() != null && opened.link().sessionRateHz() < rateHz) {
            // A state every few ticks is the device's rate, not a fault: the loop watchdog counts its periods.
            int deviceHz = opened.link().sessionRateHz();
            safetyConfig = safetyConfig.forDeviceRate(rateHz, deviceHz);
            LOG.warn("device {} streams at {} Hz, the loop runs at {} Hz: the loop watchdog allows {} ticks without a "
                + "new state (safety.watchdogTicks {} of the device's periods)", opened.name(), deviceHz, rateHz,
                safetyConfig.watchdogTicks(), scene.safety().watchdogTicks());
        }
        LoopAssembly assembly = new LoopAssembly(scene, opened.device(), rateHz, SystemNanoClock.INSTANCE,
            safetyConfig);
        LoopStatsBoard board = new LoopStatsBoard();
        StreamService stream = null;
        if (streamConfig != null) {
            try {
                stream = StreamService.start(assembly, streamConfig, board, options.sceneFactory(),
                    this.stream.sceneDir);
            } catch (IOException e) {
                opened.close();
                Recorders.close(recorder, out);
                throw new UsageException("stream: " + e.getMessage() + " (choose --http-port/--tcp-port, "
                    + "--tls-cert/--tls-key, or --no-stream)");
            }
            StreamServer server = stream.server();
            out.printf(Locale.ROOT, "stream: %s://%s:%d/ (WebSocket /ws)%s; command token %s%n",
                streamConfig.tls() == null ? "http" : "https", streamConfig.bindAddress(), server.httpPort(),
                server.tcpPort() < 0 ? "" : ", tcp " + streamConfig.bindAddress() + ":" + server.tcpPort()
                    + (streamConfig.tls() == null ? "" : " (TLS)"),
                streamConfig.token());
            out.flush();
        }
        SceneFileWatcher watcher = null;
        if (reload) {
            try {
                watcher = SceneFileWatcher.start(options.scene, stream.commands()::reloadFirstScene);
            } catch (IOException e) {
                stream.close();
                opened.close();
                Recorders.close(recorder, out);
                throw new UsageException("--reload: cannot watch " + options.scene + ": " + e.getMessage());
            }
            LOG.info("reloading the scene each time {} is saved", options.scene);
        }
        TickSink sink = stream == null ? recorder
            : recorder == null ? stream.events() : TickSink.tee(recorder, stream.events());
        if (sink != null) {
            assembly.loop().setTickSink(sink);
        }
        assembly.loop().setSolverDeadline(solverDeadline.on());
        LoopRunner runner = new LoopRunner(assembly.loop(), rateHz, wait, SystemNanoClock.INSTANCE, rtPriority)
            .keepCpuAwake(keepAwake.on());

        CountDownLatch stopRequested = new CountDownLatch(1);
        CountDownLatch reported = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            stopRequested.countDown();
            runner.close();
            StatusClock.awaitQuietly(reported, 3);
        }, "hapticsd-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        SignalStop signals = SignalStop.install(() -> {
            stopRequested.countDown();
            runner.close();
        });

        LOG.info("scene '{}' ({} bodies{}), device '{}', {} Hz, wait {}", scene.name(), scene.bodyNames().size(),
            scene.haptic().world().deformableCount() == 0 ? ""
                : ", " + scene.haptic().world().deformableCount() + " deformable with "
                    + scene.haptic().world().deformableNodeCount() + " nodes",
            assembly.device().info().name(), rateHz, wait.name());
        // From here the loop owns the scene: nothing else may keep the first one alive once it is replaced.
        assembly.releaseScene();
        scene = null;
        CollectorPauses collectorPauses = CollectorPauses.start();
        runner.start();
        // The status lines' clock and the end report's start at the first tick's deadline, after the loop thread has
        // set its scheduling policy (a chrt subprocess, 10-30 ms: counted, they made the first second read 980 Hz).
        long startNs = runner.firstDeadlineNs();
        LOG.info("loop thread: {}; {}", runner.policy(), runner.placement());
        try {
            // After RESET_SCENE or LOAD_SCENE the loop publishes into the new scene's exchange.
            StreamSource scenes = stream == null ? StreamSource.fixed(new StreamEpoch(assembly.snapshots(), null))
                : stream.scenes();
            statusLoop(out, assembly, scenes, opened, board, runner, stopRequested, startNs, limitS);
        } finally {
            runner.close();
            if (watcher != null) {
                watcher.close();
            }
            collectorPauses.close();
            if (stream != null) {
                stream.finish();
                stream.close();
            }
            opened.close();
            // The loop time the run spanned: a period for every tick and every skipped deadline, so that a run that
            // kept every deadline reads the nominal rate (timed to the moment it stopped, a 2 s run read 1000.36 Hz).
            long endNs = runner.endDeadlineNs();
            double elapsedS = ((endNs != 0 ? endNs : System.nanoTime()) - startNs) * 1e-9;
            StatsReport.print(out, assembly.stats().sample(), elapsedS, runner.lateStarts(), runner.skippedDeadlines());
            String causes = runner.overrunCauses().summary();
            if (causes != null) {
                out.println("  " + causes);
            }
            // The JVM's own stops, which a tick due in one counts as woken late: told apart from the host's here.
            out.println("  " + collectorPauses.summary());
            out.println("  loop thread: " + runner.policy() + "; " + runner.placement());
            if (opened.threadPolicies() != null) {
                out.println("  " + opened.threadPolicies());
            }
            assembly.safety().endOfRunLines().forEach(out::println);
            if (assembly.loop().passivitySummary() != null) {
                out.println(assembly.loop().passivitySummary());
            }
            // The loop thread has stopped: its last snapshot is final. The status line's total is up to a second old.
            LoopSnapshot last = assembly.loop().lastSnapshot();
            String overBudget = physicsEndLine(last, assembly.stats().ticks());
            if (overBudget != null) {
                out.println(overBudget);
            }
            String cut = solverDeadlineEndLine(last, assembly.stats().ticks());
            if (cut != null) {
                out.println(cut);
            }
            String dropped = droppedStepsEndLine(last, assembly.stats().ticks(), assembly.loop().periodNs());
            if (dropped != null) {
                out.println(dropped);
            }
            if (last.droppedPairsTotal > 0 || last.droppedPointsTotal > 0) {
                out.println("contacts dropped (contact budget full): " + last.droppedPairsTotal + " pairs, "
                    + last.droppedPointsTotal + " points");
            }
            LinkStatistics link = opened.linkStatistics();
            if (link != null) {
                out.println("link " + opened.name() + ": " + link.summary());
            }
            if (opened.emulator() != null) {
                out.printf(Locale.ROOT, "emulator: late firmware cycles %d (longest gap %.1f ms)%n",
                    opened.emulator().runner().lateCycles(), opened.emulator().runner().maxCycleGapNs() / 1e6);
            }
            Recorders.close(recorder, out);
            signals.close();
            reported.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // Ctrl-C: the hook is running and waits for the report above.
            }
        }
        Throwable fatal = runner.fatalError();
        if (fatal != null) {
            LOG.error("loop stopped by an error", fatal);
            return Main.EXIT_FAILURE;
        }
        if (signals.received()) {
            return signals.exitCode();
        }
        // As simulate: a run whose ticks failed did not do what was asked, whatever the force (zero) did.
        long failed = assembly.loop().errorCount();
        if (failed > 0) {
            parent.err().println("hapticsd: " + Main.failedTicks(failed, assembly.loop().lastError()));
            return Main.EXIT_FAILURE;
        }
        return Main.EXIT_OK;
    }

    private static void statusLoop(PrintWriter out, LoopAssembly assembly, StreamSource scenes, OpenedDevice opened,
                                   LoopStatsBoard board, LoopRunner runner, CountDownLatch stopRequested, long startNs,
                                   double limitS) {
        SnapshotExchange exchange = scenes.current().exchange();
        LoopSnapshot snapshot = exchange.newSnapshot();
        long lastTicks = 0;
        // Sampled half a period after each whole second, never at a deadline, where a tick may or may not have run
        // yet; the first tick closes the first period, which began half a period before it.
        long halfPeriodNs = assembly.loop().periodNs() / 2;
        long lastNs = startNs - halfPeriodNs;
        long reportedErrors = 0;
        String reportedLinkError = null;
        long reportedSessionsLost = 0;
        String reportedPolicy = runner.policy();
        while (runner.isRunning() && StatusClock.awaitNextSecond(stopRequested, startNs + halfPeriodNs, limitS)) {
            long nowNs = System.nanoTime();
            long ticks = assembly.stats().ticks();
            LoopStats sample = assembly.stats().sample();
            Histogram periodError = sample.periodError().interval();
            if (scenes.current().exchange() != exchange) {
                exchange = scenes.current().exchange();
                snapshot = exchange.newSnapshot();
            }
            exchange.read(snapshot);
            double rateHz = (ticks - lastTicks) / ((nowNs - lastNs) * 1e-9);
            board.publish(rateHz, periodError.getValueAtPercentile(99),
                sample.tickTime().interval().getValueAtPercentile(99), snapshot.overruns);
            // The guard's demotion of a saturated real-time loop as it happens, before the line of the second it
            // happened in (after it, the warning came below the next second's line).
            String policy = runner.policy();
            if (!policy.equals(reportedPolicy)) {
                LOG.warn("loop thread: {}", policy);
                reportedPolicy = policy;
            }
            LinkStatistics link = opened.linkStatistics();
            // Each part after the safety state starts with two spaces, as the fields before it are separated: with
            // one, the solver's count ran into the link's part ("... on 11 ticks link rtt p99 ...").
            out.printf(Locale.ROOT,
                "[%6.1f s] rate %7.1f Hz  period error p99 %7.1f us  force %6.3f N  safety %-7s%s%s%s%s%n",
                (nowNs - startNs) * 1e-9, rateHz, StatsReport.us(periodError.getValueAtPercentile(99)),
                snapshot.commandedForceMagnitudeN(), snapshot.safety,
                snapshot.fault.name().equals("NONE") ? "" : "  fault " + snapshot.fault,
                thermalStatus(snapshot), physicsStatus(snapshot), link == null ? "" : linkStatus(link));
            out.flush();
            // A link's trouble as it happens (a homing failure, a silent device, a refused reconnect), not only in
            // the end report: the status line alone said "fault DEVICE".
            // Compared by reference on purpose: each new error is a new string, so a second unplug is reported
            // again though its words are the first one's.
            String linkError = link == null ? null : link.lastError();
            if (link != null && link.sessionsLost() > reportedSessionsLost) {
                // The loss itself: a reopen's "Connection refused" a second later had replaced it in lastError, and
                // an unplugged device was never named as lost (a tester).
                reportedSessionsLost = link.sessionsLost();
                if (link.lastLoss() != null && link.lastLoss() != linkError) {
                    LOG.warn("device link lost: {}", link.lastLoss());
                }
            }
            if (linkError != null && linkError != reportedLinkError) {
                LOG.warn("{}", linkError);
                reportedLinkError = linkError;
            }
            long errors = assembly.loop().errorCount();
            if (errors > reportedErrors) {
                // One line, not a stack trace a second (a tester): the force is zero (INTERNAL_ERROR) meanwhile.
                LOG.error("{}", Main.failedTicks(errors - reportedErrors, assembly.loop().lastError()));
                reportedErrors = errors;
            }
            lastTicks = ticks;
            lastNs = nowNs;
        }
    }

    /** The motors' heat once it is 80 % of the continuous force's, and whether the thermal limit holds the force. */
    static String thermalStatus(LoopSnapshot s) {
        if (s.thermalLimited) {
            return String.format(Locale.ROOT,
                "  THERMAL LIMIT: force lowered toward the device's continuous force (motors %.0f%%)",
                100 * s.motorHeat);
        }
        return s.motorHeat >= 0.8 ? String.format(Locale.ROOT, "  motors %.0f%% hot", 100 * s.motorHeat) : "";
    }

    /**
     * The physics part of the status line, empty while all is well: over budget (by how much), and the contacts the
     * engine had to drop since the start, so a heavy scene says so instead of the rate sagging silently.
     */
    static String physicsStatus(LoopSnapshot s) {
        StringBuilder b = new StringBuilder();
        if (s.physicsOverBudget) {
            // Not physicsLoadPercent: that is the stream's byte, capped at 255 %, and a 3.3 ms step read "255 %".
            double tickNs = s.physicsBudgetNs / PhysicsBudget.BUDGET_FRACTION;
            b.append(String.format(Locale.ROOT,
                "  PHYSICS OVER BUDGET: step p99 %.0f us > %.0f us (%.0f%% of the tick)", s.physicsStepP99Ns / 1e3,
                s.physicsBudgetNs / 1e3, 100.0 * s.physicsStepP99Ns / tickNs));
        }
        if (s.solverDeadlineTicks > 0) {
            b.append("  solver stopped at the tick's deadline on ").append(s.solverDeadlineTicks)
                .append(s.solverDeadlineTicks == 1 ? " tick" : " ticks");
        }
        if (s.droppedSteps > 0) {
            b.append("  physics steps dropped (too slow for the tick): ").append(s.droppedSteps);
        }
        if (s.droppedPairsTotal > 0 || s.droppedPointsTotal > 0) {
            b.append(String.format(Locale.ROOT, "  contacts dropped (budget full): %d pairs, %d points",
                s.droppedPairsTotal, s.droppedPointsTotal));
        }
        return b.toString();
    }

    /**
     * The end report's line for a run whose physics went over budget (null if it never did): on how many of the
     * run's ticks, and the worst window, so a run that ended within budget still says it was not all along. Ticks,
     * not seconds: a loop over budget skips deadlines, so its ticks are fewer than its milliseconds.
     */
    static String physicsEndLine(LoopSnapshot last, long ticks) {
        if (last.physicsOverBudgetTicks == 0) {
            return null;
        }
        double tickNs = last.physicsBudgetNs / PhysicsBudget.BUDGET_FRACTION;
        return String.format(Locale.ROOT, "physics over budget on %d of %d ticks (%.0f%%); worst window: step p99"
            + " %.0f us > %.0f us (%.0f%% of the tick)", last.physicsOverBudgetTicks, ticks,
            100.0 * last.physicsOverBudgetTicks / Math.max(1, ticks), last.physicsWorstStepP99Ns / 1e3,
            last.physicsBudgetNs / 1e3, 100.0 * last.physicsWorstStepP99Ns / tickNs);
    }

    /**
     * The end report's line for a run whose physics step stopped its solver at the tick's deadline (null if none
     * did): on how many ticks, so that a run that held its rate says what it cost the contacts.
     */
    static String solverDeadlineEndLine(LoopSnapshot last, long ticks) {
        if (last.solverDeadlineTicks == 0) {
            return null;
        }
        return String.format(Locale.ROOT, "contact solver stopped at the tick's deadline (%.0f%% of the tick) on %d"
            + " of %d ticks (%.1f%%)", 100 * HapticLoop.SOLVER_DEADLINE_SHARE, last.solverDeadlineTicks, ticks,
            100.0 * last.solverDeadlineTicks / Math.max(1, ticks));
    }

    /**
     * The end report's line for a run that dropped physics steps (null if none): on how many ticks, and how far the
     * simulated time fell behind the loop's for it.
     */
    static String droppedStepsEndLine(LoopSnapshot last, long ticks, long periodNs) {
        if (last.droppedSteps == 0) {
            return null;
        }
        return String.format(Locale.ROOT, "physics step dropped on %d of %d ticks (%.2f%%): the machine ran it too"
            + " slow to end before the next deadline, so the bodies stood still for those ticks (simulated time %.1f"
            + " ms behind the loop's)", last.droppedSteps, ticks, 100.0 * last.droppedSteps / Math.max(1, ticks),
            last.droppedSteps * periodNs / 1e6);
    }

    /**
     * The link part of the status line, in the end line's words: damaged (CRC errors, malformed and oversize runs)
     * and lost (frames missing in sequence gaps). One "lost" for their sum read as contradicting the end line's
     * "0 frames lost" after noise on the line.
     */
    static String linkStatus(LinkStatistics link) {
        String rtt = link.roundTripNs().getTotalCount() == 0 ? "rtt -"
            : String.format(Locale.ROOT, "rtt p99 %.0f us", link.roundTripNs().getValueAtPercentile(99) / 1e3);
        return String.format(Locale.ROOT, "  link %s, damaged %d, lost %d, reconnects %d", rtt, link.framesDamaged(),
            link.framesLost(), link.reconnects());
    }

    static WaitStrategy waitStrategy(String name) {
        try {
            return WaitStrategies.named(name);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--wait: " + e.getMessage());
        }
    }

}
