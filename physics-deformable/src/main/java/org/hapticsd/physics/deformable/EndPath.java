package org.hapticsd.physics.deformable;

import java.util.Arrays;

/**
 * A path for a driven end: positions (x, z, m, relative to the string's left end) at increasing times (s), joined by
 * straight segments; held at the last point after it, or repeated when {@code loop}. Immutable; {@link #sample}
 * allocates nothing.
 */
public final class EndPath {
    private final double[] timesS;
    private final double[] xM;
    private final double[] zM;
    private final boolean loop;

    /**
     * @throws IllegalArgumentException unless there is at least one point, the times start at 0 and increase, and
     *                                  every value is finite
     */
    public EndPath(double[] timesS, double[] xM, double[] zM, boolean loop) {
        if (timesS.length == 0 || timesS.length != xM.length || timesS.length != zM.length) {
            throw new IllegalArgumentException("a path needs at least one point, with a time, x and z each");
        }
        if (timesS[0] != 0) {
            throw new IllegalArgumentException("a path starts at t = 0, got " + timesS[0]);
        }
        for (int i = 0; i < timesS.length; i++) {
            if (!Double.isFinite(timesS[i]) || !Double.isFinite(xM[i]) || !Double.isFinite(zM[i])) {
                throw new IllegalArgumentException("path point " + i + " is not finite");
            }
            if (i > 0 && !(timesS[i] > timesS[i - 1])) {
                throw new IllegalArgumentException("path times must increase: point " + i + " at " + timesS[i]
                    + " s follows " + timesS[i - 1] + " s");
            }
        }
        if (loop && timesS.length < 2) {
            throw new IllegalArgumentException("a looping path needs at least two points");
        }
        this.timesS = timesS.clone();
        this.xM = xM.clone();
        this.zM = zM.clone();
        this.loop = loop;
    }

    /** Position and velocity at time t: x, z, vx, vz into {@code dest} (m, m/s). */
    public double[] sample(double tS, double[] dest) {
        int last = timesS.length - 1;
        double t = tS;
        if (loop && t > timesS[last]) {
            t = t % timesS[last];
        }
        if (last == 0 || t >= timesS[last]) {
            dest[0] = xM[last];
            dest[1] = zM[last];
            dest[2] = 0;
            dest[3] = 0;
            return dest;
        }
        int i = Arrays.binarySearch(timesS, Math.max(t, 0.0));
        int segment = i >= 0 ? i : -i - 2;
        double span = timesS[segment + 1] - timesS[segment];
        double u = (t - timesS[segment]) / span;
        double vx = (xM[segment + 1] - xM[segment]) / span;
        double vz = (zM[segment + 1] - zM[segment]) / span;
        dest[0] = xM[segment] + u * (xM[segment + 1] - xM[segment]);
        dest[1] = zM[segment] + u * (zM[segment + 1] - zM[segment]);
        dest[2] = vx;
        dest[3] = vz;
        return dest;
    }
}
