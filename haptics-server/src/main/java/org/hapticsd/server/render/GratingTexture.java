package org.hapticsd.server.render;

import org.joml.Quaterniond;
import org.joml.Vector3d;
import org.joml.Vector3dc;

/**
 * Grating textures: a body's surface felt as ridges of height {@code h(u) = A·sin(2π·u/λ)}, u the distance along the
 * grating's direction (fixed in the body), rendered by the lateral-force gradient (Minsky, "Computational haptics:
 * the Sandpaper system for synthesizing texture for a force-feedback display", MIT 1995): while the tool presses the
 * body with a normal force {@code f_n}, the hand feels {@code −f_n·h'(u)} along the grating's direction in the
 * surface, {@code h'(u) = A·(2π/λ)·cos(2π·u/λ)}, as if the press slid off each ridge's slope. The sinusoidal grating
 * is the stimulus of texture psychophysics (period and amplitude set apart); pressing harder makes it stronger, as on
 * a real one.
 *
 * <p>Measured at the hand, with the normal force of the tool's contacts with the body (the tool's own, the proxy's
 * resting contact, the coupled proxy's: {@link ToolTouches}). Added before the passivity controller: for a steady
 * press it is the gradient of {@code f_n·h}, a potential, so conservative; sampled, a spring of up to
 * {@code f_n·A·(2π/λ)²}, which the server's check judges at the device's largest force. No force where the grating's
 * direction is along the surface's normal.
 *
 * <p>Loop thread; allocates nothing after construction.
 */
public final class GratingTexture implements HapticEffect {
    /** Per body of the world: m, 0 for a body without a texture. */
    private final double[] periodM;
    private final double[] amplitudeM;
    /** Per body of the world: the grating's direction in the body's frame, unit; null without a texture. */
    private final Vector3d[] direction;
    private final int[] bodies;
    private final Quaterniond orientation = new Quaterniond();
    private final Vector3d bodyM = new Vector3d();
    private final Vector3d along = new Vector3d();
    private final Vector3d offsetM = new Vector3d();

    /**
     * @param bodyCount  the world's bodies
     * @param bodies     the textured bodies' indices in the world
     * @param periodM    per textured body, m, finite and {@code > 0}
     * @param amplitudeM per textured body, m, finite and {@code > 0}
     * @param directions per textured body, in its frame; finite, not zero (normalised here)
     * @throws IllegalArgumentException for arrays of different lengths or a value out of range
     */
    public GratingTexture(int bodyCount, int[] bodies, double[] periodM, double[] amplitudeM, Vector3dc[] directions) {
        if (bodies.length != periodM.length || bodies.length != amplitudeM.length
                || bodies.length != directions.length) {
            throw new IllegalArgumentException("one period, amplitude and direction per textured body");
        }
        this.bodies = bodies.clone();
        this.periodM = new double[bodyCount];
        this.amplitudeM = new double[bodyCount];
        this.direction = new Vector3d[bodyCount];
        for (int i = 0; i < bodies.length; i++) {
            if (!(periodM[i] > 0.0 && Double.isFinite(periodM[i]) && amplitudeM[i] > 0.0
                    && Double.isFinite(amplitudeM[i]) && directions[i].isFinite() && directions[i].length() > 0.0)) {
                throw new IllegalArgumentException("a texture needs a finite period and amplitude > 0 and a finite, "
                    + "non-zero direction, got " + periodM[i] + " m, " + amplitudeM[i] + " m, " + directions[i]);
            }
            this.periodM[bodies[i]] = periodM[i];
            this.amplitudeM[bodies[i]] = amplitudeM[i];
            this.direction[bodies[i]] = new Vector3d(directions[i]).normalize();
        }
    }

    public int count() {
        return bodies.length;
    }

    public int body(int i) {
        return bodies[i];
    }

    /** The largest stiffness the {@code i}-th texture renders per newton of press, {@code A·(2π/λ)²}, 1/m. */
    public double stiffnessPerNewton(int i) {
        double k = 2.0 * Math.PI / periodM[bodies[i]];
        return amplitudeM[bodies[i]] * k * k;
    }

    /** The grating's period on body {@code body} (an index in the world), m; 0 without a texture. */
    public double periodM(int body) {
        return periodM[body];
    }

    /** The grating's amplitude on body {@code body}, m; 0 without a texture. */
    public double amplitudeM(int body) {
        return amplitudeM[body];
    }

    /**
     * Changes body {@code body}'s grating (a stream client's SET_PARAMETER, whose caller keeps it within what the
     * scene was loaded with). Loop thread.
     *
     * @throws IllegalArgumentException for a body without a texture, or a value that is not finite and {@code > 0}
     */
    public void set(int body, double periodM, double amplitudeM) {
        if (direction[body] == null || !(periodM > 0.0 && Double.isFinite(periodM) && amplitudeM > 0.0
                && Double.isFinite(amplitudeM))) {
            throw new IllegalArgumentException("body " + body + ": a texture needs a finite period and amplitude > 0");
        }
        this.periodM[body] = periodM;
        this.amplitudeM[body] = amplitudeM;
    }

    /** The lateral force of every textured body the tool presses now. */
    @Override
    public Vector3d addTo(RenderContext ctx, Vector3d forceN) {
        ToolTouches touches = ctx.touches();
        for (int i = 0; i < touches.count(); i++) {
            int body = touches.body(i);
            double fn = touches.normalForceN(i);
            if (direction[body] == null || !(fn > 0.0)) {
                continue;
            }
            // The grating's direction in the scene, and how far along it the hand is from the body's origin.
            ctx.world().bodyOrientation(body, orientation).transform(direction[body], along);
            double u = along.dot(ctx.handM().sub(ctx.world().bodyPosition(body, bodyM), offsetM));
            Vector3dc n = touches.normal(i);
            along.fma(-along.dot(n), n);
            double length = along.length();
            if (length < 1e-9) {
                continue;
            }
            double k = 2.0 * Math.PI / periodM[body];
            double slope = amplitudeM[body] * k * Math.cos(k * u);
            forceN.fma(-fn * slope / length, along);
        }
        return forceN;
    }
}
