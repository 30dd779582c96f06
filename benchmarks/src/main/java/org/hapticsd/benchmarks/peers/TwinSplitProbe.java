package org.hapticsd.benchmarks.peers;

import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.hapticsd.physics.SpinRoundTrip;

/**
 * Whether a slow two-lane step is the engine's or the machine's, measured round by round in one process: a block of
 * the scene stepped on two lanes ({@link org.hapticsd.physics.PhysicsWorld#setStepLanes}), a block of it on one lane,
 * a block of two independent copies of the half-size scene stepped in lockstep on two threads (the ceiling of any
 * split, as in {@link TwinProbe}: they share nothing but one handshake a step), a block of one half-size copy alone,
 * and the {@link SpinRoundTrip} of a spin handshake between two threads. {@link TwinProbe} measures these minutes
 * apart, and this machine's speed for a split changes from one minute to the next (docs/performance.md,
 * "Thirty-eighth session"); here each round's figures come from the same few seconds.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar org.hapticsd.benchmarks.peers.TwinSplitProbe [ROUNDS] [SCENE] [HALF]
 * </pre>
 *
 * ROUNDS defaults to 30, SCENE to {@code pile-800}, HALF to {@code pile-400} (the pile of half as many spheres: fewer
 * layers, so about a fifth fewer contact points than half of SCENE). Every world is settled by the peer benchmark's
 * protocol first. One line per round: the block medians in µs (blocks of 200 steps after 20 untimed), the split's
 * gain over one lane, the pair's time over the half scene alone, and the median round trip in ns.
 */
public final class TwinSplitProbe {
    private static final int BLOCK = 200;
    private static final int LEAD_IN = 20;
    private static final int ROUND_TRIPS = 20_000;

    /** Steps of the helper's copy requested by the main thread, and done by the helper. */
    private static volatile long stepsRequested;
    private static final AtomicLong STEPS_DONE = new AtomicLong();
    /** Whether the helper steps its copy on request (it spins) or waits to be unparked. */
    private static volatile boolean serving;

    private TwinSplitProbe() {
    }

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 30;
        String scene = args.length > 1 ? args[1] : "pile-800";
        String half = args.length > 2 ? args[2] : "pile-400";
        OursEngine split = new OursEngine(PeerScene.named(scene), 2);
        OursEngine one = new OursEngine(PeerScene.named(scene), 1);
        OursEngine first = new OursEngine(PeerScene.named(half), 1);
        OursEngine second = new OursEngine(PeerScene.named(half), 1);
        for (int i = 0, n = PeerScene.settleSteps(); i < n; i++) {
            split.step();
            one.step();
            first.step();
            second.step();
        }
        Thread helper = new Thread(() -> serve(second), "twin-split-helper");
        helper.setDaemon(true);
        helper.start();

        System.out.printf(Locale.ROOT, "round | %s: two lanes, one lane | two %s in lockstep, one alone | µs,"
            + " block medians | gain of the split, pair ÷ alone | spin round trip, ns%n", scene, half);
        long[] ns = new long[BLOCK];
        try (SpinRoundTrip roundTrip = new SpinRoundTrip()) {
            for (int r = 0; r < rounds; r++) {
                double twoLanes = block(split, ns);
                double oneLane = block(one, ns);
                serving = true;
                LockSupport.unpark(helper);
                double pair = pairBlock(first, ns);
                serving = false;
                double alone = block(first, ns);
                long tripNs = roundTrip.meanNs(ROUND_TRIPS);
                System.out.printf(Locale.ROOT, "%3d | %6.1f %6.1f | %6.1f %6.1f | %.2f %.2f | %d%n", r, twoLanes,
                    oneLane, pair, alone, oneLane / twoLanes, pair / alone, tripNs);
            }
        }
        split.close();
        one.close();
        first.close();
        second.close();
    }

    /** The helper: between pair blocks it waits parked; while serving, it steps its copy on request. */
    private static void serve(OursEngine second) {
        long stepped = 0;
        while (true) {
            while (!serving) {
                LockSupport.park();
            }
            while (serving || stepsRequested > stepped) {
                if (stepsRequested > stepped) {
                    second.step();
                    stepped++;
                    STEPS_DONE.set(stepped);
                } else {
                    Thread.onSpinWait();
                }
            }
        }
    }

    /** A block's median step time, µs, after {@link #LEAD_IN} untimed steps. */
    private static double block(OursEngine engine, long[] ns) {
        for (int i = 0; i < LEAD_IN; i++) {
            engine.step();
        }
        for (int i = 0; i < BLOCK; i++) {
            long t0 = System.nanoTime();
            engine.step();
            ns[i] = System.nanoTime() - t0;
        }
        return median(ns);
    }

    /** {@link #block} of the pair: this thread steps {@code first}, the helper its copy; a step ends with both. */
    private static double pairBlock(OursEngine first, long[] ns) {
        long requested = stepsRequested;
        for (int i = 0; i < LEAD_IN + BLOCK; i++) {
            long t0 = System.nanoTime();
            stepsRequested = ++requested;
            first.step();
            while (STEPS_DONE.get() < requested) {
                Thread.onSpinWait();
            }
            if (i >= LEAD_IN) {
                ns[i - LEAD_IN] = System.nanoTime() - t0;
            }
        }
        return median(ns);
    }

    private static double median(long[] ns) {
        long[] sorted = ns.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2] / 1e3;
    }
}
