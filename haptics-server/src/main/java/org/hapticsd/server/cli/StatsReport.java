package org.hapticsd.server.cli;

import java.io.PrintWriter;
import java.util.Locale;
import org.HdrHistogram.Histogram;
import org.hapticsd.server.loop.LoopStage;
import org.hapticsd.server.loop.LoopStats;

/** Text renderings of {@link LoopStats}: the one-line live status and the table printed at shutdown. */
final class StatsReport {
    private StatsReport() {
    }

    static double us(long ns) {
        return ns / 1000.0;
    }

    /**
     * The end-of-run table, from the running totals (call {@link LoopStats#sample()} first). {@code lateStarts}: ticks
     * run at once after an overrun, for the deadline it ran past by less than half a period (TickSchedule);
     * {@code skippedDeadlines}: deadlines that got no tick.
     */
    static void print(PrintWriter out, LoopStats stats, double elapsedS, long lateStarts, long skippedDeadlines) {
        long ticks = stats.ticks();
        out.println("loop statistics");
        out.printf(Locale.ROOT, "  ticks %d in %.3f s = %.2f Hz; overruns %d; late starts %d; skipped deadlines %d; "
                + "longest tick %.1f us%n", ticks, elapsedS, elapsedS > 0 ? ticks / elapsedS : 0.0, stats.overruns(),
            lateStarts, skippedDeadlines, us(stats.longestTickNs()));
        row(out, "period error", stats.periodError().total());
        row(out, "tick time", stats.tickTime().total());
        for (LoopStage stage : LoopStage.ALL) {
            row(out, "  " + stage.label(), stats.stageTime(stage).total());
        }
        out.flush();
    }

    private static void row(PrintWriter out, String label, Histogram h) {
        out.printf(Locale.ROOT, "  %-20s p50 %8.1f us  p99 %8.1f us  p99.9 %8.1f us  max %8.1f us  (n=%d)%n", label,
            us(h.getValueAtPercentile(50)), us(h.getValueAtPercentile(99)), us(h.getValueAtPercentile(99.9)),
            us(h.getMaxValue()), h.getTotalCount());
    }
}
