package org.hapticsd.device.sim;

/**
 * A hand target moved from outside the simulation, e.g. by a client steering the simulated user.
 *
 * <p>Threading: plain fields, no volatile. {@link #set} is meant to be called on the loop thread while it
 * drains its command queue, the same thread that calls {@link #targetAt} through
 * {@link SimulatedDevice#readState}; the queue hand-off provides the happens-before edge, so a volatile
 * here would only cost a fence per substep. Calling {@link #set} from another thread is not supported.
 *
 * <p>The target jumps to the new point at once. The simulated hand is a spring-damper whose damper acts on
 * the stylus velocity only (target velocity taken as zero), so a jump produces a bounded spring force
 * rather than an impulse.
 */
public final class ExternalHandTarget implements HandTarget {
    private double xM;
    private double yM;
    private double zM;

    /** A target at the origin. */
    public ExternalHandTarget() {
        this(0.0, 0.0, 0.0);
    }

    public ExternalHandTarget(double xM, double yM, double zM) {
        set(xM, yM, zM);
    }

    /**
     * Moves the target. Rejects non-finite values because one NaN would turn the simulated stylus state
     * into NaN for good; command decoders should reject such values before they reach the loop.
     *
     * @throws IllegalArgumentException if any coordinate is NaN or infinite (the target is then unchanged)
     */
    public void set(double xM, double yM, double zM) {
        if (!Double.isFinite(xM) || !Double.isFinite(yM) || !Double.isFinite(zM)) {
            throw new IllegalArgumentException(
                    "hand target must be finite, got (" + xM + ", " + yM + ", " + zM + ")");
        }
        this.xM = xM;
        this.yM = yM;
        this.zM = zM;
    }

    public double xM() {
        return xM;
    }

    public double yM() {
        return yM;
    }

    public double zM() {
        return zM;
    }

    @Override
    public void targetAt(double tSeconds, double[] positionOut3) {
        positionOut3[0] = xM;
        positionOut3[1] = yM;
        positionOut3[2] = zM;
    }
}
