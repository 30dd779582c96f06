package org.hapticsd.server.scene;

import org.hapticsd.physics.dynamics.contact.ImpulseWaveformSettings;

/**
 * {@code contact.impulse}: the waveform of IMPULSE-mode collisions (source 000 §3), in the source's units:
 * {@code H = S_h·IP_z} (8) and {@code W = S_w/IP_z + W_min} (9) with {@code W} in milliseconds. Defaults are Table 2's
 * single-point fit. A collision's restitution and friction are its materials' ({@code elasticity},
 * {@code staticFriction}, {@code dynamicFriction}), as in every mode.
 */
public final class ImpulseSpec {
    private static final ImpulseWaveformSettings DEFAULTS = ImpulseWaveformSettings.TABLE_2_SINGLE_POINT;

    private double heightFactorPerS = DEFAULTS.heightPerS();
    private double durationFactorMsNs = DEFAULTS.durationNs2() * 1e3;
    private double minimumDurationMs = DEFAULTS.minimumDurationS() * 1e3;

    public void setHeightFactorPerS(double value) {
        this.heightFactorPerS = Check.positive("heightFactorPerS", value);
    }

    public void setDurationFactorMsNs(double value) {
        this.durationFactorMsNs = Check.nonNegative("durationFactorMsNs", value);
    }

    public void setMinimumDurationMs(double value) {
        Check.positive("minimumDurationMs", value);
        double maxMs = org.hapticsd.physics.dynamics.contact.ImpulseWaveform.MAX_DURATION_S * 1e3;
        if (value > maxMs) {
            throw new IllegalArgumentException("minimumDurationMs must be at most " + (long) maxMs
                + " ms (a pulse lasts at most " + org.hapticsd.physics.dynamics.contact.ImpulseWaveform.MAX_DURATION_S
                + " s), got " + value);
        }
        this.minimumDurationMs = value;
    }

    /** The engine's settings, in SI. */
    public ImpulseWaveformSettings toSettings() {
        return new ImpulseWaveformSettings(heightFactorPerS, durationFactorMsNs * 1e-3, minimumDurationMs * 1e-3);
    }
}
