package org.hapticsd.physics.dynamics;

import java.util.Arrays;

import org.hapticsd.physics.BodyType;
import org.hapticsd.physics.geometry.Transform;
import org.joml.Matrix3d;
import org.joml.Matrix3dc;
import org.joml.Quaterniond;
import org.joml.Quaterniondc;
import org.joml.Vector3d;
import org.joml.Vector3dc;

/**
 * The per-body data the step reads and writes, one preallocated JOML object or array slot per body, indexed by
 * body number. Internal to the engine: {@code PhysicsWorld} is the API and keeps the cold data (names, shapes,
 * materials) itself.
 *
 * <p>The body frame's origin is the centre of mass: positions, velocities, torques and the inertia all refer to
 * it. A shape whose geometric origin is not its centre of mass must be offset by the caller for now (the mass
 * properties calculator will supply the centre and the inertia).
 *
 * <p>Fields are public for the solver loops, as JOML's vector fields are; only the engine writes them.
 */
public final class RigidBodies {

    public int count;

    // ---- Fixed when added ------------------------------------------------------------------------------------
    public BodyType[] type = new BodyType[0];
    /** {@code true} for {@link BodyType#DYNAMIC}: the only bodies contacts move and the integrator advances. */
    public boolean[] dynamic = new boolean[0];
    public double[] massKg = new double[0];
    /** {@code 1/m}; 0 for static and kinematic bodies, which act as infinite masses. */
    public double[] inverseMassPerKg = new double[0];
    /** Inertia about the centre of mass in the body frame, {@code I_body}, kg·m². Zero for non-dynamic bodies. */
    public Matrix3d[] inertiaBody = new Matrix3d[0];
    /** {@code I_body⁻¹}; zero for non-dynamic bodies. */
    public Matrix3d[] inverseInertiaBody = new Matrix3d[0];
    /**
     * {@code true} for a dynamic body whose inertia is {@code c·E} (a uniform sphere or cube): the same about every
     * axis, so its world inverse inertia is {@code I_body⁻¹} in any orientation and {@code ω × I·ω = 0} (no
     * gyroscopic term). Exact comparison: a body within round-off of isotropic takes the general path.
     */
    public boolean[] isotropic = new boolean[0];
    /** Velocity damping rates, 1/s: {@code v ← v/(1 + c·Δt)} each step (Box2D's implicit damping). */
    public double[] linearDampingPerS = new double[0];
    /**
     * The farthest a body's velocity may carry it in one step, m; infinite (no limit) unless set. Box2D's
     * {@code b2_maxTranslation}, per body.
     */
    public double[] maxStepDistanceM = new double[0];
    public double[] angularDampingPerS = new double[0];

    // ---- State -----------------------------------------------------------------------------------------------
    public Vector3d[] positionM = new Vector3d[0];
    /** Unit quaternion turning the body frame into the world. */
    public Quaterniond[] orientation = new Quaterniond[0];
    public Vector3d[] linearVelocityMps = new Vector3d[0];
    /** Angular velocity in the world frame, rad/s. */
    public Vector3d[] angularVelocityRadps = new Vector3d[0];

    // ---- Derived from the pose, refreshed by refreshPose -----------------------------------------------------
    /** Pose with its rotation matrix, for the narrowphase. */
    public Transform[] pose = new Transform[0];
    /** {@code R·I_body⁻¹·Rᵀ}; zero for non-dynamic bodies. */
    public Matrix3d[] inverseInertiaWorld = new Matrix3d[0];

    // ---- Per-step scratch ------------------------------------------------------------------------------------
    /** External force accumulated during the step (penalty contacts), N; gravity is added separately. */
    public Vector3d[] forceN = new Vector3d[0];
    /** External torque about the centre of mass accumulated during the step, N·m. */
    public Vector3d[] torqueNm = new Vector3d[0];
    /** Pseudo-velocities of the position correction (split impulse): move the body, never kept as velocity. */
    public Vector3d[] pseudoLinearVelocityMps = new Vector3d[0];
    public Vector3d[] pseudoAngularVelocityRadps = new Vector3d[0];

    private final Matrix3d rotation = new Matrix3d();
    private final Matrix3d rotationTransposed = new Matrix3d();

    /**
     * Appends a body. Allocates; call while building the scene.
     *
     * @param massKg the mass for a dynamic body; ignored otherwise
     * @param inertiaBody the inertia about the centre of mass in the body frame for a dynamic body; ignored
     *     otherwise
     * @return the new body's index
     */
    public int add(BodyType bodyType, Vector3dc positionM, Quaterniondc unitOrientation, double massKg,
                   Matrix3dc inertiaBody) {
        int body = count;
        if (body == type.length) {
            grow(body < 8 ? 8 : body + (body >> 1));
        }
        boolean isDynamic = bodyType == BodyType.DYNAMIC;
        type[body] = bodyType;
        dynamic[body] = isDynamic;
        this.massKg[body] = isDynamic ? massKg : 0.0;
        inverseMassPerKg[body] = isDynamic ? 1.0 / massKg : 0.0;
        this.inertiaBody[body] = isDynamic ? new Matrix3d(inertiaBody) : new Matrix3d().zero();
        inverseInertiaBody[body] = isDynamic ? new Matrix3d(inertiaBody).invert() : new Matrix3d().zero();
        isotropic[body] = isDynamic && isIsotropic(inertiaBody);
        this.positionM[body] = new Vector3d(positionM);
        orientation[body] = new Quaterniond(unitOrientation);
        linearVelocityMps[body] = new Vector3d();
        angularVelocityRadps[body] = new Vector3d();
        pose[body] = new Transform();
        inverseInertiaWorld[body] = new Matrix3d().zero();
        forceN[body] = new Vector3d();
        torqueNm[body] = new Vector3d();
        pseudoLinearVelocityMps[body] = new Vector3d();
        pseudoAngularVelocityRadps[body] = new Vector3d();
        maxStepDistanceM[body] = Double.POSITIVE_INFINITY;
        count = body + 1;
        refreshPose(body);
        return body;
    }

    /**
     * The number of bodies the arrays hold room for: at least {@link #count}. The slots from {@code count} on are
     * empty ({@code null} objects, zero numbers); every reader goes by {@code count}, never by an array's length.
     */
    public int capacity() {
        return type.length;
    }

    /** Grows every array to {@code capacity} slots: by half each time, so adding n bodies copies O(n) slots. */
    private void grow(int capacity) {
        type = Arrays.copyOf(type, capacity);
        dynamic = Arrays.copyOf(dynamic, capacity);
        massKg = Arrays.copyOf(massKg, capacity);
        inverseMassPerKg = Arrays.copyOf(inverseMassPerKg, capacity);
        inertiaBody = Arrays.copyOf(inertiaBody, capacity);
        inverseInertiaBody = Arrays.copyOf(inverseInertiaBody, capacity);
        isotropic = Arrays.copyOf(isotropic, capacity);
        linearDampingPerS = Arrays.copyOf(linearDampingPerS, capacity);
        maxStepDistanceM = Arrays.copyOf(maxStepDistanceM, capacity);
        angularDampingPerS = Arrays.copyOf(angularDampingPerS, capacity);
        positionM = Arrays.copyOf(positionM, capacity);
        orientation = Arrays.copyOf(orientation, capacity);
        linearVelocityMps = Arrays.copyOf(linearVelocityMps, capacity);
        angularVelocityRadps = Arrays.copyOf(angularVelocityRadps, capacity);
        pose = Arrays.copyOf(pose, capacity);
        inverseInertiaWorld = Arrays.copyOf(inverseInertiaWorld, capacity);
        forceN = Arrays.copyOf(forceN, capacity);
        torqueNm = Arrays.copyOf(torqueNm, capacity);
        pseudoLinearVelocityMps = Arrays.copyOf(pseudoLinearVelocityMps, capacity);
        pseudoAngularVelocityRadps = Arrays.copyOf(pseudoAngularVelocityRadps, capacity);
    }

    /**
     * Recomputes what follows from the pose: the transform (with its rotation matrix) and, for a dynamic body, the
     * world inverse inertia {@code R·I_body⁻¹·Rᵀ} (source 003 writes {@code Rᵀ·ᴼI·R} with the opposite rotation
     * convention); for an {@link #isotropic} body that is {@code I_body⁻¹} itself. No allocation.
     */
    public void refreshPose(int body) {
        refreshPose(body, rotation, rotationTransposed);
    }

    /** {@link #refreshPose(int)} with the caller's scratch matrices: for a lane of a split step, on its own thread. */
    public void refreshPose(int body, Matrix3d rotation, Matrix3d rotationTransposed) {
        pose[body].set(positionM[body], orientation[body]);
        if (!dynamic[body]) {
            // Static, kinematic, asleep or taken out: its world inverse inertia stays zero.
            return;
        }
        if (isotropic[body]) {
            inverseInertiaWorld[body].set(inverseInertiaBody[body]);
        } else {
            pose[body].matrix(rotation);
            rotation.transpose(rotationTransposed);
            rotation.mul(inverseInertiaBody[body], inverseInertiaWorld[body]).mul(rotationTransposed);
        }
    }

    /** Whether {@code inertia} is {@code c·E}: equal diagonal, zero off the diagonal, compared exactly. */
    static boolean isIsotropic(Matrix3dc inertia) {
        return inertia.m00() == inertia.m11() && inertia.m11() == inertia.m22()
            && inertia.m01() == 0.0 && inertia.m02() == 0.0 && inertia.m10() == 0.0
            && inertia.m12() == 0.0 && inertia.m20() == 0.0 && inertia.m21() == 0.0;
    }

    /**
     * World inertia {@code R·I_body·Rᵀ} of {@code body} into {@code dest}; zero for non-dynamic bodies. Uses the
     * current orientation, not the pose of the last refresh.
     */
    public Matrix3d inertiaWorld(int body, Matrix3d dest) {
        rotation.set(orientation[body]);
        rotation.transpose(rotationTransposed);
        return rotation.mul(inertiaBody[body], dest).mul(rotationTransposed);
    }
}
