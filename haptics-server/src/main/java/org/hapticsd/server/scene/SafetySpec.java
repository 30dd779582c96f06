package org.hapticsd.server.scene;

import org.hapticsd.server.safety.SafetyConfig;
import org.hapticsd.server.safety.TransientBudget;

/** Safety limits; every default is the one of {@link SafetyConfig#defaults()}. */
public final class SafetySpec {
    private double maxForceN = SafetyConfig.DEFAULT_MAX_FORCE_N;
    private double maxForceStepN = SafetyConfig.DEFAULT_MAX_FORCE_STEP_N;
    private double gateThresholdN = SafetyConfig.DEFAULT_GATE_THRESHOLD_N;
    private int gateTicks = SafetyConfig.DEFAULT_GATE_TICKS;
    private double rampS = SafetyConfig.DEFAULT_RAMP_NS * 1e-9;
    private int watchdogTicks = SafetyConfig.DEFAULT_WATCHDOG_TICKS;
    private int overrunLimit = SafetyConfig.DEFAULT_OVERRUN_LIMIT;
    private double thermalTimeConstantS = SafetyConfig.DEFAULT_THERMAL_TIME_CONSTANT_S;
    private double transientMaxImpulseNs = TransientBudget.DEFAULTS.maxImpulseNs();
    private double transientMaxEnergyJ = TransientBudget.DEFAULTS.maxEnergyJ();
    private double transientMaxPerS = TransientBudget.DEFAULTS.maxPerS();

    public void setMaxForceN(double value) {
        this.maxForceN = Check.positive("maxForceN", value);
    }

    public void setMaxForceStepN(double value) {
        this.maxForceStepN = Check.positive("maxForceStepN", value);
    }

    public void setGateThresholdN(double value) {
        this.gateThresholdN = Check.positive("gateThresholdN", value);
    }

    public void setGateTicks(int value) {
        this.gateTicks = Check.atLeast("gateTicks", 1, value);
    }

    public void setRampS(double value) {
        this.rampS = Check.nonNegative("rampS", value);
    }

    public void setWatchdogTicks(int value) {
        this.watchdogTicks = Check.atLeast("watchdogTicks", 1, value);
    }

    public void setOverrunLimit(int value) {
        this.overrunLimit = Check.atLeast("overrunLimit", 1, value);
    }

    public void setThermalTimeConstantS(double value) {
        this.thermalTimeConstantS = Check.size("thermalTimeConstantS", value);
    }

    public void setTransientMaxImpulseNs(double value) {
        this.transientMaxImpulseNs = Check.positive("transientMaxImpulseNs", value);
    }

    public void setTransientMaxEnergyJ(double value) {
        this.transientMaxEnergyJ = Check.positive("transientMaxEnergyJ", value);
    }

    public void setTransientMaxPerS(double value) {
        this.transientMaxPerS = Check.positive("transientMaxPerS", value);
    }

    /** What one impact transient may carry (see {@code render.ImpactTransients}). */
    public TransientBudget transientBudget() {
        return new TransientBudget(transientMaxImpulseNs, transientMaxEnergyJ, transientMaxPerS);
    }

    public double maxForceN() {
        return maxForceN;
    }

    public SafetyConfig toConfig() {
        return new SafetyConfig(maxForceN, maxForceStepN, gateThresholdN, gateTicks, Math.round(rampS * 1e9),
            watchdogTicks, overrunLimit, thermalTimeConstantS);
    }
}
