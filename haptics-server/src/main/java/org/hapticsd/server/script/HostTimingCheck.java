package org.hapticsd.server.script;

import java.util.Locale;
import org.hapticsd.device.emulator.EmulatorControl;
import org.hapticsd.device.emulator.GapLog;

/**
 * Whether the host kept time in a window of a real-time run, from three views of it:
 * <ul>
 *   <li>the <b>loop</b>: the longest interval between two ticks (the trace);
 *   <li>the <b>link</b>: the longest interval between two FORCE frames reaching the in-process emulator while its
 *       cable was in and a session streamed (the loop, the link's writer, the pty and socat all on the way), which
 *       is what the device's watchdog judges;
 *   <li>the <b>emulator</b>: firmware cycles that came more than 2 ms late (its thread was not scheduled);
 *   <li>the <b>states</b>: the longest interval between two ticks that read a new state from the in-process emulator,
 *       which is what the loop's watchdog judges. The emulator, socat, the pty and the link's reader are all the
 *       host's, so a long gap here is the host's too: a tester saw the loop watchdog trip (25 ticks without a
 *       state) while no single view above passed a 20 ms budget, the emulator late by 8.6 ms and the relay by the
 *       rest, and the script failed as if the device had.
 * </ul>
 * A script's own {@code stall} is not the host's: the gap of the tick it parks, and link and state gaps across it,
 * are left out. Nor are state gaps that overlap what a script does to the device's stream: an {@code unplug} (and
 * {@value #AFTER_UNPLUG_S} s after it, while the session comes back) or a {@code garbage} burst (and
 * {@value #AFTER_GARBAGE_S} s after it). A window that broke the script's budget makes its assertion an error naming the stall, never a pass and never
 * a device failure.
 */
final class HostTimingCheck {
    /** What one window saw; times are script seconds, gaps nanoseconds; -1 where a view is not available. */
    record Window(double fromS, double toS, long loopGapNs, double loopGapAtS, long linkGapNs, double linkGapAtS,
                  long lateCycles, long lateCycleMaxNs, double lateCycleAtS, long stateGapNs, double stateGapAtS) {

        /** The longest of the three gaps and what it was: for the error message. */
        String worst(double budgetMs) {
            long budgetNs = Math.round(budgetMs * 1e6);
            String what = null;
            long gapNs = 0;
            double atS = 0;
            if (loopGapNs > budgetNs && loopGapNs >= gapNs) {
                what = "no loop tick";
                gapNs = loopGapNs;
                atS = loopGapAtS;
            }
            if (linkGapNs > budgetNs && linkGapNs > gapNs) {
                what = "no FORCE reached the device";
                gapNs = linkGapNs;
                atS = linkGapAtS;
            }
            if (lateCycleMaxNs > budgetNs && lateCycleMaxNs > gapNs) {
                what = "the emulator's firmware thread did not run";
                gapNs = lateCycleMaxNs;
                atS = lateCycleAtS;
            }
            if (stateGapNs > budgetNs && stateGapNs > gapNs) {
                what = "no new state from the emulator reached the loop";
                gapNs = stateGapNs;
                atS = stateGapAtS;
            }
            if (what == null) {
                return null;
            }
            return String.format(Locale.ROOT, "host stalled %s ms at %.3f s (%s; budget %s ms)",
                beyond(gapNs / 1e6, budgetMs), atS, what, trim(budgetMs));
        }

        /**
         * A stall over the budget, in ms, to one decimal, or to as many as show it over the budget: a stall of
         * 20.04 ms against 20 ms printed "host stalled 20.0 ms ... budget 20 ms", which reads as within it.
         */
        static String beyond(double stallMs, double budgetMs) {
            for (int decimals = 1; decimals < 6; decimals++) {
                String text = String.format(Locale.ROOT, "%." + decimals + "f", stallMs);
                if (Double.parseDouble(text) > budgetMs) {
                    return text;
                }
            }
            return String.format(Locale.ROOT, "%.6f", stallMs);
        }

        String describe() {
            StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "host timing from %.3f s to %.3f s: "
                + "loop gap %.1f ms at %.3f s", fromS, toS, loopGapNs / 1e6, loopGapAtS));
            if (linkGapNs >= 0) {
                s.append(String.format(Locale.ROOT, ", link gap %.1f ms at %.3f s", linkGapNs / 1e6, linkGapAtS));
            }
            if (lateCycles >= 0) {
                s.append(String.format(Locale.ROOT, ", emulator late cycles %d", lateCycles));
                if (lateCycles > 0) {
                    s.append(String.format(Locale.ROOT, " (longest %.1f ms at %.3f s)", lateCycleMaxNs / 1e6,
                        lateCycleAtS));
                }
            }
            if (stateGapNs >= 0) {
                s.append(String.format(Locale.ROOT, ", state gap %.1f ms at %.3f s", stateGapNs / 1e6, stateGapAtS));
            }
            return s.toString();
        }
    }

    /** How long after an unplug ends its state gaps are the script's: the session's 500 ms silence and HELLO. */
    static final double AFTER_UNPLUG_S = 1.0;
    /** How long after a garbage burst its state gaps are the script's: resynchronising on the frames behind it. */
    static final double AFTER_GARBAGE_S = 0.1;

    private final TickTrace trace;
    private final EmulatorControl.HostTiming emulator;
    private final long firstTickNs;
    /** Script seconds [from, to) in pairs: what the script did to the device's stream (unplug, garbage). */
    private final double[] scriptFaultsS;

    /**
     * @param emulator      the in-process emulator's view, or null (sim, a device on a real link)
     * @param firstTickNs   the first tick's time on the clock the emulator's logs use (System.nanoTime)
     * @param scriptFaultsS script seconds [from, to) in pairs, the spans a state gap overlapping which is the script's
     */
    HostTimingCheck(TickTrace trace, EmulatorControl.HostTiming emulator, long firstTickNs, double[] scriptFaultsS) {
        this.trace = trace;
        this.emulator = emulator;
        this.firstTickNs = firstTickNs;
        this.scriptFaultsS = scriptFaultsS.clone();
    }

    /** The spans of {@code timeline}'s unplug and garbage steps, with their recovery, for the constructor. */
    static double[] scriptFaults(java.util.List<ScriptSpec.Step> timeline) {
        double[] spans = new double[2 * timeline.size()];
        int n = 0;
        for (ScriptSpec.Step step : timeline) {
            if (step.unplugS() > 0) {
                spans[n++] = step.atS();
                spans[n++] = step.atS() + step.unplugS() + AFTER_UNPLUG_S;
            } else if (step.garbageBytes() > 0) {
                spans[n++] = step.atS();
                spans[n++] = step.atS() + AFTER_GARBAGE_S;
            }
        }
        return java.util.Arrays.copyOf(spans, n);
    }

    Window window(double fromS, double toS) {
        long fromNs = Math.round(fromS * 1e9);
        long toNs = Math.round(toS * 1e9);
        long loopGapNs = 0;
        long loopGapStartNs = fromNs;
        for (int i = 1; i < trace.count; i++) {
            long startNs = trace.timeNs[i - 1];
            long endNs = trace.timeNs[i];
            if (trace.injectedStall[i - 1] || !overlaps(startNs, endNs, fromNs, toNs)) {
                continue;
            }
            if (endNs - startNs > loopGapNs) {
                loopGapNs = endNs - startNs;
                loopGapStartNs = startNs;
            }
        }
        long linkGapNs = -1;
        long linkGapStartNs = 0;
        long lateCycles = -1;
        long lateMaxNs = 0;
        long lateStartNs = 0;
        if (emulator != null) {
            GapLog links = emulator.linkGaps();
            linkGapNs = 0;
            for (int i = 0; i < links.stored(); i++) {
                long endNs = links.endNs(i) - firstTickNs;
                long startNs = endNs - links.gapNs(i);
                if (overlaps(startNs, endNs, fromNs, toNs) && !acrossInjectedStall(startNs, endNs)
                        && links.gapNs(i) > linkGapNs) {
                    linkGapNs = links.gapNs(i);
                    linkGapStartNs = startNs;
                }
            }
            GapLog late = emulator.lateCycles();
            lateCycles = 0;
            for (int i = 0; i < late.stored(); i++) {
                long endNs = late.endNs(i) - firstTickNs;
                long startNs = endNs - late.gapNs(i);
                if (overlaps(startNs, endNs, fromNs, toNs)) {
                    lateCycles++;
                    if (late.gapNs(i) > lateMaxNs) {
                        lateMaxNs = late.gapNs(i);
                        lateStartNs = startNs;
                    }
                }
            }
        }
        long stateGapNs = -1;
        long stateGapStartNs = 0;
        if (emulator != null) {
            stateGapNs = 0;
            int lastFresh = -1;
            for (int i = 0; i < trace.count; i++) {
                if (!trace.fresh[i]) {
                    continue;
                }
                if (lastFresh >= 0) {
                    long startNs = trace.timeNs[lastFresh];
                    long endNs = trace.timeNs[i];
                    if (endNs - startNs > stateGapNs && overlaps(startNs, endNs, fromNs, toNs)
                            && !acrossInjectedStall(startNs, endNs) && !acrossScriptFault(startNs, endNs)) {
                        stateGapNs = endNs - startNs;
                        stateGapStartNs = startNs;
                    }
                }
                lastFresh = i;
            }
        }
        return new Window(fromS, toS, loopGapNs, loopGapStartNs * 1e-9, linkGapNs, linkGapStartNs * 1e-9,
            lateCycles, lateMaxNs, lateStartNs * 1e-9, stateGapNs, stateGapStartNs * 1e-9);
    }

    /** Whether [startNs, endNs] overlaps an unplug or garbage span of the script. */
    private boolean acrossScriptFault(long startNs, long endNs) {
        for (int k = 0; k < scriptFaultsS.length; k += 2) {
            if (overlaps(startNs, endNs, Math.round(scriptFaultsS[k] * 1e9), Math.round(scriptFaultsS[k + 1] * 1e9))) {
                return true;
            }
        }
        return false;
    }

    /** Whether [startNs, endNs] overlaps a tick a script stall parked, up to the tick after it. */
    private boolean acrossInjectedStall(long startNs, long endNs) {
        for (int i = 0; i < trace.count; i++) {
            if (trace.injectedStall[i]) {
                long stallStartNs = trace.timeNs[i];
                long stallEndNs = i + 1 < trace.count ? trace.timeNs[i + 1] : Long.MAX_VALUE;
                if (overlaps(startNs, endNs, stallStartNs, stallEndNs)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean overlaps(long startNs, long endNs, long fromNs, long toNs) {
        return startNs < toNs && endNs > fromNs;
    }

    private static String trim(double value) {
        return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
    }
}
