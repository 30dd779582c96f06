package org.hapticsd.server.loop;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Why the real-time loop's overrunning ticks overran, each put under one cause from what the loop thread measured of
 * it. The time from a tick's deadline to its end has three parts: how late the tick started (L, the wait returned
 * after the deadline), the time the loop thread spent off its CPU during the tick (O, its wall time less its CPU
 * time), and the thread's CPU time in the tick (C, the thread's CPU clock, which does not count time off the CPU).
 * A tick overran when {@code L + O + C >= period}; its cause is the largest part:
 * <ul>
 *   <li><b>woken late</b> (L): the host or the kernel ran something else when the loop should have woken;</li>
 *   <li><b>behind an overrun</b> (L, for a tick that started late at once because the tick before it overran,
 *   {@link TickSchedule}): the tick's late start was the tick before's, and its own part too small to absorb it;</li>
 *   <li><b>off the CPU</b> (O): something took the CPU away in the middle of the tick;</li>
 *   <li><b>on the CPU</b> (C, and ties): the tick's own work, or a CPU that ran it slowly (in a virtual machine,
 *   also a host that takes the virtual CPU away without reporting steal time: the guest charges that to the running
 *   thread); the step's CPU time says which part of the tick it was, and its usual time whether the step was the
 *   scene's weight (about its usual time) or the machine running it slowly (at least {@value #SLOW_STEP_FACTOR}
 *   times its usual time: on the 200-sphere pile, mostly a stall of 0.6–1.3 ms inside one stage).</li>
 * </ul>
 * The largest part, not "what would have fitted without it": a tick of 998 µs of work that started 4 µs late fits
 * without the 4 µs, and was a tick on the CPU (a tester's first run of this class said "woken late, up to 0.00 ms").
 * Where the thread's CPU time cannot be read, O and C are one part, <b>a long tick</b>.
 *
 * <p>Measured on 2026-11-28 (docs/performance.md): the 200-sphere pile's overruns in {@code run} were on the CPU (a
 * tick of 1.19 ms of wall time and as much CPU time, 1.14 ms of it in the physics step, whose p50 was 175 µs), the
 * default scene's a wake-up 1.2 ms late. Without this the end report could only say that deadlines were skipped.
 * The loop thread reads its CPU clock once per tick (about 0.33 µs on that machine) and once more per overrun.
 *
 * <p>Written by the loop thread ({@link #record}); read once the loop has stopped ({@link LoopRunner#close} joins
 * it). No allocation while recording.
 */
public final class OverrunCauses {
    /** An overrun on the CPU whose step took at least this many times its usual time: the machine, not the scene. */
    static final int SLOW_STEP_FACTOR = 2;
    /**
     * The causes, in the order {@link #skippedDeadlines()} reports the deadlines skipped after each: the names of
     * {@code bench loop --json}'s {@code overrunCauses} keys.
     */
    public static final List<String> SKIPPED_KEYS = List.of("wokenLate", "offCpu", "onCpu", "longTicks",
        "behindOverrun");
    private static final int WOKEN_LATE = 0;
    private static final int OFF_CPU = 1;
    private static final int ON_CPU = 2;
    private static final int LONG_TICK = 3;
    private static final int BEHIND_OVERRUN = 4;

    private long wokenLate;
    private long maxLateNs;
    private long behindOverrun;
    private long maxBehindNs;
    private long offCpu;
    private long maxOffCpuNs;
    private long onCpu;
    private long maxCpuNs;
    private long maxStepCpuNs;
    private long maxStepUsualNs;
    private long onCpuSlowStep;
    private long longTicks;
    private long maxLongWallNs;
    /** Deadlines skipped after the overruns of each cause, indexed like {@link #SKIPPED_KEYS}. */
    private final long[] skipped = new long[SKIPPED_KEYS.size()];

    /**
     * One overrunning tick (the caller has found {@code lateNs + wallNs} at least a period).
     *
     * @param lateNs    how long after its deadline it started, ns
     * @param wallNs    how long it ran, ns
     * @param cpuNs     the loop thread's CPU time in it, ns; negative when the thread's CPU clock cannot be read
     * @param stepCpuNs the physics step's CPU time in it, ns (0 when not measured)
     * @param stepUsualNs the physics step's usual time lately ({@code PhysicsWorld.typicalStepNs()}), ns (0 when not
     *                    known)
     * @param startedLate whether the tick started late at once because the tick before it overran, not after a wait
     * @param skippedDeadlines the deadlines the loop skipped after this tick ({@link TickSchedule#advance}), put
     *                         under the same cause
     */
    void record(long lateNs, long wallNs, long cpuNs, long stepCpuNs, long stepUsualNs, boolean startedLate,
                long skippedDeadlines) {
        skipped[cause(lateNs, wallNs, cpuNs, stepCpuNs, stepUsualNs, startedLate)] += skippedDeadlines;
    }

    /** Counts the overrun under its cause and returns the cause's index in {@link #SKIPPED_KEYS}. */
    private int cause(long lateNs, long wallNs, long cpuNs, long stepCpuNs, long stepUsualNs, boolean startedLate) {
        if (cpuNs < 0) {
            if (lateNs > wallNs) {
                return late(lateNs, startedLate);
            }
            longTicks++;
            maxLongWallNs = Math.max(maxLongWallNs, wallNs);
            return LONG_TICK;
        }
        // The two clocks differ by a few per cent (a tick measured 1.194 ms of wall time and 1.225 ms of CPU time).
        long offNs = Math.max(0L, wallNs - cpuNs);
        if (cpuNs >= lateNs && cpuNs >= offNs) {
            onCpu++;
            if (stepUsualNs > 0 && stepCpuNs >= SLOW_STEP_FACTOR * stepUsualNs) {
                onCpuSlowStep++;
            }
            if (cpuNs > maxCpuNs) {
                maxCpuNs = cpuNs;
                maxStepCpuNs = stepCpuNs;
                maxStepUsualNs = stepUsualNs;
            }
            return ON_CPU;
        }
        if (offNs >= lateNs) {
            offCpu++;
            maxOffCpuNs = Math.max(maxOffCpuNs, offNs);
            return OFF_CPU;
        }
        return late(lateNs, startedLate);
    }

    private int late(long lateNs, boolean startedLate) {
        if (startedLate) {
            behindOverrun++;
            maxBehindNs = Math.max(maxBehindNs, lateNs);
            return BEHIND_OVERRUN;
        }
        wokenLate++;
        maxLateNs = Math.max(maxLateNs, lateNs);
        return WOKEN_LATE;
    }

    /**
     * The deadlines skipped after the overruns of each cause, in the order of {@link #SKIPPED_KEYS}; they add up to
     * the loop's skipped deadlines, since only an overrun skips one. A host that stops the loop's virtual CPU for
     * 15 ms skips 15 deadlines after one tick woken late; a scene too heavy for the rate skips them after ticks on
     * the CPU.
     */
    public long[] skippedDeadlines() {
        return skipped.clone();
    }

    /** Overruns recorded, all causes. */
    public long total() {
        return wokenLate + behindOverrun + offCpu + onCpu + longTicks;
    }

    public long wokenLate() {
        return wokenLate;
    }

    /** Overruns of ticks that started late at once behind an overrun, and whose late start was their largest part. */
    public long behindOverrun() {
        return behindOverrun;
    }

    /** The latest start among the ticks put under {@link #behindOverrun()}, ns after the deadline. */
    public long maxBehindNs() {
        return maxBehindNs;
    }

    public long offCpu() {
        return offCpu;
    }

    public long onCpu() {
        return onCpu;
    }

    public long longTicks() {
        return longTicks;
    }

    /** The latest start among the ticks woken late, ns after the deadline. */
    public long maxLateNs() {
        return maxLateNs;
    }

    /** The most time the loop thread spent off its CPU in one tick, among the ticks put under that cause, ns. */
    public long maxOffCpuNs() {
        return maxOffCpuNs;
    }

    /** The most CPU time in one tick among those on the CPU, ns, and that tick's physics step's share of it. */
    public long maxCpuNs() {
        return maxCpuNs;
    }

    public long maxStepCpuNs() {
        return maxStepCpuNs;
    }

    /** The usual step time when that tick ran ({@code PhysicsWorld.typicalStepNs()}), ns; 0 when not known. */
    public long maxStepUsualNs() {
        return maxStepUsualNs;
    }

    /**
     * The overruns on the CPU whose physics step took at least {@value #SLOW_STEP_FACTOR} times its usual time: the
     * machine ran the same work slowly (or stalled in it), where a step of its usual time is the scene's weight.
     */
    public long onCpuSlowStep() {
        return onCpuSlowStep;
    }

    public long maxLongWallNs() {
        return maxLongWallNs;
    }

    /**
     * The end report's line, e.g. {@code overruns by cause: 1 woken late (up to 15.21 ms after the deadline, 15
     * deadlines skipped); 2 on the CPU (up to 1.23 ms of CPU time in a tick, the physics step 1.14 ms of it, usually
     * 0.28 ms; 2 of the 2 in a step at least twice its usual time, 1 deadline skipped)}; null without overruns. A
     * cause's skipped deadlines are named only when there were some.
     */
    public String summary() {
        if (total() == 0) {
            return null;
        }
        List<String> parts = new ArrayList<>(5);
        if (wokenLate > 0) {
            parts.add(String.format(Locale.ROOT, "%d woken late (up to %.2f ms after the deadline%s)", wokenLate,
                maxLateNs / 1e6, skippedAfter(WOKEN_LATE)));
        }
        if (behindOverrun > 0) {
            parts.add(String.format(Locale.ROOT, "%d behind an overrun (started at once, up to %.2f ms after the "
                + "deadline%s)", behindOverrun, maxBehindNs / 1e6, skippedAfter(BEHIND_OVERRUN)));
        }
        if (offCpu > 0) {
            parts.add(String.format(Locale.ROOT, "%d off the CPU (up to %.2f ms in a tick without it%s)", offCpu,
                maxOffCpuNs / 1e6, skippedAfter(OFF_CPU)));
        }
        if (onCpu > 0) {
            StringBuilder part = new StringBuilder(String.format(Locale.ROOT, "%d on the CPU (up to %.2f ms of CPU time"
                + " in a tick, the physics step %.2f ms of it", onCpu, maxCpuNs / 1e6, maxStepCpuNs / 1e6));
            if (maxStepUsualNs > 0) {
                part.append(String.format(Locale.ROOT, ", usually %.2f ms", maxStepUsualNs / 1e6));
            }
            if (onCpuSlowStep > 0) {
                part.append(String.format(Locale.ROOT, "; %d of the %d in a step at least twice its usual time",
                    onCpuSlowStep, onCpu));
            }
            parts.add(part.append(skippedAfter(ON_CPU)).append(')').toString());
        }
        if (longTicks > 0) {
            parts.add(String.format(Locale.ROOT, "%d long (up to %.2f ms; the thread's CPU time cannot be read here%s)",
                longTicks, maxLongWallNs / 1e6, skippedAfter(LONG_TICK)));
        }
        return "overruns by cause: " + String.join("; ", parts);
    }

    /** {@code ", 14 deadlines skipped"} for a cause whose overruns were followed by skipped deadlines, else empty. */
    private String skippedAfter(int cause) {
        long count = skipped[cause];
        if (count == 0) {
            return "";
        }
        return count == 1 ? ", 1 deadline skipped" : ", " + count + " deadlines skipped";
    }
}
