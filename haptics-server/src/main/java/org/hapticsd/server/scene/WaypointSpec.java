package org.hapticsd.server.scene;

/** One point of the virtual hand's path: where the hand's target is at time {@code t}. */
public final class WaypointSpec extends Located {
    private double tS = Double.NaN;
    private double[] positionM;
    private int buttons;

    public void setT(double t) {
        this.tS = Check.nonNegative("t", t);
    }

    public void setPosition(double[] position) {
        this.positionM = Check.vector3("position", position);
    }

    /** The stylus buttons the hand holds down from this point to the next: bit i = button i. Default 0. */
    public void setButtons(int value) {
        if (value < 0 || value > 0xFFFF) {
            throw new IllegalArgumentException("buttons must be a bit mask 0..65535, got " + value);
        }
        this.buttons = value;
    }

    public int buttons() {
        return buttons;
    }

    public double tS() {
        return tS;
    }

    public double[] positionM() {
        return positionM;
    }
}
