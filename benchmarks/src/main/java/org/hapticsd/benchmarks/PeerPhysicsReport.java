package org.hapticsd.benchmarks;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.hapticsd.benchmarks.peers.ContactStats;
import org.hapticsd.benchmarks.peers.PeerEngine;
import org.hapticsd.benchmarks.peers.PeerScene;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.util.Statistics;

/**
 * Runs {@link PeerPhysicsBenchmark} and prints, per scene and engine, what JMH alone cannot: the step time's p50 and
 * p99, the ratio of ours to each peer, and the penetration over the timed window.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar org.hapticsd.benchmarks.PeerPhysicsReport [JMH options]
 * java -cp benchmarks/target/benchmarks.jar org.hapticsd.benchmarks.PeerPhysicsReport --penetration-only
 * </pre>
 *
 * JMH options pass through ({@code -p scene=pile-200,stack-10}, {@code -i 5}, {@code -rf json}, …). Penetration
 * is measured here, untimed, on one episode of each scene with the benchmark's protocol (settle, then the timed
 * window): every engine is deterministic for a given build, so these are the steps the benchmark times.
 */
public final class PeerPhysicsReport {
    private static final String OURS = "ours";

    private PeerPhysicsReport() {
    }

    public static void main(String[] args) throws CommandLineOptionException, RunnerException {
        boolean penetrationOnly = Arrays.asList(args).contains("--penetration-only");
        String[] jmhArgs = Arrays.stream(args).filter(a -> !a.equals("--penetration-only")).toArray(String[]::new);
        CommandLineOptions command = new CommandLineOptions(jmhArgs);
        List<String> engines = parameter(command, "engine");
        List<String> scenes = parameter(command, "scene");
        PrintStream out = System.out;

        String loadBefore = loadAverage();
        Map<String, ContactStats> contacts = new HashMap<>();
        Map<String, Double> speeds = new HashMap<>();
        for (String scene : scenes) {
            for (String engine : engines) {
                ContactStats stats = new ContactStats();
                speeds.put(key(scene, engine), penetration(PeerScene.named(scene), engine, stats));
                contacts.put(key(scene, engine), stats);
            }
        }

        Map<String, Statistics> times = new HashMap<>();
        if (!penetrationOnly) {
            Options options = new OptionsBuilder().parent(command)
                .include("\\." + PeerPhysicsBenchmark.class.getSimpleName() + "\\.")
                .build();
            Collection<RunResult> results = new Runner(options).run();
            for (RunResult result : results) {
                times.put(key(result.getParams().getParam("scene"), result.getParams().getParam("engine")),
                    result.getPrimaryResult().getStatistics());
            }
        }

        out.println();
        out.printf(Locale.ROOT, "Physics against its peers: %s %s (%s), %d CPUs, load average %s before, %s after%n",
            System.getProperty("java.vm.name"), System.getProperty("java.runtime.version"),
            System.getProperty("java.vm.vendor"), Runtime.getRuntime().availableProcessors(), loadBefore,
            loadAverage());
        out.println();
        out.println("| scene | engine | step p50, µs | step p99, µs | p99/p50 | ours ÷ peer, p50 (p99) | contact points "
            + "per step (penetrating) | penetration mean / max, mm | max speed at end, m/s |");
        out.println("|---|---|---|---|---|---|---|---|---|");
        for (String scene : scenes) {
            Statistics ours = times.get(key(scene, OURS));
            for (String engine : engines) {
                Statistics t = times.get(key(scene, engine));
                ContactStats c = contacts.get(key(scene, engine));
                String ratio = engine.equals(OURS) || ours == null || t == null ? "–" : String.format(Locale.ROOT,
                    "%.2f (%.2f)", ours.getPercentile(50) / t.getPercentile(50),
                    ours.getPercentile(99) / t.getPercentile(99));
                out.printf(Locale.ROOT, "| `%s` | %s | %s | %s | %s | %s | %.0f (%.0f) | %.3f / %.3f | %.4f |%n", scene,
                    engine, t == null ? "–" : format(t.getPercentile(50)), t == null ? "–" : format(t.getPercentile(99)),
                    t == null ? "–" : String.format(Locale.ROOT, "%.2f", t.getPercentile(99) / t.getPercentile(50)),
                    ratio, c.pointsPerStep(), c.penetratingPerStep(), 1e3 * c.meanDepthM(), 1e3 * c.maxDepthM(),
                    speeds.get(key(scene, engine)));
            }
        }
    }

    /** One episode untimed: settle, then record every contact of the timed window; the max speed at its end. */
    private static double penetration(PeerScene scene, String engine, ContactStats stats) {
        try (PeerEngine world = PeerEngine.create(engine, scene)) {
            for (int i = 0, n = PeerScene.settleSteps(); i < n; i++) {
                world.step();
            }
            for (int i = 0, n = PeerScene.timedSteps(); i < n; i++) {
                world.step();
                world.recordContacts(stats);
            }
            return world.maxSpeedMps();
        }
    }

    /** The values given with {@code -p name=…}, else the benchmark's own {@link Param} list. */
    private static List<String> parameter(CommandLineOptions command, String name) {
        var given = command.getParameter(name);
        if (given.hasValue()) {
            return new ArrayList<>(given.get());
        }
        try {
            Field field = PeerPhysicsBenchmark.class.getField(name);
            return List.of(field.getAnnotation(Param.class).value());
        } catch (NoSuchFieldException e) {
            throw new IllegalStateException("PeerPhysicsBenchmark has no parameter " + name, e);
        }
    }

    private static String key(String scene, String engine) {
        return scene + "/" + engine;
    }

    private static String format(double us) {
        return String.format(Locale.ROOT, us < 100 ? "%.1f" : "%.0f", us);
    }

    private static String loadAverage() {
        try {
            String[] fields = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
            return fields[0] + " " + fields[1] + " " + fields[2];
        } catch (IOException e) {
            return "unknown";
        }
    }
}
