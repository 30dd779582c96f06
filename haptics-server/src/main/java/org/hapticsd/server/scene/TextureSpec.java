package org.hapticsd.server.scene;

/**
 * {@code material.texture}: a sinusoidal grating of {@code periodM} and {@code amplitudeM} running along
 * {@code direction} in the body's frame, felt by the lateral-force gradient while the tool presses the body
 * (render.GratingTexture).
 */
public final class TextureSpec extends Located {
    private double periodM = Double.NaN;
    private double amplitudeM = Double.NaN;
    private double[] direction;

    public void setPeriodM(double value) {
        this.periodM = Check.positive("periodM", value);
    }

    public void setAmplitudeM(double value) {
        this.amplitudeM = Check.positive("amplitudeM", value);
    }

    public void setDirection(double[] value) {
        double[] v = Check.vector3("direction", value);
        if (v[0] == 0.0 && v[1] == 0.0 && v[2] == 0.0) {
            throw new IllegalArgumentException("direction must not be zero");
        }
        this.direction = v;
    }

    /** m; NaN when the file leaves it out. */
    public double periodM() {
        return periodM;
    }

    /** m; NaN when the file leaves it out. */
    public double amplitudeM() {
        return amplitudeM;
    }

    /** In the body's frame; null when the file leaves it out. */
    public double[] direction() {
        return direction;
    }
}
