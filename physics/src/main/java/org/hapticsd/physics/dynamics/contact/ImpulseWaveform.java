package org.hapticsd.physics.dynamics.contact;

/**
 * The artificial impulse waveform of source 000 §3 as one pure function family, shared by the IMPULSE contact model
 * and by whatever renders the same pulse on a haptic device: a single smooth pulse of height {@code H = S_h·IP_z}
 * (8) and duration {@code W = S_w/IP_z + W_min} (9) whose area is the impulse {@code IP_z} it delivers.
 *
 * <h2>The shape, and why its area can be exact</h2>
 * The source fixes the height and the duration from the impulse, and Fig. 2 (missing from the text) shows a smooth
 * single pulse. Height and duration alone fix the area of any one shape ({@code 2/π·H·W} for a half sine), which is
 * not {@code IP_z} in general: with Table 2's single-point values the ratio {@code c = IP_z/(H·W)} is 0.51 at
 * 0.05 N·s and 0.16 at 0.01 N·s. So the shape has one free parameter, chosen so that the area is exact:
 * {@code p(t) = H·sin^κ(π·t/W)} on {@code [0, W]}, whose area is {@code H·W·B(κ)} with
 * {@code B(κ) = Γ((κ+1)/2)/(√π·Γ(κ/2+1))}: {@code B(0) = 1} (a rectangle), {@code B(1) = 2/π} (the half sine),
 * {@code B(2) = 1/2} (the raised cosine), decreasing to 0 as the pulse narrows. {@code κ} solves
 * {@code B(κ) = c} (bisection on {@code ln B}); when {@code c >= 1} the impulse does not fit under a pulse of
 * height {@code H} and duration {@code W}, and the rectangle is used with the height raised to {@code IP_z/W}; when
 * {@code c < B(κ_max)} the narrowest shape is used and its height rises above {@code H}. Either way the duration is
 * {@code W} and the area is {@code IP_z}.
 *
 * <h2>Samples</h2>
 * The pulse is played one sample per step {@code Δt}: sample {@code k} carries {@code ∫ p} over
 * {@code [k·Δt, min((k+1)·Δt, W)]} (Simpson's rule on 16 sub-intervals), and the samples are normalised by their
 * sum, so that they add up to the impulse to round-off whatever the step, and the force a sample stands for is its
 * impulse over {@code Δt}.
 */
public final class ImpulseWaveform {

    /** The narrowest shape: {@code B(64) ≈ 0.0995}. */
    static final double MAX_EXPONENT = 64.0;
    /** Simpson sub-intervals per sample. */
    private static final int SUB_INTERVALS = 16;
    private static final double LN_SQRT_PI = 0.5 * Math.log(Math.PI);

    private ImpulseWaveform() {
    }

    /** {@code H = S_h·IP_z} (8), N. */
    public static double heightN(ImpulseWaveformSettings settings, double impulseNs) {
        return settings.heightPerS() * impulseNs;
    }

    /**
     * The longest pulse, s. Equation (9) grows without bound as the impulse shrinks or as S_w and W_min grow, and the
     * pulse is sampled tick by tick when it starts: a tester's {@code minimumDurationMs: 1e9} (a pulse of 11 days)
     * stopped the loop at the first strike. A collision's transient lasts milliseconds (source 000: 7.5–31 ms);
     * one of 200 ms is already no impact, and its samples are computed in the tick the strike lands in.
     */
    public static final double MAX_DURATION_S = 0.2;

    /** {@code W = S_w/IP_z + W_min} (9), s, at most {@link #MAX_DURATION_S}. */
    public static double durationS(ImpulseWaveformSettings settings, double impulseNs) {
        return Math.min(MAX_DURATION_S, settings.durationNs2() / impulseNs + settings.minimumDurationS());
    }

    /** Samples of a pulse of duration {@code W} at step {@code Δt}: {@code ⌈W/Δt⌉}, at least 1. */
    public static int sampleCount(double durationS, double dtS) {
        return Math.max(1, (int) Math.ceil(durationS / dtS - 1e-9));
    }

    /** {@code B(κ) = ∫₀¹ sin^κ(πx) dx = Γ((κ+1)/2)/(√π·Γ(κ/2+1))}. */
    static double areaFactor(double exponent) {
        return Math.exp(lnGamma(0.5 * (exponent + 1.0)) - LN_SQRT_PI - lnGamma(0.5 * exponent + 1.0));
    }

    /**
     * The exponent {@code κ} of the shape whose area is {@code c·H·W}: 0 for {@code c >= 1} (the rectangle),
     * {@link #MAX_EXPONENT} below that shape's factor.
     */
    public static double exponentFor(double areaFactor) {
        if (!(areaFactor < 1.0)) {
            return 0.0;
        }
        if (areaFactor <= areaFactor(MAX_EXPONENT)) {
            return MAX_EXPONENT;
        }
        double low = 0.0;
        double high = MAX_EXPONENT;
        double target = Math.log(areaFactor);
        for (int i = 0; i < 60; i++) {
            double mid = 0.5 * (low + high);
            if (Math.log(areaFactor(mid)) > target) {
                low = mid;
            } else {
                high = mid;
            }
        }
        return 0.5 * (low + high);
    }

    /**
     * {@code ∫ sin^κ(π·t/W) dt} over {@code [k·Δt, min((k+1)·Δt, W)]}, s (the unnormalised area of sample
     * {@code k}; 0 past the end).
     */
    public static double sampleArea(double exponent, double durationS, double dtS, int k) {
        double from = k * dtS;
        double to = Math.min((k + 1) * dtS, durationS);
        if (!(to > from)) {
            return 0.0;
        }
        double h = (to - from) / SUB_INTERVALS;
        double sum = shape(exponent, from / durationS) + shape(exponent, to / durationS);
        for (int j = 1; j < SUB_INTERVALS; j++) {
            sum += (j % 2 == 1 ? 4.0 : 2.0) * shape(exponent, (from + j * h) / durationS);
        }
        return sum * h / 3.0;
    }

    /** The sum of {@link #sampleArea} over all samples, s: what normalises them. */
    public static double totalArea(double exponent, double durationS, double dtS) {
        double total = 0.0;
        for (int k = 0, n = sampleCount(durationS, dtS); k < n; k++) {
            total += sampleArea(exponent, durationS, dtS, k);
        }
        return total;
    }

    /** {@code sin^κ(π·x)} on {@code [0, 1]}; the rectangle is 1 throughout. */
    static double shape(double exponent, double x) {
        if (exponent == 0.0) {
            return 1.0;
        }
        double s = Math.sin(Math.PI * Math.min(1.0, Math.max(0.0, x)));
        return s <= 0.0 ? 0.0 : Math.pow(s, exponent);
    }

    /**
     * {@code ln Γ(x)} for {@code x > 0}: Lanczos' approximation with g = 7 and nine coefficients (Godfrey's),
     * relative error about 1e-15 over the range used here ({@code 1/2 <= x <= 33}).
     */
    static double lnGamma(double x) {
        if (x < 0.5) {
            // Reflection: Γ(x)Γ(1 − x) = π / sin(πx).
            return Math.log(Math.PI / Math.sin(Math.PI * x)) - lnGamma(1.0 - x);
        }
        double z = x - 1.0;
        double a = LANCZOS[0];
        double t = z + 7.5;
        for (int i = 1; i < LANCZOS.length; i++) {
            a += LANCZOS[i] / (z + i);
        }
        return 0.5 * Math.log(2.0 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(a);
    }

    private static final double[] LANCZOS = {
        0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
        12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
    };
}
