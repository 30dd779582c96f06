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
import org.hapticsd.benchmarks.peers.SlopeProbe;
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
 * Runs {@link PeerPhysicsBenchmark}, every scene and engine in one JMH run, and prints what JMH alone cannot: per
 * scene and engine the step time's p50 and p99 and the ratio of ours to each peer, the penetration over the timed
 * window, each engine's log-log slope of p50 against N over the {@code pile-N} series, whether the issue's
 * targets are met, and the cross-core round trip measured between each trial's iterations (what a two-lane step's
 * speed follows on this machine).
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar org.hapticsd.benchmarks.PeerPhysicsReport [JMH options]
 * java -cp benchmarks/target/benchmarks.jar org.hapticsd.benchmarks.PeerPhysicsReport --penetration-only
 * </pre>
 *
 * JMH options pass through ({@code -p scene=pile-200,stack-10}, {@code -p world=ours,bullet}, {@code -i 5},
 * {@code -rf json}, …), except that {@code -jvmArgsAppend} adds to the forks' own flags instead of replacing them
 * (the report's first line lists them). The forks also get this JVM's own flags (JMH's default), so an experiment's
 * settings ({@code java -Dlcp.budget=3 -cp … PeerPhysicsReport}, see {@code OursEngine}) reach the untimed episodes
 * and the timed forks alike. Penetration is measured here, untimed, on one episode of each scene with the benchmark's
 * protocol (settle, then the timed window): every engine is deterministic for a given build (ode4j once its random
 * generator is seeded per world, which {@code Ode4jEngine} does), so these are the steps the benchmark times.
 */
public final class PeerPhysicsReport {
    private static final String OURS = "ours";
    /** Our engine with each step split over two threads ({@code PhysicsWorld.setStepLanes(2)}). */
    private static final String OURS_TWO_LANES = "ours-2lanes";
    private static final String BULLET = "bullet";
    private static final String PILE = "pile-";
    /** The targets. */
    private static final String TARGET_SCENE = "pile-200";
    private static final double TARGET_P50_US = 250.0;
    private static final double TARGET_RATIO_TO_BULLET = 0.5;
    private static final double TARGET_SLOPE = 1.1;
    private static final double TARGET_P99_OVER_P50 = 2.0;

    private PeerPhysicsReport() {
    }

    /** What the untimed episode of one scene and engine measured. */
    private record Episode(ContactStats contacts, double maxSpeedMps, double largestMoveM) {
    }

    public static void main(String[] args) throws CommandLineOptionException, RunnerException, IOException {
        boolean penetrationOnly = Arrays.asList(args).contains("--penetration-only");
        String[] jmhArgs = Arrays.stream(args).filter(a -> !a.equals("--penetration-only")).toArray(String[]::new);
        CommandLineOptions command = new CommandLineOptions(jmhArgs);
        List<String> engines = parameter(command, "world");
        List<String> scenes = parameter(command, "scene");
        PrintStream out = System.out;

        List<String> forkFlags = forkFlags(command);
        String loadBefore = loadAverage();
        Map<String, Episode> episodes = new HashMap<>();
        for (String scene : scenes) {
            for (String engine : engines) {
                episodes.put(key(scene, engine), episode(PeerScene.named(scene), engine));
            }
        }

        Map<String, Statistics> times = new HashMap<>();
        Map<Integer, Statistics> floor = new java.util.TreeMap<>();
        Map<String, String> roundTrips = new HashMap<>();
        if (!penetrationOnly) {
            Path roundTripFile = Files.createTempFile("peer-round-trips", ".txt");
            List<String> forkArgs = new ArrayList<>(forkFlags);
            forkArgs.add("-D" + PeerPhysicsBenchmark.ROUND_TRIP_FILE + "=" + roundTripFile);
            Options options = new OptionsBuilder().parent(command)
                .include("\\." + PeerPhysicsBenchmark.class.getSimpleName() + "\\.")
                .include("\\." + NoiseFloorBenchmark.class.getSimpleName() + "\\.")
                .jvmArgsAppend(forkArgs.toArray(String[]::new))
                .build();
            Collection<RunResult> results;
            try {
                results = new Runner(options).run();
                for (String line : Files.readAllLines(roundTripFile)) {
                    String[] fields = line.trim().split(" ", 3);
                    roundTrips.put(key(fields[0], fields[1]), fields.length > 2 ? fields[2] : "");
                }
            } finally {
                Files.deleteIfExists(roundTripFile);
            }
            for (RunResult result : results) {
                String target = result.getParams().getParam("targetUs");
                if (target != null) {
                    floor.put(Integer.parseInt(target), result.getPrimaryResult().getStatistics());
                } else {
                    times.put(key(result.getParams().getParam("scene"), result.getParams().getParam("world")),
                        result.getPrimaryResult().getStatistics());
                }
            }
        }

        out.println();
        out.printf(Locale.ROOT, "Physics against its peers: %s %s (%s), %d CPUs, load average %s before, %s after;"
                + " %.1f s of settling, then %.1f s timed; the forks add to this JVM's flags: %s%n",
            System.getProperty("java.vm.name"), System.getProperty("java.runtime.version"),
            System.getProperty("java.vm.vendor"), Runtime.getRuntime().availableProcessors(), loadBefore,
            loadAverage(), PeerScene.settleS(), PeerScene.TIMED_S, String.join(" ", forkFlags));
        out.println();
        printTable(out, scenes, engines, times, episodes);
        out.println();
        printSolver(out, scenes, engines, episodes);
        out.println();
        Map<String, Double> slopes = printSlopes(out, scenes, engines, times, episodes);
        out.println();
        printTargets(out, scenes, engines, times, slopes);
        out.println();
        printNoiseFloor(out, floor);
        out.println();
        printRoundTrips(out, scenes, engines, roundTrips);
    }

    /**
     * The spin round trip between two threads, measured after each iteration of our engines' trials: a two-lane
     * step pays it at a dozen handshakes a step and at every line its lanes share. In the thirty-eighth session
     * (docs/performance.md) {@code pile-800} on two lanes ran 1.3–1.6× faster than one lane while it was 70–120 ns,
     * and 0.65–0.8× as fast while it was 300–800 ns; two independent worlds on the two threads kept their speed in
     * both.
     */
    private static void printRoundTrips(PrintStream out, List<String> scenes, List<String> engines,
                                        Map<String, String> roundTrips) {
        List<String> ours = engines.stream().filter(e -> e.equals(OURS) || e.equals(OURS_TWO_LANES)).toList();
        if (roundTrips.isEmpty() || ours.isEmpty()) {
            return;
        }
        out.println("| scene | " + String.join(" | ", ours.stream().map(e -> e + ": spin round trip after each "
            + "iteration, ns").toList()) + " |");
        out.println("|---|" + "---|".repeat(ours.size()));
        for (String scene : scenes) {
            StringBuilder row = new StringBuilder("| `" + scene + "` |");
            for (String engine : ours) {
                String trips = roundTrips.get(key(scene, engine));
                row.append(' ').append(trips == null ? "–" : trips.replace(" ", ", ")).append(" |");
            }
            out.println(row);
        }
    }

    /**
     * The forks' appended flags: the benchmarks' own (ZGC, a 2 GB heap, pre-touched), then the command line's
     * {@code -jvmArgsAppend}. Composed here because JMH's {@code -jvmArgsAppend} replaces the annotation's list: an
     * experiment that passed {@code -jvmArgsAppend -Dlcp.budget=3} ran its forks under the default collector (G1)
     * and heap without saying so (the sixteenth session's budget rounds, docs/performance.md).
     */
    private static List<String> forkFlags(CommandLineOptions command) {
        List<String> flags = new ArrayList<>(List.of(PeerPhysicsBenchmark.COLLECTOR, PeerPhysicsBenchmark.HEAP_MIN,
            PeerPhysicsBenchmark.HEAP_MAX, PeerPhysicsBenchmark.PRE_TOUCH));
        if (command.getJvmArgsAppend().hasValue()) {
            flags.addAll(command.getJvmArgsAppend().get());
        }
        return flags;
    }

    /** The control: the p99/p50 of constant work of about the same length as the steps, on the same machine. */
    private static void printNoiseFloor(PrintStream out, Map<Integer, Statistics> floor) {
        if (floor.isEmpty()) {
            return;
        }
        out.println("| control: constant work (NoiseFloorBenchmark), target | p50, µs | p99, µs | p99/p50 |");
        out.println("|---|---|---|---|");
        for (Map.Entry<Integer, Statistics> e : floor.entrySet()) {
            Statistics t = e.getValue();
            out.printf(Locale.ROOT, "| %d µs | %s | %s | %.2f |%n", e.getKey(), format(t.getPercentile(50)),
                format(t.getPercentile(99)), t.getPercentile(99) / t.getPercentile(50));
        }
        for (Map.Entry<Integer, Statistics> e : floor.entrySet()) {
            double p50 = e.getValue().getPercentile(50);
            if (p50 < 0.5 * e.getKey() || p50 > 2.0 * e.getKey()) {
                out.printf(Locale.ROOT, "WARNING: the %d µs control ran %s µs: it is not the length it compares "
                    + "against, so its p99/p50 says little about a step of %d µs%n", e.getKey(), format(p50),
                    e.getKey());
            }
        }
    }

    private static void printTable(PrintStream out, List<String> scenes, List<String> engines,
                                   Map<String, Statistics> times, Map<String, Episode> episodes) {
        out.println("| scene | engine | step p50, µs | step p99, µs | p99/p50 | ours ÷ engine, p50 (p99) | contact "
            + "points per step (penetrating) | penetration mean / max, mm | largest move in the window, mm | "
            + "max speed at end, m/s |");
        out.println("|---|---|---|---|---|---|---|---|---|---|");
        for (String scene : scenes) {
            Statistics ours = times.get(key(scene, OURS));
            for (String engine : engines) {
                Statistics t = times.get(key(scene, engine));
                Episode e = episodes.get(key(scene, engine));
                ContactStats c = e.contacts();
                String ratio = engine.equals(OURS) || ours == null || t == null ? "–" : String.format(Locale.ROOT,
                    "%.2f (%.2f)", ours.getPercentile(50) / t.getPercentile(50),
                    ours.getPercentile(99) / t.getPercentile(99));
                out.printf(Locale.ROOT, "| `%s` | %s | %s | %s | %s | %s | %.0f (%.0f) | %.3f / %.3f | %.2f | %.4f |%n",
                    scene, engine, t == null ? "–" : format(t.getPercentile(50)),
                    t == null ? "–" : format(t.getPercentile(99)),
                    t == null ? "–" : String.format(Locale.ROOT, "%.2f", t.getPercentile(99) / t.getPercentile(50)),
                    ratio, c.pointsPerStep(), c.penetratingPerStep(), 1e3 * c.meanDepthM(), 1e3 * c.maxDepthM(),
                    1e3 * e.largestMoveM(), e.maxSpeedMps());
            }
        }
    }

    /**
     * Our solver's sweeps (it stops early at its tolerance; the peers run their fixed counts), how many steps ran
     * to the limit (they make the tail of our step time) and any drops.
     */
    private static void printSolver(PrintStream out, List<String> scenes, List<String> engines,
                                    Map<String, Episode> episodes) {
        if (!engines.contains(OURS)) {
            return;
        }
        out.println("| scene | ours: velocity sweeps per step (of 20) | work per step, full sweeps | steps stopped by "
            + "the work budget | steps at 20 sweeps | position sweeps per step (of 10) | pairs and points dropped over "
            + "the contact budget |");
        out.println("|---|---|---|---|---|---|---|");
        for (String scene : scenes) {
            ContactStats c = episodes.get(key(scene, OURS)).contacts();
            out.printf(Locale.ROOT, "| `%s` | %.2f | %.2f | %.1f%% | %.1f%% | %.2f | %d |%n", scene,
                c.velocitySweepsPerStep(), c.fullSweepsPerStep(), 100 * c.atBudget(), 100 * c.atSweepLimit(),
                c.positionSweepsPerStep(), c.dropped());
        }
    }

    /**
     * Least-squares slope of ln p50 against ln N over the {@code pile-N} scenes, per engine (the measure),
     * and against ln of the contact points per step: the series is not one regime scaled (pile-50 is a single
     * layer on the floor, about one contact per sphere; pile-800 ten layers, about 2.3), so the second says how the
     * cost grows with the work.
     */
    private static Map<String, Double> printSlopes(PrintStream out, List<String> scenes, List<String> engines,
                                                   Map<String, Statistics> times, Map<String, Episode> episodes) {
        Map<String, Double> slopes = new HashMap<>();
        List<String> piles = scenes.stream().filter(s -> s.startsWith(PILE)).sorted(
            (a, b) -> Integer.compare(spheres(a), spheres(b))).toList();
        if (piles.size() < 2 || times.isEmpty()) {
            return slopes;
        }
        out.println("| engine | log-log slope of step p50 over N = " + spheres(piles.get(0)) + " … "
            + spheres(piles.get(piles.size() - 1)) + " | the same against contact points per step | p50 at each N, "
            + "µs |");
        out.println("|---|---|---|---|");
        for (String engine : engines) {
            double[] n = new double[piles.size()];
            double[] points = new double[piles.size()];
            double[] p50 = new double[piles.size()];
            StringBuilder values = new StringBuilder();
            for (int i = 0; i < n.length; i++) {
                Statistics t = times.get(key(piles.get(i), engine));
                n[i] = Math.log(spheres(piles.get(i)));
                points[i] = Math.log(episodes.get(key(piles.get(i), engine)).contacts().pointsPerStep());
                p50[i] = t == null ? Double.NaN : Math.log(t.getPercentile(50));
                values.append(i == 0 ? "" : ", ").append(t == null ? "–" : format(t.getPercentile(50)));
            }
            double slope = SlopeProbe.lineSlope(n, p50);
            slopes.put(engine, slope);
            out.printf(Locale.ROOT, "| %s | %.2f | %.2f | %s |%n", engine, slope, SlopeProbe.lineSlope(points, p50),
                values);
        }
        return slopes;
    }

    private static void printTargets(PrintStream out, List<String> scenes, List<String> engines,
                                     Map<String, Statistics> times, Map<String, Double> slopes) {
        for (String mine : List.of(OURS, OURS_TWO_LANES)) {
            if (engines.contains(mine)) {
                printTargets(out, mine, scenes, times, slopes);
            }
        }
    }

    /** The targets for one of our engines: {@code ours}, or {@code ours-2lanes} (each step on two threads). */
    private static void printTargets(PrintStream out, String mine, List<String> scenes, Map<String, Statistics> times,
                                     Map<String, Double> slopes) {
        Statistics ours = times.get(key(TARGET_SCENE, mine));
        Statistics bullet = times.get(key(TARGET_SCENE, BULLET));
        out.println("Targets (" + mine + "):");
        if (ours != null) {
            double p50 = ours.getPercentile(50);
            out.printf(Locale.ROOT, "- %s p50 <= %.0f µs: %s µs, %s%n", TARGET_SCENE, TARGET_P50_US, format(p50),
                verdict(p50 <= TARGET_P50_US));
            if (bullet != null) {
                double ratio = p50 / bullet.getPercentile(50);
                out.printf(Locale.ROOT, "- %s p50 <= %.1f x Bullet's: %.2f x, %s%n", TARGET_SCENE,
                    TARGET_RATIO_TO_BULLET, ratio, verdict(ratio <= TARGET_RATIO_TO_BULLET));
            }
        }
        Double slope = slopes.get(mine);
        if (slope != null) {
            List<Integer> sizes = scenes.stream().filter(s -> s.startsWith(PILE)).map(PeerPhysicsReport::spheres)
                .sorted().toList();
            if (sizes.equals(List.of(50, 100, 200, 400, 800))) {
                out.printf(Locale.ROOT, "- log-log slope <= %.1f over N = 50 … 800: %.2f, %s%n", TARGET_SLOPE, slope,
                    verdict(slope <= TARGET_SLOPE));
            } else {
                // A subset is no verdict on a target set over the whole series (a tester: "2.22, NOT met" for 50, 100).
                out.printf(Locale.ROOT, "- log-log slope over N = %s: %.2f (the target is judged over N = 50, "
                    + "100, 200, 400, 800 only)%n", sizes, slope);
            }
        }
        for (String scene : scenes) {
            Statistics t = times.get(key(scene, mine));
            if (t != null) {
                double tail = t.getPercentile(99) / t.getPercentile(50);
                out.printf(Locale.ROOT, "- %s p99 <= %.0f x p50: %.2f x, %s%n", scene, TARGET_P99_OVER_P50, tail,
                    verdict(tail <= TARGET_P99_OVER_P50));
            }
        }
    }

    /** One episode untimed: settle, then record every contact of the timed window and how far the bodies moved. */
    private static Episode episode(PeerScene scene, String engine) {
        ContactStats stats = new ContactStats();
        try (PeerEngine world = PeerEngine.create(engine, scene)) {
            for (int i = 0, n = PeerScene.settleSteps(); i < n; i++) {
                world.step();
            }
            double[] start = new double[3 * scene.bodies()];
            for (int b = 0; b < scene.bodies(); b++) {
                for (int axis = 0; axis < 3; axis++) {
                    start[3 * b + axis] = world.centreM(b, axis);
                }
            }
            for (int i = 0, n = PeerScene.timedSteps(); i < n; i++) {
                world.step();
                world.recordContacts(stats);
            }
            double largestMoveM = 0.0;
            for (int b = 0; b < scene.bodies(); b++) {
                double dx = world.centreM(b, 0) - start[3 * b];
                double dy = world.centreM(b, 1) - start[3 * b + 1];
                double dz = world.centreM(b, 2) - start[3 * b + 2];
                largestMoveM = Math.max(largestMoveM, Math.sqrt(dx * dx + dy * dy + dz * dz));
            }
            return new Episode(stats, world.maxSpeedMps(), largestMoveM);
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

    private static int spheres(String pileScene) {
        return Integer.parseInt(pileScene.substring(PILE.length()));
    }

    private static String verdict(boolean met) {
        return met ? "met" : "NOT met";
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
