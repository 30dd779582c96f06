package org.hapticsd.device.sim;

import java.util.List;

/**
 * A hand that follows a scripted path: piecewise-linear between waypoints, holding the first point before
 * the first time and the last point after the last time.
 *
 * <p>With {@code loop}, time is wrapped into {@code [0, period)} with period = the last waypoint's time, so
 * the path repeats. Nothing forces the path to end where it starts; if it does not, the target jumps back
 * to the first point at every wrap (and holds the first point over {@code [0, firstTime)}).
 *
 * <p>Lookup is a binary search over primitive arrays: no allocation and no cursor, so the object is
 * immutable and may be shared between devices or threads.
 */
public final class WaypointHandTarget implements HandTarget {

    /**
     * One point of the path: at {@code timeS} the hand is at ({@code xM}, {@code yM}, {@code zM}), and from then
     * until the next point it holds {@code buttons} down (bit i = button i).
     */
    public record Waypoint(double timeS, double xM, double yM, double zM, int buttons) {
        /** A point with no button pressed. */
        public Waypoint(double timeS, double xM, double yM, double zM) {
            this(timeS, xM, yM, zM, 0);
        }
    }

    // Structure of arrays: the lookup touches only timesS until it has found the segment.
    private final double[] timesS;
    private final double[] xsM;
    private final double[] ysM;
    private final double[] zsM;
    private final int[] buttons;
    private final boolean loop;
    private final double periodS;

    /**
     * @param waypoints at least one waypoint, times strictly increasing, all values finite
     * @param loop      repeat the path with period = the last waypoint's time; then the first time must be
     *                  {@code >= 0} and the last time {@code > 0}
     * @throws IllegalArgumentException naming the offending waypoint index when the path is invalid
     */
    public WaypointHandTarget(List<Waypoint> waypoints, boolean loop) {
        if (waypoints == null || waypoints.isEmpty()) {
            throw new IllegalArgumentException("waypoints must contain at least one waypoint");
        }
        int n = waypoints.size();
        timesS = new double[n];
        xsM = new double[n];
        ysM = new double[n];
        zsM = new double[n];
        buttons = new int[n];
        for (int i = 0; i < n; i++) {
            Waypoint w = waypoints.get(i);
            if (w == null) {
                throw new IllegalArgumentException("waypoint " + i + " is null");
            }
            if (!Double.isFinite(w.timeS()) || !Double.isFinite(w.xM())
                    || !Double.isFinite(w.yM()) || !Double.isFinite(w.zM())) {
                throw new IllegalArgumentException("waypoint " + i + " must be finite, got " + w);
            }
            if (i > 0 && !(w.timeS() > timesS[i - 1])) {
                throw new IllegalArgumentException("waypoint " + i + " time " + w.timeS()
                        + " s must be greater than waypoint " + (i - 1) + " time " + timesS[i - 1] + " s");
            }
            timesS[i] = w.timeS();
            xsM[i] = w.xM();
            ysM[i] = w.yM();
            zsM[i] = w.zM();
            buttons[i] = w.buttons();
        }
        if (loop) {
            if (!(timesS[n - 1] > 0.0)) {
                throw new IllegalArgumentException("a looping path needs waypoint " + (n - 1)
                        + " (the last) time > 0 s as its period, got " + timesS[n - 1] + " s");
            }
            if (timesS[0] < 0.0) {
                throw new IllegalArgumentException("a looping path needs waypoint 0 time >= 0 s, got "
                        + timesS[0] + " s");
            }
        }
        this.loop = loop;
        this.periodS = timesS[n - 1];
    }

    public boolean loop() {
        return loop;
    }

    public int size() {
        return timesS.length;
    }

    /** The buttons of the last point at or before the (wrapped) time; the first point's before it. */
    @Override
    public int buttonsAt(double tSeconds) {
        double t = wrap(tSeconds);
        int lo = 0;
        int hi = timesS.length;
        // The number of points at or before t, by bisection.
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (timesS[mid] <= t) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return buttons[Math.max(0, lo - 1)];
    }

    private double wrap(double tSeconds) {
        // Floor-mod rather than %, so negative times wrap into [0, period) as well; a result that rounds
        // up to exactly the period falls into the "after the last waypoint" branch, which is the same point.
        return loop ? tSeconds - periodS * Math.floor(tSeconds / periodS) : tSeconds;
    }

    @Override
    public void targetAt(double tSeconds, double[] positionOut3) {
        double t = wrap(tSeconds);
        int last = timesS.length - 1;
        if (!(t > timesS[0])) {
            // Also catches NaN time: hold the first point rather than emit NaN into the simulation.
            write(0, positionOut3);
            return;
        }
        if (t >= timesS[last]) {
            write(last, positionOut3);
            return;
        }
        // Invariant timesS[lo] <= t < timesS[hi]; ends with lo, hi adjacent, i.e. the segment holding t.
        int lo = 0;
        int hi = last;
        while (hi - lo > 1) {
            int mid = (lo + hi) >>> 1;
            if (timesS[mid] <= t) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        double a = (t - timesS[lo]) / (timesS[hi] - timesS[lo]);
        positionOut3[0] = xsM[lo] + a * (xsM[hi] - xsM[lo]);
        positionOut3[1] = ysM[lo] + a * (ysM[hi] - ysM[lo]);
        positionOut3[2] = zsM[lo] + a * (zsM[hi] - zsM[lo]);
    }

    private void write(int i, double[] positionOut3) {
        positionOut3[0] = xsM[i];
        positionOut3[1] = ysM[i];
        positionOut3[2] = zsM[i];
    }
}
