package org.hapticsd.physics;

import org.joml.Vector3d;
import org.joml.Vector3dc;

/**
 * One contact point between body A and body B, as found and resolved by the last {@link PhysicsWorld#step}.
 *
 * <p>A read-only view into the world's preallocated pool: it stays valid until the next step, which overwrites
 * it. Copy the values out if they are needed later; do not keep the object.
 *
 * <p>Which body is A: the more mobile one — a haptic tool, else a dynamic body, else a kinematic one — and between
 * equals the lower index. So a tool is always A, and a box on the floor is A with the floor as B.
 *
 * <p>Conventions (world frame, SI):
 * <ul>
 *   <li>{@link #normal()} is a unit vector pointing from B toward A: the direction that pushes A out of B.</li>
 *   <li>{@link #point()} lies on the surface of B (for a sphere A: the point of B closest to A's centre, or,
 *       when A's centre is inside a box, its projection on the face of least penetration). Forces act at the
 *       midpoint between the surfaces, {@code point − normal·depth/2}.</li>
 *   <li>{@link #depthM()} is how far A reaches into B along the normal; {@code > 0} for a penetrating contact.</li>
 *   <li>{@link #normalSpeedMps()} is the rate at which the depth grows at the start of the step,
 *       {@code −(v_A − v_B)·n} at the point: positive while A approaches B, negative while it separates.</li>
 *   <li>{@link #forceN()} is the force B exerts on A (normal plus friction); B receives the opposite. In
 *       {@link ContactMode#LCP} it is the contact impulse of the step divided by {@code Δt}.</li>
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
    double normalForceN;
    ContactMode mode;
    int featureId;

    Contact() {
    }

    /** Index of body A (the tool, if one of the two is a tool). */
    public int bodyA() {
        return bodyA;
    }

    /** Index of body B. */
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

    /** Penetration depth along the normal, metres. */
    public double depthM() {
        return depthM;
    }

    /** Rate of increase of the depth at the start of the step, m/s, positive while approaching. */
    public double normalSpeedMps() {
        return normalSpeedMps;
    }

    /** Force of B on A, world frame, newtons: {@link #normalForceN()} along the normal plus friction. */
    public Vector3dc forceN() {
        return forceN;
    }

    /** Magnitude of the normal part of {@link #forceN()}, newtons, {@code >= 0} (a contact never pulls). */
    public double normalForceN() {
        return normalForceN;
    }

    /** The mode that resolved this contact: {@link ContactMode#LCP} or {@link ContactMode#PENALTY}. */
    public ContactMode mode() {
        return mode;
    }

    /** The narrowphase's identity of the touching features, stable while the contact persists; 0 if none. */
    public int featureId() {
        return featureId;
    }

    @Override
    public String toString() {
        return "Contact[A=" + bodyA + ", B=" + bodyB + ", mode=" + mode + ", point=" + pointM + ", normal=" + normal
                + ", depthM=" + depthM + ", normalSpeedMps=" + normalSpeedMps + ", forceN=" + forceN + "]";
    }
}
