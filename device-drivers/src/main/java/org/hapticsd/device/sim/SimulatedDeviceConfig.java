package org.hapticsd.device.sim;

import org.hapticsd.device.DeviceInfo;
import org.hapticsd.device.Workspace;

/**
 * Physical parameters of a {@link SimulatedDevice}. Immutable; start from {@link #defaults()} and change
 * fields with the {@code with...} methods.
 *
 * <p>{@code info.dampingNspm} is always replaced by {@link #dampingNspm}: the simulated mechanism's damping is
 * the fact that the reported info describes, so the two cannot disagree.
 *
 * @param massKg           moving mass of the stylus
 * @param dampingNspm      the mechanism's own viscous damping (acts on the stylus velocity)
 * @param handStiffnessNpm stiffness of the virtual hand's spring pulling the stylus toward the hand target
 * @param handDampingNspm  damping of the virtual hand; acts on the stylus velocity (target velocity taken as 0)
 * @param initialXM        stylus position at open, x
 * @param initialYM        stylus position at open, y
 * @param initialZM        stylus position at open, z
 * @param maxSubstepNs     longest integration substep; each read interval is split into equal substeps
 * @param info             what the device reports from {@code info()}; must be 3 DoF (no torque is rendered)
 */
public record SimulatedDeviceConfig(double massKg, double dampingNspm, double handStiffnessNpm,
                                    double handDampingNspm, double initialXM, double initialYM,
                                    double initialZM, long maxSubstepNs, DeviceInfo info) {

    public static final double DEFAULT_MASS_KG = 0.1;
    public static final double DEFAULT_DAMPING_NSPM = 1.0;
    public static final double DEFAULT_HAND_STIFFNESS_NPM = 200.0;
    public static final double DEFAULT_HAND_DAMPING_NSPM = 6.0;
    public static final long DEFAULT_MAX_SUBSTEP_NS = 100_000L;

    public SimulatedDeviceConfig {
        requirePositive("massKg", massKg);
        requireNonNegative("dampingNspm", dampingNspm);
        requireNonNegative("handStiffnessNpm", handStiffnessNpm);
        requireNonNegative("handDampingNspm", handDampingNspm);
        requireFinite("initialXM", initialXM);
        requireFinite("initialYM", initialYM);
        requireFinite("initialZM", initialZM);
        if (maxSubstepNs <= 0) {
            throw new IllegalArgumentException("maxSubstepNs must be > 0, got " + maxSubstepNs);
        }
        if (info == null) {
            throw new IllegalArgumentException("info must not be null");
        }
        if (info.degreesOfFreedom() != 3) {
            throw new IllegalArgumentException("info.degreesOfFreedom must be 3 (the simulated stylus renders"
                    + " no torque), got " + info.degreesOfFreedom());
        }
        requireStableSubstep(massKg, dampingNspm + handDampingNspm, handStiffnessNpm, maxSubstepNs);
        if (info.dampingNspm() != dampingNspm) {
            info = new DeviceInfo(info.name(), info.degreesOfFreedom(), info.workspace(), info.maxForceN(),
                    info.maxContinuousForceN(), info.maxStiffnessNpm(), dampingNspm);
        }
    }

    /**
     * Mass 0.1 kg, damping 1 N·s/m, hand 200 N/m and 6 N·s/m (damping ratio 0.78: a relaxed grip that
     * settles in about 0.1 s), at the origin, 0.1 ms substeps; reports "simulated stylus", 3 DoF, a 0.2 m
     * cube workspace, 10 N peak, 4 N continuous, 3000 N/m max stiffness.
     */
    public static SimulatedDeviceConfig defaults() {
        return new SimulatedDeviceConfig(DEFAULT_MASS_KG, DEFAULT_DAMPING_NSPM, DEFAULT_HAND_STIFFNESS_NPM,
                DEFAULT_HAND_DAMPING_NSPM, 0.0, 0.0, 0.0, DEFAULT_MAX_SUBSTEP_NS,
                new DeviceInfo("simulated stylus", 3, Workspace.cube(0.1), 10.0, 4.0, 3000.0,
                        DEFAULT_DAMPING_NSPM));
    }

    public SimulatedDeviceConfig withMassKg(double massKg) {
        return new SimulatedDeviceConfig(massKg, dampingNspm, handStiffnessNpm, handDampingNspm,
                initialXM, initialYM, initialZM, maxSubstepNs, info);
    }

    /** Also updates {@code info().dampingNspm()}, see the class comment. */
    public SimulatedDeviceConfig withDampingNspm(double dampingNspm) {
        return new SimulatedDeviceConfig(massKg, dampingNspm, handStiffnessNpm, handDampingNspm,
                initialXM, initialYM, initialZM, maxSubstepNs, info);
    }

    public SimulatedDeviceConfig withHandStiffnessNpm(double handStiffnessNpm) {
        return new SimulatedDeviceConfig(massKg, dampingNspm, handStiffnessNpm, handDampingNspm,
                initialXM, initialYM, initialZM, maxSubstepNs, info);
    }

    public SimulatedDeviceConfig withHandDampingNspm(double handDampingNspm) {
        return new SimulatedDeviceConfig(massKg, dampingNspm, handStiffnessNpm, handDampingNspm,
                initialXM, initialYM, initialZM, maxSubstepNs, info);
    }

    public SimulatedDeviceConfig withInitialPositionM(double xM, double yM, double zM) {
        return new SimulatedDeviceConfig(massKg, dampingNspm, handStiffnessNpm, handDampingNspm,
                xM, yM, zM, maxSubstepNs, info);
    }

    public SimulatedDeviceConfig withMaxSubstepNs(long maxSubstepNs) {
        return new SimulatedDeviceConfig(massKg, dampingNspm, handStiffnessNpm, handDampingNspm,
                initialXM, initialYM, initialZM, maxSubstepNs, info);
    }

    /** Its {@code dampingNspm} is replaced by this config's, see the class comment. */
    public SimulatedDeviceConfig withInfo(DeviceInfo info) {
        return new SimulatedDeviceConfig(massKg, dampingNspm, handStiffnessNpm, handDampingNspm,
                initialXM, initialYM, initialZM, maxSubstepNs, info);
    }

    /**
     * Rejects a substep at which the free stylus on the hand spring would diverge. Semi-implicit Euler on
     * m·a = −k·x − c·v has the step matrix [[1 − h²ω², h(1 − hγ)], [−hω², 1 − hγ]] with ω² = k/m, γ = c/m;
     * the Jury criterion on its trace 2 − h²ω² − hγ and determinant 1 − hγ gives stability iff
     * h²ω² + 2hγ < 4. Forces the server commands (walls) are outside this bound: they close their own loop
     * at the tick rate, as on a real device.
     */
    private static void requireStableSubstep(double massKg, double totalDampingNspm, double stiffnessNpm,
                                             long maxSubstepNs) {
        double h = maxSubstepNs * 1e-9;
        double omegaSq = stiffnessNpm / massKg;
        double gamma = totalDampingNspm / massKg;
        double criterion = h * h * omegaSq + 2.0 * h * gamma;
        if (!(criterion < 4.0)) {
            throw new IllegalArgumentException("maxSubstepNs " + maxSubstepNs + " is too long for massKg "
                    + massKg + ", handStiffnessNpm " + stiffnessNpm + " and total damping " + totalDampingNspm
                    + " N*s/m: need h^2*k/m + 2*h*c/m < 4, got " + criterion);
        }
    }

    private static void requirePositive(String field, double value) {
        requireFinite(field, value);
        if (!(value > 0.0)) {
            throw new IllegalArgumentException(field + " must be > 0, got " + value);
        }
    }

    private static void requireNonNegative(String field, double value) {
        requireFinite(field, value);
        if (!(value >= 0.0)) {
            throw new IllegalArgumentException(field + " must be >= 0, got " + value);
        }
    }

    private static void requireFinite(String field, double value) {
        if (!Double.isFinite(value)) {
            throw new IllegalArgumentException(field + " must be finite, got " + value);
        }
    }
}
