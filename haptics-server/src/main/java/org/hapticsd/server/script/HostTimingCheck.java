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
 *   <li>the <b>emulator</b>: firmware cycles that came more than 2 ms late (its thread was not scheduled).
 * </ul>
 * A script's own {@code stall} is not the host's: the gap of the tick it parks, and link gaps across it, are left
 * out. A window that broke the script's budget makes its assertion an error naming the stall, never a pass and never
 * a device failure.
 */
final class HostTimingCheck {
    /** What one window saw; times are script seconds, gaps nanoseconds; -1 where a view is not available. */
    record Window(double fromS, double toS, long loopGapNs, double loopGapAtS, long linkGapNs, double linkGapAtS,
                  long lateCycles, long lateCycleMaxNs, double lateCycleAtS) {

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
            if (what == null) {
                return null;
            }
            return String.format(Locale.ROOT, "host stalled %.1f ms at %.3f s (%s; budget %s ms)", gapNs / 1e6, atS,
                what, trim(budgetMs));
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
            return s.toString();
        }
    }

    private final TickTrace trace;
    private final EmulatorControl.HostTiming emulator;
    private final long firstTickNs;

    /**
     * @param emulator    the in-process emulator's view, or null (sim, a device on a real link)
     * @param firstTickNs the first tick's time on the clock the emulator's logs use (System.nanoTime)
     */
    HostTimingCheck(TickTrace trace, EmulatorControl.HostTiming emulator, long firstTickNs) {
        this.trace = trace;
        this.emulator = emulator;
        this.firstTickNs = firstTickNs;
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
        return new Window(fromS, toS, loopGapNs, loopGapStartNs * 1e-9, linkGapNs, linkGapStartNs * 1e-9,
            lateCycles, lateMaxNs, lateStartNs * 1e-9);
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
