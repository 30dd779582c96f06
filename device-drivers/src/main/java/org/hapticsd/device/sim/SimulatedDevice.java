package org.hapticsd.device.sim;

import org.hapticsd.device.DeviceFault;
import org.hapticsd.device.DeviceHealth;
import org.hapticsd.device.DeviceInfo;
import org.hapticsd.device.DeviceState;
import org.hapticsd.device.HapticDevice;

/**
 * A 3-DoF stylus simulated in software: a point mass with its own viscous damping, held by a virtual hand
 * (a spring-damper pulling it toward a {@link HandTarget}) and pushed by the force the server commands, so a
 * rendered wall really pushes the hand back.
 *
 * <p>Per substep of length h, semi-implicit (symplectic) Euler on
 * <pre>
 *   F = F_cmd + k_hand·(p_target(t) − x) − (c_hand + c)·v
 *   v ← v + h·F/m
 *   x ← x + h·v          (uses the new v: this is what makes it symplectic)
 * </pre>
 * Symplectic rather than explicit Euler because explicit Euler adds energy to an undamped spring every
 * step; the velocity-first update keeps the oscillator's energy bounded, and it is still first-order
 * accurate. The hand damper acts on the stylus velocity alone, i.e. the target velocity is taken as zero:
 * a finite-differenced target velocity would turn every jump of an {@link ExternalHandTarget} into an
 * impulse of c_hand·Δx. The cost is a steady tracking lag of c_hand·v/k_hand behind a moving target
 * (3 mm at 0.1 m/s with the defaults).
 *
 * <p>Time is injected: {@link #readState} advances the simulation from the previous call's {@code nowNs} to
 * this one's, in ⌈interval / maxSubstepNs⌉ equal substeps; the first call after {@link #open()} only sets the
 * time origin (the stylus is at rest at the configured initial position). Hand-target time is seconds since
 * that first call. A {@code nowNs} that does not move forward advances nothing but still yields a sample.
 *
 * <p>Threading: as {@link HapticDevice}, loop thread only; {@link #setButtons} and {@link #setHandTarget} too.
 * {@link #readState}, {@link #commandForce} and {@link #health} do not allocate.
 */
public final class SimulatedDevice implements HapticDevice {

    private final SimulatedDeviceConfig config;
    private final DeviceInfo info;

    // Constants of the step, precomputed once.
    private final double invMassPerKg;
    private final double handStiffnessNpm;
    private final double totalDampingNspm;
    private final double mechanismDampingNspm;
    private final double[] pressForceN = new double[3];
    private final double maxForceN;
    private final long maxSubstepNs;

    // Hot state, read and written every substep.
    private double xM;
    private double yM;
    private double zM;
    private double vxMps;
    private double vyMps;
    private double vzMps;
    private double forceXN;
    private double forceYN;
    private double forceZN;
    private final double[] targetM = new double[3];
    private HandTarget handTarget;

    private boolean open;
    private boolean timeStarted;
    private long startNs;
    private long simulatedUpToNs;
    private boolean hasSample;
    private long lastSampleNs;
    private long sequence;
    private int buttons;

    /** A device whose hand holds still at the configured initial position. */
    public SimulatedDevice(SimulatedDeviceConfig config) {
        this(config, new FixedHandTarget(config.initialXM(), config.initialYM(), config.initialZM()));
    }

    public SimulatedDevice(SimulatedDeviceConfig config, HandTarget handTarget) {
        if (config == null) {
            throw new IllegalArgumentException("config must not be null");
        }
        this.config = config;
        this.info = config.info();
        this.invMassPerKg = 1.0 / config.massKg();
        this.handStiffnessNpm = config.handStiffnessNpm();
        this.totalDampingNspm = config.dampingNspm() + config.handDampingNspm();
        this.mechanismDampingNspm = config.dampingNspm();
        this.maxForceN = info.maxForceN();
        this.maxSubstepNs = config.maxSubstepNs();
        setHandTarget(handTarget);
        resetToInitialPosition();
    }

    /**
     * Starts (or restarts after {@link #close()}) the simulation: the stylus is put at rest at the initial
     * position and the next {@link #readState} sets the time origin. Does nothing if already open.
     * The sample sequence is never reset, so consumers see it keep increasing across a reopen.
     */
    @Override
    public void open() {
        if (open) {
            return;
        }
        resetToInitialPosition();
        open = true;
    }

    @Override
    public DeviceInfo info() {
        return info;
    }

    @Override
    public boolean readState(long nowNs, DeviceState dest) {
        if (!open) {
            return false;
        }
        if (!timeStarted) {
            timeStarted = true;
            startNs = nowNs;
            simulatedUpToNs = nowNs;
        } else {
            long intervalNs = nowNs - simulatedUpToNs;
            if (intervalNs > 0) {
                advance(intervalNs);
                simulatedUpToNs = nowNs;
            }
        }
        sequence++;
        hasSample = true;
        lastSampleNs = nowNs;

        dest.positionXM = xM;
        dest.positionYM = yM;
        dest.positionZM = zM;
        dest.velocityXMps = vxMps;
        dest.velocityYMps = vyMps;
        dest.velocityZMps = vzMps;
        dest.orientationW = 1.0;
        dest.orientationX = 0.0;
        dest.orientationY = 0.0;
        dest.orientationZ = 0.0;
        dest.hasOrientation = false;
        dest.buttons = buttons | handTarget.buttonsAt((simulatedUpToNs - startNs) * 1e-9);
        dest.deviceTimeNs = nowNs;
        dest.sequence = sequence;
        // The force acting from now until the next command: the last command after this device's clamp.
        dest.appliedForceXN = forceXN;
        dest.appliedForceYN = forceYN;
        dest.appliedForceZN = forceZN;
        dest.statusFlags = 0;
        return true;
    }

    /**
     * Holds the force until the next command. Torque is ignored (3 DoF). As real firmware does, the force is
     * clamped to {@code info().maxForceN()} keeping its direction, and a force with any NaN or infinite
     * component is replaced by zero: with no trustworthy direction, zero is the only safe output.
     * Ignored while the device is not open.
     */
    @Override
    public void commandForce(double forceXN, double forceYN, double forceZN,
                             double torqueXNm, double torqueYNm, double torqueZNm) {
        if (!open) {
            return;
        }
        double fx = forceXN;
        double fy = forceYN;
        double fz = forceZN;
        if (!(Double.isFinite(fx) && Double.isFinite(fy) && Double.isFinite(fz))) {
            fx = 0.0;
            fy = 0.0;
            fz = 0.0;
        }
        double magnitudeSq = fx * fx + fy * fy + fz * fz;
        if (magnitudeSq > maxForceN * maxForceN) {
            // Normalise by the largest component before the square root: for finite forces above ~1e154 N
            // the plain magnitude overflows to infinity and the scale factor would collapse to zero.
            double largestN = Math.max(Math.abs(fx), Math.max(Math.abs(fy), Math.abs(fz)));
            double ux = fx / largestN;
            double uy = fy / largestN;
            double uz = fz / largestN;
            double scale = maxForceN / Math.sqrt(ux * ux + uy * uy + uz * uz);
            fx = ux * scale;
            fy = uy * scale;
            fz = uz * scale;
        }
        this.forceXN = fx;
        this.forceYN = fy;
        this.forceZN = fz;
    }

    @Override
    public void health(long nowNs, DeviceHealth dest) {
        dest.connected = open;
        dest.lastStateAgeNs = hasSample ? nowNs - lastSampleNs : Long.MAX_VALUE;
        dest.fault = DeviceFault.NONE;
    }

    /** Zeroes the commanded force and stops producing samples. Idempotent. */
    @Override
    public void close() {
        forceXN = 0.0;
        forceYN = 0.0;
        forceZN = 0.0;
        open = false;
    }

    public boolean isOpen() {
        return open;
    }

    public SimulatedDeviceConfig config() {
        return config;
    }

    public HandTarget handTarget() {
        return handTarget;
    }

    /** Takes effect from the next substep; hand-target time keeps running from the first read. */
    public void setHandTarget(HandTarget handTarget) {
        if (handTarget == null) {
            throw new IllegalArgumentException("handTarget must not be null");
        }
        this.handTarget = handTarget;
    }

    /** Buttons reported from the next sample on; bit i set = button i pressed. */
    public void setButtons(int buttons) {
        this.buttons = buttons;
    }

    public int buttons() {
        return buttons;
    }

    /** The force acting on the stylus now, after the device's own clamp. */
    public double commandedForceXN() {
        return forceXN;
    }

    public double commandedForceYN() {
        return forceYN;
    }

    public double commandedForceZN() {
        return forceZN;
    }

    private void advance(long intervalNs) {
        // ceil(interval / maxSubstep) without the overflow of (interval + maxSubstep - 1).
        long substeps = intervalNs / maxSubstepNs + (intervalNs % maxSubstepNs == 0 ? 0 : 1);
        double h = intervalNs * 1e-9 / substeps;
        double t0S = (simulatedUpToNs - startNs) * 1e-9;
        double hInvM = h * invMassPerKg;
        double[] p = targetM;
        double[] press = pressForceN;
        for (long i = 0; i < substeps; i++) {
            // Hand force at the substep's start: the whole force is evaluated at (t_i, x_i, v_i), as the
            // semi-implicit Euler velocity update requires.
            double tS = t0S + i * h;
            int mode = handTarget.modeAt(tS, press);
            double handXN;
            double handYN;
            double handZN;
            double c;
            if (mode == HandTarget.HOLDS) {
                handTarget.targetAt(tS, p);
                handXN = handStiffnessNpm * (p[0] - xM);
                handYN = handStiffnessNpm * (p[1] - yM);
                handZN = handStiffnessNpm * (p[2] - zM);
                c = totalDampingNspm;
            } else if (mode == HandTarget.PRESSES) {
                handXN = press[0];
                handYN = press[1];
                handZN = press[2];
                c = totalDampingNspm;
            } else {
                handXN = 0.0;
                handYN = 0.0;
                handZN = 0.0;
                c = mechanismDampingNspm;
            }
            vxMps += hInvM * (forceXN + handXN - c * vxMps);
            vyMps += hInvM * (forceYN + handYN - c * vyMps);
            vzMps += hInvM * (forceZN + handZN - c * vzMps);
            xM += h * vxMps;
            yM += h * vyMps;
            zM += h * vzMps;
        }
    }

    private void resetToInitialPosition() {
        xM = config.initialXM();
        yM = config.initialYM();
        zM = config.initialZM();
        vxMps = 0.0;
        vyMps = 0.0;
        vzMps = 0.0;
        forceXN = 0.0;
        forceYN = 0.0;
        forceZN = 0.0;
        timeStarted = false;
    }
}
