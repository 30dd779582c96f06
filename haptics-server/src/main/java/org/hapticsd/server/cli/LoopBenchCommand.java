package org.hapticsd.server.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.agrona.concurrent.SystemNanoClock;
import org.HdrHistogram.Histogram;
import org.hapticsd.server.JitWarmUp;
import org.hapticsd.server.LoopAssembly;
import org.hapticsd.server.loop.LoopRunner;
import org.hapticsd.server.loop.LoopStats;
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

    @Option(names = "--json", description = "Print exactly one JSON object.")
    boolean json;

    @Override
    public Integer call() throws Exception {
        LoopOptions.positiveSeconds("--seconds", seconds);
        if (!(warmupS >= 0) || Double.isInfinite(warmupS)) {
            throw new UsageException("--warmup must be >= 0 seconds, got " + warmupS);
        }
        WaitStrategy wait = RunCommand.waitStrategy(waitName);
        BuiltScene scene = options.loadScene();
        int rateHz = options.rateHz(scene);
        JitWarmUp.run(options.loadScene(), rateHz, JitWarmUp.DEFAULT_TICKS);
        LoopAssembly assembly = new LoopAssembly(scene, options.openDevice(scene), rateHz, SystemNanoClock.INSTANCE);
        LoopRunner runner = new LoopRunner(assembly.loop(), rateHz, wait, SystemNanoClock.INSTANCE);
        com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        LoopStats stats = assembly.stats();

        runner.start();
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
            runner.close();
        }
        long ticks = ticksAfter - ticksBefore;
        double elapsedS = (endNs - startNs) * 1e-9;
        Histogram period = stats.periodError().interval();
        Histogram tick = stats.tickTime().interval();
        Map<String, Object> result = new LinkedHashMap<>();
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

        PrintWriter out = bench.parent.out();
        if (json) {
            out.println(new ObjectMapper().writeValueAsString(result));
        } else {
            out.printf(Locale.ROOT, "loop benchmark: %d Hz target, wait %s, %.1f s measured after %.1f s warm-up%n",
                rateHz, wait.name(), elapsedS, warmupS);
            out.printf(Locale.ROOT, "  achieved rate     %.3f Hz (%d ticks)%n", result.get("rateHz"), ticks);
            out.printf(Locale.ROOT, "  period error      %s us%n", periodErrorUs);
            out.printf(Locale.ROOT, "  tick time         %s us%n", tickUs);
            out.printf(Locale.ROOT, "  overruns          %d%n", overrunsAfter - overrunsBefore);
            out.printf(Locale.ROOT, "  allocated/tick    %s bytes (%d bytes in the window)%n",
                result.get("allocatedBytesPerTick"), bytesAfter - bytesBefore);
        }
        out.flush();
        return Main.EXIT_OK;
    }

    private static double us(long ns) {
        return round3(ns / 1000.0);
    }

    private static double round3(double value) {
        return Math.round(value * 1000.0) / 1000.0;
    }
}
