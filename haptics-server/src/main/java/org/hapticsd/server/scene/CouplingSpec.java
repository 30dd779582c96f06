package org.hapticsd.server.scene;

/**
 * {@code tool.coupling}: the virtual coupling of a tool rendered by {@code rendering: coupling}, the spring and
 * damper between the device position and the tool's dynamic proxy, and the proxy's mass (render.VirtualCoupling).
 */
public final class CouplingSpec extends Located {
    private double stiffnessNpm = 1000.0;
    private double dampingNspm = 0.3;
    private double massKg = 0.002;

    public void setStiffnessNpm(double value) {
        this.stiffnessNpm = Check.positive("stiffnessNpm", value);
    }

    public void setDampingNspm(double value) {
        this.dampingNspm = Check.nonNegative("dampingNspm", value);
    }

    public void setMassKg(double value) {
        this.massKg = Check.positive("massKg", value);
    }

    public double stiffnessNpm() {
        return stiffnessNpm;
    }

    public double dampingNspm() {
        return dampingNspm;
    }

    public double massKg() {
        return massKg;
    }
}
