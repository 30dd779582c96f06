package org.hapticsd.physics.dynamics.contact;

/**
 * The impulse-waveform parameters of source 000 §3, scene-wide: the height factor {@code S_h} of
 * {@code H = S_h·IP_z} (8), the duration factor {@code S_w} and the minimum collision time {@code W_min} of
 * {@code W = S_w/IP_z + W_min} (9). The restitution {@code e} and the friction coefficients {@code μ_s}, {@code μ_d}
 * of a collision are its materials' (the means of the two bodies', as for every contact mode).
 *
 * <h2>Units</h2>
 * The source gives {@code W_min = 7.5} with the unit m/s, which cannot be a time. Its Table 2 fits
 * {@code S_w = 0.459} (single-point) and {@code S_h = 117.42}: with {@code W} in milliseconds and {@code IP_z} in
 * N·s, a 0.05 N·s collision lasts {@code 0.459/0.05 + 7.5 = 16.7 ms} and peaks at {@code 117.42·0.05 = 5.9 N}, and
 * a pulse of that height and duration carries about the collision's own impulse ({@code 2/π·5.9·0.0167 =
 * 0.063 N·s}): the three numbers agree with each other only in milliseconds (in seconds the same tap would last
 * 16.7 s and carry 63 N·s, in microseconds 16.7 µs and 0.06 mN·s), and a few milliseconds is the order of a hard
 * impact between rigid objects. So this class takes {@code W_min} = 7.5 ms and {@code S_w} in ms·N·s, converted
 * to SI here: {@code S_w} = 0.459e-3 N·s².
 *
 * @param heightPerS {@code S_h}, 1/s ({@code H} in N per N·s of {@code IP_z}), {@code > 0}
 * @param durationNs2 {@code S_w}, N·s² ({@code W} in s is {@code S_w/IP_z}), {@code >= 0}
 * @param minimumDurationS {@code W_min}, s, {@code > 0}
 */
public record ImpulseWaveformSettings(double heightPerS, double durationNs2, double minimumDurationS) {

    /** Source 000 Table 2, single-point fit: {@code S_h} 117.420, {@code S_w} 0.459 (ms·N·s), {@code W_min} 7.5 ms. */
    public static final ImpulseWaveformSettings TABLE_2_SINGLE_POINT =
        new ImpulseWaveformSettings(117.420, 0.459e-3, 7.5e-3);

    /** Source 000 Table 2, multi-point fit: {@code S_h} 187.150, {@code S_w} 1.630 (ms·N·s), {@code W_min} 7.5 ms. */
    public static final ImpulseWaveformSettings TABLE_2_MULTI_POINT =
        new ImpulseWaveformSettings(187.150, 1.630e-3, 7.5e-3);

    public ImpulseWaveformSettings {
        if (!(heightPerS > 0.0) || !Double.isFinite(heightPerS)) {
            throw new IllegalArgumentException("heightPerS (S_h) must be finite and > 0, was " + heightPerS);
        }
        if (!(durationNs2 >= 0.0) || !Double.isFinite(durationNs2)) {
            throw new IllegalArgumentException("durationNs2 (S_w) must be finite and >= 0, was " + durationNs2);
        }
        if (!(minimumDurationS > 0.0) || !Double.isFinite(minimumDurationS)) {
            throw new IllegalArgumentException("minimumDurationS (W_min) must be finite and > 0, was "
                + minimumDurationS);
        }
    }
}
