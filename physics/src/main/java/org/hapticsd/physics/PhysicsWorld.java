package org.hapticsd.physics;

import java.util.Arrays;
import java.util.Objects;

import org.hapticsd.physics.collision.AllPairsBroadphase;
import org.hapticsd.physics.collision.SphereContacts;
import org.hapticsd.physics.dynamics.PenaltyContactLaw;
import org.hapticsd.physics.geometry.Aabb;
import org.joml.Quaterniond;
import org.joml.Quaterniondc;
import org.joml.Vector3d;
import org.joml.Vector3dc;

/**
 * Haptic tools (kinematic spheres driven by the device) touching static bodies through a penalty contact; the
 * force the walls push a tool with is the force to render.
 *
 * <h2>Life cycle</h2>
 * Build the scene with {@link #addStaticBody} and {@link #addTool}: these allocate, sizing every per-step
 * buffer (bounds, candidate pairs, the contact pool for tools × statics pairs) for the scene. Then, once per
 * tick: {@link #setToolState} for each tool, {@link #step}, and read {@link #contactForceOnBody},
 * {@link #contact(int)} and {@link #profile()}. Nothing on that per-tick path allocates, iterates with an
 * iterator, boxes or concatenates strings; an invalid argument throws, building its message off the normal path.
 *
 * <h2>Threading</h2>
 * Not thread-safe. One thread (the real-time loop) owns the world: other threads hand scene changes to that
 * thread rather than call in.
 *
 * <h2>Frames and units</h2>
 * One world frame, SI units (metres, m/s, newtons, newton-metres). Bodies are numbered 0, 1, 2, … in the order
 * they are added; tools are bodies too.
 *
 * <h2>Step</h2>
 * The stages of {@link StepStage} run in declaration order, each timed into {@link #profile()}:
 * {@link StepStage#BROADPHASE} (bounds and candidate pairs), {@link StepStage#NARROWPHASE} (exact tests into the
 * contact pool), {@link StepStage#CONTACT_FORCES} (penalty law and per-body sums). Layering follows dyn4j:
 * {@code geometry} → {@code collision} → {@code dynamics} → this world, which only owns the data and calls the
 * stages.
 */
public final class PhysicsWorld {

    private final PenaltyContactSettings settings;
    private final StepProfile profile = new StepProfile();

    // Cold data, per body: read when building, and by the narrowphase for a shape's dimensions.
    private String[] names = new String[0];
    private BodyType[] types = new BodyType[0];
    private Shape[] shapes = new Shape[0];
    private int bodyCount;

    // Hot data, per body: read or written every step.
    private Vector3d[] positionsM = new Vector3d[0];
    private Quaterniond[] orientations = new Quaterniond[0];
    private Vector3d[] linearVelocitiesMps = new Vector3d[0];
    private double[] boundsM = new double[0];
    private Vector3d[] contactForcesN = new Vector3d[0];
    private Vector3d[] contactTorquesNm = new Vector3d[0];

    // Body indices by role, in the order added: the broadphase pairs every tool with every static.
    private int[] toolBodies = new int[0];
    private int toolCount;
    private int[] staticBodies = new int[0];
    private int staticCount;

    // Per-step buffers sized for toolCount × staticCount, the most pairs (and, one point per pair, contacts).
    private int[] pairBodyA = new int[0];
    private int[] pairBodyB = new int[0];
    private int pairCount;
    private Contact[] contacts = new Contact[0];
    private int contactCount;

    private final Vector3d leverArmM = new Vector3d();
    private final Vector3d torqueNm = new Vector3d();

    /** An empty world whose contacts all use {@code settings}. */
    public PhysicsWorld(PenaltyContactSettings settings) {
        this.settings = Objects.requireNonNull(settings, "settings");
    }

    /**
     * Adds a body that never moves. Allocates; call while building the scene, not per tick.
     *
     * @param name a label for logs and lookups; need not be unique
     * @param shape the body's geometry in its own frame
     * @param positionM the body frame's origin in the world, metres (for a plane: a point on it)
     * @param orientation the body frame's rotation into the world; normalised on the way in, must be non-zero
     * @return the new body's index
     */
    public int addStaticBody(String name, Shape shape, Vector3dc positionM, Quaterniondc orientation) {
        Objects.requireNonNull(shape, "shape");
        int body = addBody(name, BodyType.STATIC, shape, positionM, orientation);
        staticBodies = Arrays.copyOf(staticBodies, staticCount + 1);
        staticBodies[staticCount++] = body;
        // A static body never moves, so its bounds are computed once, here.
        writeBounds(body);
        growPairBuffers();
        return body;
    }

    /**
     * Adds a haptic tool: a kinematic sphere of radius {@code radiusM}, at the origin and at rest until the first
     * {@link #setToolState}. Allocates; call while building the scene, not per tick.
     *
     * @return the new body's index, to pass to {@link #setToolState} and {@link #contactForceOnBody}
     */
    public int addTool(String name, double radiusM) {
        SphereShape shape = new SphereShape(radiusM);
        int body = addBody(name, BodyType.KINEMATIC, shape, new Vector3d(), new Quaterniond());
        toolBodies = Arrays.copyOf(toolBodies, toolCount + 1);
        toolBodies[toolCount++] = body;
        writeBounds(body);
        growPairBuffers();
        return body;
    }

    /** Number of bodies, tools included. */
    public int bodyCount() {
        return bodyCount;
    }

    /** The name the body was added with. */
    public String bodyName(int body) {
        return names[Objects.checkIndex(body, bodyCount)];
    }

    /** {@link BodyType#KINEMATIC} for tools, {@link BodyType#STATIC} for everything else. */
    public BodyType bodyType(int body) {
        return types[Objects.checkIndex(body, bodyCount)];
    }

    /** The body's shape, in its own frame; a tool's is a {@link SphereShape} of the radius it was added with. */
    public Shape shape(int body) {
        return shapes[Objects.checkIndex(body, bodyCount)];
    }

    /**
     * Sets a tool's pose and velocity for the next {@link #step}: the device's reading, already in the world
     * frame. The velocity only feeds the damping term; the world does not integrate it. No allocation.
     *
     * @throws IllegalArgumentException if {@code tool} is not a tool, or a component is not finite (a NaN from a
     *     device must stop here rather than turn into a NaN force command)
     */
    public void setToolState(int tool, Vector3dc positionM, Vector3dc velocityMps) {
        Objects.checkIndex(tool, bodyCount);
        if (types[tool] != BodyType.KINEMATIC) {
            throw notATool(tool);
        }
        if (!positionM.isFinite() || !velocityMps.isFinite()) {
            throw nonFiniteToolState(positionM, velocityMps);
        }
        positionsM[tool].set(positionM);
        linearVelocitiesMps[tool].set(velocityMps);
    }

    /**
     * Runs the stages of {@link StepStage} in order and times each into {@link #profile()}. No allocation.
     *
     * <p>The penalty contact is memoryless (the force is a function of the current poses and velocities), so
     * no stage of this slice integrates over {@code dtS}; it is validated here so that callers pass the loop's
     * real period from the start, which the integration stage of dynamic bodies consumes.
     *
     * @param dtS the time this step advances, seconds, finite and {@code > 0}
     */
    public void step(double dtS) {
        if (!(dtS > 0.0) || !Double.isFinite(dtS)) {
            throw invalidTimeStep(dtS);
        }
        long stageStartNs = System.nanoTime();
        findCandidatePairs();
        stageStartNs = endStage(StepStage.BROADPHASE, stageStartNs);
        findContacts();
        stageStartNs = endStage(StepStage.NARROWPHASE, stageStartNs);
        computeContactForces();
        endStage(StepStage.CONTACT_FORCES, stageStartNs);
    }

    /**
     * Copies into {@code destN} the sum of the contact forces on {@code body} from the last step: for a tool, the
     * force the walls push it with, i.e. the force to render; for a static body, the opposite of what it pushes
     * tools with. Zero before the first step. No allocation.
     */
    public Vector3d contactForceOnBody(int body, Vector3d destN) {
        return destN.set(contactForcesN[Objects.checkIndex(body, bodyCount)]);
    }

    /**
     * Copies into {@code destNm} the sum of the contact torques on {@code body} from the last step, about the
     * body's position. Always zero for a tool: a normal force on a sphere acts along a line through its centre,
     * so it has no moment about it, and the world stores the exact zero rather than the ~1e-17 N·m of rounding
     * that evaluating {@code r × F} would give. For a static body, {@code Σ (pointᵢ − position) × (−Fᵢ)}.
     */
    public Vector3d contactTorqueOnBody(int body, Vector3d destNm) {
        return destNm.set(contactTorquesNm[Objects.checkIndex(body, bodyCount)]);
    }

    /** Number of contacts found by the last step; at most one per tool–static pair. */
    public int contactCount() {
        return contactCount;
    }

    /**
     * Contact {@code i} of the last step, {@code 0 <= i < contactCount()}: a view into the preallocated pool that
     * the next step overwrites. Contacts are ordered by tool, then by static body, each in the order added.
     */
    public Contact contact(int i) {
        return contacts[Objects.checkIndex(i, contactCount)];
    }

    /** Copies the body's position (its frame's origin) into {@code destM}. */
    public Vector3d bodyPosition(int body, Vector3d destM) {
        return destM.set(positionsM[Objects.checkIndex(body, bodyCount)]);
    }

    /** Copies the body's unit orientation into {@code dest}; identity for a tool. */
    public Quaterniond bodyOrientation(int body, Quaterniond dest) {
        return dest.set(orientations[Objects.checkIndex(body, bodyCount)]);
    }

    /** Copies the body's linear velocity into {@code destMps}; zero for a static body. */
    public Vector3d bodyLinearVelocity(int body, Vector3d destMps) {
        return destMps.set(linearVelocitiesMps[Objects.checkIndex(body, bodyCount)]);
    }

    /** Per-stage wall time of the last step; the same object for the life of the world. */
    public StepProfile profile() {
        return profile;
    }

    // ---- Stages ----------------------------------------------------------------------------------------------

    private void findCandidatePairs() {
        for (int i = 0; i < toolCount; i++) {
            writeBounds(toolBodies[i]);
        }
        pairCount = AllPairsBroadphase.findPairs(
                toolBodies, toolCount, staticBodies, staticCount, boundsM, pairBodyA, pairBodyB);
    }

    private void findContacts() {
        int count = 0;
        for (int k = 0; k < pairCount; k++) {
            int a = pairBodyA[k];
            int b = pairBodyB[k];
            // The test writes straight into the next free pool slot; the slot is only kept when the pair touches.
            // The pool holds one slot per possible pair, so contacts[count] exists whenever a pair remains.
            Contact contact = contacts[count];
            double depthM = toolDepthM(a, b, contact.pointM, contact.normal);
            // Touching at exactly zero depth is not a contact: k·0 is no force, and with damping a zero-depth
            // contact would push on an approaching tool before it reaches the surface.
            if (depthM > 0.0) {
                contact.bodyA = a;
                contact.bodyB = b;
                contact.depthM = depthM;
                count++;
            }
        }
        contactCount = count;
    }

    private void computeContactForces() {
        for (int body = 0; body < bodyCount; body++) {
            contactForcesN[body].zero();
            contactTorquesNm[body].zero();
        }
        double k = settings.stiffnessNpm();
        double b = settings.dampingNspm();
        for (int i = 0; i < contactCount; i++) {
            Contact contact = contacts[i];
            int bodyA = contact.bodyA;
            int bodyB = contact.bodyB;
            double d = contact.depthM;
            double dDot = PenaltyContactLaw.penetrationRateMps(
                    linearVelocitiesMps[bodyA], linearVelocitiesMps[bodyB], contact.normal);
            double f = PenaltyContactLaw.normalForceN(k, b, d, dDot);
            contact.normalSpeedMps = dDot;
            contact.forceN.set(contact.normal).mul(f);
            // Newton's third law: B receives -F at the same point.
            contactForcesN[bodyA].add(contact.forceN);
            contactForcesN[bodyB].sub(contact.forceN);
            // Torque on B about its position: rB × (−F) with rB = point − position. None on A, a sphere whose
            // normal force passes through its centre (see contactTorqueOnBody).
            contact.pointM.sub(positionsM[bodyB], leverArmM).cross(contact.forceN, torqueNm);
            contactTorquesNm[bodyB].sub(torqueNm);
        }
    }

    private long endStage(StepStage stage, long stageStartNs) {
        long stageEndNs = System.nanoTime();
        profile.record(stage, stageEndNs - stageStartNs);
        return stageEndNs;
    }

    /** Signed depth of tool {@code a} (a sphere) into body {@code b}; see {@link SphereContacts}. */
    private double toolDepthM(int a, int b, Vector3d destPointM, Vector3d destNormal) {
        Vector3dc centreM = positionsM[a];
        double radiusM = ((SphereShape) shapes[a]).radiusM();
        Shape shapeB = shapes[b];
        if (shapeB instanceof BoxShape box) {
            return SphereContacts.sphereVsBox(centreM, radiusM, positionsM[b], orientations[b],
                    box.halfXM(), box.halfYM(), box.halfZM(), destPointM, destNormal);
        } else if (shapeB instanceof SphereShape sphere) {
            return SphereContacts.sphereVsSphere(centreM, radiusM, positionsM[b], sphere.radiusM(),
                    destPointM, destNormal);
        } else {
            // The last permitted subtype of the sealed Shape: the cast fails loudly if a shape is added to the
            // hierarchy without a contact test here.
            PlaneShape plane = (PlaneShape) shapeB;
            return SphereContacts.sphereVsPlane(centreM, radiusM, positionsM[b], orientations[b], plane.normal(),
                    destPointM, destNormal);
        }
    }

    private void writeBounds(int body) {
        Shape shape = shapes[body];
        if (shape instanceof SphereShape sphere) {
            Aabb.ofSphere(positionsM[body], sphere.radiusM(), boundsM, body);
        } else if (shape instanceof BoxShape box) {
            Aabb.ofOrientedBox(positionsM[body], orientations[body], box.halfXM(), box.halfYM(), box.halfZM(),
                    boundsM, body);
        } else {
            // PlaneShape, the last permitted subtype (cast as in toolDepthM): a half-space has no finite bounds.
            Aabb.unbounded(boundsM, body);
        }
    }

    // ---- Building --------------------------------------------------------------------------------------------

    private int addBody(String name, BodyType type, Shape shape, Vector3dc positionM, Quaterniondc orientation) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(positionM, "positionM");
        Objects.requireNonNull(orientation, "orientation");
        if (!positionM.isFinite()) {
            throw new IllegalArgumentException("positionM must be finite, was " + format(positionM));
        }
        double orientationLength = Math.sqrt(orientation.lengthSquared());
        if (!(orientationLength > 0.0) || !Double.isFinite(orientationLength)) {
            throw new IllegalArgumentException("orientation must be finite and non-zero, was (" + orientation.x()
                    + ", " + orientation.y() + ", " + orientation.z() + ", " + orientation.w() + ")");
        }
        int body = bodyCount;
        int capacity = body + 1;
        names = Arrays.copyOf(names, capacity);
        types = Arrays.copyOf(types, capacity);
        shapes = Arrays.copyOf(shapes, capacity);
        positionsM = Arrays.copyOf(positionsM, capacity);
        orientations = Arrays.copyOf(orientations, capacity);
        linearVelocitiesMps = Arrays.copyOf(linearVelocitiesMps, capacity);
        boundsM = Arrays.copyOf(boundsM, capacity * Aabb.STRIDE);
        contactForcesN = Arrays.copyOf(contactForcesN, capacity);
        contactTorquesNm = Arrays.copyOf(contactTorquesNm, capacity);
        names[body] = name;
        types[body] = type;
        shapes[body] = shape;
        positionsM[body] = new Vector3d(positionM);
        orientations[body] = new Quaterniond(orientation).normalize();
        linearVelocitiesMps[body] = new Vector3d();
        contactForcesN[body] = new Vector3d();
        contactTorquesNm[body] = new Vector3d();
        bodyCount = capacity;
        return body;
    }

    private void growPairBuffers() {
        int maxPairs = Math.multiplyExact(toolCount, staticCount);
        if (maxPairs <= contacts.length) {
            return;
        }
        pairBodyA = new int[maxPairs];
        pairBodyB = new int[maxPairs];
        int oldLength = contacts.length;
        contacts = Arrays.copyOf(contacts, maxPairs);
        for (int i = oldLength; i < maxPairs; i++) {
            contacts[i] = new Contact();
        }
    }

    // ---- Errors, built off the per-tick path -----------------------------------------------------------------

    private IllegalArgumentException notATool(int body) {
        return new IllegalArgumentException("body " + body + " (" + names[body] + ") is " + types[body]
                + ", not a tool: only KINEMATIC bodies take a tool state");
    }

    private static IllegalArgumentException nonFiniteToolState(Vector3dc positionM, Vector3dc velocityMps) {
        return new IllegalArgumentException("tool state must be finite, was positionM=" + format(positionM)
                + ", velocityMps=" + format(velocityMps));
    }

    /** Plain {@code (x, y, z)}: JOML's toString rounds to four digits and writes infinity as "+Inf". */
    private static String format(Vector3dc v) {
        return "(" + v.x() + ", " + v.y() + ", " + v.z() + ")";
    }

    private static IllegalArgumentException invalidTimeStep(double dtS) {
        return new IllegalArgumentException("dtS must be finite and > 0, was " + dtS);
    }
}
