package org.hapticsd.server.scene;

/** The simulated stylus used with {@code --device sim}: its mechanics, limits and virtual hand. */
public final class DeviceSpec {
    private double massKg = 0.1;
    /** NaN: {@link #massKg}. */
    private double effectiveMassKg = Double.NaN;
    private double dampingNspm = 1.0;
    private double maxForceN = 10.0;
    private double maxContinuousForceN = 4.0;
    private double maxStiffnessNpm = 3000.0;
    private double workspaceHalfSizeM = 0.1;
    private double[] initialPositionM = {0.0, 0.0, 0.0};
    private HandSpec hand = new HandSpec();

    public void setMassKg(double value) {
        this.massKg = Check.positive("massKg", value);
    }

    public void setEffectiveMassKg(double value) {
        this.effectiveMassKg = Check.positive("effectiveMassKg", value);
    }

    /** The device's mass as an impact sees it (impact transients): {@code effectiveMassKg}, else {@code massKg}. */
    public double effectiveMassKg() {
        return Double.isNaN(effectiveMassKg) ? massKg : effectiveMassKg;
    }

    public void setDampingNspm(double value) {
        this.dampingNspm = Check.nonNegative("dampingNspm", value);
    }

    public void setMaxForceN(double value) {
        Check.positive("maxForceN", value);
        if (value < MIN_FORCE_N) {
            throw new IllegalArgumentException("maxForceN must be at least 0.001 N, got " + value);
        }
        this.maxForceN = value;
    }

    /** The smallest force rating accepted: a millinewton. */
    static final double MIN_FORCE_N = 1e-3;

    public void setMaxContinuousForceN(double value) {
        // At least a millinewton: a tester's 1e-200 squared to zero in the thermal limit ("motors NaN%").
        Check.positive("maxContinuousForceN", value);
        if (value < MIN_FORCE_N) {
            throw new IllegalArgumentException("maxContinuousForceN must be at least 0.001 N, got " + value);
        }
        this.maxContinuousForceN = value;
    }

    public void setMaxStiffnessNpm(double value) {
        this.maxStiffnessNpm = Check.positive("maxStiffnessNpm", value);
    }

    public void setWorkspaceHalfSizeM(double value) {
        this.workspaceHalfSizeM = Check.positive("workspaceHalfSizeM", value);
    }

    public void setInitialPosition(double[] value) {
        this.initialPositionM = Check.vector3("initialPosition", value);
    }

    public void setHand(HandSpec value) {
        this.hand = value == null ? new HandSpec() : value;
    }

    public double massKg() {
        return massKg;
    }

    public double dampingNspm() {
        return dampingNspm;
    }

    public double maxForceN() {
        return maxForceN;
    }

    public double maxContinuousForceN() {
        return maxContinuousForceN;
    }

    public double maxStiffnessNpm() {
        return maxStiffnessNpm;
    }

    public double workspaceHalfSizeM() {
        return workspaceHalfSizeM;
    }

    public double[] initialPositionM() {
        return initialPositionM;
    }

    public HandSpec hand() {
        return hand;
    }
}
