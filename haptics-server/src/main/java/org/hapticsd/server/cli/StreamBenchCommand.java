package org.hapticsd.server.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.HdrHistogram.Histogram;
import org.agrona.concurrent.SystemNanoClock;
import org.hapticsd.server.JitWarmUp;
import org.hapticsd.server.LoopAssembly;
import org.hapticsd.server.StreamService;
import org.hapticsd.server.device.OpenedDevice;
import org.hapticsd.server.loop.LoopRunner;
import org.hapticsd.server.loop.LoopSnapshot;
import org.hapticsd.server.loop.LoopStats;
import org.hapticsd.server.loop.WaitStrategy;
import org.hapticsd.server.net.LoopStatsBoard;
import org.hapticsd.server.net.ProtocolStreamFrames;
import org.hapticsd.server.net.StreamServer;
import org.hapticsd.server.net.StreamServerConfig;
import org.hapticsd.server.scene.BuiltScene;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code hapticsd bench stream}: the real-time loop and the stream server as {@code run} starts them (default scene,
 * simulated stylus, event log, protocol frames, command gate), on ephemeral loopback ports, measured in phases of
 * one run: no clients, then every-tick clients plus 60 Hz clients over WebSocket and raw TCP, then no clients
 * again. Each phase reports the loop's period error and tick time, overruns, STATE messages each client received
 * against those due, and the CPU time of the server's network threads, of the clients' threads and of the loop
 * thread per second of wall time.
 *
 * <p>Phases are windows of the loop's own statistics: this thread is their only reader and folds them once a
 * second (as {@code run}'s status printer does, which also refreshes the loop statistics that STATE carries);
 * a phase adds up the intervals folded inside it and nothing from before. Connecting and disconnecting clients
 * happens between phases, followed by a settling time, so neither the connection ramp nor the JIT compiling the
 * network code is charged to a phase.
 */
@Command(name = "stream", mixinStandardHelpOptions = true,
    description = "Run the loop with the stream server and measure the loop's timing, frames delivered and CPU "
        + "used by publishing, without clients and with many.")
final class StreamBenchCommand implements Callable<Integer> {
    private static final long NS_PER_S = 1_000_000_000L;

    @ParentCommand
    BenchCommand bench;

    @Mixin
    LoopOptions options = new LoopOptions();

    @Option(names = "--seconds", paramLabel = "S", defaultValue = "10",
        description = "Measured seconds per phase. Default: ${DEFAULT-VALUE}.")
    double seconds;

    @Option(names = "--warmup", paramLabel = "S", defaultValue = "2",
        description = "Seconds run before the first phase and after clients connect or leave, not measured. "
            + "Default: ${DEFAULT-VALUE}.")
    double warmupS;

    @Option(names = "--fast-clients", paramLabel = "N", defaultValue = "4",
        description = "Clients that take every tick (half WebSocket binary, half raw TCP). Default: ${DEFAULT-VALUE}.")
    int fastClients;

    @Option(names = "--slow-clients", paramLabel = "N", defaultValue = "100",
        description = "Clients at --slow-rate (in turn raw TCP, WebSocket binary, WebSocket JSON). "
            + "Default: ${DEFAULT-VALUE}.")
    int slowClients;

    @Option(names = "--slow-rate", paramLabel = "HZ", defaultValue = "60",
        description = "STATE rate of the slow clients, 1..1000 Hz. Default: ${DEFAULT-VALUE}.")
    int slowRateHz;

    @Option(names = "--client-threads", paramLabel = "N", defaultValue = "1",
        description = "Event loop threads of the in-process clients. Default: ${DEFAULT-VALUE}.")
    int clientThreads;

    @Option(names = "--no-idle-after", description = "Skip the last phase (no clients again).")
    boolean noIdleAfter;

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

    @Override
    public Integer call() throws Exception {
        LoopOptions.positiveSeconds("--seconds", seconds);
        LoopOptions.nonNegativeSeconds("--warmup", warmupS);
        if (fastClients < 0 || slowClients < 0 || fastClients + slowClients < 1) {
            throw new UsageException("--fast-clients and --slow-clients must be >= 0 and not both 0");
        }
        if (slowRateHz < 1 || slowRateHz > 1000) {
            throw new UsageException("--slow-rate must be 1..1000 Hz, got " + slowRateHz);
        }
        if (clientThreads < 1) {
            throw new UsageException("--client-threads must be >= 1, got " + clientThreads);
        }
        WaitStrategy wait = RunCommand.waitStrategy(waitName);
        int rtPriority = realTime.rtPriority();
        BuiltScene scene = options.loadScene();
        int rateHz = options.rateHz(scene);
        options.requireStreamable(scene, rateHz);
        JitWarmUp.run(options.loadScene(), rateHz, JitWarmUp.DEFAULT_TICKS, true);
        OpenedDevice opened = options.openDevice(scene, rateHz, rtPriority);
        LoopAssembly assembly = new LoopAssembly(scene, opened.device(), rateHz, SystemNanoClock.INSTANCE);
        LoopStatsBoard board = new LoopStatsBoard();
        // The same frames as the server's, made again here only to measure STATE sizes.
        ProtocolStreamFrames frames = new ProtocolStreamFrames(scene, rateHz, board);
        StreamServerConfig defaults = StreamServerConfig.defaults();
        StreamServerConfig config = defaults.withPorts(0, 0).withLimits(
            Math.max(StreamServerConfig.DEFAULT_MAX_CLIENTS, fastClients + slowClients + 8),
            defaults.maxInboundBytes(), defaults.idleTimeoutS(), defaults.unwritableCloseS());
        StreamService service;
        try {
            service = StreamService.start(assembly, config, board, options.sceneFactory(), null);
        } catch (IOException e) {
            opened.close();
            throw new UsageException("stream: " + e.getMessage());
        }
        assembly.loop().setTickSink(service.events());
        StreamServer server = service.server();
        assembly.loop().setSolverDeadline(solverDeadline.on());
        LoopRunner runner = new LoopRunner(assembly.loop(), rateHz, wait, SystemNanoClock.INSTANCE, rtPriority)
            .keepCpuAwake(keepAwake.on());
        Sampler sampler = new Sampler(assembly, board, frames, rateHz);
        List<Map<String, Object>> phases = new ArrayList<>();
        BenchClients clients = null;
        runner.start();
        try {
            sampler.runFor(warmupS);
            phases.add(measure("no clients", sampler, null, rateHz));
            clients = new BenchClients(clientThreads);
            connect(clients, config.bindAddress(), server);
            if (!clients.awaitFirstStates(10_000)) {
                throw new IllegalStateException("not every client received a STATE within 10 s of connecting");
            }
            sampler.runFor(warmupS);
            phases.add(measure(fastClients + " every tick + " + slowClients + " at " + slowRateHz + " Hz",
                sampler, clients, rateHz));
            clients.close();
            clients = null;
            awaitNoClients(server);
            if (!noIdleAfter) {
                sampler.runFor(warmupS);
                phases.add(measure("no clients again", sampler, null, rateHz));
            }
        } finally {
            if (clients != null) {
                clients.close();
            }
            runner.close();
            service.close();
            opened.close();
        }
        if (runner.fatalError() != null) {
            throw new IllegalStateException("the loop stopped: " + runner.fatalError(), runner.fatalError());
        }
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("rateHz", rateHz);
        result.put("wait", wait.name());
        result.put("loopThread", runner.policy());
        result.put("loopCpu", runner.placement());
        result.put("secondsPerPhase", seconds);
        result.put("stateBytes", sampler.stateBytes());
        result.put("phases", phases);
        // Appended: readers index the older keys. Every tick since the loop started, its warm-up included.
        result.put("solverDeadlineTicks", assembly.loop().lastSnapshot().solverDeadlineTicks);
        result.put("droppedSteps", assembly.loop().lastSnapshot().droppedSteps);
        print(bench.parent.out(), result, phases);
        return Main.EXIT_OK;
    }

    private void connect(BenchClients clients, String host, StreamServer server) throws InterruptedException {
        for (int i = 0; i < fastClients; i++) {
            BenchClients.Kind kind = i % 2 == 0 ? BenchClients.Kind.WEBSOCKET_BINARY : BenchClients.Kind.TCP;
            clients.connect(kind, 0, host, server.httpPort(), server.tcpPort());
        }
        BenchClients.Kind[] slowKinds = {BenchClients.Kind.TCP, BenchClients.Kind.WEBSOCKET_BINARY,
            BenchClients.Kind.WEBSOCKET_JSON};
        for (int i = 0; i < slowClients; i++) {
            clients.connect(slowKinds[i % slowKinds.length], slowRateHz, host, server.httpPort(), server.tcpPort());
        }
    }

    private static void awaitNoClients(StreamServer server) throws InterruptedException {
        long deadlineNs = System.nanoTime() + 5 * NS_PER_S;
        while (server.clients() > 0 && System.nanoTime() - deadlineNs < 0) {
            Thread.sleep(20);
        }
    }

    private Map<String, Object> measure(String name, Sampler sampler, BenchClients clients, int rateHz)
        throws InterruptedException {
        LoopStats stats = sampler.stats;
        List<BenchClients.Client> connected = clients == null ? List.of() : clients.clients();
        long[] statesBefore = new long[connected.size()];
        long overrunsBefore = stats.overruns();
        ThreadCpu cpuBefore = ThreadCpu.now();
        for (int i = 0; i < statesBefore.length; i++) {
            statesBefore[i] = connected.get(i).states.get();
        }
        sampler.startWindow();
        // The tick count and the clock read together: counting ticks before the CPU and client samples (milliseconds
        // with 100 clients) and timing only after them read 1008 Hz for a loop at 1000 Hz (a tester).
        long ticksBefore = stats.ticks();
        long startNs = System.nanoTime();
        sampler.runFor(seconds);
        long endNs = System.nanoTime();
        long ticks = stats.ticks() - ticksBefore;
        long[] statesAfter = new long[connected.size()];
        for (int i = 0; i < statesAfter.length; i++) {
            statesAfter[i] = connected.get(i).states.get();
        }
        ThreadCpu cpuAfter = ThreadCpu.now();
        double elapsedS = (endNs - startNs) / (double) NS_PER_S;

        Map<String, Object> phase = new LinkedHashMap<>();
        phase.put("phase", name);
        phase.put("clients", connected.size());
        phase.put("seconds", round3(elapsedS));
        phase.put("rateHz", round3(ticks / elapsedS));
        phase.put("periodErrorUs", percentiles(sampler.periodError));
        phase.put("tickUs", percentiles(sampler.tickTime));
        phase.put("overruns", stats.overruns() - overrunsBefore);
        List<Map<String, Object>> groups = new ArrayList<>();
        for (BenchClients.Kind kind : BenchClients.Kind.values()) {
            for (int rate : new int[] {0, slowRateHz}) {
                List<Long> delivered = new ArrayList<>();
                for (int i = 0; i < connected.size(); i++) {
                    BenchClients.Client c = connected.get(i);
                    if (c.kind == kind && c.rateHz == rate) {
                        delivered.add(statesAfter[i] - statesBefore[i]);
                    }
                }
                if (!delivered.isEmpty()) {
                    double due = rate == 0 ? ticks : Math.min(ticks, rate * elapsedS);
                    groups.add(deliveryGroup(kind, rate, delivered, due));
                }
            }
        }
        phase.put("delivery", groups);
        Map<String, Object> cpu = new LinkedHashMap<>();
        double wallNs = endNs - startNs;
        cpu.put("net", round3(cpuAfter.since(cpuBefore, StreamServer.THREAD_NAME_PREFIX) / wallNs));
        cpu.put("clients", round3(cpuAfter.since(cpuBefore, BenchClients.THREAD_NAME_PREFIX) / wallNs));
        cpu.put("loop", round3(cpuAfter.since(cpuBefore, LoopRunner.THREAD_NAME) / wallNs));
        cpu.put("process", round3((cpuAfter.processNs - cpuBefore.processNs) / wallNs));
        phase.put("cpuCoresUsed", cpu);
        return phase;
    }

    private static Map<String, Object> deliveryGroup(BenchClients.Kind kind, int rate, List<Long> delivered,
                                                     double due) {
        long[] sorted = delivered.stream().mapToLong(Long::longValue).sorted().toArray();
        Map<String, Object> group = new LinkedHashMap<>();
        group.put("kind", kind.label);
        group.put("rateHz", rate == 0 ? "every tick" : rate);
        group.put("clients", sorted.length);
        group.put("due", round3(due));
        group.put("min", sorted[0]);
        group.put("median", sorted[sorted.length / 2]);
        group.put("max", sorted[sorted.length - 1]);
        group.put("minOfDue", due > 0 ? round3(sorted[0] / due) : 0.0);
        group.put("meanOfDue", due > 0 ? round3(Arrays.stream(sorted).average().orElse(0) / due) : 0.0);
        return group;
    }

    private static Map<String, Object> percentiles(Histogram h) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("p50", us(h.getValueAtPercentile(50)));
        p.put("p99", us(h.getValueAtPercentile(99)));
        p.put("max", us(h.getMaxValue()));
        p.put("n", h.getTotalCount());
        return p;
    }

    @SuppressWarnings("unchecked")
    private void print(PrintWriter out, Map<String, Object> result, List<Map<String, Object>> phases)
        throws IOException {
        if (json) {
            out.println(new ObjectMapper().writeValueAsString(result));
            out.flush();
            return;
        }
        out.printf(Locale.ROOT, "stream benchmark: %d Hz loop, wait %s, %.1f s per phase; STATE bytes %s%n",
            result.get("rateHz"), result.get("wait"), seconds, result.get("stateBytes"));
        out.println("loop thread: " + result.get("loopThread"));
        for (Map<String, Object> phase : phases) {
            out.printf(Locale.ROOT, "%s (%d clients), %.1f s at %.3f Hz%n", phase.get("phase"), phase.get("clients"),
                phase.get("seconds"), phase.get("rateHz"));
            out.printf(Locale.ROOT, "  period error  %s us%n", phase.get("periodErrorUs"));
            out.printf(Locale.ROOT, "  tick time     %s us%n", phase.get("tickUs"));
            out.printf(Locale.ROOT, "  overruns      %d%n", phase.get("overruns"));
            for (Map<String, Object> group : (List<Map<String, Object>>) phase.get("delivery")) {
                out.printf(Locale.ROOT, "  STATE received %s%n", group);
            }
            out.printf(Locale.ROOT, "  CPU (cores)   %s%n", phase.get("cpuCoresUsed"));
        }
        out.flush();
    }

    private static double us(long ns) {
        return round3(ns / 1000.0);
    }

    private static double round3(double value) {
        return Math.round(value * 1000.0) / 1000.0;
    }

    /**
     * This thread's once-a-second duties: folds the loop's statistics (adding each interval to the current phase's
     * window), refreshes the loop statistics that STATE carries, and measures the STATE the clients are sent now.
     */
    private static final class Sampler {
        final LoopStats stats;
        final Histogram periodError;
        final Histogram tickTime;
        private final LoopAssembly assembly;
        private final LoopStatsBoard board;
        private final ProtocolStreamFrames frames;
        private final LoopSnapshot snapshot;
        private final int rateHz;
        private final int[] binaryBytes = {Integer.MAX_VALUE, 0};
        private final int[] jsonBytes = {Integer.MAX_VALUE, 0};
        private long lastTicks;
        private long lastNs = System.nanoTime();

        Sampler(LoopAssembly assembly, LoopStatsBoard board, ProtocolStreamFrames frames, int rateHz) {
            this.assembly = assembly;
            this.stats = assembly.stats();
            this.board = board;
            this.frames = frames;
            this.rateHz = rateHz;
            this.snapshot = assembly.snapshots().newSnapshot();
            Histogram shape = stats.periodError().interval();
            this.periodError = new Histogram(shape.getHighestTrackableValue(),
                shape.getNumberOfSignificantValueDigits());
            this.tickTime = new Histogram(shape.getHighestTrackableValue(), shape.getNumberOfSignificantValueDigits());
        }

        /** Starts a phase: what was recorded before now is folded and left out. */
        void startWindow() {
            sample();
            periodError.reset();
            tickTime.reset();
        }

        /** Samples once a second, and once more at the end. */
        void runFor(double s) throws InterruptedException {
            long endNs = System.nanoTime() + Math.round(s * NS_PER_S);
            while (true) {
                long leftNs = endNs - System.nanoTime();
                if (leftNs <= 0) {
                    break;
                }
                Thread.sleep(Math.max(1, Math.min(1000, leftNs / 1_000_000)));
                sample();
            }
        }

        private void sample() {
            long nowNs = System.nanoTime();
            long ticks = stats.ticks();
            stats.sample();
            periodError.add(stats.periodError().interval());
            tickTime.add(stats.tickTime().interval());
            double achievedHz = nowNs > lastNs ? (ticks - lastTicks) * (double) NS_PER_S / (nowNs - lastNs) : rateHz;
            if (assembly.snapshots().read(snapshot) != 0) {
                board.publish(achievedHz, stats.periodError().interval().getValueAtPercentile(99),
                    stats.tickTime().interval().getValueAtPercentile(99), snapshot.overruns);
                track(binaryBytes, frames.stateBinary(snapshot).length);
                track(jsonBytes, frames.stateJson(snapshot).getBytes(StandardCharsets.UTF_8).length);
            }
            lastTicks = ticks;
            lastNs = nowNs;
        }

        private static void track(int[] minMax, int bytes) {
            minMax[0] = Math.min(minMax[0], bytes);
            minMax[1] = Math.max(minMax[1], bytes);
        }

        /** Smallest and largest STATE seen at the samples, without transport framing. */
        Map<String, Object> stateBytes() {
            Map<String, Object> bytes = new LinkedHashMap<>();
            bytes.put("binaryMin", binaryBytes[0]);
            bytes.put("binaryMax", binaryBytes[1]);
            bytes.put("jsonMin", jsonBytes[0]);
            bytes.put("jsonMax", jsonBytes[1]);
            return bytes;
        }
    }

    /** CPU time of every live thread, by name, and of the process. */
    private static final class ThreadCpu {
        final Map<Long, Long> cpuNsById = new HashMap<>();
        final Map<Long, String> nameById = new HashMap<>();
        long processNs;

        static ThreadCpu now() {
            java.lang.management.ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            ThreadCpu cpu = new ThreadCpu();
            long[] ids = threads.getAllThreadIds();
            ThreadInfo[] infos = threads.getThreadInfo(ids);
            for (int i = 0; i < ids.length; i++) {
                long ns = threads.getThreadCpuTime(ids[i]);
                if (infos[i] != null && ns >= 0) {
                    cpu.cpuNsById.put(ids[i], ns);
                    cpu.nameById.put(ids[i], infos[i].getThreadName());
                }
            }
            cpu.processNs = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
            return cpu;
        }

        /** CPU ns since {@code before} of the threads whose name starts with {@code prefix} and lived through both. */
        long since(ThreadCpu before, String prefix) {
            long total = 0;
            for (Map.Entry<Long, Long> e : cpuNsById.entrySet()) {
                Long earlier = before.cpuNsById.get(e.getKey());
                if (earlier != null && nameById.get(e.getKey()).startsWith(prefix)) {
                    total += e.getValue() - earlier;
                }
            }
            return total;
        }
    }
}
