package org.hapticsd.physics;

import org.joml.Vector3d;
import org.joml.Vector3dc;

/**
 * One contact point between body A (the tool) and body B, as found by the last {@link PhysicsWorld#step}.
 *
 * <p>A read-only view into the world's preallocated pool: it stays valid until the next step, which overwrites
 * it. Copy the values out if they are needed later; do not keep the object.
 *
 * <p>Conventions (world frame, SI):
 * <ul>
 *   <li>{@link #normal()} is a unit vector pointing from B toward A: the direction that pushes A out of B.</li>
 *   <li>{@link #point()} lies on the surface of B: the point of B closest to A's centre, or, when A's centre is
 *       inside a box, its projection on the face of least penetration.</li>
 *   <li>{@link #depthM()} is how far A reaches into B along the normal; always {@code > 0} for a reported
 *       contact (touching at exactly zero depth is not a contact).</li>
 *   <li>{@link #normalSpeedMps()} is the rate at which the depth grows, {@code -(vA - vB) · n}: positive while
 *       A approaches B, negative while it separates.</li>
 *   <li>{@link #forceN()} is the force B exerts on A; B receives the opposite.</li>
 * </ul>
 */
public final class Contact {

    int bodyA;
    int bodyB;
    final Vector3d pointM = new Vector3d();
    final Vector3d normal = new Vector3d();
    double depthM;
    double normalSpeedMps;
    final Vector3d forceN = new Vector3d();

    Contact() {
    }

    /** Index of body A, the tool. */
    public int bodyA() {
        return bodyA;
    }

    /** Index of body B, the static body. */
    public int bodyB() {
        return bodyB;
    }

    /** Contact point on the surface of B, world frame, metres. */
    public Vector3dc point() {
        return pointM;
    }

    /** Unit normal from B toward A, world frame. */
    public Vector3dc normal() {
        return normal;
    }

    /** Penetration depth along the normal, metres, {@code > 0}. */
    public double depthM() {
        return depthM;
    }

    /** Rate of increase of the depth, m/s, positive while approaching. */
    public double normalSpeedMps() {
        return normalSpeedMps;
    }

    /** Force of B on A, world frame, newtons; along {@link #normal()} and never pulling. */
    public Vector3dc forceN() {
        return forceN;
    }

    @Override
    public String toString() {
        return "Contact[A=" + bodyA + ", B=" + bodyB + ", point=" + pointM + ", normal=" + normal
                + ", depthM=" + depthM + ", normalSpeedMps=" + normalSpeedMps + ", forceN=" + forceN + "]";
    }
}
