package org.hapticsd.benchmarks.peers;

import java.util.Arrays;
import java.util.Locale;

/**
 * The scale series' step times with every scene timed under the same machine: each engine holds every scene at once,
 * each settled by the peer benchmark's protocol ({@link PeerScene#SETTLE_S} untimed), and the timed window that
 * follows ({@link PeerScene#TIMED_S}) is stepped in rounds: a block of each scene and engine in turn, round after
 * round, every step timed with {@link System#nanoTime()}. On a shared machine whose speed changes by half from one
 * minute to the next, JMH times the scenes minutes apart, and the log–log slope over N = 50 … 800 (least squares
 * over the p50s, as {@code PeerPhysicsReport} computes it) moved by ±0.1 between runs of the same build
 * (docs/performance.md); here a slow minute slows every scene's blocks alike.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar org.hapticsd.benchmarks.peers.SlopeProbe [ENGINES] [SCENES] [ROUNDS]
 * </pre>
 *
 * ENGINES defaults to {@code ours,ours-2lanes} (any of {@link PeerEngine#create}), SCENES to the {@code pile-N}
 * series, ROUNDS to 10 (blocks of 200 steps of a 2,000-step window). Before the timed engines are built, each scene
 * and engine runs one whole episode untimed, so that the JIT has compiled what the window runs. Prints per engine
 * and scene the p50 of the window's steps and the median of its blocks' p50s; per engine the slope of the p50s,
 * and the median, lowest and highest of the rounds' own slopes (each over that round's block p50s); and the ratio of
 * the first engine's p50 to each other's. The first steps of a block run with caches the other scenes left cold,
 * so a block's tail is not the engine's: no p99 is given.
 *
 * <p>Measured (docs/performance.md, thirty-seventh session): one lane's slope 1.253–1.270 in seven runs, some of them
 * while the machine ran a third slower throughout. Two lanes' figures are not steadied this way: holding other
 * engines between its blocks, the split's gain on {@code pile-800} ranged 0.87–1.55× from run to run.
 */
public final class SlopeProbe {
    private static final String[] DEFAULT_ENGINES = {"ours", "ours-2lanes"};
    private static final String[] DEFAULT_SCENES = {"pile-50", "pile-100", "pile-200", "pile-400", "pile-800"};
    private static final int DEFAULT_ROUNDS = 10;

    private SlopeProbe() {
    }

    public static void main(String[] args) {
        String[] engines = args.length > 0 ? args[0].split(",") : DEFAULT_ENGINES;
        String[] scenes = args.length > 1 ? args[1].split(",") : DEFAULT_SCENES;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : DEFAULT_ROUNDS;
        int window = PeerScene.timedSteps();
        if (rounds < 1 || window % rounds != 0) {
            System.err.println("SlopeProbe: ROUNDS must divide the " + window + "-step window");
            System.exit(2);
        }
        int block = window / rounds;
        PeerScene[] peerScenes = new PeerScene[scenes.length];
        double[] sizes = new double[scenes.length];
        for (int s = 0; s < scenes.length; s++) {
            peerScenes[s] = PeerScene.named(scenes[s]);
            sizes[s] = peerScenes[s].bodies();
        }

        for (String engine : engines) {
            for (PeerScene scene : peerScenes) {
                try (PeerEngine warm = PeerEngine.create(engine, scene)) {
                    for (int i = 0, n = PeerScene.settleSteps() + window; i < n; i++) {
                        warm.step();
                    }
                }
            }
        }

        PeerEngine[][] held = new PeerEngine[engines.length][scenes.length];
        long[][][] times = new long[engines.length][scenes.length][window];
        try {
            for (int e = 0; e < engines.length; e++) {
                for (int s = 0; s < scenes.length; s++) {
                    held[e][s] = PeerEngine.create(engines[e], peerScenes[s]);
                    for (int i = 0, n = PeerScene.settleSteps(); i < n; i++) {
                        held[e][s].step();
                    }
                }
            }
            for (int r = 0; r < rounds; r++) {
                for (int e = 0; e < engines.length; e++) {
                    for (int s = 0; s < scenes.length; s++) {
                        PeerEngine engine = held[e][s];
                        long[] t = times[e][s];
                        for (int i = r * block, end = i + block; i < end; i++) {
                            long t0 = System.nanoTime();
                            engine.step();
                            t[i] = System.nanoTime() - t0;
                        }
                    }
                }
            }
        } finally {
            for (PeerEngine[] row : held) {
                for (PeerEngine engine : row) {
                    if (engine != null) {
                        engine.close();
                    }
                }
            }
        }

        double[][] p50 = new double[engines.length][scenes.length];
        for (int e = 0; e < engines.length; e++) {
            double[][] blockP50 = new double[rounds][scenes.length];
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-12s", engines[e]));
            for (int s = 0; s < scenes.length; s++) {
                p50[e][s] = median(times[e][s], 0, window) / 1e3;
                double[] blocks = new double[rounds];
                for (int r = 0; r < rounds; r++) {
                    blockP50[r][s] = median(times[e][s], r * block, block) / 1e3;
                    blocks[r] = blockP50[r][s];
                }
                Arrays.sort(blocks);
                line.append(String.format(Locale.ROOT, " | %s p50 %.1f (blocks %.1f)", scenes[s], p50[e][s],
                    blocks[rounds / 2]));
            }
            double[] roundSlopes = new double[rounds];
            for (int r = 0; r < rounds; r++) {
                roundSlopes[r] = slope(sizes, blockP50[r]);
            }
            Arrays.sort(roundSlopes);
            line.append(String.format(Locale.ROOT, " | slope %.3f; rounds' slopes median %.3f, %.3f … %.3f",
                slope(sizes, p50[e]), roundSlopes[rounds / 2], roundSlopes[0], roundSlopes[rounds - 1]));
            System.out.println(line);
        }
        for (int e = 1; e < engines.length; e++) {
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%s ÷ %s:", engines[0], engines[e]));
            for (int s = 0; s < scenes.length; s++) {
                line.append(String.format(Locale.ROOT, " %s %.2f", scenes[s], p50[0][s] / p50[e][s]));
            }
            System.out.println(line);
        }
    }

    /** The median of {@code t[from .. from + n − 1]}, ns (the upper one of an even count). */
    private static double median(long[] t, int from, int n) {
        long[] copy = Arrays.copyOfRange(t, from, from + n);
        Arrays.sort(copy);
        return copy[n / 2];
    }

    /** The log–log slope of {@code y} against {@code x}: {@link #lineSlope} of their logarithms. */
    private static double slope(double[] x, double[] y) {
        double[] lx = new double[x.length];
        double[] ly = new double[y.length];
        for (int i = 0; i < x.length; i++) {
            lx[i] = Math.log(x[i]);
            ly[i] = Math.log(y[i]);
        }
        return lineSlope(lx, ly);
    }

    /** Slope of the least-squares line through (x, y); NaN if a y is. */
    public static double lineSlope(double[] x, double[] y) {
        double mx = 0.0;
        double my = 0.0;
        for (int i = 0; i < x.length; i++) {
            mx += x[i] / x.length;
            my += y[i] / y.length;
        }
        double sxy = 0.0;
        double sxx = 0.0;
        for (int i = 0; i < x.length; i++) {
            sxy += (x[i] - mx) * (y[i] - my);
            sxx += (x[i] - mx) * (x[i] - mx);
        }
        return sxy / sxx;
    }
}
