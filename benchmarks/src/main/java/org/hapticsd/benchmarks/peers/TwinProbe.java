package org.hapticsd.benchmarks.peers;

import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The most a step split over both cores could gain, measured without writing the split: for each scene of
 * {@link PeerScene}, one copy stepped alone, then two independent copies stepped in lockstep on two threads (the
 * stepping thread and a helper that spins, as a split step's helper would). A step of the pair ends when both copies
 * have stepped, so the pair's time for {@code pile-N} is what a perfect split of {@code pile-2N} into two halves that
 * share no body, no row and no cache line would cost; a real split adds its boundary rows and handshakes to that.
 * Both use {@link StepProbe}'s protocol ({@link PeerScene#SETTLE_S} untimed, then {@link PeerScene#TIMED_S} timed step
 * by step), after the same untimed warm-up. A last line gives the round trip of one spin handshake between the two
 * threads, which a split step pays a few times per sweep.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar org.hapticsd.benchmarks.peers.TwinProbe pile-200,pile-400 [rounds]
 * </pre>
 */
public final class TwinProbe {
    private static final int HANDSHAKES = 1_000_000;
    private static final long NO_STEP = 0L;
    /** The helper's copy steps when this passes the number of steps it has done; written by the stepping thread. */
    private static volatile long stepsRequested;
    private static final AtomicLong STEPS_DONE = new AtomicLong();

    private TwinProbe() {
    }

    public static void main(String[] args) throws InterruptedException {
        if (args.length < 1) {
            System.err.println("usage: TwinProbe SCENE[,SCENE...] [ROUNDS]");
            System.exit(2);
        }
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 1;
        double warmUpS = Double.parseDouble(System.getProperty(StepProbe.WARM_UP_PROPERTY,
            String.valueOf(StepProbe.DEFAULT_WARM_UP_S)));
        for (String name : args[0].split(",")) {
            PeerScene scene = PeerScene.named(name);
            long endNs = System.nanoTime() + (long) (warmUpS * 1e9);
            while (System.nanoTime() < endNs) {
                timed(scene, false);
                timed(scene, true);
            }
            for (int round = 0; round < rounds; round++) {
                System.out.println(line(name, "alone", round, timed(scene, false)));
                System.out.println(line(name, "pair ", round, timed(scene, true)));
            }
        }
        System.out.println(handshakes());
    }

    /** Each timed step's wall time, ns, of one copy of the scene, or of two copies in lockstep. */
    private static long[] timed(PeerScene scene, boolean pair) throws InterruptedException {
        OursEngine first = new OursEngine(scene);
        OursEngine second = pair ? new OursEngine(scene) : null;
        for (int i = 0, n = PeerScene.settleSteps(); i < n; i++) {
            first.step();
            if (pair) {
                second.step();
            }
        }
        int steps = PeerScene.timedSteps();
        long[] ns = new long[steps];
        Thread helper = null;
        if (pair) {
            stepsRequested = NO_STEP;
            STEPS_DONE.set(NO_STEP);
            helper = new Thread(() -> {
                for (long k = 1; k <= steps; k++) {
                    while (stepsRequested < k) {
                        Thread.onSpinWait();
                    }
                    second.step();
                    STEPS_DONE.incrementAndGet();
                }
            }, "twin-probe-helper");
            helper.start();
        }
        for (int i = 0; i < steps; i++) {
            long t0 = System.nanoTime();
            if (pair) {
                stepsRequested = i + 1;
            }
            first.step();
            while (pair && STEPS_DONE.get() < i + 1) {
                Thread.onSpinWait();
            }
            ns[i] = System.nanoTime() - t0;
        }
        if (helper != null) {
            helper.join();
            second.close();
        }
        first.close();
        return ns;
    }

    private static String line(String name, String mode, int round, long[] ns) {
        long[] sorted = ns.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return String.format(Locale.ROOT, "%-9s %s round %d: p50 %7.1f p90 %7.1f p99 %7.1f max %8.1f us", name, mode,
            round, sorted[n / 2] / 1e3, sorted[n * 9 / 10] / 1e3, sorted[n * 99 / 100] / 1e3, sorted[n - 1] / 1e3);
    }

    /** The round trip of a spin handshake between the stepping thread and a helper: p50, p99, p99.9 and max. */
    private static String handshakes() throws InterruptedException {
        stepsRequested = NO_STEP;
        STEPS_DONE.set(NO_STEP);
        Thread helper = new Thread(() -> {
            for (long k = 1; k <= HANDSHAKES; k++) {
                while (stepsRequested < k) {
                    Thread.onSpinWait();
                }
                STEPS_DONE.set(k);
            }
        }, "twin-probe-handshake");
        helper.start();
        long[] ns = new long[HANDSHAKES];
        for (int i = 1; i <= HANDSHAKES; i++) {
            long t0 = System.nanoTime();
            stepsRequested = i;
            while (STEPS_DONE.get() < i) {
                Thread.onSpinWait();
            }
            ns[i - 1] = System.nanoTime() - t0;
        }
        helper.join();
        Arrays.sort(ns);
        return String.format(Locale.ROOT, "handshake round trip: p50 %d ns, p99 %d ns, p99.9 %d ns, max %.1f us",
            ns[HANDSHAKES / 2], ns[HANDSHAKES / 100 * 99], ns[HANDSHAKES / 1000 * 999], ns[HANDSHAKES - 1] / 1e3);
    }
}
