package org.hapticsd.server.scene;

/** Scene-wide penalty contact: {@code f = max(0, k·d + b·ḋ)} along the contact normal. */
public final class ContactSpec {
    private double stiffnessNpm = 1000.0;
    private double dampingNspm = 0.2;

    public void setStiffnessNpm(double value) {
        this.stiffnessNpm = Check.positive("stiffnessNpm", value);
    }

    public void setDampingNspm(double value) {
        this.dampingNspm = Check.nonNegative("dampingNspm", value);
    }

    public double stiffnessNpm() {
        return stiffnessNpm;
    }

    public double dampingNspm() {
        return dampingNspm;
    }
}
