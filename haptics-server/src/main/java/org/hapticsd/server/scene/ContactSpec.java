package org.hapticsd.server.scene;

import org.hapticsd.physics.ContactBudget;
import org.hapticsd.physics.ContactMode;
import org.hapticsd.physics.ContactSettings;
import org.hapticsd.physics.PenaltyContactSettings;
import org.hapticsd.physics.SleepSettings;

/**
 * Scene-wide contact settings: the penalty spring (haptic tool contacts and PENALTY pairs,
 * {@code f = max(0, k·d + b·ḋ)}), Springhead's contact model parameters (seed 002: contact tolerance, impact
 * threshold, friction threshold, error-correction rate), the LCP solver's iterations, early-stop tolerance and work budget, the
 * contact budget, sleeping (off unless {@code sleepAfterS} is set), the impulse waveform of IMPULSE collisions
 * ({@code impulse}) and the default mode of every pair. Defaults are {@link ContactSettings#defaults()}'s, except the penalty spring, whose defaults suit
 * the default simulated stylus.
 */
public final class ContactSpec {
    private static final ContactSettings ENGINE = ContactSettings.defaults();

    private double stiffnessNpm = 1000.0;
    private double dampingNspm = 0.2;
    private double toleranceM = ENGINE.contactToleranceM();
    private double impactThresholdMps = ENGINE.impactThresholdMps();
    private double frictionThresholdMps = ENGINE.frictionThresholdMps();
    private double errorCorrectionRate = ENGINE.errorCorrectionRate();
    private int lcpIterations = ENGINE.lcpIterations();
    private int positionIterations = ENGINE.positionIterations();
    private double lcpTolerance = ENGINE.lcpTolerance();
    private double lcpSweepBudget = ENGINE.lcpSweepBudget();
    /** Null: {@link ContactBudget#forScene}'s per-body default. */
    private Integer maxPairs;
    private Integer maxPoints;
    private ContactMode mode = ContactMode.LCP;
    private double sleepAfterS = SleepSettings.off().afterS();
    private double sleepLinearMps = SleepSettings.DEFAULT_LINEAR_MPS;
    private double sleepAngularRadps = SleepSettings.DEFAULT_ANGULAR_RADPS;
    private ImpulseSpec impulse = new ImpulseSpec();

    public void setStiffnessNpm(double value) {
        this.stiffnessNpm = Check.positive("stiffnessNpm", value);
    }

    public void setDampingNspm(double value) {
        this.dampingNspm = Check.nonNegative("dampingNspm", value);
    }

    public void setToleranceM(double value) {
        this.toleranceM = Check.nonNegative("toleranceM", value);
    }

    public void setImpactThresholdMps(double value) {
        this.impactThresholdMps = Check.nonNegative("impactThresholdMps", value);
    }

    public void setFrictionThresholdMps(double value) {
        this.frictionThresholdMps = Check.nonNegative("frictionThresholdMps", value);
    }

    public void setErrorCorrectionRate(double value) {
        Check.nonNegative("errorCorrectionRate", value);
        if (value > 1.0) {
            throw new IllegalArgumentException("errorCorrectionRate must be in [0, 1], got " + value);
        }
        this.errorCorrectionRate = value;
    }

    public void setLcpIterations(int value) {
        this.lcpIterations = Check.atLeast("lcpIterations", 1, value);
    }

    public void setPositionIterations(int value) {
        this.positionIterations = Check.atLeast("positionIterations", 0, value);
    }

    public void setLcpTolerance(double value) {
        Check.nonNegative("lcpTolerance", value);
        if (value >= 1.0) {
            throw new IllegalArgumentException("lcpTolerance must be in [0, 1), got " + value);
        }
        this.lcpTolerance = value;
    }

    public void setLcpSweepBudget(double value) {
        Check.nonNegative("lcpSweepBudget", value);
        if (value < 1.0) {
            throw new IllegalArgumentException("lcpSweepBudget must be >= 1 (one full sweep), got " + value);
        }
        this.lcpSweepBudget = value;
    }

    public void setMaxPairs(int value) {
        this.maxPairs = Check.atLeast("maxPairs", 1, value);
    }

    public void setMaxPoints(int value) {
        this.maxPoints = Check.atLeast("maxPoints", 1, value);
    }

    public void setSleepAfterS(double value) {
        this.sleepAfterS = Check.nonNegative("sleepAfterS", value);
    }

    public void setSleepLinearMps(double value) {
        this.sleepLinearMps = Check.nonNegative("sleepLinearMps", value);
    }

    public void setSleepAngularRadps(double value) {
        this.sleepAngularRadps = Check.nonNegative("sleepAngularRadps", value);
    }

    /** When resting islands sleep: off unless {@code sleepAfterS} {@code > 0}. */
    public SleepSettings sleepSettings() {
        return new SleepSettings(sleepAfterS, sleepLinearMps, sleepAngularRadps);
    }

    public void setImpulse(ImpulseSpec value) {
        this.impulse = value == null ? new ImpulseSpec() : value;
    }

    /** The waveform of IMPULSE-mode collisions ({@code contact.impulse}). */
    public ImpulseSpec impulse() {
        return impulse;
    }

    public void setMode(String value) {
        this.mode = ContactModeSpec.parseMode("mode", value);
    }

    public double stiffnessNpm() {
        return stiffnessNpm;
    }

    public double dampingNspm() {
        return dampingNspm;
    }

    public ContactMode mode() {
        return mode;
    }

    /**
     * The contact budget: the scene's {@code maxPairs} and {@code maxPoints} where given, the rest from
     * {@link ContactBudget#forScene} of its bodies.
     */
    public ContactBudget budget(int bodies, int staticBodies, int tools) {
        ContactBudget perBody = ContactBudget.forScene(bodies, staticBodies, tools);
        return new ContactBudget(maxPairs != null ? maxPairs : perBody.maxPairs(),
            maxPoints != null ? maxPoints : perBody.maxPoints());
    }

    /** Whether the scene sets {@code maxPairs} itself. */
    public boolean hasMaxPairs() {
        return maxPairs != null;
    }

    /** Whether the scene sets {@code maxPoints} itself. */
    public boolean hasMaxPoints() {
        return maxPoints != null;
    }

    public ContactSettings toSettings() {
        return ContactSettings.defaults()
            .withContactToleranceM(toleranceM)
            .withImpactThresholdMps(impactThresholdMps)
            .withFrictionThresholdMps(frictionThresholdMps)
            .withErrorCorrectionRate(errorCorrectionRate)
            .withLcpIterations(lcpIterations)
            .withPositionIterations(positionIterations)
            .withLcpTolerance(lcpTolerance)
            .withLcpSweepBudget(lcpSweepBudget)
            .withPenalty(new PenaltyContactSettings(stiffnessNpm, dampingNspm));
    }
}
