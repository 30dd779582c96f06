package org.hapticsd.server.scene;

/**
 * {@code material.vibration}: the sine a body's surface gives the tool while it touches it, {@code amplitudeN} at
 * {@code frequencyHz} along the contact normal (render.ContactVibration).
 */
public final class VibrationSpec extends Located {
    private double frequencyHz = Double.NaN;
    private double amplitudeN = Double.NaN;

    public void setFrequencyHz(double value) {
        this.frequencyHz = Check.positive("frequencyHz", value);
    }

    public void setAmplitudeN(double value) {
        this.amplitudeN = Check.nonNegative("amplitudeN", value);
    }

    /** Hz; NaN when the file leaves it out. */
    public double frequencyHz() {
        return frequencyHz;
    }

    /** N; NaN when the file leaves it out. */
    public double amplitudeN() {
        return amplitudeN;
    }
}
