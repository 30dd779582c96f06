package org.hapticsd.server.render;

import org.hapticsd.physics.PhysicsWorld;
import org.hapticsd.physics.SphereShape;
import org.joml.Vector3d;
import org.joml.Vector3dc;

/**
 * A magnetic surface (CHAI3D's {@code cEffectMagnet}, whose material gives a maximum force and a distance): the hand
 * is pulled toward a body's surface while the tool is within {@code d} of it, with a force that grows from 0 at the
 * surface to its maximum at {@code d/2} and falls back to 0 at {@code d}, so it neither jumps on nor off. At the
 * surface the contact takes over. For snapping a tool onto a surface to trace it, or to a target.
 *
 * <p>Measured at the hand (the device's position in the scene, as the guide and the force field are), with the tool's
 * radius: the gap is between the tool's sphere and the surface. A conservative force, so passive in continuous time;
 * sampled, it is a spring of stiffness {@code 2·F/d} on the rising half, which the passivity check judges.
 *
 * <p>Loop thread; allocates nothing after construction.
 */
public final class SurfaceMagnet implements HapticEffect {
    private final int[] bodies;
    private final double[] maxForceN;
    private final double[] distanceM;
    /** The tool's sphere grown by each body's distance: what the query asks the body about. */
    private final SphereShape[] reach;
    private final Vector3d normal = new Vector3d();

    /**
     * @param bodies    the magnetic bodies' indices in the world
     * @param maxForceN per body, N, finite and {@code > 0}
     * @param distanceM per body, m, finite and {@code > 0}
     * @throws IllegalArgumentException for arrays of different lengths or a value out of range
     */
    public SurfaceMagnet(int[] bodies, double[] maxForceN, double[] distanceM, double toolRadiusM) {
        if (bodies.length != maxForceN.length || bodies.length != distanceM.length) {
            throw new IllegalArgumentException("one force and one distance per magnetic body");
        }
        this.bodies = bodies.clone();
        this.maxForceN = maxForceN.clone();
        this.distanceM = distanceM.clone();
        this.reach = new SphereShape[bodies.length];
        for (int i = 0; i < bodies.length; i++) {
            if (!(maxForceN[i] > 0.0 && Double.isFinite(maxForceN[i]) && distanceM[i] > 0.0
                    && Double.isFinite(distanceM[i]))) {
                throw new IllegalArgumentException("a magnet needs a finite force and distance > 0, got "
                    + maxForceN[i] + " N and " + distanceM[i] + " m");
            }
            reach[i] = new SphereShape(toolRadiusM + distanceM[i]);
        }
    }

    public int count() {
        return bodies.length;
    }

    public int body(int i) {
        return bodies[i];
    }

    /** The stiffness of body {@code i}'s pull on its rising half, {@code 2·F/d}, N/m. */
    public double stiffnessNpm(int i) {
        return 2.0 * maxForceN[i] / distanceM[i];
    }

    /** The largest pull of the {@code i}-th magnetic body, N. */
    public double maxForceN(int i) {
        return maxForceN[i];
    }

    /**
     * Changes the {@code i}-th magnetic body's largest pull (a stream client's SET_PARAMETER, whose caller keeps it
     * within what the scene was loaded with; 0 switches it off). Loop thread.
     *
     * @throws IllegalArgumentException for a value that is not finite and {@code >= 0}
     */
    public void setMaxForceN(int i, double maxForceN) {
        if (!(maxForceN >= 0.0 && Double.isFinite(maxForceN))) {
            throw new IllegalArgumentException("a magnet's force must be finite and >= 0, got " + maxForceN + " N");
        }
        this.maxForceN[i] = maxForceN;
    }

    /** The magnetic bodies' pull on the hand. */
    @Override
    public Vector3d addTo(RenderContext ctx, Vector3d forceN) {
        return addTo(ctx.world(), ctx.handM(), forceN);
    }

    /** Adds to {@code forceN} the pull of every magnetic body on a tool centred at {@code handM}, scene frame. */
    public Vector3d addTo(PhysicsWorld world, Vector3dc handM, Vector3d forceN) {
        for (int i = 0; i < bodies.length; i++) {
            double depthM = world.sphereDepthM(bodies[i], reach[i], handM, normal);
            // The grown sphere reaches depthM into the body: the tool's own sphere is d − depthM from its surface.
            double gapM = distanceM[i] - depthM;
            if (!(gapM > 0.0 && gapM < distanceM[i])) {
                continue;
            }
            double halfM = 0.5 * distanceM[i];
            double pullN = gapM <= halfM ? maxForceN[i] * gapM / halfM : maxForceN[i] * (distanceM[i] - gapM) / halfM;
            // The normal points out of the body, toward the tool: the pull is against it.
            forceN.fma(-pullN, normal);
        }
        return forceN;
    }
}
