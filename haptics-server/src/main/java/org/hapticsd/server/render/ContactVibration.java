package org.hapticsd.server.render;

import org.joml.Vector3d;

/**
 * A material's vibration, felt while the tool touches it (CHAI3D's {@code cEffectVibration}, whose material gives a
 * frequency and an amplitude): {@code A·sin(2π·f·t)} along the contact normal, pushing the tool out of the body on
 * the positive half-wave, with {@code t} the loop's simulated time. A buzzing phone, a running motor, a rough
 * texture's hum. Each body that vibrates counts once a tick however many points the tool touches it at; several
 * such bodies add up.
 *
 * <p>It is an active force by design: the loop adds it after the passivity controller, which does not count it as the
 * scene's, and it goes through the safety layer like every force (a body touched while the start-up gate waits keeps
 * the gate shut, as any contact does).
 *
 * <p>Loop thread; allocates nothing after construction.
 */
public final class ContactVibration implements HapticEffect {
    private final double[] frequencyHz;
    private final double[] amplitudeN;

    /**
     * @param frequencyHz per body of the world, Hz (ignored where the amplitude is 0)
     * @param amplitudeN  per body of the world, N; 0 for a body that does not vibrate
     * @throws IllegalArgumentException for arrays of different lengths, or a value that is not finite and
     *                                  {@code >= 0}
     */
    public ContactVibration(double[] frequencyHz, double[] amplitudeN) {
        if (frequencyHz.length != amplitudeN.length) {
            throw new IllegalArgumentException("one frequency and one amplitude per body");
        }
        for (int b = 0; b < amplitudeN.length; b++) {
            if (!(frequencyHz[b] >= 0.0 && Double.isFinite(frequencyHz[b]) && amplitudeN[b] >= 0.0
                    && Double.isFinite(amplitudeN[b]))) {
                throw new IllegalArgumentException("a vibration needs a finite frequency and amplitude >= 0, got "
                    + frequencyHz[b] + " Hz and " + amplitudeN[b] + " N");
            }
        }
        this.frequencyHz = frequencyHz.clone();
        this.amplitudeN = amplitudeN.clone();
    }

    /** Body {@code body}'s frequency, Hz. */
    public double frequencyHz(int body) {
        return frequencyHz[body];
    }

    /** Body {@code body}'s amplitude, N; 0 for a body that does not vibrate. */
    public double amplitudeN(int body) {
        return amplitudeN[body];
    }

    /**
     * Changes body {@code body}'s vibration (a stream client's SET_PARAMETER, whose caller keeps the amplitude within
     * what the scene was loaded with and the frequency within half the loop's rate). Loop thread.
     *
     * @throws IllegalArgumentException for a value that is not finite and {@code >= 0}
     */
    public void set(int body, double frequencyHz, double amplitudeN) {
        if (!(frequencyHz >= 0.0 && Double.isFinite(frequencyHz) && amplitudeN >= 0.0
                && Double.isFinite(amplitudeN))) {
            throw new IllegalArgumentException("a vibration needs a finite frequency and amplitude >= 0, got "
                + frequencyHz + " Hz and " + amplitudeN + " N");
        }
        this.frequencyHz[body] = frequencyHz;
        this.amplitudeN[body] = amplitudeN;
    }

    /** The vibration of every body the tool touches now ({@link ToolTouches}), at the loop's simulated time. */
    @Override
    public Vector3d addTo(RenderContext ctx, Vector3d forceN) {
        ToolTouches touches = ctx.touches();
        for (int i = 0; i < touches.count(); i++) {
            int body = touches.body(i);
            double a = amplitudeN[body];
            if (a != 0.0) {
                forceN.fma(a * Math.sin(2.0 * Math.PI * frequencyHz[body] * ctx.timeS()), touches.normal(i));
            }
        }
        return forceN;
    }

    /** Active: the passivity filter would damp it away. */
    @Override
    public boolean active() {
        return true;
    }
}
