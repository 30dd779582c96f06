package org.hapticsd.server.render;

import org.hapticsd.physics.SphereShape;
import org.joml.Vector3d;

/**
 * Viscous bodies (CHAI3D's {@code cEffectViscosity}, whose material gives a viscosity): while the tool's sphere,
 * centred at the hand, overlaps the body, the hand feels {@code F = −b·v}, v the hand's velocity. A body the tool does
 * not collide with ({@code contactModes: [{pair: [tool, body], mode: none}]}) is then a fluid the tool moves through:
 * honey, water, a region of a task the hand should cross slowly. A solid body's viscosity is felt while the hand is
 * pressed into it, as a damping of the press.
 *
 * <p>Measured at the hand, like the force field, and a damper: passive in continuous time; sampled, {@code b} must be
 * below the device's damping ({@code K·T/2 + B < b} with {@code K = 0}), which the server's check judges. Several
 * overlapped viscous bodies add up.
 *
 * <p>Loop thread; allocates nothing after construction.
 */
public final class BodyViscosity implements HapticEffect {
    private final int[] bodies;
    private final double[] dampingNspm;
    private final SphereShape tool;

    /**
     * @param bodies      the viscous bodies' indices in the world
     * @param dampingNspm per body, N·s/m, finite and {@code > 0}
     * @param toolRadiusM the tool's sphere
     * @throws IllegalArgumentException for arrays of different lengths or a value out of range
     */
    public BodyViscosity(int[] bodies, double[] dampingNspm, double toolRadiusM) {
        if (bodies.length != dampingNspm.length) {
            throw new IllegalArgumentException("one viscosity per viscous body");
        }
        for (double b : dampingNspm) {
            if (!(b > 0.0 && Double.isFinite(b))) {
                throw new IllegalArgumentException("a viscosity must be finite and > 0, got " + b + " N·s/m");
            }
        }
        this.bodies = bodies.clone();
        this.dampingNspm = dampingNspm.clone();
        this.tool = new SphereShape(toolRadiusM);
    }

    public int count() {
        return bodies.length;
    }

    public int body(int i) {
        return bodies[i];
    }

    public double dampingNspm(int i) {
        return dampingNspm[i];
    }

    /**
     * Changes the {@code i}-th viscous body's damping (a stream client's SET_PARAMETER, whose caller keeps it within
     * what the scene was loaded with; 0 switches it off). Loop thread.
     *
     * @throws IllegalArgumentException for a value that is not finite and {@code >= 0}
     */
    public void setDampingNspm(int i, double dampingNspm) {
        if (!(dampingNspm >= 0.0 && Double.isFinite(dampingNspm))) {
            throw new IllegalArgumentException("a viscosity must be finite and >= 0, got " + dampingNspm + " N·s/m");
        }
        this.dampingNspm[i] = dampingNspm;
    }

    /** {@code −b·v} of every viscous body the tool's sphere at the hand overlaps. */
    @Override
    public Vector3d addTo(RenderContext ctx, Vector3d forceN) {
        for (int i = 0; i < bodies.length; i++) {
            if (ctx.world().sphereDepthM(bodies[i], tool, ctx.handM()) > 0.0) {
                forceN.fma(-dampingNspm[i], ctx.handMps());
            }
        }
        return forceN;
    }
}
