package org.hapticsd.server.scene;

/**
 * {@code grab} of a deformable or a dynamic body: the stylus button that grabs it (0 = the first), how near the tool's
 * centre a node (a rigid body's surface) must be when the button goes down, and the grasp's spring and damper
 * (render.ToolGrasps).
 */
public final class GrabSpec extends Located {
    private int button;
    private double reachM = 0.02;
    private double stiffnessNpm = 200.0;
    private double dampingNspm = 0.5;

    public void setButton(int value) {
        if (value < 0 || value > 15) {
            throw new IllegalArgumentException("button must be 0..15, got " + value);
        }
        this.button = value;
    }

    public void setReachM(double value) {
        this.reachM = Check.positive("reachM", value);
    }

    public void setStiffnessNpm(double value) {
        this.stiffnessNpm = Check.positive("stiffnessNpm", value);
    }

    public void setDampingNspm(double value) {
        this.dampingNspm = Check.nonNegative("dampingNspm", value);
    }

    public int button() {
        return button;
    }

    public double reachM() {
        return reachM;
    }

    public double stiffnessNpm() {
        return stiffnessNpm;
    }

    public double dampingNspm() {
        return dampingNspm;
    }
}
