package org.hapticsd.server.loop;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Why the real-time loop's overrunning ticks overran, each put under one cause from what the loop thread measured of
 * it: how late it started after its deadline (L), how long it ran (W, wall time) and how much CPU time the loop
 * thread had in it (C, the thread's CPU clock, which does not count time the thread spent off its CPU). A tick
 * overran when {@code L + W >= period}. Its cause is the first of:
 * <ol>
 *   <li><b>woken late</b>: {@code W < period}, the tick itself fit, and would have met the deadline had it started
 *   on time (the wait returned late: the host or the kernel ran something else when the loop should have woken);</li>
 *   <li><b>off the CPU</b>: {@code L + C < period}, without the time the loop thread spent off its CPU during the tick
 *   it would have met the deadline (something took the CPU away in the middle of the tick);</li>
 *   <li><b>on the CPU</b>: the tick's own CPU time, after its start, did not fit: the tick's work, or a CPU that ran
 *   it slowly (the step's share says which part of the tick it was).</li>
 * </ol>
 * Where the thread's CPU time cannot be read the last two are one cause, <b>a long tick</b>.
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
    private long wokenLate;
    private long maxLateNs;
    private long offCpu;
    private long maxOffCpuNs;
    private long onCpu;
    private long maxCpuNs;
    private long maxStepCpuNs;
    private long longTicks;
    private long maxLongWallNs;

    /**
     * One overrunning tick.
     *
     * @param lateNs    how long after its deadline it started, ns
     * @param wallNs    how long it ran, ns
     * @param cpuNs     the loop thread's CPU time in it, ns; negative when the thread's CPU clock cannot be read
     * @param stepCpuNs the physics step's CPU time in it, ns (0 when not measured)
     * @param periodNs  the tick period, ns
     */
    void record(long lateNs, long wallNs, long cpuNs, long stepCpuNs, long periodNs) {
        if (wallNs < periodNs) {
            wokenLate++;
            maxLateNs = Math.max(maxLateNs, lateNs);
        } else if (cpuNs < 0) {
            longTicks++;
            maxLongWallNs = Math.max(maxLongWallNs, wallNs);
        } else if (lateNs + cpuNs < periodNs) {
            offCpu++;
            maxOffCpuNs = Math.max(maxOffCpuNs, wallNs - cpuNs);
        } else {
            onCpu++;
            if (cpuNs > maxCpuNs) {
                maxCpuNs = cpuNs;
                maxStepCpuNs = stepCpuNs;
            }
        }
    }

    /** Overruns recorded, all causes. */
    public long total() {
        return wokenLate + offCpu + onCpu + longTicks;
    }

    public long wokenLate() {
        return wokenLate;
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

    public long maxLongWallNs() {
        return maxLongWallNs;
    }

    /**
     * The end report's line, e.g. {@code overruns by cause: 1 woken late (up to 1.21 ms after the deadline); 2 on
     * the CPU (up to 1.23 ms of CPU time in a tick, the physics step 1.14 ms of it)}; null without overruns.
     */
    public String summary() {
        if (total() == 0) {
            return null;
        }
        List<String> parts = new ArrayList<>(4);
        if (wokenLate > 0) {
            parts.add(String.format(Locale.ROOT, "%d woken late (up to %.2f ms after the deadline)", wokenLate,
                maxLateNs / 1e6));
        }
        if (offCpu > 0) {
            parts.add(String.format(Locale.ROOT, "%d off the CPU (up to %.2f ms in a tick without it)", offCpu,
                maxOffCpuNs / 1e6));
        }
        if (onCpu > 0) {
            parts.add(String.format(Locale.ROOT, "%d on the CPU (up to %.2f ms of CPU time in a tick, the physics step"
                + " %.2f ms of it)", onCpu, maxCpuNs / 1e6, maxStepCpuNs / 1e6));
        }
        if (longTicks > 0) {
            parts.add(String.format(Locale.ROOT, "%d long (up to %.2f ms; the thread's CPU time cannot be read here)",
                longTicks, maxLongWallNs / 1e6));
        }
        return "overruns by cause: " + String.join("; ", parts);
    }
}
