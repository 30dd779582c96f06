package org.hapticsd.benchmarks.peers;

import org.hapticsd.physics.BodyType;
import org.hapticsd.physics.BoxShape;
import org.hapticsd.physics.Contact;
import org.hapticsd.physics.ContactBudget;
import org.hapticsd.physics.ContactMode;
import org.hapticsd.physics.ContactSettings;
import org.hapticsd.physics.Material;
import org.hapticsd.physics.PhysicsWorld;
import org.hapticsd.physics.PlaneShape;
import org.hapticsd.physics.Shape;
import org.hapticsd.physics.SphereShape;
import org.hapticsd.physics.StepProfile;
import org.hapticsd.physics.mass.MassProperties;
import org.hapticsd.physics.mass.MassPropertiesCalculator;
import org.joml.Matrix3d;
import org.joml.Quaterniond;
import org.joml.Vector3d;

/**
 * Our engine with the settings a scene file gets when its {@code contact:} section is left at the defaults
 * ({@link ContactSettings#defaults()}: LCP contacts, 20 velocity and 10 position sweeps at most, early stop at
 * {@code lcpTolerance} 1e-5, γ 0.2, contact tolerance 0.2 mm) and the default {@link ContactBudget}, built the way
 * {@code SceneBuilder} builds the bodies of {@code scenes/pile-200.yaml} and {@code scenes/cube-stack.yaml} (mass
 * properties from the shape and the mass, one material per body) but without the haptic tool: a scene file always
 * has one, and a tool's contacts are penalty contacts, which neither peer has. Rejected: loading the scene file
 * and filtering out the tool's contacts, which leaves a body in the broadphase that the peers do not have.
 */
final class OursEngine implements PeerEngine {
    /**
     * The defaults, or, for experiments with {@link StepProbe} or the benchmark, what the system properties
     * {@code lcp.tol}, {@code lcp.budget} and {@code lcp.it} set ({@code lcpTolerance}, {@code lcpSweepBudget},
     * {@code lcpIterations}). The published runs set none of them.
     */
    static final ContactSettings PROBE_SETTINGS = probeSettings();
    private final PhysicsWorld world;
    private final Vector3d velocity = new Vector3d();
    private final Vector3d position = new Vector3d();
    private final int firstDynamic;

    /** One lane, or what {@code -Dlanes} asks for (the probes' switch, see {@link PhysicsWorld#setStepLanes}). */
    OursEngine(PeerScene scene) {
        this(scene, Integer.getInteger("lanes", 1));
    }

    /** Steps on {@code lanes} lanes ({@link PhysicsWorld#setStepLanes}: 1, or 2 for {@code ours-2lanes}). */
    OursEngine(PeerScene scene, int lanes) {
        world = new PhysicsWorld(PROBE_SETTINGS);
        world.setGravity(new Vector3d(0.0, 0.0, -PeerScene.GRAVITY_MPS2));
        world.setSceneContactMode(ContactMode.LCP);
        Material material = new Material(scene.restitution(), scene.friction(), scene.friction());
        Quaterniond identity = new Quaterniond();
        world.addStaticBody("floor", new PlaneShape(new Vector3d(0.0, 0.0, 1.0)), new Vector3d(), identity, material);
        for (int w = 0; w < scene.walls(); w++) {
            double[] b = scene.wall(w);
            world.addStaticBody("wall" + w, new BoxShape(b[3], b[4], b[5]), new Vector3d(b[0], b[1], b[2]), identity,
                material);
        }
        int statics = world.bodyCount();
        firstDynamic = statics;
        double s = scene.sizeM();
        Matrix3d inertia = new Matrix3d();
        for (int i = 0; i < scene.bodies(); i++) {
            Shape shape = scene.cubes() ? new BoxShape(s, s, s) : new SphereShape(s);
            MassProperties mass = MassPropertiesCalculator.ofMass(shape, scene.massKg());
            // JOML's quaternion constructor takes x y z w.
            Quaterniond q = new Quaterniond(scene.orientation(i, 1), scene.orientation(i, 2), scene.orientation(i, 3),
                scene.orientation(i, 0));
            world.addDynamicBody("body" + i, shape,
                new Vector3d(scene.centreM(i, 0), scene.centreM(i, 1), scene.centreM(i, 2)), q, mass.massKg(),
                mass.inertiaKgM2(inertia), material);
        }
        world.setContactBudget(ContactBudget.forScene(world.bodyCount(), statics, 0));
        world.setStepLanes(lanes);
    }

    /** The engine's world, for probes that read its {@link StepProfile}. */
    PhysicsWorld world() {
        return world;
    }

    @Override
    public void step() {
        world.step(PeerScene.DT_S);
    }

    @Override
    public void recordContacts(ContactStats stats) {
        stats.step();
        for (int i = 0, n = world.contactCount(); i < n; i++) {
            Contact contact = world.contact(i);
            // Only LCP contacts are the solver's; a penalty contact (a tool's) is a spring meant to sink in. The
            // scenes have no tool, so none is expected; the check keeps the statistic honest if one is added.
            if (contact.mode() == ContactMode.LCP) {
                stats.point(contact.depthM());
            }
        }
        StepProfile profile = world.profile();
        int points = profile.lastLcpRowCount();
        stats.solver(profile.lastVelocitySweeps(), world.contactSettings().lcpIterations(),
            profile.lastVelocityBudgetReached(), points == 0 ? 0.0 : (double) profile.lastVelocityVisits() / points,
            profile.lastPositionSweeps(), profile.lastDroppedPairs() + profile.lastDroppedPoints());
    }

    @Override
    public double centreM(int body, int axis) {
        return world.bodyPosition(firstDynamic + body, position).get(axis);
    }

    @Override
    public double maxSpeedMps() {
        double max = 0.0;
        for (int b = 0; b < world.bodyCount(); b++) {
            if (world.bodyType(b) == BodyType.DYNAMIC) {
                max = Math.max(max, world.bodyLinearVelocity(b, velocity).length());
            }
        }
        return max;
    }

    /** How many dynamic bodies move faster than {@code speedMps}: whether a scene has settled. */
    int bodiesFasterThan(double speedMps) {
        int count = 0;
        for (int b = firstDynamic; b < world.bodyCount(); b++) {
            if (world.bodyLinearVelocity(b, velocity).length() > speedMps) {
                count++;
            }
        }
        return count;
    }

    private static ContactSettings probeSettings() {
        ContactSettings s = ContactSettings.defaults();
        if (System.getProperty("lcp.tol") != null) {
            s = s.withLcpTolerance(Double.parseDouble(System.getProperty("lcp.tol")));
        }
        if (System.getProperty("lcp.budget") != null) {
            s = s.withLcpSweepBudget(Double.parseDouble(System.getProperty("lcp.budget")));
        }
        if (System.getProperty("lcp.it") != null) {
            s = s.withLcpIterations(Integer.getInteger("lcp.it"));
        }
        return s;
    }

    @Override
    public void close() {
        // Heap only, and the second lane's thread when steps were split.
        world.setStepLanes(1);
    }
}
