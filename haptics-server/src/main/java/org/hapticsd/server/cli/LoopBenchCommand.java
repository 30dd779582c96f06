package org.hapticsd.server.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.agrona.concurrent.SystemNanoClock;
import org.HdrHistogram.Histogram;
import org.hapticsd.device.link.LinkStatistics;
import org.hapticsd.server.JitWarmUp;
import org.hapticsd.server.device.OpenedDevice;
import org.hapticsd.server.LoopAssembly;
import org.hapticsd.server.loop.LoopRunner;
import org.hapticsd.server.loop.LoopStats;
import org.hapticsd.server.loop.OverrunCauses;
import org.hapticsd.server.loop.WaitStrategy;
import org.hapticsd.server.scene.BuiltScene;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code hapticsd bench loop}: the real-time loop on the default scene and the simulated stylus, measured over a
 * window that starts after a warm-up (so JIT compilation and class loading are not charged to the loop).
 * Allocation is read from the loop thread's own counter ({@code ThreadMXBean#getThreadAllocatedBytes}).
 */
@Command(name = "loop", mixinStandardHelpOptions = true,
    description = "Run the real-time loop and report achieved rate, period error, tick time, overruns and "
        + "allocated bytes per tick.")
final class LoopBenchCommand implements java.util.concurrent.Callable<Integer> {

    @ParentCommand
    BenchCommand bench;

    @Mixin
    LoopOptions options = new LoopOptions();

    @Option(names = "--seconds", paramLabel = "S", defaultValue = "10",
        description = "Measured seconds (after the warm-up). Default: ${DEFAULT-VALUE}.")
    double seconds;

    @Option(names = "--warmup", paramLabel = "S", defaultValue = "2",
        description = "Seconds run before measuring. Default: ${DEFAULT-VALUE}.")
    double warmupS;

    @Option(names = "--wait", paramLabel = "STRATEGY", defaultValue = "hybrid",
        description = "hybrid, spin or sleep. Default: ${DEFAULT-VALUE}.")
    String waitName;

    @Mixin
    RealTimeOption realTime = new RealTimeOption();

    @Mixin
    KeepAwakeOption keepAwake = new KeepAwakeOption();

    @Mixin
    SolverDeadlineOption solverDeadline = new SolverDeadlineOption();

    @Option(names = "--json", description = "Print exactly one JSON object.")
    boolean json;

    @Option(names = "--background-alloc-mbps", paramLabel = "MB/S", defaultValue = "0",
        description = "Another thread allocates this many MB/s of short-lived garbage while the loop runs, as the "
            + "network and recording threads do, so that the collector's pauses show in the loop's numbers. "
            + "0.." + GarbageMaker.MAX_MBPS + ". Default: ${DEFAULT-VALUE}.")
    double backgroundAllocMbps;

    @Override
    public Integer call() throws Exception {
        LoopOptions.positiveSeconds("--seconds", seconds);
        LoopOptions.nonNegativeSeconds("--warmup", warmupS);
        if (!(backgroundAllocMbps >= 0 && backgroundAllocMbps <= GarbageMaker.MAX_MBPS)) {
            throw new UsageException("--background-alloc-mbps must be within 0.." + GarbageMaker.MAX_MBPS
                + " MB/s, got " + backgroundAllocMbps);
        }
        WaitStrategy wait = RunCommand.waitStrategy(waitName);
        int rtPriority = realTime.rtPriority();
        BuiltScene scene = options.loadScene();
        int rateHz = options.rateHz(scene);
        JitWarmUp.run(options.loadScene(), rateHz, JitWarmUp.DEFAULT_TICKS, false);
        OpenedDevice opened = options.openDevice(scene, rateHz, rtPriority);
        LoopAssembly assembly = new LoopAssembly(scene, opened.device(), rateHz, SystemNanoClock.INSTANCE);
        assembly.loop().setSolverDeadline(solverDeadline.on());
        LoopRunner runner = new LoopRunner(assembly.loop(), rateHz, wait, SystemNanoClock.INSTANCE, rtPriority)
            .keepCpuAwake(keepAwake.on());
        com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        LoopStats stats = assembly.stats();

        GarbageMaker garbage = new GarbageMaker(backgroundAllocMbps);
        CollectorPauses collectorPauses = CollectorPauses.start();
        runner.start();
        garbage.start();
        long ticksBefore;
        long overrunsBefore;
        long bytesBefore;
        long startNs;
        long ticksAfter;
        long overrunsAfter;
        long bytesAfter;
        long endNs;
        try {
            Thread.sleep(Math.round(warmupS * 1000));
            stats.sample();
            bytesBefore = threads.getThreadAllocatedBytes(runner.threadId());
            ticksBefore = stats.ticks();
            overrunsBefore = stats.overruns();
            startNs = System.nanoTime();
            Thread.sleep(Math.round(seconds * 1000));
            bytesAfter = threads.getThreadAllocatedBytes(runner.threadId());
            ticksAfter = stats.ticks();
            overrunsAfter = stats.overruns();
            endNs = System.nanoTime();
            stats.sample();
        } finally {
            garbage.stop();
            runner.close();
            collectorPauses.close();
            opened.close();
        }
        long ticks = ticksAfter - ticksBefore;
        double elapsedS = (endNs - startNs) * 1e-9;
        Histogram period = stats.periodError().interval();
        Histogram tick = stats.tickTime().interval();
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("loopThread", runner.policy());
        result.put("loopCpu", runner.placement());
        result.put("rateHz", round3(ticks / elapsedS));
        result.put("ticks", ticks);
        Map<String, Object> periodErrorUs = new LinkedHashMap<>();
        periodErrorUs.put("p50", us(period.getValueAtPercentile(50)));
        periodErrorUs.put("p99", us(period.getValueAtPercentile(99)));
        periodErrorUs.put("p999", us(period.getValueAtPercentile(99.9)));
        periodErrorUs.put("max", us(period.getMaxValue()));
        result.put("periodErrorUs", periodErrorUs);
        Map<String, Object> tickUs = new LinkedHashMap<>();
        tickUs.put("p50", us(tick.getValueAtPercentile(50)));
        tickUs.put("p99", us(tick.getValueAtPercentile(99)));
        result.put("tickUs", tickUs);
        result.put("overruns", overrunsAfter - overrunsBefore);
        result.put("allocatedBytesPerTick", ticks > 0 ? (double) (bytesAfter - bytesBefore) / ticks : 0.0);
        // Appended: readers index the older keys. Every tick since the loop started, its warm-up included.
        result.put("solverDeadlineTicks", assembly.loop().lastSnapshot().solverDeadlineTicks);
        // Why ticks overran (OverrunCauses), likewise since the loop started.
        OverrunCauses causes = runner.overrunCauses();
        Map<String, Object> overrunCauses = new LinkedHashMap<>();
        overrunCauses.put("wokenLate", causes.wokenLate());
        overrunCauses.put("offCpu", causes.offCpu());
        overrunCauses.put("onCpu", causes.onCpu());
        overrunCauses.put("longTicks", causes.longTicks());
        overrunCauses.put("behindOverrun", causes.behindOverrun());
        result.put("overrunCauses", overrunCauses);
        // Physics steps dropped as too slow for their tick (HapticLoop), likewise since the loop started.
        result.put("droppedSteps", assembly.loop().lastSnapshot().droppedSteps);
        // After an overrun: ticks run at once for the deadline it ran past (TickSchedule), and deadlines with no tick;
        // likewise since the loop started.
        result.put("lateStarts", runner.lateStarts());
        result.put("skippedDeadlines", runner.skippedDeadlines());
        // The same deadlines by the cause of the overrun each followed (OverrunCauses): they add up to the above.
        Map<String, Object> skippedByCause = new LinkedHashMap<>();
        long[] skipped = causes.skippedDeadlines();
        for (int i = 0; i < skipped.length; i++) {
            skippedByCause.put(OverrunCauses.SKIPPED_KEYS.get(i), skipped[i]);
        }
        result.put("skippedDeadlinesByCause", skippedByCause);
        // The collector's stop-the-world pauses since the loop started (CollectorPauses; whole milliseconds).
        Map<String, Object> pauses = new LinkedHashMap<>();
        pauses.put("count", collectorPauses.count());
        pauses.put("longestMs", collectorPauses.longestMs());
        pauses.put("totalMs", collectorPauses.totalMs());
        result.put("collectorPauses", pauses);
        LinkStatistics link = opened.linkStatistics();
        if (link != null) {
            Map<String, Object> roundTripUs = new LinkedHashMap<>();
            roundTripUs.put("samples", link.roundTripNs().getTotalCount());
            roundTripUs.put("p50", us(link.roundTripNs().getValueAtPercentile(50)));
            roundTripUs.put("p99", us(link.roundTripNs().getValueAtPercentile(99)));
            roundTripUs.put("max", us(link.roundTripNs().getMaxValue()));
            result.put("linkRoundTripUs", roundTripUs);
            result.put("linkFramesDamagedOrLost", link.framesDamagedOrLost());
            result.put("linkReconnects", link.reconnects());
            result.put("deviceWatchdogTrips", link.deviceWatchdogTrips());
        }

        PrintWriter out = bench.parent.out();
        if (json) {
            out.println(new ObjectMapper().writeValueAsString(result));
        } else {
            out.printf(Locale.ROOT, "loop benchmark: %d Hz target, wait %s, %.1f s measured after %.1f s warm-up, "
                + "background allocation %.0f MB/s%n", rateHz, wait.name(), elapsedS, warmupS, backgroundAllocMbps);
            out.println("  loop thread       " + runner.policy() + "; " + runner.placement());
            out.printf(Locale.ROOT, "  achieved rate     %.3f Hz (%d ticks)%n", result.get("rateHz"), ticks);
            out.println("  period error      " + percentiles(periodErrorUs));
            out.println("  tick time         " + percentiles(tickUs));
            out.printf(Locale.ROOT, "  overruns          %d%n", overrunsAfter - overrunsBefore);
            out.printf(Locale.ROOT, "  late starts       %d; skipped deadlines %d (since the loop started)%n",
                runner.lateStarts(), runner.skippedDeadlines());
            if (causes.summary() != null) {
                out.println("  " + causes.summary() + " (since the loop started)");
            }
            out.println("  " + collectorPauses.summary() + " (since the loop started)");
            long dropped = assembly.loop().lastSnapshot().droppedSteps;
            if (dropped > 0) {
                out.printf(Locale.ROOT, "  physics steps dropped as too slow for their tick: %d (since the loop"
                    + " started)%n", dropped);
            }
            out.printf(Locale.ROOT, "  allocated/tick    %.4f bytes (%d bytes in the window)%n",
                ((Number) result.get("allocatedBytesPerTick")).doubleValue(), bytesAfter - bytesBefore);
        }
        out.flush();
        return Main.EXIT_OK;
    }

    /** "p50 7.3 us  p99 346.4 us  ...", as the loop statistics print them (a tester read Java's map text). */
    private static String percentiles(Map<String, Object> us) {
        StringBuilder b = new StringBuilder();
        us.forEach((name, value) -> b.append(b.length() == 0 ? "" : "  ")
            .append(String.format(Locale.ROOT, "%s %.1f us", name, ((Number) value).doubleValue())));
        return b.toString();
    }

    private static double us(long ns) {
        return round3(ns / 1000.0);
    }

    private static double round3(double value) {
        return Math.round(value * 1000.0) / 1000.0;
    }

    /**
     * Allocates 1 KiB arrays at a steady rate on its own daemon thread, keeping the last 4 MiB reachable so the
     * allocations cannot be optimised away and some survive a young collection, as buffers of a network server do.
     */
    private static final class GarbageMaker {
        private static final int CHUNK_BYTES = 1024;
        /**
         * The most the option takes, MB/s: well above what one thread allocates in 1 KiB arrays (a few GB/s on the
         * machine of docs/performance.md), so the thread simply allocates flat out there. A tester's 10^12 MB/s owed
         * a terabyte within the first microsecond, and the command went on allocating it for 55 s after its 0.3 s.
         */
        static final int MAX_MBPS = 100_000;
        private final double bytesPerMs;
        private final byte[][] live = new byte[4096][];
        private volatile boolean running = true;
        private Thread thread;

        GarbageMaker(double mbps) {
            this.bytesPerMs = mbps * 1_000_000.0 / 1000.0;
        }

        void start() {
            if (bytesPerMs <= 0) {
                return;
            }
            thread = new Thread(this::run, "background-allocator");
            thread.setDaemon(true);
            thread.start();
        }

        private void run() {
            int slot = 0;
            double owed = 0;
            long lastNs = System.nanoTime();
            while (running) {
                long nowNs = System.nanoTime();
                owed += bytesPerMs * (nowNs - lastNs) / 1e6;
                lastNs = nowNs;
                // Stops when told to, however much is owed: a rate the thread cannot keep up with is owed forever.
                while (owed >= CHUNK_BYTES && running) {
                    live[slot] = new byte[CHUNK_BYTES];
                    slot = (slot + 1) % live.length;
                    owed -= CHUNK_BYTES;
                }
                java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
            }
        }

        void stop() throws InterruptedException {
            running = false;
            if (thread != null) {
                thread.join();
            }
        }
    }
}
