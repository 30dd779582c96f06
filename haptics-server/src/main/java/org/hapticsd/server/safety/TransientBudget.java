package org.hapticsd.server.safety;

/**
 * What one impact transient may carry (see {@code render.ImpactTransients}): the safety layer adds a transient
 * after its slew limit, so the transient's own size is bounded here, before it is played. The peak is bounded
 * separately by the layer's force limit (min of the device's and the configured maximum force), which the
 * transient is scaled to fit and which the final clamp enforces again on the sum.
 *
 * @param maxImpulseNs the largest impulse one transient delivers, N·s ({@code > 0})
 * @param maxEnergyJ   the largest energy one transient can give the tool, {@code IP²/(2·m_eff)}, J ({@code > 0})
 * @param maxPerS      the most transients that start in one second ({@code > 0}): a tool chattering on a surface
 *                     would otherwise turn into a vibration
 */
public record TransientBudget(double maxImpulseNs, double maxEnergyJ, double maxPerS) {

    /**
     * 0.2 N·s, 0.1 J and 20 per second: a 0.1 kg stylus tapping at 1 m/s on a hard surface (IP 0.19 N·s with
     * e = 0.9, 0.18 J) reaches the energy bound, and a normal tap (0.3 m/s, 0.05 N·s) is far inside all three.
     */
    public static final TransientBudget DEFAULTS = new TransientBudget(0.2, 0.1, 20.0);

    public TransientBudget {
        if (!(maxImpulseNs > 0.0) || !(maxEnergyJ > 0.0) || !(maxPerS > 0.0) || !Double.isFinite(maxImpulseNs)
            || !Double.isFinite(maxEnergyJ) || !Double.isFinite(maxPerS)) {
            throw new IllegalArgumentException("transient budget values must be finite and > 0, got " + maxImpulseNs
                + " N·s, " + maxEnergyJ + " J, " + maxPerS + "/s");
        }
    }

    /** The impulse allowed for a tool of effective mass {@code massKg}: the smaller of the two bounds, N·s. */
    public double allowedImpulseNs(double massKg) {
        return Math.min(maxImpulseNs, Math.sqrt(2.0 * massKg * maxEnergyJ));
    }
}
