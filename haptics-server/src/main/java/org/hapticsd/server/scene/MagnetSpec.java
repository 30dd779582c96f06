package org.hapticsd.server.scene;

/**
 * {@code material.magnet}: the body's surface pulls the tool in while it is within {@code distanceM}, up to
 * {@code maxForceN} halfway (render.SurfaceMagnet).
 */
public final class MagnetSpec extends Located {
    private double maxForceN = Double.NaN;
    private double distanceM = Double.NaN;

    public void setMaxForceN(double value) {
        this.maxForceN = Check.positive("maxForceN", value);
    }

    public void setDistanceM(double value) {
        this.distanceM = Check.positive("distanceM", value);
    }

    /** N; NaN when the file leaves it out. */
    public double maxForceN() {
        return maxForceN;
    }

    /** m; NaN when the file leaves it out. */
    public double distanceM() {
        return distanceM;
    }
}
