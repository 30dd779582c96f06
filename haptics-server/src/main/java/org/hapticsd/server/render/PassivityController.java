package org.hapticsd.server.render;

import org.joml.Vector3d;

/**
 * A time-domain passivity observer and controller on the force rendered to the device (Hannaford and Ryu, "Time-domain
 * passivity control of haptic interfaces", IEEE Transactions on Robotics and Automation 18(1), 2002): the observer
 * adds up the energy that has flowed from the hand into the rendered environment; a passive environment keeps it
 * at or above zero, and a sampled stiff spring does not (it returns more on the way out than it took on the way in,
 * the energy that makes a too-stiff wall buzz). While the sum is negative, the controller adds a damping force
 * {@code −α·v} with {@code α = −E/(T·|v|²)}: just enough to dissipate the excess over the next period.
 *
 * <ul>
 *   <li>Observed: {@code E(n) = E(n−1) − f(n−1)·v(n)·T}, with {@code f(n−1)} the force commanded in the previous
 *       tick, after the safety layer (held over the period: the safety layer's slew limit delays a stiff wall's
 *       force, which is itself active), and {@code v(n)} the handle's velocity now, device frame.</li>
 *   <li>{@code α} is capped at {@code m/T} (m the device's mass), where a discrete damper on that mass would itself
 *       begin to overshoot; the safety layer still limits the whole force after this.</li>
 *   <li>Impact transients are not observed or damped: they are meant to add energy, briefly, and the safety layer's
 *       transient budget bounds them.</li>
 * </ul>
 * Loop thread only; allocation-free.
 */
public final class PassivityController {

    /** Speeds below this (m/s) give no damping: α would be unbounded and the force would not move anything. */
    static final double MIN_SPEED_MPS = 1e-4;

    private final double deviceMassKg;
    private double energyJ;
    private final Vector3d lastForceN = new Vector3d();
    private double lastDampingNspm;
    private long activeTicks;
    private double dissipatedJ;

    /** @param deviceMassKg the device's moving mass, which caps the damping at {@code m/T} */
    public PassivityController(double deviceMassKg) {
        if (!(deviceMassKg > 0.0)) {
            throw new IllegalArgumentException("device mass must be > 0, got " + deviceMassKg + " kg");
        }
        this.deviceMassKg = deviceMassKg;
    }

    /**
     * One tick of {@code periodS}: observes the last period's energy with the handle's velocity {@code (vx, vy, vz)}, adds the
     * controller's damping to {@code forceN} (device frame, in place) while the observed energy is negative.
     */
    public void filter(double periodS, double vx, double vy, double vz, Vector3d forceN) {
        energyJ -= (lastForceN.x * vx + lastForceN.y * vy + lastForceN.z * vz) * periodS;
        double speedSquared = vx * vx + vy * vy + vz * vz;
        lastDampingNspm = 0.0;
        if (energyJ < 0.0 && speedSquared > MIN_SPEED_MPS * MIN_SPEED_MPS) {
            double alpha = Math.min(-energyJ / (periodS * speedSquared), deviceMassKg / periodS);
            forceN.x -= alpha * vx;
            forceN.y -= alpha * vy;
            forceN.z -= alpha * vz;
            lastDampingNspm = alpha;
            activeTicks++;
            dissipatedJ += alpha * speedSquared * periodS;
        }
    }

    /**
     * The force the device was commanded this tick, after the safety layer (its gate, ramp, slew limit and clamp),
     * less the impact transient: the force that acts over the coming period, which the next observation counts.
     */
    public void commanded(double fx, double fy, double fz) {
        lastForceN.set(fx, fy, fz);
    }

    /**
     * The end-of-run line, or {@code null} when the controller never damped: on how many ticks it did and the
     * energy it meant to take out, so a run whose stiff wall felt softer than asked says why.
     */
    public String summary() {
        if (activeTicks == 0) {
            return null;
        }
        return String.format(java.util.Locale.ROOT, "passivity control: damped on %d ticks, taking out %.3g J the "
            + "rendered force would have given the hand", activeTicks, dissipatedJ);
    }

    /** Starts observing afresh: a new scene, the loop resumed. */
    public void reset() {
        energyJ = 0.0;
        lastForceN.zero();
        lastDampingNspm = 0.0;
    }

    /** The observed energy, J: what the hand has put into the rendered environment, less what it got back. */
    public double energyJ() {
        return energyJ;
    }

    /** The damping the last tick added, N·s/m (0 when the observed energy was not negative). */
    public double lastDampingNspm() {
        return lastDampingNspm;
    }

    /** Ticks on which the controller damped. */
    public long activeTicks() {
        return activeTicks;
    }

    /** The energy the controller meant to dissipate, in all, J. */
    public double dissipatedJ() {
        return dissipatedJ;
    }
}
