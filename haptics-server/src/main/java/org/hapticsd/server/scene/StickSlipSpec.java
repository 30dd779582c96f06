package org.hapticsd.server.scene;

/**
 * {@code material.stickSlip}: while the tool touches the body, a spring of {@code stiffnessNpm} across the surface
 * holds the hand where it stuck, until its force would pass {@code maxForceN} (render.StickSlip).
 */
public final class StickSlipSpec extends Located {
    private double stiffnessNpm = Double.NaN;
    private double maxForceN = Double.NaN;

    public void setStiffnessNpm(double value) {
        this.stiffnessNpm = Check.positive("stiffnessNpm", value);
    }

    public void setMaxForceN(double value) {
        this.maxForceN = Check.positive("maxForceN", value);
    }

    /** N/m; NaN when the file leaves it out. */
    public double stiffnessNpm() {
        return stiffnessNpm;
    }

    /** N; NaN when the file leaves it out. */
    public double maxForceN() {
        return maxForceN;
    }
}
