package org.hapticsd.server.scene;

/** One point of the virtual hand's path: where the hand's target is at time {@code t}. */
public final class WaypointSpec extends Located {
    private double tS = Double.NaN;
    private double[] positionM;

    public void setT(double t) {
        this.tS = Check.nonNegative("t", t);
    }

    public void setPosition(double[] position) {
        this.positionM = Check.vector3("position", position);
    }

    public double tS() {
        return tS;
    }

    public double[] positionM() {
        return positionM;
    }
}
