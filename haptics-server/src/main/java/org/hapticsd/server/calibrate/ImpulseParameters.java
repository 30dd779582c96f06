package org.hapticsd.server.calibrate;

import java.util.Map;
import java.util.TreeMap;
import org.hapticsd.physics.dynamics.contact.ImpulseWaveformSettings;

/**
 * The unknowns of source 000 §5, one set of values: restitution {@code e}, waveform height and duration factors
 * {@code S_h}, {@code S_w}, static and dynamic friction {@code μ_s}, {@code μ_d}, and the impulse correlation
 * ratio {@code α_j} of each pair of a multi-point collision (1 for a pair not listed). {@code S_w} in ms·N·s and
 * {@code W_min} in ms as the source prints them (see {@link ImpulseWaveformSettings}).
 */
public record ImpulseParameters(double elasticity, double heightFactorPerS, double durationFactorMsNs,
                                double staticFriction, double dynamicFriction, Map<String, Double> correlationRatios,
                                double minimumDurationMs) {

    /** Source 000 Table 2, single-point fit. */
    public static final ImpulseParameters TABLE_2_SINGLE_POINT =
        new ImpulseParameters(0.720, 117.420, 0.459, 0.140, 0.019, Map.of(), 7.5);

    public ImpulseParameters {
        correlationRatios = Map.copyOf(new TreeMap<>(correlationRatios));
    }

    /** Source 000 Table 2, multi-point fit, with its three ratios given to the pairs named. */
    public static ImpulseParameters table2MultiPoint(String pair1, String pair2, String pair3) {
        return new ImpulseParameters(0.310, 187.150, 1.630, 0.970, 0.110,
            Map.of(pair1, 0.992, pair2, 0.993, pair3, 0.888), 7.5);
    }

    /** The waveform settings in SI. */
    public ImpulseWaveformSettings waveform() {
        return new ImpulseWaveformSettings(heightFactorPerS, durationFactorMsNs * 1e-3, minimumDurationMs * 1e-3);
    }

    /** {@code α_j} of a pair ({@link CollisionData.Contact#pairKey}), 1 if not listed. */
    public double correlationRatio(String pairKey) {
        return correlationRatios.getOrDefault(pairKey, 1.0);
    }
}
