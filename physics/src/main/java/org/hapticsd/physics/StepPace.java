package org.hapticsd.physics;

/**
 * The typical time of each stage of a whole step, and the rule by which {@link PhysicsWorld#step(double, long, long)}
 * drops a step that is running slow: "will this step, at the pace it is going, end after the time it was given,
 * when a step of typical pace would have ended within it?".
 *
 * <p>Typical times are exponentially weighted means over whole steps, each sample capped at twice the mean so that
 * a slow step moves them little, learnt from {@link #WARM_STEPS} whole steps before any drop (a new scene's first
 * steps set them), with the typical number of pairs the broadphase passed on. A step's work is its pairs over the
 * typical pairs, at least 1: a pile whose spheres land has more pairs to test and points to solve in the same step,
 * so its stages are expected to take that many times longer, and it is not taken for a slow machine. At a checkpoint
 * after a stage, {@code done} is the typical time of the stages up to it and {@code rest} that of the stages after
 * it, both times the step's work, {@code elapsed} is the step's time so far, {@code allowed} the time from the step's
 * start to the end it was given, and the step's pace is {@code elapsed / done}. The step is dropped when all of these
 * hold:
 * <ul>
 *   <li>its pace is at least {@link #DROP_PACE}: the machine is slow, not the scene (a step that grows with the
 *       scene's pairs is expected to, and one that grows otherwise is learnt, not dropped);</li>
 *   <li>a step of typical pace would have ended in time ({@code done + rest <= allowed}): a scene whose typical step
 *       does not fit is never dropped, it runs over;</li>
 *   <li>the time has not run out yet ({@code elapsed < allowed}), and the rest is worth saving (at least
 *       {@link #MIN_REST_SHARE} of {@code allowed} and of the time the step advances, {@link #stepNs}): a step of a
 *       few microseconds that a stall caught saves nothing by being dropped, even in a tick that woke so late that
 *       little time is left (the default scene's 2 µs step was dropped once, in a tick woken about 0.9 ms late,
 *       before the time the step advances counted);</li>
 *   <li>at its pace, but at most {@link #MAX_PROJECTED_PACE}, the rest would not end in time ({@code elapsed + rest
 *       × min(pace, 4) > allowed});</li>
 *   <li>fewer than {@link #MAX_CLOSE_DROPS} steps were dropped since the last run of {@link #WARM_STEPS} whole
 *       steps in a row (or since the typical times were last set). Once that many were, the next whole step is
 *       learnt afresh, however slow, with the next {@code WARM_STEPS - 1} (a scene that truly got heavier, a tool
 *       pushed into a pile, has a new typical): so at most {@value #MAX_CLOSE_DROPS} of any
 *       {@value #MAX_CLOSE_DROPS} + {@value #WARM_STEPS} steps in a row are dropped, however slow the machine, and
 *       whatever whole steps come between the drops (a tick woken too late to save anything runs its step whole:
 *       while only drops in a row counted, such a step let a test's slow stretch drop 13 steps, not 10).</li>
 * </ul>
 * No allocation. Owned by the world, on its thread.
 */
final class StepPace {
    /** Whole steps learnt before a step may be dropped. */
    static final int WARM_STEPS = 64;
    /** A step this many times slower than typical, so far, may be dropped. */
    static final double DROP_PACE = 1.5;
    /**
     * The rest of a slow step is projected at its pace so far, but at most this many times its typical time. On the
     * 200-sphere pile stepped once a millisecond (docs/performance.md, *Eighteenth session*), the steps that ran past
     * the tick ran their last stages 2.5 to 6 times slower, while a burst in one stage alone often left the rest at
     * its pace: the cap drops a quarter fewer steps that would have ended in time, and catches as many that would
     * not.
     */
    static final double MAX_PROJECTED_PACE = 4.0;
    /**
     * The typical rest of a step must be at least this share of the time allowed, and of the time the step advances,
     * for a drop to be worth it.
     */
    static final double MIN_REST_SHARE = 0.05;
    /**
     * Steps dropped at most with fewer than {@link #WARM_STEPS} whole steps in a row between any two (10 ms at 1 kHz:
     * the slow stretches measured lasted up to about 12 ms).
     */
    static final int MAX_CLOSE_DROPS = 10;
    /** Weight of each whole step in the typical times: about the last 32 steps count. */
    private static final double WEIGHT = 1.0 / 32;

    private final double[] typicalNs = new double[StepStage.count()];
    private double typicalPairs;
    private long learntSteps;
    /** Steps dropped since the last {@link #WARM_STEPS} whole steps in a row, or since the typical times were set. */
    private int closeDrops;
    /** Whole steps learnt since the last drop. */
    private long wholeSinceDrop;
    /** The time the step being judged advances, ns (the loop's period); 0 until {@link #stepNs} is called. */
    private long stepNs;

    /** Forgets the typical times (the scene changed): the next {@link #WARM_STEPS} whole steps set them again. */
    void reset() {
        learntSteps = 0;
        closeDrops = 0;
        wholeSinceDrop = 0;
    }

    /** A step was dropped ({@link #shouldDrop} said so). */
    void dropped() {
        closeDrops++;
        wholeSinceDrop = 0;
    }

    /**
     * Learns the stage times of a whole step from {@code profile}, and its number of pairs; after
     * {@link #MAX_CLOSE_DROPS} close drops, learns them afresh from it.
     */
    void learn(StepProfile profile, int pairs) {
        if (closeDrops >= MAX_CLOSE_DROPS) {
            learntSteps = 0;
            closeDrops = 0;
        } else if (++wholeSinceDrop >= WARM_STEPS) {
            closeDrops = 0;
        }
        // Not capped like the times: the number of pairs is the scene's, whatever the machine's speed.
        typicalPairs = learntSteps == 0 ? pairs : typicalPairs + (pairs - typicalPairs) * WEIGHT;
        for (int s = 0; s < typicalNs.length; s++) {
            double ns = profile.lastNs(StepStage.at(s));
            if (learntSteps == 0) {
                typicalNs[s] = ns;
            } else {
                typicalNs[s] += (Math.min(ns, 2.0 * typicalNs[s]) - typicalNs[s]) * WEIGHT;
            }
        }
        learntSteps++;
    }

    /** Whether {@link #WARM_STEPS} whole steps have been learnt since the typical times were last set afresh. */
    boolean warm() {
        return learntSteps >= WARM_STEPS;
    }

    /** The typical time of {@code stage}, ns (0 before the first whole step). */
    double typicalNs(StepStage stage) {
        return learntSteps == 0 ? 0.0 : typicalNs[stage.ordinal()];
    }

    /** The typical time of a whole step, ns: the sum over the stages (0 before the first whole step). */
    double typicalTotalNs() {
        double totalNs = 0.0;
        for (int s = 0; s < typicalNs.length; s++) {
            totalNs += typicalNs[s];
        }
        return learntSteps == 0 ? 0.0 : totalNs;
    }

    /** The time the next steps judged advance, ns: their rest must be at least {@link #MIN_REST_SHARE} of it. */
    void stepNs(long stepNs) {
        this.stepNs = stepNs;
    }

    /**
     * The rule above, at the checkpoint after {@code doneThrough}.
     *
     * @param pairs       the pairs the broadphase passed on in this step
     * @param stepStartNs {@link System#nanoTime()} when the step began
     * @param nowNs       {@link System#nanoTime()} now
     * @param endByNs     when the step must have ended, on the same clock
     */
    boolean shouldDrop(StepStage doneThrough, int pairs, long stepStartNs, long nowNs, long endByNs) {
        if (!warm() || closeDrops >= MAX_CLOSE_DROPS) {
            return false;
        }
        double doneNs = 0.0;
        double restNs = 0.0;
        for (int s = 0; s < typicalNs.length; s++) {
            if (s <= doneThrough.ordinal()) {
                doneNs += typicalNs[s];
            } else {
                restNs += typicalNs[s];
            }
        }
        double work = Math.max(1.0, pairs / Math.max(1.0, typicalPairs));
        doneNs *= work;
        restNs *= work;
        // Differences of nanoTime values, never the values themselves: they may be negative and wrap.
        double elapsedNs = nowNs - stepStartNs;
        double allowedNs = endByNs - stepStartNs;
        if (!(doneNs > 0.0) || elapsedNs < DROP_PACE * doneNs || elapsedNs >= allowedNs
                || doneNs + restNs > allowedNs || restNs < MIN_REST_SHARE * Math.max(allowedNs, stepNs)) {
            return false;
        }
        return elapsedNs + restNs * Math.min(elapsedNs / doneNs, MAX_PROJECTED_PACE) > allowedNs;
    }
}
