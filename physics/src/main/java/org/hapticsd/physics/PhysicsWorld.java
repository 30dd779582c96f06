package org.hapticsd.physics;

import java.util.Arrays;
import java.util.Objects;
import java.util.function.LongSupplier;

import org.hapticsd.physics.collision.ContactManifold;
import org.hapticsd.physics.dynamics.ContactPoints;
import org.hapticsd.physics.dynamics.RigidBodies;
import org.hapticsd.physics.dynamics.RigidBodyIntegrator;
import org.hapticsd.physics.dynamics.contact.ContactModel;
import org.hapticsd.physics.dynamics.contact.ContactOnsets;
import org.hapticsd.physics.dynamics.contact.LcpContactModel;
import org.hapticsd.physics.deformable.DeformableBody;
import org.hapticsd.physics.geometry.Aabb;
import org.hapticsd.physics.geometry.SymmetricEigen;
import org.hapticsd.physics.geometry.Transform;
import org.joml.Matrix3d;
import org.joml.Matrix3dc;
import org.joml.Quaterniond;
import org.joml.Quaterniondc;
import org.joml.Vector3d;
import org.joml.Vector3dc;

/**
 * Rigid bodies — static, kinematic (scripted, or the haptic tools driven by the device) and dynamic — stepped
 * once per tick of the real-time loop without allocating; the contact force on each tool is the force to render.
 *
 * <h2>Life cycle</h2>
 * Build the scene with {@link #addStaticBody}, {@link #addKinematicBody}, {@link #addTool} and
 * {@link #addDynamicBody}, set materials, contact modes and settings: these allocate. Then, once per tick:
 * {@link #setToolState} for each tool (and {@link #setKinematicState} for scripted bodies), {@link #step}, and
 * read {@link #contactForceOnBody}, {@link #contact(int)}, the body states and {@link #profile()}. Nothing on that
 * per-tick path allocates, iterates with an iterator, boxes or concatenates strings. The contact storage is sized
 * by a {@link ContactBudget}, by default {@link ContactBudget#forScene} of the bodies added: it is allocated by
 * {@link #setContactBudget}, or else by {@link #prime} or the first step after bodies were added (so call one of
 * them before the real-time path starts; {@link #prime} also builds the broadphase, which the first step would). A step that finds more pairs or points than the budget holds
 * drops the least important ones (see {@link ContactBudget}), counts them in {@link #profile()} and carries on.
 *
 * <h2>Threading</h2>
 * Not thread-safe. One thread (the real-time loop) owns the world: other threads hand scene changes to that
 * thread rather than call in. With {@link #setStepLanes}{@code (2)} a plain step of a large scene is split over
 * that thread and a second one the world keeps; the step still returns only when both are done.
 *
 * <h2>Frames and units</h2>
 * One world frame, SI units (metres, kilograms, seconds, newtons, newton-metres). Bodies are numbered 0, 1, 2, …
 * in the order they are added; tools are bodies too. A body's origin is its centre of mass in this version:
 * position, velocity, the inertia given to {@link #addDynamicBody} and the torque queries all refer to it, and a
 * shape is centred on it (the mass-properties calculator will supply offset centres later).
 *
 * <h2>Step</h2>
 * The stages of {@link StepStage} run in declaration order, each timed into {@link #profile()}; see there for
 * what each does. Layering follows dyn4j: {@code geometry} → {@code collision} → {@code dynamics} → this world,
 * which owns the cold data (names, shapes, materials, modes), holds the stages' objects and calls them.
 *
 * <h2>Contact modes</h2>
 * Each pair of bodies has a {@link ContactMode}, configured per pair, per body, per group or for the scene (see
 * {@link #setPairContactMode}); the default is {@link ContactMode#LCP}. Then:
 * <ul>
 *   <li>a pair with a dynamic body uses its configured mode. A kinematic body (a tool included) acts on a dynamic
 *       one as an infinite mass: in LCP mode the constraint impulse over {@code Δt} is the force on the tool; in
 *       PENALTY mode the spring force acts on both, equal and opposite;</li>
 *   <li>a haptic tool against a static or a non-tool kinematic body always uses PENALTY (unless configured
 *       NONE): the spring force is what the device renders, and LCP has no mass to solve for;</li>
 *   <li>every other pair without a dynamic body (tool–tool, static or kinematic against static or kinematic) is
 *       never tested.</li>
 * </ul>
 * An LCP tool is infinitely stiff: squeezing a dynamic body between a tool and a wall asks for an impossible
 * velocity, and the impulses then grow with the iteration count instead of converging. Scenes where the hand can
 * do that should resolve tool–dynamic pairs in PENALTY mode ({@link #setBodyContactMode} on the tool), whose
 * spring also keeps the rendered force within the device's passivity bound. The penalty spring is scene-wide
 * ({@link ContactSettings#penalty()}): walls felt through the tool and penalty contacts between bodies share it.
 *
 * <h2>Sleeping</h2>
 * Off unless {@link #setSleepSettings} turns it on: resting islands of dynamic bodies then stand still as static
 * bodies do, at no contact or solver cost, until touched or changed (see {@link SleepSettings}). A sleeping
 * body's pairs with static and other sleeping bodies have no contacts meanwhile; {@link #contactMode} still reports
 * the configured mode.
 */
public final class PhysicsWorld {

    /** Standard gravity along −z, m/s². */
    private static final double STANDARD_GRAVITY_MPS2 = 9.81;
    /** Octaves of depth below 1 m that the importance bins resolve (2⁻⁴⁰ m); 7 more above, to 128 m. */
    private static final int DEPTH_OCTAVES_BELOW_ONE_M = 40;
    /** Touching or separated, 47 octaves of depth in quarters, and a tool's points. */
    static final int IMPORTANCE_BINS = 1 + 4 * (DEPTH_OCTAVES_BELOW_ONE_M + 7) + 1;

    private ContactSettings settings;
    final StepProfile profile = new StepProfile();
    final StepContext context = new StepContext();
    private final Vector3d gravityMps2 = new Vector3d(0.0, 0.0, -STANDARD_GRAVITY_MPS2);

    // Cold data, per body: read when building, by the narrowphase for shapes, and when summing per-body results.
    private String[] names = new String[0];
    Shape[] shapes = new Shape[0];
    private Material[] materials = new Material[0];
    boolean[] tools = new boolean[0];
    boolean[] spheres = new boolean[0];
    boolean[] movable = new boolean[0];
    private int toolCount;
    private int staticCount;
    private int droppedPoints;

    // Hot data, per body.
    final RigidBodies bodies = new RigidBodies();
    private final Vector3d nodeScratchM = new Vector3d();
    private final Vector3d nodeScratchMps = new Vector3d();
    double[] boundsM = new double[0];

    private final ContactModeTable modes = new ContactModeTable();
    private final BodySleep sleep = new BodySleep(bodies);
    private final BodyBounds bodyBounds = new BodyBounds();
    private final CandidatePairFinder pairFinder;
    final ShapePairTest narrowphase;

    // Per-step buffers, sized by the contact budget (see allocateContactBuffers).
    /** Set with setContactBudget; null: ContactBudget.forScene of the bodies. */
    private ContactBudget configuredBudget;
    /** Whether the buffers must be sized again before the next step (bodies added since). */
    private boolean buffersStale = true;
    int pointCapacity;
    final CandidatePairs candidates = new CandidatePairs();
    int[] pairBodyA = new int[0];
    int[] pairBodyB = new int[0];
    ContactMode[] pairModes = new ContactMode[0];
    int pairCount;
    /** Points found per importance bin in the narrowphase's first pass (see importanceBin). */
    private final int[] pointsByImportance = new int[IMPORTANCE_BINS];
    final ContactManifold manifold = new ContactManifold();
    /** The one-lane step's points, their matches and the contact models (all pairs, in pair order). */
    final ContactGroup main = new ContactGroup();
    final ContactOnsets onsets = new ContactOnsets();
    /** Typical stage times, for dropping a step that runs slow ({@link #step(double, long, long)}). */
    private final StepPace pace = new StepPace();
    /** Whether the step under way may be dropped, and by when it must end: set by {@link #step(double, long, long)}. */
    private boolean dropEnabled;
    private long dropEndByNs;
    /** What the step times its stages with and reads its deadlines on ({@link #setClock}). */
    private LongSupplier clock = System::nanoTime;
    final ContactReport report = new ContactReport();
    /** Dynamic bodies held by other bodies (the tool's grab), and what {@link #sphereDepthM} tests with. */
    private final BodyHolds holds = new BodyHolds();
    private final ContactManifold queryManifold = new ContactManifold();
    /** The normal of a query that does not ask for it. */
    private final Vector3d queryNormal = new Vector3d();
    private final Transform queryPose = new Transform();
    private final Quaterniond identity = new Quaterniond();
    private final double[] queryBoundsM = new double[Aabb.STRIDE];

    final RigidBodyIntegrator integrator = new RigidBodyIntegrator();
    /** The same models as main's: the one-lane step's, and the ones the scene's settings configure. */
    private final ContactModel[] models = main.models;
    private final ContactModel[] modelByMode = main.modelByMode;
    private final LcpContactModel lcpModel = main.lcp;
    /** Per mode, by ordinal: whether its model holds the budget's points (see allocateContactBuffers). */
    private final boolean[] modeReserved = new boolean[ContactMode.count()];
    final Vector3d velocityAMps = new Vector3d();
    final Vector3d velocityBMps = new Vector3d();

    private final Matrix3d inertia = new Matrix3d();

    /** The second lane of a split step ({@link #setStepLanes}); null on one lane. */
    private StepLanes lanes;
    /** Whether the last split step left every dynamic body's state finite (each lane checks its own). */
    boolean lanesFinite = true;
    /** Whether the one-lane group's warm-start memory is older than the last step (a split step ran since). */
    private boolean mainStale;

    /** The deformable bodies, in the order added, each with its coupling to the rigid bodies. */
    private DeformableCoupling[] deformables = new DeformableCoupling[0];

    /** An empty world with the default {@link ContactSettings} and this penalty spring. */
    public PhysicsWorld(PenaltyContactSettings penaltySettings) {
        this(ContactSettings.defaults().withPenalty(Objects.requireNonNull(penaltySettings, "settings")));
    }

    /** An empty world with these contact settings. */
    public PhysicsWorld(ContactSettings settings) {
        this(settings, new DynamicTreePairFinder(), new MeshAwarePairTest());
    }

    /** An empty world with its broadphase and narrowphase given: the seam for other broadphases and for tests. */
    PhysicsWorld(ContactSettings settings, CandidatePairFinder pairFinder, ShapePairTest narrowphase) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.pairFinder = Objects.requireNonNull(pairFinder, "pairFinder");
        this.pairFinder.setPairFilter(this::everTested);
        this.narrowphase = Objects.requireNonNull(narrowphase, "narrowphase");
    }

    // ---- Building --------------------------------------------------------------------------------------------

    /** {@link #addStaticBody(String, Shape, Vector3dc, Quaterniondc, Material)} with {@link Material#DEFAULT}. */
    public int addStaticBody(String name, Shape shape, Vector3dc positionM, Quaterniondc orientation) {
        return addStaticBody(name, shape, positionM, orientation, Material.DEFAULT);
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
    public int addStaticBody(String name, Shape shape, Vector3dc positionM, Quaterniondc orientation,
                             Material material) {
        Objects.requireNonNull(shape, "shape");
        return addBody(name, BodyType.STATIC, false, shape, positionM, orientation, material, 0.0, null);
    }

    /**
     * Adds a body whose pose and velocity are set from outside with {@link #setKinematicState} (a scripted
     * platform, a pusher). It acts on dynamic bodies as an infinite mass and is never moved by the world.
     * Allocates; call while building.
     */
    public int addKinematicBody(String name, Shape shape, Vector3dc positionM, Quaterniondc orientation,
                                Material material) {
        Objects.requireNonNull(shape, "shape");
        return addBody(name, BodyType.KINEMATIC, false, shape, positionM, orientation, material, 0.0, null);
    }

    /** {@link #addTool(String, double, Material)} with {@link Material#DEFAULT} (a frictionless tool). */
    public int addTool(String name, double radiusM) {
        return addTool(name, radiusM, Material.DEFAULT);
    }

    /**
     * Adds a haptic tool: a kinematic sphere of radius {@code radiusM}, at the origin and at rest until the first
     * {@link #setToolState}. Allocates; call while building the scene, not per tick.
     *
     * @return the new body's index, to pass to {@link #setToolState} and {@link #contactForceOnBody}
     */
    public int addTool(String name, double radiusM, Material material) {
        SphereShape shape = new SphereShape(radiusM);
        return addBody(name, BodyType.KINEMATIC, true, shape, new Vector3d(), new Quaterniond(), material, 0.0,
                null);
    }

    /**
     * Adds a body moved by gravity and contacts. Allocates; call while building.
     *
     * @param shape any shape with a volume: not a {@link PlaneShape} or a {@link TriangleMeshShape}
     * @param positionM the centre of mass in the world, m: the body origin is the centre of mass in this version
     * @param massKg finite and {@code > 0}
     * @param inertiaKgM2 inertia tensor about the centre of mass in the body frame, kg·m²: symmetric and positive
     *     definite (for uniform spheres and boxes see {@code dynamics.SolidInertia}; otherwise the mass-properties
     *     calculator)
     * @param material surface properties for contacts
     */
    public int addDynamicBody(String name, Shape shape, Vector3dc positionM, Quaterniondc orientation,
                              double massKg, Matrix3dc inertiaKgM2, Material material) {
        Objects.requireNonNull(shape, "shape");
        Objects.requireNonNull(inertiaKgM2, "inertiaKgM2");
        if (shape instanceof PlaneShape || shape instanceof TriangleMeshShape) {
            throw new IllegalArgumentException("a dynamic body needs a shape with a volume, not "
                    + shape.getClass().getSimpleName());
        }
        if (!(massKg > 0.0) || !Double.isFinite(massKg)) {
            throw new IllegalArgumentException("massKg must be finite and > 0, was " + massKg);
        }
        requireInertia(inertiaKgM2);
        return addBody(name, BodyType.DYNAMIC, false, shape, positionM, orientation, material, massKg, inertiaKgM2);
    }

    /**
     * Sets the contact budget and allocates every per-step contact buffer to it now: from here on no step
     * allocates, and a step that finds more than the budget drops the least important pairs and points (see
     * {@link ContactBudget}). Replaces the default {@link ContactBudget#forScene}, also for bodies added later.
     * Allocates about {@link ContactBudget#bytes()}; call while building.
     */
    public void setContactBudget(ContactBudget budget) {
        configuredBudget = Objects.requireNonNull(budget, "budget");
        allocateContactBuffers();
    }

    /** The budget the contact buffers are (or, before the next step, will be) sized by. Allocates. */
    public ContactBudget contactBudget() {
        return configuredBudget != null ? configuredBudget
            : ContactBudget.forScene(bodies.count, staticCount, toolCount);
    }

    /**
     * What the bodies' current poses need of the contact storage: every pair whose bounds overlap and the points
     * of those that touch, counted over all pairs without a budget. For checking a scene against its budget when it
     * is loaded; allocates (an index per body) and sweeps the bounds sorted along the axis they spread most on, so
     * it tests O(n log n) plus the pairs that overlap on that axis: not for the real-time path.
     */
    public ContactNeed contactNeed() {
        int n = bodies.count;
        refreshMovingBounds();
        int axis = widestAxis(n);
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (i, j) -> Double.compare(boundsM[i * Aabb.STRIDE + axis], boundsM[j * Aabb.STRIDE + axis]));
        long pairCountNeeded = 0;
        long pointCountNeeded = 0;
        for (int i = 0; i < n; i++) {
            int first = order[i];
            double maxOnAxis = boundsM[first * Aabb.STRIDE + 3 + axis];
            for (int j = i + 1; j < n && boundsM[order[j] * Aabb.STRIDE + axis] <= maxOnAxis; j++) {
                int a = Math.min(first, order[j]);
                int b = Math.max(first, order[j]);
                // Pairs never tested (contact mode NONE, two kinematic bodies) need no room.
                if ((!movable[a] && !movable[b]) || !everTested(a, b) || !Aabb.overlap(boundsM, a, b)) {
                    continue;
                }
                pairCountNeeded++;
                if (effectiveMode(a, b) != ContactMode.NONE
                        && narrowphase.collide(shapes[a], bodies.pose[a], shapes[b], bodies.pose[b], manifold)) {
                    pointCountNeeded += manifold.pointCount();
                }
            }
        }
        return new ContactNeed(pairCountNeeded, pointCountNeeded);
    }

    /** The axis along which the centres of the bodies with finite bounds spread most (0, 1, 2 for x, y, z). */
    private int widestAxis(int n) {
        int widest = 2;
        double widestSpread = -1.0;
        for (int axis = 0; axis < 3; axis++) {
            double lowest = Double.POSITIVE_INFINITY;
            double highest = Double.NEGATIVE_INFINITY;
            for (int body = 0; body < n; body++) {
                double centre = 0.5 * (boundsM[body * Aabb.STRIDE + axis] + boundsM[body * Aabb.STRIDE + 3 + axis]);
                if (Double.isFinite(centre)) {
                    lowest = Math.min(lowest, centre);
                    highest = Math.max(highest, centre);
                }
            }
            if (highest - lowest > widestSpread) {
                widestSpread = highest - lowest;
                widest = axis;
            }
        }
        return widest;
    }

    // ---- Scene settings --------------------------------------------------------------------------------------

    /** The contact settings the next step uses. */
    public ContactSettings contactSettings() {
        return settings;
    }

    /** Replaces the contact settings from the next step on, and wakes every sleeping body. No allocation. */
    public void setContactSettings(ContactSettings contactSettings) {
        this.settings = Objects.requireNonNull(contactSettings, "contactSettings");
        sleep.wakeAll();
    }

    /** When resting islands sleep; {@link SleepSettings#off()} unless set. */
    public SleepSettings sleepSettings() {
        return sleep.settings();
    }

    /** Replaces the sleep settings from the next step on; {@link SleepSettings#off()} wakes every body. */
    public void setSleepSettings(SleepSettings sleepSettings) {
        sleep.setSettings(Objects.requireNonNull(sleepSettings, "sleepSettings"));
    }

    /** Whether the body is asleep (see {@link SleepSettings}); always {@code false} for non-dynamic bodies. */
    public boolean isBodyAsleep(int body) {
        return sleep.isAsleep(Objects.checkIndex(body, bodyCount()));
    }

    /** Number of bodies asleep. */
    public int sleepingBodyCount() {
        return sleep.asleepCount();
    }

    // ---- Deformable bodies -----------------------------------------------------------------------------------

    /**
     * Adds a deformable body, stepped in {@link StepStage#DEFORMABLE_INTEGRATE} of every step. Its nodes touch the
     * rigid bodies and the tool through a frictionless penalty coupling of stiffness {@code couplingStiffnessNpm} and
     * damping {@code couplingDampingNspm} ({@link StepStage#DEFORMABLE_CONTACTS}): the node is pushed out, the
     * body receives the opposite force (a dynamic body in its motion, every body in {@link #contactForceOnBody}, so
     * the tool renders it). The coupling is explicit: it is stable for a step Δt while
     * {@code k·Δt² + 2·b·Δt < 4·m}, m the lighter of a node and the body it touches
     * ({@link #maxStableCouplingStiffnessNpm}). Allocates; a scene operation.
     *
     * @return the deformable body's index
     */
    public int addDeformable(DeformableBody body, double couplingStiffnessNpm, double couplingDampingNspm) {
        Objects.requireNonNull(body, "body");
        if (!(couplingStiffnessNpm >= 0.0) || !Double.isFinite(couplingStiffnessNpm)) {
            throw new IllegalArgumentException("deformable '" + body.name()
                + "': coupling stiffness must be finite and >= 0 N/m, was " + couplingStiffnessNpm);
        }
        if (!(couplingDampingNspm >= 0.0) || !Double.isFinite(couplingDampingNspm)) {
            throw new IllegalArgumentException("deformable '" + body.name()
                + "': coupling damping must be finite and >= 0 N·s/m, was " + couplingDampingNspm);
        }
        if (!(body.nodeRadiusM() > 0.0) || !Double.isFinite(body.nodeRadiusM())) {
            throw new IllegalArgumentException("deformable '" + body.name() + "': node radius must be finite and > 0 m, was "
                + body.nodeRadiusM());
        }
        DeformableCoupling coupling = new DeformableCoupling(body, couplingStiffnessNpm, couplingDampingNspm);
        coupling.reserve(bodies.capacity());
        deformables = Arrays.copyOf(deformables, deformables.length + 1);
        deformables[deformables.length - 1] = coupling;
        return deformables.length - 1;
    }

    public int deformableCount() {
        return deformables.length;
    }

    /** Nodes of every deformable body together (what a snapshot of them holds). */
    public int deformableNodeCount() {
        int n = 0;
        for (DeformableCoupling d : deformables) {
            n += d.body.nodeCount();
        }
        return n;
    }

    public DeformableBody deformable(int index) {
        return deformables[Objects.checkIndex(index, deformables.length)].body;
    }

    /**
     * Holds node {@code node} of deformable body {@code index} to rigid body {@code body} (the tool: a grasp) through a
     * spring of {@code stiffnessNpm} and a damper of {@code dampingNspm} between the node and the body's centre,
     * from the next step: the node is pulled toward the body and the body (the tool, which renders it) feels the
     * opposite. Explicit like the contacts: stable while {@code k·Δt² + 2·b·Δt < 4·m_node}. {@code node} −1 lets
     * go. No allocation.
     */
    public void holdDeformableNode(int index, int node, int body, double stiffnessNpm, double dampingNspm) {
        DeformableCoupling d = deformables[Objects.checkIndex(index, deformables.length)];
        if (node >= 0) {
            Objects.checkIndex(node, d.body.nodeCount());
            Objects.checkIndex(body, bodyCount());
            if (!(stiffnessNpm >= 0.0) || !Double.isFinite(stiffnessNpm) || !(dampingNspm >= 0.0)
                    || !Double.isFinite(dampingNspm)) {
                throw new IllegalArgumentException("a grasp needs a finite stiffness and damping >= 0, got "
                    + stiffnessNpm + " N/m and " + dampingNspm + " N·s/m");
            }
        }
        d.hold(node, body, stiffnessNpm, dampingNspm);
    }

    /** The node of deformable body {@code index} held by a rigid body, or −1. */
    public int heldDeformableNode(int index) {
        return deformables[Objects.checkIndex(index, deformables.length)].heldNode();
    }

    /** The node–body coupling spring of deformable body {@code index}, N/m: what {@link #addDeformable} was given. */
    public double deformableCouplingStiffnessNpm(int index) {
        return deformables[Objects.checkIndex(index, deformables.length)].stiffnessNpm;
    }

    /** The coupling's damper of deformable body {@code index}, N·s/m. */
    public double deformableCouplingDampingNspm(int index) {
        return deformables[Objects.checkIndex(index, deformables.length)].dampingNspm;
    }

    /** The rigid body holding a node of deformable body {@code index} ({@link #holdDeformableNode}), or −1. */
    public int deformableHolder(int index) {
        DeformableCoupling d = deformables[Objects.checkIndex(index, deformables.length)];
        return d.heldNode() < 0 ? -1 : d.holder();
    }

    /** The spring of the hold on deformable body {@code index}, N/m; 0 when no node is held. */
    public double heldDeformableStiffnessNpm(int index) {
        DeformableCoupling d = deformables[Objects.checkIndex(index, deformables.length)];
        return d.heldNode() < 0 ? 0.0 : d.holdStiffnessNpm();
    }

    /** The damper of the hold on deformable body {@code index}, N·s/m; 0 when no node is held. */
    public double heldDeformableDampingNspm(int index) {
        DeformableCoupling d = deformables[Objects.checkIndex(index, deformables.length)];
        return d.heldNode() < 0 ? 0.0 : d.holdDampingNspm();
    }

    /**
     * Whether the nodes of deformable bodies push rigid body {@code body} (and it them): every body but one whose own
     * contact mode is {@link ContactMode#NONE}, which passes through them.
     */
    public boolean touchesDeformableNodes(int body) {
        Objects.checkIndex(body, bodyCount());
        return modes.bodyMode(body) != ContactMode.NONE;
    }

    /** Node–rigid contacts of deformable body {@code index} in the last step. */
    public int deformableContactCount(int index) {
        return deformables[Objects.checkIndex(index, deformables.length)].lastContacts;
    }

    /**
     * Holds dynamic body {@code body} by {@code holder} (the tool: a grab) from the next step, through a spring of
     * {@code stiffnessNpm} and a damper of {@code dampingNspm} between the holder's centre and the point of the body
     * where the holder's centre is now (the anchor, fixed on the body; the spring starts unstretched). The body feels
     * {@code F = k·(x_holder − x_anchor) + b·(v_holder − v_anchor)} at the anchor, so it hangs and swings from it; the
     * holder feels {@code −F} in its contact force ({@link #contactForceOnBody}), so a tool renders the body's weight
     * and inertia. The pair does not collide while held. Replaces the holder's earlier hold. Explicit like the
     * contacts: stable while {@code k·Δt² + 2·b·Δt < 4·m_a}, {@code m_a} the body's effective mass at the anchor
     * ({@link #anchorEffectiveMassKg}). A body taken out of the simulation is let go. No allocation.
     *
     * @throws IllegalArgumentException if {@code body} is not dynamic, is the holder, or the spring or damper is not
     *                                  finite and {@code >= 0}
     * @throws IllegalStateException    if {@value BodyHolds#CAPACITY} other holders already hold a body
     */
    public void holdBody(int holder, int body, double stiffnessNpm, double dampingNspm) {
        Objects.checkIndex(holder, bodyCount());
        Objects.checkIndex(body, bodyCount());
        if (!bodies.dynamic[body]) {
            throw wrongType(body, BodyType.DYNAMIC);
        }
        if (holder == body) {
            throw new IllegalArgumentException("body '" + names[body] + "' cannot hold itself");
        }
        if (!(stiffnessNpm >= 0.0) || !Double.isFinite(stiffnessNpm) || !(dampingNspm >= 0.0)
                || !Double.isFinite(dampingNspm)) {
            throw new IllegalArgumentException("a hold needs a finite stiffness and damping >= 0, got "
                + stiffnessNpm + " N/m and " + dampingNspm + " N·s/m");
        }
        holds.hold(bodies, holder, body, stiffnessNpm, dampingNspm);
        sleep.wake(body);
    }

    /** Lets go of the body {@code holder} holds ({@link #holdBody}), if any, from the next step. No allocation. */
    public void releaseBody(int holder) {
        holds.release(Objects.checkIndex(holder, bodyCount()));
    }

    /** The body {@code holder} holds ({@link #holdBody}), or −1. */
    public int heldBody(int holder) {
        return holds.heldBy(Objects.checkIndex(holder, bodyCount()));
    }

    /** The spring of {@code holder}'s hold, N/m; 0 when it holds nothing. */
    public double heldBodyStiffnessNpm(int holder) {
        return holds.stiffnessOf(Objects.checkIndex(holder, bodyCount()));
    }

    /** The damper of {@code holder}'s hold, N·s/m; 0 when it holds nothing. */
    public double heldBodyDampingNspm(int holder) {
        return holds.dampingOf(Objects.checkIndex(holder, bodyCount()));
    }

    /**
     * Copies the anchor of {@code holder}'s hold, world frame, now, into {@code destM} (left unchanged when it holds
     * nothing). No allocation.
     */
    public Vector3d holdAnchor(int holder, Vector3d destM) {
        return holds.anchor(bodies, Objects.checkIndex(holder, bodyCount()), destM);
    }

    /**
     * A body's effective mass at a point {@code leverArmM} from its centre of mass, in the direction where it is least:
     * {@code 1/m_a = 1/m + r²/I_min}, with {@code I_min} the least principal moment of inertia. A lower bound for every
     * point within that distance, so a hold's stability can be checked before anyone grabs.
     */
    public static double anchorEffectiveMassKg(double massKg, double leastPrincipalInertiaKgM2, double leverArmM) {
        return BodyHolds.anchorEffectiveMassKg(massKg, leastPrincipalInertiaKgM2, leverArmM);
    }

    /**
     * {@link #anchorEffectiveMassKg(double, double, double)} for dynamic body {@code body} at {@code leverArmM} from
     * its centre, with its own mass and least principal moment of inertia.
     *
     * @throws IllegalArgumentException if the body is not dynamic
     */
    public double anchorEffectiveMassKg(int body, double leverArmM) {
        Objects.checkIndex(body, bodyCount());
        if (!bodies.dynamic[body]) {
            throw wrongType(body, BodyType.DYNAMIC);
        }
        return BodyHolds.anchorEffectiveMassKg(bodies.massKg[body],
            SymmetricEigen.least(bodies.inertiaBody[body]), leverArmM);
    }

    /**
     * How far body {@code body}'s shape reaches from its centre, m, at most: the farthest corner of its bounding box
     * (an upper bound; unbounded for a plane). No allocation.
     */
    public double bodyExtentM(int body) {
        Objects.checkIndex(body, bodyCount());
        double[] b = queryBoundsM;
        bodyBounds.write(shapes[body], bodies.positionM[body], bodies.orientation[body], b, 0);
        Vector3d centre = bodies.positionM[body];
        double dx = Math.max(centre.x - b[0], b[3] - centre.x);
        double dy = Math.max(centre.y - b[1], b[4] - centre.y);
        double dz = Math.max(centre.z - b[2], b[5] - centre.z);
        return Math.sqrt(dx * dx + dy * dy + dz * dz);
    }

    /**
     * How deep a sphere of {@code sphere}'s radius centred at {@code centreM} overlaps body {@code body} now, m (the
     * deepest point of the narrowphase's test, 0 touching), or {@link Double#NEGATIVE_INFINITY} when they do not
     * touch: what a tool's reach meets when a button is pressed. Not a plane or a mesh against a plane. No allocation.
     */
    public double sphereDepthM(int body, SphereShape sphere, Vector3dc centreM) {
        return sphereDepthM(body, sphere, centreM, queryNormal);
    }

    /**
     * {@link #sphereDepthM(int, SphereShape, Vector3dc)}, and the contact's unit normal into {@code destNormal}: from
     * the body toward the sphere, the way out of it (unchanged when they do not touch). No allocation.
     */
    public double sphereDepthM(int body, SphereShape sphere, Vector3dc centreM, Vector3d destNormal) {
        Objects.checkIndex(body, bodyCount());
        requireFinite(centreM);
        queryPose.set(centreM, identity);
        if (!narrowphase.collide(sphere, queryPose, shapes[body], bodies.pose[body], queryManifold)) {
            return Double.NEGATIVE_INFINITY;
        }
        double deepestM = Double.NEGATIVE_INFINITY;
        for (int j = 0; j < queryManifold.pointCount(); j++) {
            deepestM = Math.max(deepestM, queryManifold.depth(j));
        }
        destNormal.set(queryManifold.normal);
        return deepestM;
    }

    /** The stiffest coupling an explicit step of {@code dtS} keeps stable on a mass of {@code massKg}. */
    public static double maxStableCouplingStiffnessNpm(double massKg, double dampingNspm, double dtS) {
        return DeformableCoupling.maxStableStiffnessNpm(massKg, dampingNspm, dtS);
    }

    /**
     * Wakes a sleeping body; the rest of its island wakes at the start of the next step. Setting a body's pose or
     * velocity, its material or damping, gravity, contact settings or modes wakes bodies by itself. No allocation.
     */
    public void wakeBody(int body) {
        sleep.wake(Objects.checkIndex(body, bodyCount()));
    }

    /** Copies the gravitational acceleration into {@code destMps2}; {@code (0, 0, −9.81)} unless set. */
    public Vector3d gravity(Vector3d destMps2) {
        return destMps2.set(gravityMps2);
    }

    /** Sets the gravitational acceleration, m/s², for every dynamic body. No allocation. */
    public void setGravity(Vector3dc accelerationMps2) {
        if (!accelerationMps2.isFinite()) {
            throw new IllegalArgumentException("gravity must be finite, was " + format(accelerationMps2));
        }
        gravityMps2.set(accelerationMps2);
        sleep.wakeAll();
    }

    /** The body's surface material. */
    public Material material(int body) {
        return materials[Objects.checkIndex(body, bodyCount())];
    }

    /** Replaces the body's material from the next step on. */
    public void setMaterial(int body, Material material) {
        materials[Objects.checkIndex(body, bodyCount())] = Objects.requireNonNull(material, "material");
        sleep.wake(body);
    }

    /**
     * Sets a dynamic body's velocity damping: each step {@code v ← v/(1 + c·Δt)}, likewise ω (implicit, so any
     * rate is stable). Both 0 by default.
     *
     * @param linearPerS {@code c} for the linear velocity, 1/s, {@code >= 0}
     * @param angularPerS {@code c} for the angular velocity, 1/s, {@code >= 0}
     */
    public void setDamping(int body, double linearPerS, double angularPerS) {
        Objects.checkIndex(body, bodyCount());
        if (!(linearPerS >= 0.0) || !(angularPerS >= 0.0) || !Double.isFinite(linearPerS)
                || !Double.isFinite(angularPerS)) {
            throw new IllegalArgumentException("damping must be finite and >= 0, was " + linearPerS + ", "
                    + angularPerS);
        }
        bodies.linearDampingPerS[body] = linearPerS;
        bodies.angularDampingPerS[body] = angularPerS;
        sleep.wake(body);
    }

    // ---- Contact modes ---------------------------------------------------------------------------------------

    /**
     * Sets the mode of every pair that has no more specific setting (Springhead's
     * {@code SetContactMode(mode)}). The default is {@link ContactMode#LCP}.
     */
    public void setSceneContactMode(ContactMode mode) {
        modes.setScene(Objects.requireNonNull(mode, "mode"));
        reserveFor(mode);
        // A pair that starts to interact may join two sleeping bodies: the islands are found again.
        sleep.wakeAll();
    }

    /**
     * Sets the mode of {@code body} against every other body (Springhead's {@code SetContactMode(solid, mode)}).
     * When both bodies of a pair carry a body setting, the later call wins.
     */
    public void setBodyContactMode(int body, ContactMode mode) {
        modes.setBody(Objects.checkIndex(body, bodyCount()), Objects.requireNonNull(mode, "mode"));
        reserveFor(mode);
        // A pair that starts to interact may join two sleeping bodies: the islands are found again.
        sleep.wakeAll();
    }

    /** Removes the body's own setting; its pairs fall back to group and scene settings. */
    public void clearBodyContactMode(int body) {
        modes.setBody(Objects.checkIndex(body, bodyCount()), null);
        // A pair that starts to interact may join two sleeping bodies: the islands are found again.
        sleep.wakeAll();
    }

    /**
     * Puts {@code body} in group {@code group} ({@code >= 1}), or in none with 0. A body is in at most one group;
     * {@link #setGroupContactMode} sets the mode of the pairs within a group.
     */
    public void setBodyGroup(int body, int group) {
        Objects.checkIndex(body, bodyCount());
        if (group < 0) {
            throw new IllegalArgumentException("group must be >= 0 (0: no group), was " + group);
        }
        modes.setGroupOf(body, group);
        // A pair that starts to interact may join two sleeping bodies: the islands are found again.
        sleep.wakeAll();
    }

    /** The body's group, 0 for none. */
    public int bodyGroup(int body) {
        return modes.groupOf(Objects.checkIndex(body, bodyCount()));
    }

    /**
     * Sets the mode of every pair of bodies that are both in {@code group} (Springhead's
     * {@code SetContactMode(group, length, mode)}, with groups named by id).
     */
    public void setGroupContactMode(int group, ContactMode mode) {
        modes.setGroup(requireGroup(group), Objects.requireNonNull(mode, "mode"));
        reserveFor(mode);
        // A pair that starts to interact may join two sleeping bodies: the islands are found again.
        sleep.wakeAll();
    }

    /** Removes the group's setting. */
    public void clearGroupContactMode(int group) {
        modes.setGroup(requireGroup(group), null);
        // A pair that starts to interact may join two sleeping bodies: the islands are found again.
        sleep.wakeAll();
    }

    /**
     * Sets the mode of one pair (Springhead's {@code SetContactMode(lhs, rhs, mode)}).
     *
     * <p><b>Precedence</b>, most specific first: <b>pair &gt; body &gt; group &gt; scene</b>. A pair setting beats
     * either body's setting, which beats a shared group's, which beats the scene's, whatever order the calls came
     * in; between the two bodies' own settings the later call wins. The rules of the class comment for pairs
     * without a dynamic body apply on top ({@link #contactMode} reports the result).
     */
    public void setPairContactMode(int bodyA, int bodyB, ContactMode mode) {
        requirePair(bodyA, bodyB);
        modes.setPair(bodyA, bodyB, Objects.requireNonNull(mode, "mode"));
        reserveFor(mode);
        // A pair that starts to interact may join two sleeping bodies: the islands are found again.
        sleep.wakeAll();
    }

    /** Removes the pair's own setting; it falls back to body, group and scene settings. */
    public void clearPairContactMode(int bodyA, int bodyB) {
        requirePair(bodyA, bodyB);
        modes.setPair(bodyA, bodyB, null);
        // A pair that starts to interact may join two sleeping bodies: the islands are found again.
        sleep.wakeAll();
    }

    /**
     * The mode the next step uses for this pair: the configured mode by precedence, then the rules for pairs
     * without a dynamic body (a tool against a static or kinematic body: PENALTY; other such pairs: NONE).
     */
    public ContactMode contactMode(int bodyA, int bodyB) {
        Objects.checkIndex(bodyA, bodyCount());
        Objects.checkIndex(bodyB, bodyCount());
        if (bodyA == bodyB) {
            return ContactMode.NONE;
        }
        // A sleeping body counts as the dynamic body it is.
        return effectiveMode(bodyA, bodyB, bodies.type[bodyA] == BodyType.DYNAMIC,
                bodies.type[bodyB] == BodyType.DYNAMIC);
    }

    // ---- Per-tick input --------------------------------------------------------------------------------------

    /**
     * Sets a kinematic body's (typically a tool's) position and velocity for the next {@link #step}: the device's
     * reading, already in the world frame. The orientation and angular velocity are left as they are. The world
     * does not integrate the velocity; it feeds the contacts (the penalty damping, the LCP relative velocity).
     * No allocation.
     *
     * @throws IllegalArgumentException if {@code tool} is not kinematic, or a component is not finite (a NaN from a
     *     device must stop here rather than turn into a NaN force command)
     */
    public void setToolState(int tool, Vector3dc positionM, Vector3dc velocityMps) {
        Objects.checkIndex(tool, bodyCount());
        if (bodies.type[tool] != BodyType.KINEMATIC) {
            throw notATool(tool);
        }
        if (!positionM.isFinite() || !velocityMps.isFinite()) {
            throw nonFiniteToolState(positionM, velocityMps);
        }
        bodies.positionM[tool].set(positionM);
        bodies.linearVelocityMps[tool].set(velocityMps);
    }

    /**
     * Sets a kinematic body's full state for the next {@link #step}; the world holds it there (it does not
     * integrate kinematic bodies). No allocation.
     *
     * @param orientation normalised on the way in; must be non-zero
     * @param angularVelocityRadps world frame
     */
    public void setKinematicState(int body, Vector3dc positionM, Quaterniondc orientation,
                                  Vector3dc linearVelocityMps, Vector3dc angularVelocityRadps) {
        Objects.checkIndex(body, bodyCount());
        if (bodies.type[body] != BodyType.KINEMATIC) {
            throw wrongType(body, BodyType.KINEMATIC);
        }
        requireFinite(positionM);
        requireFinite(linearVelocityMps);
        requireFinite(angularVelocityRadps);
        requireOrientation(orientation);
        bodies.positionM[body].set(positionM);
        bodies.orientation[body].set(orientation).normalize();
        bodies.linearVelocityMps[body].set(linearVelocityMps);
        bodies.angularVelocityRadps[body].set(angularVelocityRadps);
    }

    /**
     * Sets a dynamic body's linear and angular (world frame) velocity, e.g. as an initial condition. No
     * allocation.
     */
    public void setBodyVelocity(int body, Vector3dc linearVelocityMps, Vector3dc angularVelocityRadps) {
        Objects.checkIndex(body, bodyCount());
        if (bodies.type[body] != BodyType.DYNAMIC) {
            throw wrongType(body, BodyType.DYNAMIC);
        }
        requireFinite(linearVelocityMps);
        requireFinite(angularVelocityRadps);
        sleep.wake(body);
        bodies.linearVelocityMps[body].set(linearVelocityMps);
        bodies.angularVelocityRadps[body].set(angularVelocityRadps);
    }

    /**
     * Adds a force acting at a world point to a dynamic body for the next step (box2d {@code b2Body_ApplyForce}):
     * {@code F} and {@code (p − x) × F} about its centre of mass go into the same accumulators as the penalty
     * contacts' forces, which {@link StepStage#INTEGRATE_VELOCITIES} applies with gravity and then clears, so a force
     * acts for exactly one step and calls within a step add up. Wakes a sleeping body. No allocation.
     *
     * @param forceN the force, N, world frame, finite
     * @param pointM where it acts, m, world frame, finite (the body's position for no torque)
     */
    public void applyForce(int body, Vector3dc forceN, Vector3dc pointM) {
        Objects.checkIndex(body, bodyCount());
        if (bodies.type[body] != BodyType.DYNAMIC) {
            throw wrongType(body, BodyType.DYNAMIC);
        }
        requireFinite(forceN);
        requireFinite(pointM);
        sleep.wake(body);
        bodies.forceN[body].add(forceN);
        Vector3d leverArmM = pointM.sub(bodies.positionM[body], velocityAMps);
        bodies.torqueNm[body].add(leverArmM.cross(forceN, velocityBMps));
    }

    /**
     * Locks a dynamic body's rotation from now on: its inverse inertia becomes zero, so torques, contacts and
     * holds move it but never turn it (Bullet's angular factor of zero), and its angular velocity is zeroed. For a
     * body that stands for something that slides rather than rolls, such as a haptic tool's coupled proxy: a free
     * sphere pushed along a surface with friction rolls, and the friction would not be felt. It cannot be undone.
     * No allocation.
     */
    public void lockRotation(int body) {
        Objects.checkIndex(body, bodyCount());
        if (bodies.type[body] != BodyType.DYNAMIC) {
            throw wrongType(body, BodyType.DYNAMIC);
        }
        sleep.wake(body);
        bodies.inverseInertiaBody[body].zero();
        bodies.isotropic[body] = true;
        bodies.angularVelocityRadps[body].zero();
        bodies.refreshPose(body);
    }

    /**
     * Limits how far a dynamic body's velocity may carry it in one step (Box2D's {@code b2_maxTranslation}, per
     * body): a faster body has its velocity cut to that, losing the momentum above it, before its position is
     * integrated. A sphere held to its radius per step cannot pass through a body between two steps, however thin:
     * consecutive positions overlap, and the contact it meets never has its centre past the middle. For a body a
     * device drives (a haptic tool's coupled proxy), where a glitch in the device's position could throw it anywhere.
     * {@link Double#POSITIVE_INFINITY}, the default, is no limit. No allocation.
     *
     * @param distanceM {@code > 0}, or infinite
     */
    public void setMaxStepDistance(int body, double distanceM) {
        Objects.checkIndex(body, bodyCount());
        if (bodies.type[body] != BodyType.DYNAMIC) {
            throw wrongType(body, BodyType.DYNAMIC);
        }
        if (!(distanceM > 0.0) || Double.isNaN(distanceM)) {
            throw new IllegalArgumentException("a step's distance limit must be > 0, was " + distanceM);
        }
        bodies.maxStepDistanceM[body] = distanceM;
    }

    /** The limit {@link #setMaxStepDistance} set, m; infinite when none. */
    public double maxStepDistanceM(int body) {
        return bodies.maxStepDistanceM[Objects.checkIndex(body, bodyCount())];
    }

    /** Whether {@link #lockRotation} locked this body's rotation. */
    public boolean isRotationLocked(int body) {
        Objects.checkIndex(body, bodyCount());
        return bodies.type[body] == BodyType.DYNAMIC && bodies.isotropic[body]
            && bodies.inverseInertiaBody[body].m00() == 0.0;
    }

    /** Moves a dynamic body (teleport: its velocity is kept). No allocation. */
    public void setBodyPose(int body, Vector3dc positionM, Quaterniondc orientation) {
        Objects.checkIndex(body, bodyCount());
        if (bodies.type[body] != BodyType.DYNAMIC) {
            throw wrongType(body, BodyType.DYNAMIC);
        }
        requireFinite(positionM);
        requireOrientation(orientation);
        sleep.wake(body);
        bodies.positionM[body].set(positionM);
        bodies.orientation[body].set(orientation).normalize();
        bodies.refreshPose(body);
    }

    // ---- Step ------------------------------------------------------------------------------------------------

    /**
     * Does now the set-up the first step would otherwise do before it can step: allocates the contact storage (when
     * {@link #setContactBudget} did not), registers every body with the broadphase, builds its tree and finds the
     * overlapping pairs. Allocates; call once the scene is built, before a real-time loop's first deadline (the
     * first step of a 200-sphere pile spent 0.6–0.75 ms on it and overran its tick). Moves nothing and touches no
     * state the step reads: the next step finds the same pairs in the same order and gives the same bits as without
     * it. Optional, and harmless to repeat.
     */
    public void prime() {
        if (buffersStale) {
            allocateContactBuffers();
        }
        refreshMovingBounds();
        pairFinder.findPairs(boundsM, movable, tools, bodies.count, candidates);
    }

    /**
     * Runs the stages of {@link StepStage} in order and times each into {@link #profile()}. No allocation (see
     * the class comment for the one exception).
     *
     * @param dtS the time this step advances, seconds, finite and {@code > 0}
     */
    public void step(double dtS) {
        if (!(dtS > 0.0) || !Double.isFinite(dtS)) {
            throw invalidTimeStep(dtS);
        }
        context.refill(dtS, settings, gravityMps2);
        runStages(dtS);
    }

    /**
     * {@link #step(double)} with a deadline for the contact solver's sweeps: once the world's clock
     * ({@link #nanoTime()}) reaches {@code sweepDeadlineNs}, the velocity and position sweeps stop after their first
     * (see {@link StepContext#pastSweepDeadline()}), and {@link StepProfile#lastSweepDeadlineReached()} says so.
     * Every other stage runs whole. For a loop on the wall clock: the answer then depends on the machine's speed, where
     * {@link #step(double)}'s never does.
     *
     * @param dtS             the time this step advances, seconds, finite and {@code > 0}
     * @param sweepDeadlineNs a time on the world's clock ({@link #nanoTime()})
     */
    public void step(double dtS, long sweepDeadlineNs) {
        if (!(dtS > 0.0) || !Double.isFinite(dtS)) {
            throw invalidTimeStep(dtS);
        }
        context.refill(dtS, settings, gravityMps2);
        context.sweepDeadline(sweepDeadlineNs);
        runStages(dtS);
    }

    /**
     * {@link #step(double, long)} that may also be dropped: when the step runs so slowly that it would end after
     * {@code endByNs} although a step of its typical pace would have ended well before (a machine that runs
     * everything several times slower for a few milliseconds), it stops at a checkpoint after
     * {@link StepStage#BROADPHASE} or {@link StepStage#NARROWPHASE}, before it has changed any body, and returns
     * false: the world is as if this step had not been asked for (the rule: {@link StepPace}). Forces added with
     * {@link #applyForce} for it are discarded, {@link #contactOnsets()} is empty, and the contact forces, contacts
     * and solver figures of {@link #profile()} are still the last whole step's; {@link StepProfile#lastStepDropped()}
     * says so and its stage times are the dropped step's (0 for the stages it did not reach). A scene whose typical
     * step does not fit before {@code endByNs} is never dropped, nor is a step before the world has learnt its
     * typical stage times ({@value StepPace#WARM_STEPS} whole steps, again after the scene changes), and after
     * {@value StepPace#MAX_CLOSE_DROPS} dropped with fewer than {@value StepPace#WARM_STEPS} whole steps in a row
     * between them the next runs whole and the typical times are learnt again from it on: at most
     * {@value StepPace#MAX_CLOSE_DROPS} of any {@value StepPace#MAX_CLOSE_DROPS} + {@value StepPace#WARM_STEPS}
     * steps in a row are dropped. For a loop on the wall clock, which then loses a step of simulated time instead of
     * a deadline.
     *
     * @param dtS             the time this step advances, seconds, finite and {@code > 0}
     * @param sweepDeadlineNs a time on the world's clock, as in {@link #step(double, long)}
     * @param endByNs         a time on the world's clock: when the step must have ended
     * @return true when the step ran whole, false when it was dropped
     */
    public boolean step(double dtS, long sweepDeadlineNs, long endByNs) {
        if (!(dtS > 0.0) || !Double.isFinite(dtS)) {
            throw invalidTimeStep(dtS);
        }
        context.refill(dtS, settings, gravityMps2);
        context.sweepDeadline(sweepDeadlineNs);
        dropEnabled = true;
        dropEndByNs = endByNs;
        pace.stepNs((long) (dtS * 1e9));
        try {
            return runStages(dtS);
        } finally {
            dropEnabled = false;
        }
    }

    private boolean runStages(double dtS) {
        if (buffersStale) {
            allocateContactBuffers();
        }
        if (lanes != null) {
            if (splitEligible() && lanes.step(dtS)) {
                return finishSplitStep(dtS);
            }
            lanes.steppedOnOneLane();
        }
        if (mainStale) {
            main.matcher.forget();
            mainStale = false;
        }
        long stepStartNs = clock.getAsLong();
        long stageStartNs = stepStartNs;
        findCandidatePairs();
        stageStartNs = endStage(StepStage.BROADPHASE, stageStartNs);
        if (dropEnabled && pace.shouldDrop(StepStage.BROADPHASE, pairCount, stepStartNs, stageStartNs, dropEndByNs)) {
            return drop(StepStage.BROADPHASE);
        }
        findContacts();
        stageStartNs = endStage(StepStage.NARROWPHASE, stageStartNs);
        if (dropEnabled && pace.shouldDrop(StepStage.NARROWPHASE, pairCount, stepStartNs, stageStartNs, dropEndByNs)) {
            return drop(StepStage.NARROWPHASE);
        }
        for (DeformableCoupling d : deformables) {
            if (!d.lost) {
                d.collide(bodies, shapes, boundsM, narrowphase, manifold, sleep, modes);
            }
        }
        stageStartNs = endStage(StepStage.DEFORMABLE_CONTACTS, stageStartNs);
        prepareContacts();
        stageStartNs = endStage(StepStage.PREPARE_CONTACTS, stageStartNs);
        if (holds.any()) {
            holds.apply(bodies, sleep);
        }
        integrator.applyForces(context, bodies);
        stageStartNs = endStage(StepStage.INTEGRATE_VELOCITIES, stageStartNs);
        for (ContactModel model : models) {
            model.warmStart(context, bodies);
        }
        stageStartNs = endStage(StepStage.WARM_START, stageStartNs);
        for (ContactModel model : models) {
            model.solveVelocities(context, bodies);
        }
        stageStartNs = endStage(StepStage.SOLVE, stageStartNs);
        integrator.integratePositions(context, bodies);
        stageStartNs = endStage(StepStage.INTEGRATE, stageStartNs);
        for (DeformableCoupling d : deformables) {
            if (!d.lost) {
                d.body.step(dtS);
            }
        }
        stageStartNs = endStage(StepStage.DEFORMABLE_INTEGRATE, stageStartNs);
        correctPositions();
        stageStartNs = endStage(StepStage.CORRECT_POSITIONS, stageStartNs);
        for (ContactModel model : models) {
            model.restitution(context, bodies);
        }
        stageStartNs = endStage(StepStage.RESTITUTION, stageStartNs);
        storeResults();
        sleep.update(dtS, candidates, modes);
        StringBuilder lost = takeOutNonFiniteBodies();
        endStage(StepStage.STORE_IMPULSES, stageStartNs);
        profile.recordSolver(lcpModel.rowCount(), lcpModel.lastResidualNs(), lcpModel.lastPositionResidualNs(),
                lcpModel.lastVelocitySweeps(), lcpModel.lastVelocityVisits(), lcpModel.lastBudgetReached(),
                lcpModel.lastPositionSweeps(), lcpModel.lastDeadlineReached());
        profile.recordContacts(candidates.count, candidates.dropped, droppedPoints);
        profile.recordDropped(false);
        pace.learn(profile, pairCount);
        if (lost != null) {
            throw new BodyStateLostException(lost + ": state no longer finite (NaN or infinite) after this step; "
                + "taken out of the simulation, where it stays until the scene is reset");
        }
        return true;
    }

    /** What a split step leaves to the world: sleeping, bodies whose state was lost, the profile. */
    private boolean finishSplitStep(double dtS) {
        mainStale = true;
        sleep.update(dtS, candidates, modes);
        StringBuilder lost = lanesFinite ? null : takeOutNonFiniteBodies();
        lanes.recordSolver(profile);
        // A split step runs only when neither lane's tree dropped a pair nor the narrowphase a point.
        profile.recordContacts(lanes.candidatePairs(), 0, 0);
        profile.recordDropped(false);
        pace.learn(profile, lanes.candidatePairs());
        if (lost != null) {
            lanes.cutAgain();
            throw new BodyStateLostException(lost + ": state no longer finite (NaN or infinite) after this step; "
                + "taken out of the simulation, where it stays until the scene is reset");
        }
        return true;
    }

    /**
     * Whether this step can run on two lanes ({@link #setStepLanes}): a plain step (no sweep deadline, not one that
     * may be dropped) of rigid bodies only, nothing held, sleeping off, the default narrowphase, and enough dynamic
     * bodies.
     */
    private boolean splitEligible() {
        if (dropEnabled || context.hasSweepDeadline() || deformables.length > 0 || holds.any()
                || sleep.settings().enabled() || !(narrowphase instanceof MeshAwarePairTest)) {
            return false;
        }
        int dynamicCount = 0;
        for (int body = 0; body < bodies.count; body++) {
            if (bodies.dynamic[body]) {
                dynamicCount++;
            }
        }
        return dynamicCount >= StepLanes.MIN_DYNAMIC_BODIES;
    }

    /**
     * Steps on one thread ({@code 1}, the default) or splits each step over two ({@code 2}): a second thread takes
     * half the dynamic bodies, cut by a vertical plane, with their contacts, and the calling thread the other half
     * and the contacts across the cut (see {@code StepLanes} and docs/region-split-plan.md). The answer is
     * deterministic but not the one-lane step's bits (the rows are solved in another order), and its slowest steps
     * wait for a thread the machine may have descheduled: for offline runs and benchmarks on a machine with a core
     * to spare, not for the real-time loop. A step that cannot split (a sweep deadline, deformable or held bodies,
     * sleeping, fewer than 64 dynamic bodies, more points than the budget) runs on one lane. Allocates (the second
     * lane's buffers and thread); call while building.
     */
    public void setStepLanes(int count) {
        if (count != 1 && count != 2) {
            throw new IllegalArgumentException("step lanes must be 1 or 2, was " + count);
        }
        if (count == 1 && lanes != null) {
            lanes.close();
            lanes = null;
            mainStale = true;
        } else if (count == 2 && lanes == null) {
            lanes = new StepLanes(this, main);
            buffersStale = true;
        }
    }

    /** 1 or 2: see {@link #setStepLanes}. */
    public int stepLanes() {
        return lanes == null ? 1 : 2;
    }

    /** Whether the last step ran on two lanes ({@link #setStepLanes}). */
    public boolean lastStepSplit() {
        return lanes != null && lanes.lastStepSplit();
    }

    /**
     * Ends a step at the checkpoint after {@code reached}: the stages so far only looked (pairs, points matched with
     * the last step's, nothing stored), so the bodies, the contact report and the warm-start memory are the last
     * whole step's. What the caller added for this step goes, and so do the onsets found, which the next step finds
     * again.
     */
    private boolean drop(StepStage reached) {
        for (int s = reached.ordinal() + 1; s < StepStage.count(); s++) {
            profile.record(StepStage.at(s), 0L);
        }
        for (int body = 0; body < bodies.count; body++) {
            bodies.forceN[body].zero();
            bodies.torqueNm[body].zero();
        }
        onsets.clear();
        profile.recordDropped(true);
        pace.dropped();
        return false;
    }

    /**
     * The clock the step times its stages with ({@link #profile()}) and reads its deadlines on
     * ({@link #step(double, long)}, {@link #step(double, long, long)}), in nanoseconds: {@link System#nanoTime()}
     * unless set. A test's clock makes the stage times, and so the deadlines and dropped steps, exact. Scene set-up,
     * before stepping.
     */
    public void setClock(LongSupplier nanoClock) {
        this.clock = Objects.requireNonNull(nanoClock, "nanoClock");
        context.clock(nanoClock);
    }

    /** The time on the world's clock ({@link #setClock}), ns: what a caller computes deadlines from. */
    public long nanoTime() {
        return clock.getAsLong();
    }

    /**
     * The usual time of a whole step lately, on the world's clock, ns: the sum of the typical stage times the drop
     * rule weighs a step against ({@link #step(double, long, long)}; a weighted mean over about the last 32 whole
     * steps, a slow one counted at most twice). 0 before the first whole step, and again after the scene changes.
     */
    public double typicalStepNs() {
        return pace.typicalTotalNs();
    }

    /** The typical stage times and the drop rule, for tests. */
    StepPace pace() {
        return pace;
    }

    /**
     * The end of a step: a dynamic body or a deformable body whose state is no longer finite (absurd but finite
     * inputs can overflow, a tester's spring of rest length 1e300 did) is taken out of the simulation: a rigid body
     * goes back to the pose this step started from and stays there as a static body, a deformable one is no longer
     * stepped or collided (its nodes keep their last values). The step then throws, once its profile is recorded,
     * naming the bodies, so that the caller learns of it once rather than watching NaN spread; the world goes on
     * stepping the rest. Timed with {@link StepStage#STORE_IMPULSES}. Allocates nothing unless a body is lost (a sum
     * per body: a non-finite term, or finite ones beyond about 1e307, make it non-finite, and only then are the terms
     * looked at one by one).
     *
     * @return the bodies taken out, named for {@link BodyStateLostException}; {@code null} when none was
     */
    StringBuilder takeOutNonFiniteBodies() {
        StringBuilder lost = null;
        for (int body = 0; body < bodies.count; body++) {
            if (bodies.dynamic[body] && !stateFinite(body)) {
                lost = appendLost(lost, "body '" + names[body] + "'");
                // Back to the pose the step started from (the collision geometry's, still finite), and static from
                // now on: its bounds and pose are no longer refreshed, and other bodies meet it as they meet a wall.
                bodies.positionM[body].set(bodies.pose[body].position());
                bodies.orientation[body].set(bodies.pose[body].rotation());
                movable[body] = false;
                bodies.dynamic[body] = false;
                bodies.inverseMassPerKg[body] = 0.0;
                bodies.inverseInertiaWorld[body].zero();
                bodies.linearVelocityMps[body].zero();
                bodies.angularVelocityRadps[body].zero();
            }
        }
        for (DeformableCoupling d : deformables) {
            if (!d.lost && !nodesFinite(d.body)) {
                d.lost = true;
                lost = appendLost(lost, "deformable body '" + d.body.name() + "'");
            }
        }
        return lost;
    }

    boolean stateFinite(int body) {
        Vector3d p = bodies.positionM[body];
        Vector3d v = bodies.linearVelocityMps[body];
        Vector3d w = bodies.angularVelocityRadps[body];
        Quaterniond q = bodies.orientation[body];
        double sum = p.x + p.y + p.z + v.x + v.y + v.z + w.x + w.y + w.z + q.x + q.y + q.z + q.w;
        if (Double.isFinite(sum)) {
            return true;
        }
        return p.isFinite() && v.isFinite() && w.isFinite() && q.isFinite();
    }

    private boolean nodesFinite(DeformableBody body) {
        double sum = 0.0;
        for (int node = 0; node < body.nodeCount(); node++) {
            body.nodePosition(node, nodeScratchM);
            body.nodeVelocity(node, nodeScratchMps);
            sum += nodeScratchM.x + nodeScratchM.y + nodeScratchM.z + nodeScratchMps.x + nodeScratchMps.y
                + nodeScratchMps.z;
        }
        return Double.isFinite(sum);
    }

    private static StringBuilder appendLost(StringBuilder lost, String what) {
        return lost == null ? new StringBuilder(what) : lost.append(", ").append(what);
    }

    // ---- Queries ---------------------------------------------------------------------------------------------

    /** Number of bodies, tools included. */
    public int bodyCount() {
        return bodies.count;
    }

    /** The name the body was added with. */
    public String bodyName(int body) {
        return names[Objects.checkIndex(body, bodyCount())];
    }

    /** How the body moves; tools are {@link BodyType#KINEMATIC}. */
    public BodyType bodyType(int body) {
        return bodies.type[Objects.checkIndex(body, bodyCount())];
    }

    /** Whether the body was added with {@link #addTool}. */
    public boolean isTool(int body) {
        return tools[Objects.checkIndex(body, bodyCount())];
    }

    /** The body's shape, in its own frame; a tool's is a {@link SphereShape} of the radius it was added with. */
    public Shape shape(int body) {
        return shapes[Objects.checkIndex(body, bodyCount())];
    }

    /** Mass of a dynamic body, kg; 0 for static and kinematic bodies (infinite masses). */
    public double bodyMassKg(int body) {
        return bodies.massKg[Objects.checkIndex(body, bodyCount())];
    }

    /** Copies the inertia about the centre of mass in the body frame into {@code destKgM2}; zero if not dynamic. */
    public Matrix3d bodyInertia(int body, Matrix3d destKgM2) {
        return destKgM2.set(bodies.inertiaBody[Objects.checkIndex(body, bodyCount())]);
    }

    /**
     * Copies {@code Σ F} of the contacts on {@code body} from the last step into {@code destN}: for a tool, the
     * force the scene pushes it with, i.e. the force to render, in every contact mode; for any body, what its
     * contacts exert on it (a static body receives the opposite of what it pushes others with). In LCP mode this
     * is the contact impulse of the step over {@code Δt}. Zero before the first step. No allocation.
     */
    public Vector3d contactForceOnBody(int body, Vector3d destN) {
        return destN.set(report.forceOnBody(Objects.checkIndex(body, bodyCount())));
    }

    /**
     * Copies {@code Σ r × F} of the contacts on {@code body} from the last step into {@code destNm}, about the
     * body's centre of mass (its position), with {@code r} from the centre of mass at detection to the point
     * where the force acts. A sphere's normal forces act along lines through its centre, so they are left out
     * exactly rather than evaluated as rounding noise: a frictionless tool always reports exactly zero.
     */
    public Vector3d contactTorqueOnBody(int body, Vector3d destNm) {
        return destNm.set(report.torqueOnBody(Objects.checkIndex(body, bodyCount())));
    }

    /**
     * {@link #contactForceOnBody} and {@link #contactTorqueOnBody} in one call: the contact wrench on
     * {@code body} from the last step, force into {@code destForceN}, torque about the centre of mass into
     * {@code destTorqueNm}. No allocation.
     */
    public void contactWrenchOnBody(int body, Vector3d destForceN, Vector3d destTorqueNm) {
        Objects.checkIndex(body, bodyCount());
        destForceN.set(report.forceOnBody(body));
        destTorqueNm.set(report.torqueOnBody(body));
    }

    /** Number of contact points found by the last step. */
    public int contactCount() {
        return report.count();
    }

    /**
     * Contact point {@code i} of the last step, {@code 0 <= i < contactCount()}: a view into the preallocated
     * pool that the next step overwrites. Points are ordered by pair (by lower, then higher body index), then as
     * the narrowphase listed them.
     */
    public Contact contact(int i) {
        return report.view(Objects.checkIndex(i, report.count()));
    }

    /** Copies the body's position (its frame's origin, the centre of mass) into {@code destM}. */
    public Vector3d bodyPosition(int body, Vector3d destM) {
        return destM.set(bodies.positionM[Objects.checkIndex(body, bodyCount())]);
    }

    /** Copies the body's unit orientation into {@code dest}; identity for a tool. */
    public Quaterniond bodyOrientation(int body, Quaterniond dest) {
        return dest.set(bodies.orientation[Objects.checkIndex(body, bodyCount())]);
    }

    /** Copies the body's linear velocity into {@code destMps}; zero for a static body. */
    public Vector3d bodyLinearVelocity(int body, Vector3d destMps) {
        return destMps.set(bodies.linearVelocityMps[Objects.checkIndex(body, bodyCount())]);
    }

    /** Copies the body's angular velocity, world frame, into {@code destRadps}. */
    public Vector3d bodyAngularVelocity(int body, Vector3d destRadps) {
        return destRadps.set(bodies.angularVelocityRadps[Objects.checkIndex(body, bodyCount())]);
    }

    /**
     * Copies the angular momentum about the centre of mass, {@code L = R·I_body·Rᵀ·ω} (world frame, kg·m²/s),
     * into {@code destKgM2ps}; zero for non-dynamic bodies. No allocation.
     */
    public Vector3d bodyAngularMomentum(int body, Vector3d destKgM2ps) {
        Objects.checkIndex(body, bodyCount());
        return bodies.inertiaWorld(body, inertia).transform(bodies.angularVelocityRadps[body], destKgM2ps);
    }

    /**
     * The contacts of the last step that continue none of the step before (a touch began), with the speed at which
     * their surfaces were closing: a view the next step overwrites. No allocation.
     */
    public ContactOnsets contactOnsets() {
        return onsets;
    }

    /**
     * The contact model that resolves the points of {@code mode} (to configure a model that has settings of its
     * own); null for {@link ContactMode#NONE}.
     */
    public ContactModel contactModel(ContactMode mode) {
        return modelByMode[Objects.requireNonNull(mode, "mode").ordinal()];
    }

    /** Per-stage wall time and solver residuals of the last step; the same object for the life of the world. */
    public StepProfile profile() {
        return profile;
    }

    // ---- Stages ----------------------------------------------------------------------------------------------

    /** BROADPHASE: pose-derived data of moving bodies, candidate pairs, then the mode filter and A/B roles. */
    private void findCandidatePairs() {
        refreshMovingBounds();
        findPairsOfBounds();
    }

    /** The broadphase after the bounds are refreshed: candidate pairs, the mode filter and A/B roles. */
    void findPairsOfBounds() {
        int n = bodies.count;
        pairFinder.findPairs(boundsM, movable, tools, n, candidates);
        sleep.wakeTouched(candidates, modes);
        int kept = 0;
        for (int k = 0; k < candidates.count; k++) {
            int a = candidates.first[k];
            int b = candidates.second[k];
            ContactMode mode = effectiveMode(a, b);
            if (mode == ContactMode.NONE || holds.any() && holds.joins(a, b)) {
                continue;
            }
            boolean swap = mobilityRank(b) < mobilityRank(a);
            pairBodyA[kept] = swap ? b : a;
            pairBodyB[kept] = swap ? a : b;
            pairModes[kept] = mode;
            kept++;
        }
        pairCount = kept;
    }

    /** A lane's part of the bounds refresh, with its scratch: the pose and bounds of one body if it moves. */
    void refreshMovingBody(int body, Matrix3d rotation, Matrix3d rotationTransposed, Vector3d centreM) {
        if (movable[body] && !sleep.isAsleep(body)) {
            bodies.refreshPose(body, rotation, rotationTransposed);
            bodyBounds.write(shapes[body], bodies.positionM[body], bodies.orientation[body], boundsM, body, centreM);
        }
    }

    /** Whether each dynamic body of {@code list[0 .. count − 1]} has a finite state: a lane's part of the check. */
    boolean statesFinite(int[] list, int count) {
        for (int k = 0; k < count; k++) {
            int body = list[k];
            if (bodies.dynamic[body] && !stateFinite(body)) {
                return false;
            }
        }
        return true;
    }

    private void refreshMovingBounds() {
        for (int body = 0; body < bodies.count; body++) {
            // A sleeping body has not moved since it fell asleep: its bounds stand.
            if (movable[body] && !sleep.isAsleep(body)) {
                bodies.refreshPose(body);
                bodyBounds.write(shapes[body], bodies.positionM[body], bodies.orientation[body], boundsM, body);
            }
        }
    }

    /**
     * NARROWPHASE: exact tests into the point pool, materials combined, last step's impulses matched. The first pass
     * stores points while the pool has room and counts every point by importance; when there were more than the
     * budget, a second pass stores only the most important ones, in pair order still (the warm start's merge
     * relies on it): a tool's points, then the deepest.
     */
    private void findContacts() {
        Arrays.fill(pointsByImportance, 0);
        int found = collectContacts(main, null, pairCount, narrowphase, manifold, -1, 0, pointsByImportance,
                pointCapacity);
        if (found > pointCapacity) {
            // Fill the pool from the most important bin down; the bin that does not fit whole gets what room is left.
            int room = pointCapacity;
            int bin = IMPORTANCE_BINS - 1;
            while (bin >= 0 && pointsByImportance[bin] <= room) {
                room -= pointsByImportance[bin];
                bin--;
            }
            collectContacts(main, null, pairCount, narrowphase, manifold, bin, room, pointsByImportance,
                    pointCapacity);
        }
        droppedPoints = found - main.points.count;
        main.findOnsets(bodies, onsets, velocityAMps, velocityBMps);
    }

    /**
     * One pass over the pairs. With {@code thresholdBin < 0}: stores points while the pool has room, counts all in
     * {@link #pointsByImportance} and returns how many there were. Otherwise stores the points above the
     * threshold bin and the first {@code thresholdRoom} of that bin.
     */
    int collectContacts(ContactGroup group, int[] pairList, int listCount, ShapePairTest test,
                        ContactManifold manifold, int thresholdBin, int thresholdRoom, int[] byImportance,
                        int capacity) {
        return collectContacts(group, pairBodyA, pairBodyB, pairModes, pairList, listCount, test, manifold,
                thresholdBin, thresholdRoom, byImportance, capacity);
    }

    /** {@link #collectContacts(ContactGroup, int[], int, ShapePairTest, ContactManifold, int, int, int[], int)} over
     * the pairs of these arrays (a lane's own), by {@code pairList} or all {@code listCount} of them if null. */
    int collectContacts(ContactGroup group, int[] pairBodyA, int[] pairBodyB, ContactMode[] pairModes,
                        int[] pairList, int listCount, ShapePairTest test, ContactManifold manifold,
                        int thresholdBin, int thresholdRoom, int[] byImportance, int capacity) {
        ContactPoints p = group.points;
        group.beginCollect();
        boolean firstPass = thresholdBin < 0;
        int room = thresholdRoom;
        int found = 0;
        for (int n = 0; n < listCount; n++) {
            int k = pairList == null ? n : pairList[n];
            int a = pairBodyA[k];
            int b = pairBodyB[k];
            if (!test.collide(shapes[a], bodies.pose[a], shapes[b], bodies.pose[b], manifold)) {
                continue;
            }
            int pointCount = manifold.pointCount();
            Material materialA = materials[a];
            Material materialB = materials[b];
            // Springhead (seed 002): each coefficient of a contact is the mean of the two shapes' values.
            double elasticity = 0.5 * (materialA.elasticity() + materialB.elasticity());
            double staticFriction = 0.5 * (materialA.staticFriction() + materialB.staticFriction());
            double dynamicFriction = 0.5 * (materialA.dynamicFriction() + materialB.dynamicFriction());
            boolean toolPair = tools[a] || tools[b];
            int pairFirst = p.count;
            for (int j = 0; j < pointCount; j++) {
                int bin = importanceBin(toolPair, manifold.depth(j));
                if (firstPass) {
                    byImportance[bin]++;
                    found++;
                    if (p.count == capacity) {
                        continue;
                    }
                } else if (bin < thresholdBin) {
                    continue;
                } else if (bin == thresholdBin) {
                    if (room == 0) {
                        continue;
                    }
                    room--;
                }
                int i = p.count++;
                group.byMode[pairModes[k].ordinal()].add(i);
                p.bodyA[i] = a;
                p.bodyB[i] = b;
                p.mode[i] = pairModes[k];
                p.featureId[i] = manifold.featureId(j);
                p.pointM[i].set(manifold.point(j));
                p.normal[i].set(manifold.normal);
                p.depthM[i] = manifold.depth(j);
                p.elasticity[i] = elasticity;
                p.staticFriction[i] = staticFriction;
                p.dynamicFriction[i] = dynamicFriction;
                p.applicationPointM(i, p.leverArmAM[i]);
                p.leverArmBM[i].set(p.leverArmAM[i]).sub(bodies.positionM[b]);
                p.leverArmAM[i].sub(bodies.positionM[a]);
            }
            // Each model says how its points continue the last step's (ContactModel.matchRadiusM).
            ContactMode mode = pairModes[k];
            group.matcher.matchPair(p, pairFirst, p.count, group.modelByMode[mode.ordinal()].matchRadiusM(), mode,
                    group.previous);
        }
        return found;
    }

    /**
     * Importance of a point when the pool overflows, as a bin: a tool's points top (they are the force the device
     * renders), then by depth in quarter octaves from 2⁻⁴⁰ m (about 1e-12 m) to 128 m, and everything shallower,
     * touching or separated, at the bottom.
     */
    private static int importanceBin(boolean toolPair, double depthM) {
        if (toolPair) {
            return IMPORTANCE_BINS - 1;
        }
        if (!(depthM > 0.0)) {
            return 0;
        }
        int quarterOctave = 4 * (Math.getExponent(depthM) + DEPTH_OCTAVES_BELOW_ONE_M)
                + (int) ((Double.doubleToRawLongBits(depthM) >>> 50) & 3);
        return 1 + Math.max(0, Math.min(IMPORTANCE_BINS - 3, quarterOctave));
    }

    /** PREPARE_CONTACTS: each model's rows or forces from the start-of-step state. */
    private void prepareContacts() {
        main.prepare(context, bodies);
    }

    /** CORRECT_POSITIONS: pseudo-velocities from the models, applied to positions, then forgotten. */
    private void correctPositions() {
        integrator.clearPseudoVelocities(bodies);
        for (ContactModel model : models) {
            model.relax(context, bodies);
        }
        integrator.applyPseudoVelocities(context, bodies);
    }

    /**
     * STORE_IMPULSES: per-point forces, per-body sums, contact views, and the memory for the next warm start (the
     * step then puts resting islands to sleep, timed with this stage).
     */
    private void storeResults() {
        for (ContactModel model : models) {
            model.store(context, main.points);
        }
        report.collect(main.points, bodies.count, spheres);
        for (DeformableCoupling d : deformables) {
            d.report(report, bodies.count);
        }
        holds.report(report);
        main.matcher.record(main.points);
    }

    long endStage(StepStage stage, long stageStartNs) {
        long stageEndNs = clock.getAsLong();
        profile.record(stage, stageEndNs - stageStartNs);
        return stageEndNs;
    }

    // ---- Pair rules ------------------------------------------------------------------------------------------

    /** A mode set for the first time: its model's buffers are sized at the next step (a scene change allocates). */
    private void reserveFor(ContactMode mode) {
        if (mode != ContactMode.NONE && !modeReserved[mode.ordinal()]) {
            buffersStale = true;
        }
    }

    /** The mode of the pair this step: a sleeping body takes part as the static body it stands in for. */
    /**
     * Whether a pair can ever be tested: its configured mode is not NONE, and a dynamic body or a tool is in it. By
     * body type, not by the per-step flags: a sleeping body's pairs must still reach the step, to wake it.
     */
    boolean everTested(int a, int b) {
        return modes.resolve(a, b) != ContactMode.NONE
            && (bodies.type[a] == BodyType.DYNAMIC || bodies.type[b] == BodyType.DYNAMIC || tools[a] != tools[b]);
    }

    ContactMode effectiveMode(int a, int b) {
        return effectiveMode(a, b, bodies.dynamic[a], bodies.dynamic[b]);
    }

    private ContactMode effectiveMode(int a, int b, boolean aMoves, boolean bMoves) {
        ContactMode configured = modes.resolve(a, b);
        if (configured == ContactMode.NONE) {
            return ContactMode.NONE;
        }
        if (aMoves || bMoves) {
            return configured;
        }
        // Neither moves under forces: only a tool's force means anything (it is rendered), and LCP has no mass.
        return tools[a] != tools[b] ? ContactMode.PENALTY : ContactMode.NONE;
    }

    /** 0 tool, 1 dynamic, 2 kinematic, 3 static: body A of a contact is the one with the lower rank. */
    int mobilityRank(int body) {
        if (tools[body]) {
            return 0;
        }
        BodyType type = bodies.type[body];
        if (type == BodyType.DYNAMIC) {
            return 1;
        }
        return type == BodyType.KINEMATIC ? 2 : 3;
    }

    // ---- Building internals ----------------------------------------------------------------------------------

    private int addBody(String name, BodyType type, boolean tool, Shape shape, Vector3dc positionM,
                        Quaterniondc orientation, Material material, double massKg, Matrix3dc inertiaKgM2) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(positionM, "positionM");
        Objects.requireNonNull(material, "material");
        if (!positionM.isFinite()) {
            throw new IllegalArgumentException("positionM must be finite, was " + format(positionM));
        }
        requireOrientation(orientation);
        int body = bodies.add(type, positionM, new Quaterniond(orientation).normalize(), massKg, inertiaKgM2);
        int capacity = bodies.capacity();
        if (names.length < capacity) {
            // The cold arrays and the helpers follow the body arrays' growth (by half), never one body at a time.
            names = Arrays.copyOf(names, capacity);
            shapes = Arrays.copyOf(shapes, capacity);
            materials = Arrays.copyOf(materials, capacity);
            tools = Arrays.copyOf(tools, capacity);
            spheres = Arrays.copyOf(spheres, capacity);
            movable = Arrays.copyOf(movable, capacity);
            boundsM = Arrays.copyOf(boundsM, capacity * Aabb.STRIDE);
            sleep.bodyAdded(capacity);
            report.bodyAdded(capacity);
            for (DeformableCoupling d : deformables) {
                d.reserve(capacity);
            }
            modes.bodyAdded(capacity);
        }
        names[body] = name;
        shapes[body] = shape;
        materials[body] = material;
        tools[body] = tool;
        spheres[body] = shape instanceof SphereShape;
        movable[body] = type != BodyType.STATIC;
        bodyBounds.bodyAdded(body, capacity, shape);
        narrowphase.prepare(shape);
        // A static body never moves, so its bounds are computed once, here; moving ones every step.
        bodyBounds.write(shape, bodies.positionM[body], bodies.orientation[body], boundsM, body);
        if (tool) {
            toolCount++;
        }
        if (type == BodyType.STATIC) {
            staticCount++;
        }
        buffersStale = true;
        return body;
    }

    /**
     * Sizes every per-step contact buffer to {@link #contactBudget()} and
     * forgets the last step's contacts. Allocates: scene set-up only.
     */
    private void allocateContactBuffers() {
        pace.reset();
        ContactBudget budget = contactBudget();
        int maxPairs = budget.maxPairs();
        int maxPoints = budget.maxPoints();
        candidates.allocate(maxPairs);
        pairBodyA = new int[maxPairs];
        pairBodyB = new int[maxPairs];
        pairModes = new ContactMode[maxPairs];
        pairCount = 0;
        pointCapacity = maxPoints;
        // The stored impulses stay: bodies are only ever appended, so the body pairs they are keyed by still mean
        // the same bodies, and a body added to a settled scene does not restart every resting contact from zero.
        main.reservePoints(maxPoints, 0);
        onsets.reserve(maxPoints);
        for (ContactModel model : models) {
            // LCP and penalty points occur in every scene (the default mode, a tool's rendered walls); a further
            // mode's model reserves only once some setting names it (setting it later reserves at the next step).
            boolean reserved = model.mode() == ContactMode.LCP || model.mode() == ContactMode.PENALTY
                    || modes.uses(model.mode());
            model.reserve(reserved ? maxPoints : 0, bodies.count);
            modeReserved[model.mode().ordinal()] = reserved;
        }
        report.reserve(maxPoints);
        if (lanes != null) {
            lanes.reserve(maxPoints, maxPairs, bodies.capacity());
        }
        buffersStale = false;
    }

    /**
     * Symmetric (to 1e-9 of its largest element, far above the rounding of any computed tensor) and positive
     * definite by Sylvester's criterion: the leading principal minors are all positive. They must also be finite: the
     * inverse is the adjugate over the determinant, so a determinant that overflows (a tester's 1e160 kg ball: its
     * moments' cube passes 1e308) gives an inverse of 0 × ∞ = NaN, and the body was lost on its first step.
     */
    private static void requireInertia(Matrix3dc i) {
        double[] m = {i.m00(), i.m01(), i.m02(), i.m10(), i.m11(), i.m12(), i.m20(), i.m21(), i.m22()};
        double largest = 0.0;
        for (double value : m) {
            if (!Double.isFinite(value)) {
                throw new IllegalArgumentException("inertiaKgM2 must be finite, was " + oneLine(i));
            }
            largest = Math.max(largest, Math.abs(value));
        }
        double asymmetry = Math.max(Math.abs(i.m01() - i.m10()),
                Math.max(Math.abs(i.m02() - i.m20()), Math.abs(i.m12() - i.m21())));
        if (asymmetry > 1e-9 * largest) {
            throw new IllegalArgumentException("inertiaKgM2 must be symmetric, was " + oneLine(i));
        }
        double minor2 = i.m00() * i.m11() - i.m01() * i.m10();
        double determinant = i.determinant();
        if (!(i.m00() > 0.0) || !(minor2 > 0.0) || !(determinant > 0.0) || !Double.isFinite(minor2)
                || !Double.isFinite(determinant)) {
            throw new IllegalArgumentException("inertiaKgM2 must be positive definite (its leading minors positive and "
                + "finite in double precision), was " + oneLine(i));
        }
    }

    /** A 3 × 3 matrix on one line, rows in brackets: JOML's {@code toString} spans three. */
    private static String oneLine(Matrix3dc m) {
        return String.format(java.util.Locale.ROOT, "[[%.4g %.4g %.4g] [%.4g %.4g %.4g] [%.4g %.4g %.4g]]", m.m00(),
            m.m10(), m.m20(), m.m01(), m.m11(), m.m21(), m.m02(), m.m12(), m.m22());
    }

    private void requirePair(int bodyA, int bodyB) {
        Objects.checkIndex(bodyA, bodyCount());
        Objects.checkIndex(bodyB, bodyCount());
        if (bodyA == bodyB) {
            throw new IllegalArgumentException("a pair needs two bodies, got " + bodyA + " twice");
        }
    }

    private static int requireGroup(int group) {
        if (group < 1) {
            throw new IllegalArgumentException("group must be >= 1, was " + group);
        }
        return group;
    }

    private static void requireOrientation(Quaterniondc orientation) {
        Objects.requireNonNull(orientation, "orientation");
        double orientationLength = Math.sqrt(orientation.lengthSquared());
        if (!(orientationLength > 0.0) || !Double.isFinite(orientationLength)) {
            throw new IllegalArgumentException("orientation must be finite and non-zero, was (" + orientation.x()
                    + ", " + orientation.y() + ", " + orientation.z() + ", " + orientation.w() + ")");
        }
    }

    private static void requireFinite(Vector3dc v) {
        if (!v.isFinite()) {
            throw new IllegalArgumentException("state must be finite, was " + format(v));
        }
    }

    // ---- Errors, built off the per-tick path -----------------------------------------------------------------

    private IllegalArgumentException notATool(int body) {
        return new IllegalArgumentException("body " + body + " (" + names[body] + ") is " + bodies.type[body]
                + ", not a tool: only KINEMATIC bodies take a tool state");
    }

    private IllegalArgumentException wrongType(int body, BodyType expected) {
        return new IllegalArgumentException("body " + body + " (" + names[body] + ") is " + bodies.type[body]
                + ", not " + expected);
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
