package org.hapticsd.server.render;

import java.util.Arrays;
import org.hapticsd.physics.Contact;
import org.hapticsd.physics.PhysicsWorld;
import org.joml.Vector3d;
import org.joml.Vector3dc;

/**
 * The bodies the tool touches after this tick's step, each once, with the normal of its first contact pointing out of
 * the body toward the tool and the normal force it presses the tool with (all its points): through the world's
 * contacts of the tool body, and the proxy's resting contact when the scene renders by proxy. What the surface effects
 * ({@link ContactVibration}, {@link StickSlip}, {@link GratingTexture}) act through.
 *
 * <p>Loop thread; allocates nothing after construction.
 */
final class ToolTouches {
    private final int[] bodies;
    private final Vector3d[] normals;
    private final double[] normalForcesN;
    /** Where each body listed this tick is in the list. */
    private final int[] slot;
    /** The tick each body was last listed in, so that a body touched at several points is listed once. */
    private final long[] listedTick;
    private long tick;
    private int count;

    /** @param bodyCount the world's bodies */
    ToolTouches(int bodyCount) {
        bodies = new int[bodyCount];
        normals = new Vector3d[bodyCount];
        for (int i = 0; i < bodyCount; i++) {
            normals[i] = new Vector3d();
        }
        normalForcesN = new double[bodyCount];
        slot = new int[bodyCount];
        listedTick = new long[bodyCount];
        Arrays.fill(listedTick, -1L);
    }

    /** Lists what body {@code tool} touches in {@code world} now, and what {@code proxy} (or null) rests on. */
    void update(PhysicsWorld world, int tool, ProxyRenderer proxy) {
        tick++;
        count = 0;
        for (int i = 0; i < world.contactCount(); i++) {
            Contact c = world.contact(i);
            int a = c.bodyA();
            int b = c.bodyB();
            if (a != tool && b != tool) {
                continue;
            }
            // The normal runs from B toward A: out of the other body when the tool is A, the other way if B.
            if (list(a == tool ? b : a, c.normal(), c.normalForceN()) && a != tool) {
                normals[count - 1].negate();
            }
        }
        if (proxy != null && proxy.touching()) {
            list(proxy.touchedBody(), proxy.normal(), proxy.forceN().dot(proxy.normal()));
        }
    }

    /** Lists {@code body} with {@code normal} the first time this tick (true), else adds its normal force (false). */
    private boolean list(int body, Vector3dc normal, double normalForceN) {
        if (listedTick[body] == tick) {
            normalForcesN[slot[body]] += normalForceN;
            return false;
        }
        listedTick[body] = tick;
        slot[body] = count;
        bodies[count] = body;
        normals[count].set(normal);
        normalForcesN[count] = normalForceN;
        count++;
        return true;
    }

    int count() {
        return count;
    }

    int body(int i) {
        return bodies[i];
    }

    /** How hard body {@link #body}{@code (i)} presses the tool along its normals, N (all its points). */
    double normalForceN(int i) {
        return normalForcesN[i];
    }

    /** Out of body {@link #body}{@code (i)}, toward the tool; unit. */
    Vector3dc normal(int i) {
        return normals[i];
    }
}
