package org.hapticsd.device.link;

import org.HdrHistogram.Histogram;

/**
 * What a device link has seen since it was opened, copied at one moment; any thread may ask for it while the
 * loop runs ({@link LinkHapticDevice#statistics()}).
 *
 * @param roundTripNs       round-trip times measured by PING/PONG (spec 4.10), ns; a copy the caller owns
 * @param framesReceived    valid frames decoded from the device
 * @param statesReceived    STATE frames
 * @param forcesSent        FORCE frames written
 * @param crcErrors         frames that failed the CRC
 * @param malformedFrames   bad COBS, unknown type, wrong length or field out of range
 * @param oversizeFrames    runs longer than the maximum frame
 * @param resyncs           frames recovered from the end of a garbage run
 * @param sequenceGaps      times the device's sequence skipped forward
 * @param framesLost        frames missing in those gaps
 * @param duplicates        frames repeating the last sequence
 * @param staleFrames       frames older than the last sequence
 * @param linksOpened       successful opens of the port or connection (1 when nothing went wrong)
 * @param sessions          INFO handshakes completed (1 when nothing went wrong)
 * @param reconnects        sessions after the first: how often the device came back
 * @param sessionsLost      sessions ended because the device went silent or the link broke
 * @param deviceWatchdogTrips times the device's own FORCE watchdog tripped: its trip count in protocol version 2
 *                          (every trip, even one that came and went between two reports), WATCHDOG_TRIPPED
 *                          rising edges in version 1
 * @param protocolVersion   the version of the last session (1 or 2)
 * @param lastError         the last link error, or null
 * @param lastLoss          why the last of the {@code sessionsLost} was lost, or null: a later reopen's error
 *                          ("Connection refused") replaces {@code lastError}, and the loss itself went unlogged
 */
public record LinkStatistics(Histogram roundTripNs, long framesReceived, long statesReceived, long forcesSent,
                             long crcErrors, long malformedFrames, long oversizeFrames, long resyncs,
                             long sequenceGaps, long framesLost, long duplicates, long staleFrames,
                             long linksOpened, long sessions, long reconnects, long sessionsLost,
                             long deviceWatchdogTrips, int protocolVersion, String lastError, String lastLoss) {

    /**
     * Frames that arrived but could not be used: CRC errors, malformed and oversize. Each is a run of bytes
     * between delimiters, not necessarily one of the device's frames: noise on the line makes runs of its own.
     */
    public long framesDamaged() {
        return crcErrors + malformedFrames + oversizeFrames;
    }

    /**
     * Frames the device sent that never arrived intact: {@link #framesDamaged()} plus {@link #framesLost} (frames
     * missing in sequence gaps).
     */
    public long framesDamagedOrLost() {
        return framesLost + framesDamaged();
    }

    /** One line for a console: counts and round-trip percentiles in microseconds. */
    public String summary() {
        StringBuilder s = new StringBuilder();
        s.append("protocol v").append(protocolVersion).append(", states ").append(statesReceived)
                .append(", forces ").append(forcesSent);
        if (roundTripNs.getTotalCount() > 0) {
            s.append(String.format(", rtt p50/p99/max %.0f/%.0f/%.0f us (%d samples)",
                    roundTripNs.getValueAtPercentile(50) / 1e3, roundTripNs.getValueAtPercentile(99) / 1e3,
                    roundTripNs.getMaxValue() / 1e3, roundTripNs.getTotalCount()));
        } else {
            s.append(", rtt not measured");
        }
        // "damaged" and "lost" are the words of the status line (RunCommand), so the two cannot be read as
        // disagreeing: damaged = crc errors + malformed + oversize, lost = frames missing in sequence gaps.
        s.append(", damaged ").append(framesDamaged()).append(" (crc errors ").append(crcErrors)
                .append(", malformed ").append(malformedFrames).append(", oversize ").append(oversizeFrames)
                .append("), gaps ").append(sequenceGaps).append(" (").append(framesLost).append(" frames lost)")
                .append(", duplicates ").append(duplicates).append(", stale ").append(staleFrames)
                .append(", resyncs ").append(resyncs).append(", links opened ").append(linksOpened)
                .append(", sessions ").append(sessions).append(", reconnects ").append(reconnects)
                .append(", sessions lost ").append(sessionsLost)
                .append(", device watchdog trips ").append(deviceWatchdogTrips);
        if (lastError != null) {
            s.append(", last error: ").append(lastError);
        }
        return s.toString();
    }
}
