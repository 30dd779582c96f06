package org.hapticsd.server.render;

import java.util.Arrays;
import org.hapticsd.physics.Contact;
import org.hapticsd.physics.PhysicsWorld;
import org.joml.Vector3d;
import org.joml.Vector3dc;

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
    /** The tick each body last vibrated in, so that a body touched at several points counts once. */
    private final long[] countedTick;
    private long tick;
    private final Vector3d normal = new Vector3d();

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
        this.countedTick = new long[amplitudeN.length];
        Arrays.fill(countedTick, -1L);
    }

    /**
     * Adds to {@code forceN} the vibration of every body the tool touches now, scene frame: through the world's
     * contacts of body {@code tool}, and the proxy's resting contact when the scene renders by proxy ({@code proxy}
     * non-null).
     *
     * @param timeS the loop's simulated time, s
     */
    public Vector3d addTo(PhysicsWorld world, int tool, ProxyRenderer proxy, double timeS, Vector3d forceN) {
        tick++;
        for (int i = 0; i < world.contactCount(); i++) {
            Contact c = world.contact(i);
            int a = c.bodyA();
            int b = c.bodyB();
            if (a != tool && b != tool) {
                continue;
            }
            // The normal runs from B toward A: it pushes the tool out when the tool is A, and the other way if B.
            int other = a == tool ? b : a;
            normal.set(c.normal());
            if (a != tool) {
                normal.negate();
            }
            add(other, normal, timeS, forceN);
        }
        if (proxy != null && proxy.touching()) {
            add(proxy.touchedBody(), proxy.normal(), timeS, forceN);
        }
        return forceN;
    }

    /** The vibration of what the tool touches now, at the loop's simulated time. */
    @Override
    public Vector3d addTo(RenderContext ctx, Vector3d forceN) {
        return addTo(ctx.world(), ctx.toolBody(), ctx.renderer().proxy(), ctx.timeS(), forceN);
    }

    /** Active: the passivity filter would damp it away. */
    @Override
    public boolean active() {
        return true;
    }

    private void add(int body, Vector3dc outward, double timeS, Vector3d forceN) {
        double a = amplitudeN[body];
        if (a == 0.0 || countedTick[body] == tick) {
            return;
        }
        countedTick[body] = tick;
        forceN.fma(a * Math.sin(2.0 * Math.PI * frequencyHz[body] * timeS), outward);
    }
}
