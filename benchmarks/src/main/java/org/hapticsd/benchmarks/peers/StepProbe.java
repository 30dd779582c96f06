package org.hapticsd.benchmarks.peers;

import java.util.Arrays;
import java.util.Locale;
import org.hapticsd.physics.StepProfile;
import org.hapticsd.physics.StepStage;

/**
 * Where our engine's step time goes, outside JMH: for each scene of {@link PeerScene} (the peer benchmark's
 * protocol: {@link PeerScene#SETTLE_S} untimed, then {@link PeerScene#TIMED_S} of steps timed one by one with
 * {@link System#nanoTime()}), the step's p50, p90 and p99, the share of steps whose velocity sweeps ran to the sweep
 * limit or the work budget, the sweeps' work in full sweeps, how many bodies still move faster than 1 mm/s (mean
 * over every 50th step, outside the timing), the median of each {@link StepStage}, and the mean of
 * each stage over the slowest 3 % of the steps (what makes the tail). One line per scene and round; each round
 * builds the scene anew, so rounds differ only by the machine.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar org.hapticsd.benchmarks.peers.StepProbe stack-10,pile-200 [rounds]
 * </pre>
 *
 * The engine's contact settings can be overridden for experiments: {@code -Dlcp.tol=}, {@code -Dlcp.budget=},
 * {@code -Dlcp.it=} (see {@code OursEngine}).
 *
 * <p>Before its first round, each scene is stepped untimed for {@code -Dwarmup.s} seconds of wall time (default
 * {@value #DEFAULT_WARM_UP_S}), as JMH's warm-up iteration does: without it the small scenes were timed
 * while the JIT was still compiling the step. A 50-sphere pile's 5,000 steps take a quarter of a second, and its
 * first round measured 28.5 µs against 23.3 µs from the third round on ({@code wide-50}: 53.5 against 36.2 µs), which
 * lowered every slope this probe reported before the seventh session.
 */
public final class StepProbe {
    private static final int SLOWEST_PERCENT = 3;
    /** A body faster than this, m/s, counts as still moving ("moving": the mean count per sampled step). */
    private static final double SETTLED_SPEED_MPS = 1e-3;
    /**
     * The moving bodies are counted every this many timed steps, so that reading every body's velocity between
     * steps does not warm the caches of the steps timed.
     */
    private static final int MOVING_SAMPLE_STEPS = 50;

    /** System property: seconds of untimed stepping per scene before its first round. */
    static final String WARM_UP_PROPERTY = "warmup.s";
    static final double DEFAULT_WARM_UP_S = 5.0;

    private StepProbe() {
    }

    public static void main(String[] args) {
        if (args.length < 1) {
            System.err.println("usage: StepProbe SCENE[,SCENE...] [ROUNDS]");
            System.exit(2);
        }
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 1;
        for (String name : args[0].split(",")) {
            PeerScene scene = PeerScene.named(name);
            warmUp(scene, Double.parseDouble(System.getProperty(WARM_UP_PROPERTY, String.valueOf(DEFAULT_WARM_UP_S))));
            for (int round = 0; round < rounds; round++) {
                System.out.println(probe(name, scene, round));
            }
        }
    }

    /**
     * Steps the scene untimed, episode after episode, for {@code seconds} of wall time: the JIT compiles the step
     * for this scene before any step is timed.
     */
    private static void warmUp(PeerScene scene, double seconds) {
        long endNs = System.nanoTime() + (long) (seconds * 1e9);
        while (System.nanoTime() < endNs) {
            OursEngine engine = new OursEngine(scene);
            for (int i = 0, n = PeerScene.settleSteps() + PeerScene.timedSteps(); i < n && System.nanoTime() < endNs;
                 i++) {
                engine.step();
            }
            engine.close();
        }
    }

    private static String probe(String name, PeerScene scene, int round) {
        OursEngine engine = new OursEngine(scene);
        for (int i = 0, n = PeerScene.settleSteps(); i < n; i++) {
            engine.step();
        }
        StepProfile profile = engine.world().profile();
        int steps = PeerScene.timedSteps();
        long[] total = new long[steps];
        long[][] stage = new long[StepStage.count()][steps];
        int stopped = 0;
        double work = 0.0;
        long moving = 0;
        for (int i = 0; i < steps; i++) {
            long t0 = System.nanoTime();
            engine.step();
            total[i] = System.nanoTime() - t0;
            for (int s = 0; s < StepStage.count(); s++) {
                stage[s][i] = profile.lastNs(StepStage.at(s));
            }
            if (profile.lastVelocityBudgetReached()
                || profile.lastVelocitySweeps() >= engine.world().contactSettings().lcpIterations()) {
                stopped++;
            }
            int points = profile.lastLcpRowCount();
            work += points == 0 ? 0.0 : (double) profile.lastVelocityVisits() / points;
            if (i % MOVING_SAMPLE_STEPS == 0) {
                moving += engine.bodiesFasterThan(SETTLED_SPEED_MPS);
            }
        }
        engine.close();
        long[] sorted = total.clone();
        Arrays.sort(sorted);
        long slowCut = sorted[steps * (100 - SLOWEST_PERCENT) / 100];
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT,
            "%-9s round %d: p50 %7.1f p90 %7.1f p99 %7.1f us, p99/p50 %.2f | unconverged %4.1f%%, work %.2f sweeps,"
                + " moving %.1f |",
            name, round, sorted[steps / 2] / 1e3, sorted[steps * 9 / 10] / 1e3, sorted[steps * 99 / 100] / 1e3,
            (double) sorted[steps * 99 / 100] / sorted[steps / 2], 100.0 * stopped / steps, work / steps,
            (double) moving / ((steps + MOVING_SAMPLE_STEPS - 1) / MOVING_SAMPLE_STEPS)));
        for (int s = 0; s < StepStage.count(); s++) {
            long[] times = stage[s].clone();
            Arrays.sort(times);
            line.append(String.format(Locale.ROOT, " %s %.1f", abbreviation(s), times[steps / 2] / 1e3));
        }
        line.append(" | slowest ").append(SLOWEST_PERCENT).append("%:");
        for (int s = 0; s < StepStage.count(); s++) {
            long sum = 0;
            int count = 0;
            for (int i = 0; i < steps; i++) {
                if (total[i] >= slowCut) {
                    sum += stage[s][i];
                    count++;
                }
            }
            line.append(String.format(Locale.ROOT, " %s %.1f", abbreviation(s), sum / 1e3 / count));
        }
        return line.toString();
    }

    private static String abbreviation(int stage) {
        return StepStage.at(stage).name().substring(0, 4).toLowerCase(Locale.ROOT);
    }
}
