package org.hapticsd.physics.dynamics;

import java.util.Arrays;

import org.hapticsd.physics.ContactMode;
import org.joml.Vector3d;

/**
 * The contact points of one step, one slot per point, filled by the narrowphase and read and written by the
 * contact solvers. Internal to the engine; {@code PhysicsWorld} publishes them as {@code Contact} views.
 *
 * <p>Conventions are the narrowphase's ({@code collision.ContactManifold}): the normal is a unit vector from B
 * toward A, the point lies on B's surface, the depth is {@code > 0} when penetrating. Forces are those B exerts on
 * A; B receives the opposite. Every force is applied at the midpoint between the two surfaces,
 * {@code point − normal·depth/2} (Box2D's anchor), so neither body is favoured.
 *
 * <p>The capacity is fixed when the scene is built ({@link #ensureCapacity}, from the world's contact budget): the
 * narrowphase never writes more points than it holds.
 */
public final class ContactPoints {

    public int count;

    public int[] bodyA = new int[0];
    public int[] bodyB = new int[0];
    /** The narrowphase's feature id; 0 means no stable identity (never warm-started). */
    public int[] featureId = new int[0];
    public ContactMode[] mode = new ContactMode[0];
    /** On B's surface, world frame, m. */
    public Vector3d[] pointM = new Vector3d[0];
    /** Unit, from B toward A. */
    public Vector3d[] normal = new Vector3d[0];
    public double[] depthM = new double[0];
    /** Application point minus A's centre of mass, at detection, m: {@code r_A} of the Jacobian. */
    public Vector3d[] leverArmAM = new Vector3d[0];
    /** Application point minus B's centre of mass, at detection, m: {@code r_B}. */
    public Vector3d[] leverArmBM = new Vector3d[0];

    // Mean of the two bodies' materials (Springhead, seed 002).
    public double[] elasticity = new double[0];
    public double[] staticFriction = new double[0];
    public double[] dynamicFriction = new double[0];

    /** Rate of increase of the depth at the start of the step, {@code −(v_A − v_B)·n} at the point, m/s. */
    public double[] normalSpeedMps = new double[0];

    // Results: the force of B on A, split so that a query can tell the normal part from friction.
    /** Normal force magnitude {@code f_n >= 0}, N, along {@link #normal}. */
    public double[] normalForceN = new double[0];
    /** Friction force on A, in the contact plane, N. */
    public Vector3d[] frictionForceN = new Vector3d[0];

    // What a point carries from one step to the next belongs to its contact model (dynamics.contact).

    /** Makes room for at least {@code capacity} points, keeping the current ones. Allocates only when growing. */
    public void ensureCapacity(int capacity) {
        int oldCapacity = bodyA.length;
        if (capacity <= oldCapacity) {
            return;
        }
        int newCapacity = capacity;
        bodyA = Arrays.copyOf(bodyA, newCapacity);
        bodyB = Arrays.copyOf(bodyB, newCapacity);
        featureId = Arrays.copyOf(featureId, newCapacity);
        mode = Arrays.copyOf(mode, newCapacity);
        pointM = grow(pointM, newCapacity);
        normal = grow(normal, newCapacity);
        depthM = Arrays.copyOf(depthM, newCapacity);
        leverArmAM = grow(leverArmAM, newCapacity);
        leverArmBM = grow(leverArmBM, newCapacity);
        elasticity = Arrays.copyOf(elasticity, newCapacity);
        staticFriction = Arrays.copyOf(staticFriction, newCapacity);
        dynamicFriction = Arrays.copyOf(dynamicFriction, newCapacity);
        normalSpeedMps = Arrays.copyOf(normalSpeedMps, newCapacity);
        normalForceN = Arrays.copyOf(normalForceN, newCapacity);
        frictionForceN = grow(frictionForceN, newCapacity);
    }

    /** Slots available without growing. */
    public int capacity() {
        return bodyA.length;
    }

    /** The application point, midway between the surfaces: {@code point − normal·depth/2}, into {@code destM}. */
    public Vector3d applicationPointM(int i, Vector3d destM) {
        Vector3d p = pointM[i];
        Vector3d n = normal[i];
        double halfDepthM = 0.5 * depthM[i];
        return destM.set(p.x - n.x * halfDepthM, p.y - n.y * halfDepthM, p.z - n.z * halfDepthM);
    }

    private static Vector3d[] grow(Vector3d[] vectors, int newCapacity) {
        int oldCapacity = vectors.length;
        Vector3d[] grown = Arrays.copyOf(vectors, newCapacity);
        for (int i = oldCapacity; i < newCapacity; i++) {
            grown[i] = new Vector3d();
        }
        return grown;
    }
}
