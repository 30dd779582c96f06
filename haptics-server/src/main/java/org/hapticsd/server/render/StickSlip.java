package org.hapticsd.server.render;

import org.joml.Vector3d;
import org.joml.Vector3dc;

/**
 * Stick-slip surfaces (CHAI3D's {@code cEffectStickSlip}, whose material gives a stiffness and a largest force): while
 * the tool touches the body, the hand is held by a spring to the point where it stuck, across the surface:
 * {@code F = −k·(x − a)} with its part along the contact's normal taken out. When that force would exceed its
 * largest, the hand slips: the point moves to where the hand is and the force drops to zero. Dragged along the
 * surface at a speed v the hand feels a sawtooth of height {@code F_max} and period {@code F_max/(k·v)}: chalk on a
 * board, a dry hinge, a rubber eraser. CHAI3D's spring acts in every direction; here it acts across the surface only,
 * so the press is the contact's alone.
 *
 * <p>Measured at the hand, like the guide and the magnet; the point sticks where the hand is when the tool starts to
 * touch the body, and is forgotten when it stops. Passive: a spring whose stored energy is thrown away at each slip;
 * sampled, it is a spring of stiffness k, which the passivity and rating checks judge.
 *
 * <p>Loop thread; allocates nothing after construction.
 */
public final class StickSlip implements HapticEffect {
    /** The bodies with stick-slip. */
    private final int[] bodies;
    /** Per body of the world: N/m, 0 for a body without stick-slip. */
    private final double[] stiffnessNpm;
    private final double[] maxForceN;
    private final Vector3d[] stuckAtM;
    private final boolean[] stuck;
    /** The tick each body was last touched in. */
    private final long[] touchedTick;
    private long tick;
    private final Vector3d stretchM = new Vector3d();

    /**
     * @param bodyCount    the world's bodies
     * @param bodies       the stick-slip bodies' indices in the world
     * @param stiffnessNpm per stick-slip body, N/m, finite and {@code > 0}
     * @param maxForceN    per stick-slip body, N, finite and {@code > 0}
     * @throws IllegalArgumentException for arrays of different lengths or a value out of range
     */
    public StickSlip(int bodyCount, int[] bodies, double[] stiffnessNpm, double[] maxForceN) {
        if (bodies.length != stiffnessNpm.length || bodies.length != maxForceN.length) {
            throw new IllegalArgumentException("one stiffness and one force per stick-slip body");
        }
        this.bodies = bodies.clone();
        this.stiffnessNpm = new double[bodyCount];
        this.maxForceN = new double[bodyCount];
        this.stuckAtM = new Vector3d[bodyCount];
        this.stuck = new boolean[bodyCount];
        this.touchedTick = new long[bodyCount];
        for (int i = 0; i < bodies.length; i++) {
            if (!(stiffnessNpm[i] > 0.0 && Double.isFinite(stiffnessNpm[i]) && maxForceN[i] > 0.0
                    && Double.isFinite(maxForceN[i]))) {
                throw new IllegalArgumentException("a stick-slip needs a finite stiffness and force > 0, got "
                    + stiffnessNpm[i] + " N/m and " + maxForceN[i] + " N");
            }
            this.stiffnessNpm[bodies[i]] = stiffnessNpm[i];
            this.maxForceN[bodies[i]] = maxForceN[i];
            this.stuckAtM[bodies[i]] = new Vector3d();
        }
    }

    public int count() {
        return bodies.length;
    }

    public int body(int i) {
        return bodies[i];
    }

    /** The spring of the {@code i}-th stick-slip body, N/m. */
    public double stiffnessNpm(int i) {
        return stiffnessNpm[bodies[i]];
    }

    /** The largest force of the {@code i}-th stick-slip body, N. */
    public double maxForceN(int i) {
        return maxForceN[bodies[i]];
    }

    /**
     * Changes body {@code body}'s stick-slip (a stream client's SET_PARAMETER, whose caller keeps it within what the
     * scene was loaded with). Loop thread.
     *
     * @param body an index in the world, of a stick-slip body
     * @throws IllegalArgumentException for a body without stick-slip, or a value that is not finite and {@code > 0}
     */
    public void set(int body, double stiffnessNpm, double maxForceN) {
        if (stuckAtM[body] == null || !(stiffnessNpm > 0.0 && Double.isFinite(stiffnessNpm) && maxForceN > 0.0
                && Double.isFinite(maxForceN))) {
            throw new IllegalArgumentException("body " + body + ": a stick-slip needs a finite stiffness and force "
                + "> 0");
        }
        this.stiffnessNpm[body] = stiffnessNpm;
        this.maxForceN[body] = maxForceN;
    }

    /** Adds the springs of the stick-slip bodies the tool touches now ({@link ToolTouches}), each across its normal. */
    @Override
    public Vector3d addTo(RenderContext ctx, Vector3d forceN) {
        tick++;
        ToolTouches touches = ctx.touches();
        Vector3dc handM = ctx.handM();
        for (int i = 0; i < touches.count(); i++) {
            int body = touches.body(i);
            double k = stiffnessNpm[body];
            if (k == 0.0) {
                continue;
            }
            touchedTick[body] = tick;
            if (!stuck[body]) {
                stuckAtM[body].set(handM);
                stuck[body] = true;
            }
            Vector3dc n = touches.normal(i);
            handM.sub(stuckAtM[body], stretchM);
            stretchM.fma(-stretchM.dot(n), n);
            if (k * stretchM.length() > maxForceN[body]) {
                // Slip: the spring lets go, and the hand sticks again where it is.
                stuckAtM[body].set(handM);
                continue;
            }
            forceN.fma(-k, stretchM);
        }
        for (int body : bodies) {
            if (touchedTick[body] != tick) {
                stuck[body] = false;
            }
        }
        return forceN;
    }
}
