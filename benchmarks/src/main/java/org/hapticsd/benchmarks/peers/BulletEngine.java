package org.hapticsd.benchmarks.peers;

import com.jme3.bullet.PhysicsSpace;
import com.jme3.bullet.SolverInfo;
import com.jme3.bullet.collision.PersistentManifolds;
import com.jme3.bullet.collision.ManifoldPoints;
import com.jme3.bullet.collision.shapes.BoxCollisionShape;
import com.jme3.bullet.collision.shapes.CollisionShape;
import com.jme3.bullet.collision.shapes.PlaneCollisionShape;
import com.jme3.bullet.collision.shapes.SphereCollisionShape;
import com.jme3.bullet.objects.PhysicsBody;
import com.jme3.bullet.objects.PhysicsRigidBody;
import com.jme3.math.Plane;
import com.jme3.math.Quaternion;
import com.jme3.math.Vector3f;

/**
 * Bullet through Libbulletjme: a {@code btDiscreteDynamicsWorld} with its sequential-impulse solver (what
 * {@link PhysicsSpace} wraps), single precision, release build. Settings (see docs/performance.md):
 * <ul>
 *   <li>{@link #ITERATIONS} = 10 solver iterations, Bullet's default and the earlier measurement's.</li>
 *   <li>Contact ERP 0.2 (Bullet's default, = our γ), global CFM 0; linear slop 0 (Bullet's default, not exposed
 *       by Libbulletjme); split impulse left on as by default, which only acts beyond 4 cm of penetration.</li>
 *   <li>One step of exactly 1 ms per {@link #step}: {@code update(dt, 0)} is a single {@code stepSimulation}
 *       without substeps or interpolation, and with no contact callbacks into Java.</li>
 *   <li>Sleeping off on every dynamic body ({@code DISABLE_DEACTIVATION}).</li>
 *   <li>Margins: a sphere's margin is its radius in Bullet (the shape is a point plus margin) and cannot be
 *       changed; boxes get {@link #BOX_MARGIN_M}, instead of the default 0.04 m that would round a 0.1 m cube's
 *       edges by 4 cm in GJK. Libbulletjme accepts any positive margin; the pairs here use Bullet's dedicated
 *       algorithms (sphere–sphere, box–box, convex–plane) or GJK with the sphere's 5 cm margin, so a small box
 *       margin costs no robustness.</li>
 *   <li>Friction: Bullet multiplies the two bodies' coefficients, so each body gets √0.5 for a pair value of
 *       {@link PeerScene#friction()}; restitution likewise (0 in every scene).</li>
 *   <li>Sweep-and-prune broadphase ({@code btAxisSweep3}), the faster of Bullet's two here. Its default DBVT
 *       (a dynamic AABB tree, like ours) fattens its leaves by a fixed 5 cm, half a sphere's diameter here, and
 *       kept three times as many pairs in {@code pile-200} (4,400 manifolds against 1,500): re-measured after
 *       settling, p50 620–645 µs a step against 400 µs with sweep-and-prune.</li>
 * </ul>
 */
final class BulletEngine implements PeerEngine {
    static final int ITERATIONS = 10;
    static final float CONTACT_ERP = 0.2f;
    static final float BOX_MARGIN_M = 1e-4f;
    /** Half size of the cube the sweep-and-prune broadphase quantizes (16 bits per axis: 0.15 mm cells). */
    static final float WORLD_HALF_M = 5f;

    private final PhysicsSpace space;
    private final PhysicsRigidBody[] bodies;
    private final Vector3f velocity = new Vector3f();
    private final Vector3f location = new Vector3f();
    private final float bodyFriction;
    private final float bodyRestitution;

    BulletEngine(PeerScene scene) {
        BulletNatives.load();
        bodyFriction = (float) Math.sqrt(scene.friction());
        bodyRestitution = (float) Math.sqrt(scene.restitution());
        space = new PhysicsSpace(new Vector3f(-WORLD_HALF_M, -WORLD_HALF_M, -WORLD_HALF_M),
            new Vector3f(WORLD_HALF_M, WORLD_HALF_M, WORLD_HALF_M), PhysicsSpace.BroadphaseType.AXIS_SWEEP_3);
        space.setGravity(new Vector3f(0f, 0f, (float) -PeerScene.GRAVITY_MPS2));
        SolverInfo solver = space.getSolverInfo();
        solver.setNumIterations(ITERATIONS);
        solver.setContactErp(CONTACT_ERP);
        solver.setGlobalCfm(0f);

        addStatic(new PlaneCollisionShape(new Plane(Vector3f.UNIT_Z, 0f)), 0.0, 0.0, 0.0);
        for (int w = 0; w < scene.walls(); w++) {
            double[] b = scene.wall(w);
            addStatic(box(b[3], b[4], b[5]), b[0], b[1], b[2]);
        }
        double s = scene.sizeM();
        CollisionShape shape = scene.cubes() ? box(s, s, s) : new SphereCollisionShape((float) s);
        bodies = new PhysicsRigidBody[scene.bodies()];
        for (int i = 0; i < bodies.length; i++) {
            PhysicsRigidBody body = new PhysicsRigidBody(shape, (float) scene.massKg());
            body.setPhysicsLocation(new Vector3f((float) scene.centreM(i, 0), (float) scene.centreM(i, 1),
                (float) scene.centreM(i, 2)));
            // jME's quaternion constructor takes x y z w.
            body.setPhysicsRotation(new Quaternion((float) scene.orientation(i, 1), (float) scene.orientation(i, 2),
                (float) scene.orientation(i, 3), (float) scene.orientation(i, 0)));
            body.setFriction(bodyFriction);
            body.setRestitution(bodyRestitution);
            body.setEnableSleep(false);
            space.addCollisionObject(body);
            bodies[i] = body;
        }
    }

    private static BoxCollisionShape box(double hx, double hy, double hz) {
        BoxCollisionShape box = new BoxCollisionShape((float) hx, (float) hy, (float) hz);
        box.setMargin(BOX_MARGIN_M);
        return box;
    }

    private void addStatic(CollisionShape shape, double x, double y, double z) {
        PhysicsRigidBody body = new PhysicsRigidBody(shape, PhysicsBody.massForStatic);
        body.setPhysicsLocation(new Vector3f((float) x, (float) y, (float) z));
        body.setFriction(bodyFriction);
        body.setRestitution(bodyRestitution);
        space.addCollisionObject(body);
    }

    @Override
    public void step() {
        space.update((float) PeerScene.DT_S, 0);
    }

    @Override
    public void recordContacts(ContactStats stats) {
        stats.step();
        for (long manifold : space.listManifoldIds()) {
            for (int i = 0, n = PersistentManifolds.countPoints(manifold); i < n; i++) {
                // Distance is negative while the surfaces overlap.
                stats.point(-ManifoldPoints.getDistance1(PersistentManifolds.getPointId(manifold, i)));
            }
        }
    }

    @Override
    public double centreM(int body, int axis) {
        return bodies[body].getPhysicsLocation(location).get(axis);
    }

    @Override
    public double maxSpeedMps() {
        double max = 0.0;
        for (PhysicsRigidBody body : bodies) {
            max = Math.max(max, body.getLinearVelocity(velocity).length());
        }
        return max;
    }

    @Override
    public void close() {
        space.destroy();
    }
}
