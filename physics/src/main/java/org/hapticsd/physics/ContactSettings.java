package org.hapticsd.physics;

import java.util.Objects;

/**
 * Scene-wide contact parameters: Springhead's scene settings (users' manual §7.7, seed 002) plus the solver's
 * iteration counts and the penalty spring. Immutable; {@code with…} returns a modified copy, so a world can be
 * handed new settings between steps without a half-updated state.
 *
 * <h2>The Springhead contact model these parameters drive</h2>
 * Per contact point, with {@code v^x} the normal relative velocity at the start of the step (negative while the
 * bodies approach):
 * <ul>
 *   <li>{@code v^x < −V_th} ({@link #impactThresholdMps()}): <b>collision model</b>, the normal velocity after
 *       the step is {@code −e·v^x} (eq. 7.1);</li>
 *   <li>otherwise: <b>static contact model</b>, the depth shrinks per step as
 *       {@code d' = d − γ·max(d − d_tol, 0)} (eq. 7.2) with {@code γ} = {@link #errorCorrectionRate()} and
 *       {@code d_tol} = {@link #contactToleranceM()};</li>
 *   <li>friction is bounded by {@code μ0·f_n} while the sliding speed is at most {@code V_f}
 *       ({@link #frictionThresholdMps()}), by {@code μ·f_n} above it.</li>
 * </ul>
 *
 * <h2>Defaults, for the 1 kHz haptic loop and centimetre-to-decimetre objects</h2>
 * <ul>
 *   <li>{@code d_tol = 0.2 mm}: a resting body settles this deep, so the contact persists (a depth of 0 is no
 *       contact). Gravity moves a body {@code g·Δt² ≈ 0.01 mm} per step, so 0.2 mm is twenty steps of margin
 *       while staying well below what a hand notices on a tool.</li>
 *   <li>{@code V_th = 0.1 m/s}: a resting contact gains {@code g·Δt ≈ 0.01 m/s} per step, ten times less, so
 *       resting never counts as an impact (Springhead's default threshold is of the same order).</li>
 *   <li>{@code V_f = 0.01 m/s}.</li>
 *   <li>{@code γ = 0.2}: Box2D's long-standing Baumgarte factor; the penetration beyond {@code d_tol} decays by a
 *       factor 0.8 per step, 90 % in ten steps (10 ms).</li>
 *   <li>20 velocity iterations, 10 position iterations: with warm starting and alternating sweeps enough for a
 *       stack of ten boxes (see the stacking tests). A sweep costs about 35–40 ns per point on the 2-core build
 *       machine, so 20 sweeps over the 52 points of that stack take about 40 µs of a 1 ms tick.</li>
 *   <li>penalty {@code k = 1000 N/m}, {@code b = 1 N·s/m}: passive on a device with more than 1.5 N·s/m of
 *       damping at 1 kHz ({@link PenaltyContactSettings#isPassiveFor}).</li>
 * </ul>
 */
public final class ContactSettings {

    /** Default of {@link #lcpTolerance()}; see the class comment. */
    public static final double DEFAULT_LCP_TOLERANCE = 1e-5;

    /** Default of {@link #lcpSweepBudget()}; see there. */
    public static final double DEFAULT_LCP_SWEEP_BUDGET = 3.0;

    private static final ContactSettings DEFAULTS =
            new ContactSettings(2e-4, 0.1, 0.01, 0.2, 20, 10, DEFAULT_LCP_TOLERANCE, DEFAULT_LCP_SWEEP_BUDGET,
                    new PenaltyContactSettings(1000.0, 1.0));

    private final double contactToleranceM;
    private final double impactThresholdMps;
    private final double frictionThresholdMps;
    private final double errorCorrectionRate;
    private final int lcpIterations;
    private final int positionIterations;
    private final double lcpTolerance;
    private final double lcpSweepBudget;
    private final PenaltyContactSettings penalty;

    private ContactSettings(double contactToleranceM, double impactThresholdMps, double frictionThresholdMps,
                            double errorCorrectionRate, int lcpIterations, int positionIterations,
                            double lcpTolerance, double lcpSweepBudget, PenaltyContactSettings penalty) {
        requireNonNegative("contactToleranceM", contactToleranceM);
        requireNonNegative("impactThresholdMps", impactThresholdMps);
        requireNonNegative("frictionThresholdMps", frictionThresholdMps);
        if (!(errorCorrectionRate >= 0.0 && errorCorrectionRate <= 1.0)) {
            throw new IllegalArgumentException("errorCorrectionRate must be in [0, 1], was " + errorCorrectionRate);
        }
        if (lcpIterations < 1) {
            throw new IllegalArgumentException("lcpIterations must be >= 1, was " + lcpIterations);
        }
        if (positionIterations < 0) {
            throw new IllegalArgumentException("positionIterations must be >= 0, was " + positionIterations);
        }
        if (!(lcpTolerance >= 0.0 && lcpTolerance < 1.0)) {
            throw new IllegalArgumentException("lcpTolerance must be in [0, 1), was " + lcpTolerance);
        }
        if (!(lcpSweepBudget >= 1.0) || !Double.isFinite(lcpSweepBudget)) {
            throw new IllegalArgumentException("lcpSweepBudget must be finite and >= 1, was " + lcpSweepBudget);
        }
        this.contactToleranceM = contactToleranceM;
        this.impactThresholdMps = impactThresholdMps;
        this.frictionThresholdMps = frictionThresholdMps;
        this.errorCorrectionRate = errorCorrectionRate;
        this.lcpIterations = lcpIterations;
        this.positionIterations = positionIterations;
        this.lcpTolerance = lcpTolerance;
        this.lcpSweepBudget = lcpSweepBudget;
        this.penalty = Objects.requireNonNull(penalty, "penalty");
    }

    /** The defaults listed in the class comment. */
    public static ContactSettings defaults() {
        return DEFAULTS;
    }

    /** Contact tolerance {@code d_tol}, m: penetration the static contact model leaves uncorrected. */
    public double contactToleranceM() {
        return contactToleranceM;
    }

    /** Impact threshold {@code V_th}, m/s: approach speeds above it use the collision model. */
    public double impactThresholdMps() {
        return impactThresholdMps;
    }

    /** Friction threshold {@code V_f}, m/s: sliding speeds up to it are bounded by static friction. */
    public double frictionThresholdMps() {
        return frictionThresholdMps;
    }

    /** Error-correction rate {@code γ} in {@code [0, 1]}: fraction of the excess depth removed per step. */
    public double errorCorrectionRate() {
        return errorCorrectionRate;
    }

    /** Projected Gauss–Seidel sweeps over the velocity rows per step, {@code >= 1}. */
    public int lcpIterations() {
        return lcpIterations;
    }

    /** Gauss–Seidel sweeps over the position-correction rows per step, {@code >= 0} (0 disables correction). */
    public int positionIterations() {
        return positionIterations;
    }

    /**
     * When the Gauss–Seidel sweeps stop early, dimensionless, in {@code [0, 1)}. A velocity sweep whose largest
     * impulse change is at most this fraction of the largest normal impulse ends the velocity solve; a position
     * sweep that moves no contact point by more than this fraction of {@link #contactToleranceM()} (1e-5 × 0.2 mm
     * = 2 nm by default) ends the position correction. After the first velocity sweep, a point is visited again only
     * once its bodies have received more than this fraction in impulse changes since its last visit. The iteration
     * counts stay the limits; 0 runs every sweep over every point (plain projected Gauss–Seidel).
     * Measured on the 200-sphere pile, settled: one velocity sweep and one or two position sweeps instead of 20 and
     * 10, the same penetration (mean 0.069 mm).
     */
    public double lcpTolerance() {
        return lcpTolerance;
    }

    /**
     * The most work the velocity sweeps of one step may do, in full sweeps over the step's LCP points ({@code >= 1}):
     * the sweeps stop after {@code ⌈budget × points⌉} point visits even if {@link #lcpTolerance()} has not been met,
     * and the next step's warm start carries on from where they stopped (every real-time engine converges a hard
     * problem over several steps this way; Bullet runs 10 sweeps, ODE's QuickStep 20, Box2D v3 four substeps, none
     * of them to a tolerance). Because the sweeps after the first visit only the points whose bodies moved, more
     * sweeps than the budget may fit when a disturbance stays local. {@link #lcpIterations()} still caps the number
     * of sweeps.
     *
     * <p>Why a budget: a step's cost must be bounded for the tick it runs in. Without one, the steps in which the
     * tolerance is not met (a new contact in a pile, the slowly converging bending of a stack of boxes: Gauss–Seidel
     * passes load one contact per sweep) ran all 20 sweeps over every point and cost 2.5–4 times the median step
     * (measured on the 200- to 800-sphere piles and the ten-box stack, docs/performance.md). Default 3: a step then
     * costs at most its other stages plus three sweeps' worth of visits (pile-400: about 0.32 ms + 3 × 0.06 ms), while
     * the steps that converge, most of them, stop after one to three sweeps as before. Measured on the piles in JMH
     * (docs/performance.md, "Sixteenth session"): p99/p50 2.1–2.3 at 6 (pile-400, pile-800); at 4, 1.5–1.9 on the
     * machine of the third session; on the slower one of the sixteenth, 4 against 3 in paired runs: the p99, which
     * is the budget-stopped steps, 482–511 → 354–459 µs (pile-200) and 2,142 → 1,410 µs (pile-800), while p99/p50
     * (1.65–2.83 at 4, 1.47–2.10 at 3) moved within that machine's noise; the same penetration. In the real-time
     * loop a 400-sphere pile's steps were then cut at the solver's deadline on 245–1,312 ticks of 12,000 against
     * 1,104–4,055, and it skipped fewer deadlines in five rounds of six. What 3 costs: the larger piles take a few
     * seconds longer to settle (a 400-sphere pile's fastest sphere under 2 mm/s after 8 s instead of 3). The
     * budget never cuts a step below 512 point visits (about 20 µs), so a scene of a few bodies keeps all its
     * sweeps, and a ten-box stack (52 points) gets about ten.
     */
    public double lcpSweepBudget() {
        return lcpSweepBudget;
    }

    /** Spring and damper of {@link ContactMode#PENALTY} contacts, normal and tangential. */
    public PenaltyContactSettings penalty() {
        return penalty;
    }

    public ContactSettings withContactToleranceM(double value) {
        return new ContactSettings(value, impactThresholdMps, frictionThresholdMps, errorCorrectionRate,
                lcpIterations, positionIterations, lcpTolerance, lcpSweepBudget, penalty);
    }

    public ContactSettings withImpactThresholdMps(double value) {
        return new ContactSettings(contactToleranceM, value, frictionThresholdMps, errorCorrectionRate,
                lcpIterations, positionIterations, lcpTolerance, lcpSweepBudget, penalty);
    }

    public ContactSettings withFrictionThresholdMps(double value) {
        return new ContactSettings(contactToleranceM, impactThresholdMps, value, errorCorrectionRate,
                lcpIterations, positionIterations, lcpTolerance, lcpSweepBudget, penalty);
    }

    public ContactSettings withErrorCorrectionRate(double value) {
        return new ContactSettings(contactToleranceM, impactThresholdMps, frictionThresholdMps, value,
                lcpIterations, positionIterations, lcpTolerance, lcpSweepBudget, penalty);
    }

    public ContactSettings withLcpIterations(int value) {
        return new ContactSettings(contactToleranceM, impactThresholdMps, frictionThresholdMps, errorCorrectionRate,
                value, positionIterations, lcpTolerance, lcpSweepBudget, penalty);
    }

    public ContactSettings withPositionIterations(int value) {
        return new ContactSettings(contactToleranceM, impactThresholdMps, frictionThresholdMps, errorCorrectionRate,
                lcpIterations, value, lcpTolerance, lcpSweepBudget, penalty);
    }

    public ContactSettings withPenalty(PenaltyContactSettings value) {
        return new ContactSettings(contactToleranceM, impactThresholdMps, frictionThresholdMps, errorCorrectionRate,
                lcpIterations, positionIterations, lcpTolerance, lcpSweepBudget, value);
    }

    public ContactSettings withLcpTolerance(double value) {
        return new ContactSettings(contactToleranceM, impactThresholdMps, frictionThresholdMps, errorCorrectionRate,
                lcpIterations, positionIterations, value, lcpSweepBudget, penalty);
    }

    public ContactSettings withLcpSweepBudget(double value) {
        return new ContactSettings(contactToleranceM, impactThresholdMps, frictionThresholdMps, errorCorrectionRate,
                lcpIterations, positionIterations, lcpTolerance, value, penalty);
    }

    private static void requireNonNegative(String name, double value) {
        if (!(value >= 0.0) || !Double.isFinite(value)) {
            throw new IllegalArgumentException(name + " must be finite and >= 0, was " + value);
        }
    }

    @Override
    public String toString() {
        return "ContactSettings[contactToleranceM=" + contactToleranceM + ", impactThresholdMps=" + impactThresholdMps
                + ", frictionThresholdMps=" + frictionThresholdMps + ", errorCorrectionRate=" + errorCorrectionRate
                + ", lcpIterations=" + lcpIterations + ", positionIterations=" + positionIterations
                + ", lcpTolerance=" + lcpTolerance + ", lcpSweepBudget=" + lcpSweepBudget + ", penalty=" + penalty + "]";
    }
}
