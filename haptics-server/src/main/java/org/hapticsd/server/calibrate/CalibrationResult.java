package org.hapticsd.server.calibrate;

import java.util.List;

/**
 * What a calibration found: the parameters, the residual (rms relative error, see {@link Calibration}), and the
 * per-body errors of the replay with them.
 *
 * @param forceSamples whether the data had force samples (without them S_h and S_w are not identified)
 */
public record CalibrationResult(CollisionData data, Calibration.Model model, ImpulseParameters parameters,
                                double residual, int evaluations, List<Fitted> fitted, List<BodyError> bodies,
                                boolean forceSamples) {

    public CalibrationResult {
        fitted = List.copyOf(fitted);
        bodies = List.copyOf(bodies);
    }

    /** How a parameter's value came about. */
    public enum Status {
        FITTED,
        /** Its range was a single value. */
        FIXED,
        /**
         * The data cannot tell (S_h and S_w without force samples; μ_s and μ_d when no contact slides or could):
         * held at the model's Table 2 value.
         */
        NOT_IDENTIFIED
    }

    /**
     * One parameter: its value, range and status; {@code atBound} when the fit ended within 0.1 % of an end of the
     * range (the range may be too narrow); {@code whyNotIdentified} says what data was missing, empty otherwise.
     */
    public record Fitted(String name, double value, CalibrationBounds.Range range, Status status, boolean atBound,
                         String whyNotIdentified) {
    }

    /**
     * Mean errors of one body over the events it moved in (source 000 Tables 1 and 3): of its impulse,
     * {@code m·|v' − v₁|} in % of its measured impulse {@code m·|v₁ − v₀|} (over the events where that is at least
     * 5 % of the event's momentum); of its velocity after, {@code |v' − v₁|}, in % of the event's speed scale; and of
     * its direction after, degrees (over the events where both speeds are at least 5 % of the event's). NaN where
     * no event qualifies.
     */
    public record BodyError(String name, int events, double impulsePercent, double velocityPercent,
                            double directionDeg) {
    }

    /** A parameter by name ({@code e}, {@code S_h}, {@code S_w}, {@code mu_s}, {@code mu_d}, {@code alpha a-b}). */
    public Fitted parameter(String name) {
        for (Fitted f : fitted) {
            if (f.name().equals(name)) {
                return f;
            }
        }
        throw new IllegalArgumentException("no parameter " + name);
    }
}
