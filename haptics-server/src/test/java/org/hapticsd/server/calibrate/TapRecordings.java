package org.hapticsd.server.calibrate;

import java.nio.file.Path;
import org.hapticsd.server.loop.LoopEvents;
import org.hapticsd.server.loop.LoopSnapshot;
import org.hapticsd.server.record.TickRecorder;
import org.joml.Vector3d;

/**
 * A tick recording of known taps, written by the server's own recorder: a tool of 0.12 kg tapping a tilted surface
 * at four speeds with restitution 0.55, then a press and a slow touch that are no taps.
 */
public final class TapRecordings {
    public static final double E = 0.55;
    public static final double MASS_KG = 0.12;
    /** The surface's normal: tilted, so nothing depends on z being up. */
    public static final Vector3d NORMAL = new Vector3d(0.0, 0.6, 0.8);
    public static final double[] TAP_SPEEDS_MPS = {0.3, 0.6, 0.9, 1.2};

    private TapRecordings() {
    }

    /**
     * Ticks at 1 kHz: idle, then each tap (CONTACT_BEGAN with the velocity before, nine ticks of force along the
     * normal, CONTACT_ENDED with the velocity after), a press of 300 ms and a touch at 0.05 m/s, neither a tap.
     */
    public static Path write(Path file) throws Exception {
        LoopSnapshot s = new LoopSnapshot(1);
        s.deviceConnected = true;
        try (TickRecorder recorder = TickRecorder.start(file, "taps", 1000,
            new org.hapticsd.server.record.Recording.Ratings("test device", 10.0, 4.0, 2000.0, 0.0), TickRecorder.DEFAULT_RING_BYTES, true)) {
            long[] tick = {0};
            Runnable idle = () -> {
                set(s, tick[0]++, 0, new Vector3d(), 0.0);
                recorder.onTick(s);
            };
            for (int k = 0; k < 50; k++) {
                idle.run();
            }
            for (double a : TAP_SPEEDS_MPS) {
                contact(recorder, s, tick, a, E * a, 10);
                for (int k = 0; k < 100; k++) {
                    idle.run();
                }
            }
            contact(recorder, s, tick, 0.5, 0.0, 300);   // a press: longer than a tap
            for (int k = 0; k < 100; k++) {
                idle.run();
            }
            contact(recorder, s, tick, 0.05, 0.03, 10);  // slower than the impact threshold
            for (int k = 0; k < 50; k++) {
                idle.run();
            }
        }
        return file;
    }

    private static void contact(TickRecorder recorder, LoopSnapshot s, long[] tick, double inMps, double outMps,
                                int ticks) {
        set(s, tick[0]++, LoopEvents.CONTACT_BEGAN, new Vector3d(NORMAL).mul(-inMps), 0.0);
        recorder.onTick(s);
        for (int k = 1; k < ticks; k++) {
            set(s, tick[0]++, 0, new Vector3d(), 2.0);
            recorder.onTick(s);
        }
        set(s, tick[0]++, LoopEvents.CONTACT_ENDED, new Vector3d(NORMAL).mul(outMps), 0.0);
        recorder.onTick(s);
    }

    public static void set(LoopSnapshot s, long tick, int events, Vector3d velocityMps, double forceN) {
        s.tick = tick;
        s.timeNs = tick * 1_000_000L;
        s.events = events;
        s.deviceVelocityMps[0] = velocityMps.x;
        s.deviceVelocityMps[1] = velocityMps.y;
        s.deviceVelocityMps[2] = velocityMps.z;
        s.devicePositionM[0] = 0.01;
        s.devicePositionM[1] = 0.02;
        s.devicePositionM[2] = -0.003;
        s.renderedForceN[0] = forceN * NORMAL.x;
        s.renderedForceN[1] = forceN * NORMAL.y;
        s.renderedForceN[2] = forceN * NORMAL.z;
    }
}
