package org.hapticsd.server.script;

import java.util.Locale;
import org.HdrHistogram.Histogram;
import org.hapticsd.device.link.LinkStatistics;

/** Script assertions over a whole run that read the device link's statistics rather than the tick trace. */
final class LinkChecks {
    private LinkChecks() {
    }

    /**
     * @param emulatorWatchdogTrips trips counted by the in-process emulator's firmware, or -1 when the device is not
     *                              an in-process emulator (then the trips the device reported over the link count)
     */
    static AssertionResult check(ScriptSpec.Assertion a, int index, LinkStatistics link, long emulatorWatchdogTrips) {
        String name = ScriptRunner.nameOf(a, index);
        if (link == null) {
            return new AssertionResult(name, false, "no link statistics", "a device on a link");
        }
        if (a.linkLatency() != null) {
            Histogram rtt = link.roundTripNs();
            if (rtt.getTotalCount() == 0) {
                return new AssertionResult(name, false, "no round trip measured", "PONG answers to PING");
            }
            double measuredMs = rtt.getValueAtPercentile(a.linkLatency().percentile()) / 1e6;
            return new AssertionResult(name, measuredMs <= a.linkLatency().maxMs(),
                String.format(Locale.ROOT, "round trip p%s %.3f ms over %d samples",
                    trim(a.linkLatency().percentile()), measuredMs, rtt.getTotalCount()),
                String.format(Locale.ROOT, "at most %s ms", trim(a.linkLatency().maxMs())));
        }
        if (a.maxFramesLost() != null) {
            long lost = link.framesDamagedOrLost();
            return new AssertionResult(name, lost <= a.maxFramesLost(),
                String.format(Locale.ROOT, "%d frames lost or damaged (%d missing, %d CRC errors, %d malformed, "
                    + "%d oversize)", lost, link.framesLost(), link.crcErrors(), link.malformedFrames(),
                    link.oversizeFrames()),
                "at most " + a.maxFramesLost());
        }
        if (a.framesLost() != null) {
            return count(name, "frames lost or damaged", link.framesDamagedOrLost(), a.framesLost());
        }
        if (a.reconnects() != null) {
            return count(name, "reconnects", link.reconnects(), a.reconnects());
        }
        long trips = emulatorWatchdogTrips >= 0 ? emulatorWatchdogTrips : link.deviceWatchdogTrips();
        return count(name, "device watchdog trips", trips, a.deviceWatchdogTrips());
    }

    private static AssertionResult count(String name, String what, long value, ScriptSpec.CountBound bound) {
        String expected = bound.max() == Long.MAX_VALUE ? "at least " + bound.min()
            : bound.min() == bound.max() ? "exactly " + bound.min()
            : "between " + bound.min() + " and " + bound.max();
        return new AssertionResult(name, value >= bound.min() && value <= bound.max(), value + " " + what, expected);
    }

    private static String trim(double value) {
        return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
    }
}
