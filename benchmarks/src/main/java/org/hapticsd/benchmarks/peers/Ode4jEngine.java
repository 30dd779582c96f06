package org.hapticsd.benchmarks.peers;

import java.util.Arrays;
import org.ode4j.math.DQuaternion;
import org.ode4j.ode.DBody;
import org.ode4j.ode.DContact;
import org.ode4j.ode.DContactBuffer;
import org.ode4j.ode.DGeom;
import org.ode4j.ode.DJointGroup;
import org.ode4j.ode.DMass;
import org.ode4j.ode.DSapSpace;
import org.ode4j.ode.DSpace;
import org.ode4j.ode.DWorld;
import org.ode4j.ode.OdeConstants;
import org.ode4j.ode.OdeHelper;
import org.ode4j.ode.internal.Misc;

/**
 * ode4j (the Java port of ODE), stepped with QuickStep: projected Gauss–Seidel on ODE's LCP, the peer closest to
 * our solver. Settings, chosen to match ours where ODE has the same knob (see docs/performance.md):
 * <ul>
 *   <li>{@link #ITERATIONS} = 20 QuickStep sweeps, our LCP iteration count; over-relaxation left at ODE's 1.3.</li>
 *   <li>ERP 0.2 = our error-correction rate γ; contact surface layer 0.2 mm = our contact tolerance
 *       {@code d_tol} (both: depth left uncorrected so resting contacts persist).</li>
 *   <li>CFM 1e-5, ODE's default: with ERP 0.2 at 1 ms a spring of {@code ERP/(h·CFM)} = 2·10⁷ N/m, which
 *       yields under 3 µm to the pile's heaviest loads (~50 N) — effectively the hard contact our LCP solves.</li>
 *   <li>Contacts: {@code dContactApprox1}, so {@code mu} is a Coulomb coefficient (friction bounded by
 *       {@code mu·f_n}, a pyramid in two directions) rather than ODE's default force limit; {@code mu} =
 *       {@link PeerScene#friction()}, no bounce, world ERP/CFM. At most {@link #MAX_CONTACTS} points per pair,
 *       Bullet's manifold size.</li>
 *   <li>Auto-disable (sleeping) off. Sweep-and-prune space, the faster of ODE's here: in {@code pile-200},
 *       settled, p50 930 µs a step against 1,140–1,290 µs with the hash space.</li>
 *   <li>No warm starting: ODE makes its contact joints anew every step, so QuickStep starts from zero impulses,
 *       where ours and Bullet start from the last step's ({@code DxQuickStep.WARM_STARTING} is false in ode4j). That is
 *       ODE as shipped, not a setting.</li>
 * </ul>
 */
final class Ode4jEngine implements PeerEngine {
    static final int ITERATIONS = 20;
    static final double ERP = 0.2;
    static final double CFM = 1e-5;
    static final double SURFACE_LAYER_M = 2e-4;
    static final int MAX_CONTACTS = 4;
    static final long RANDOM_SEED = 0;

    static {
        OdeHelper.initODE2(0);
    }

    private final DWorld world;
    private final DSpace space;
    private final DJointGroup contacts;
    private final DBody[] bodies;
    private final DContactBuffer buffer = new DContactBuffer(MAX_CONTACTS);
    private final DGeom.DNearCallback nearCallback = this::near;
    /** Depths of the contact points of the last step, filled by the near callback (one store per point). */
    private double[] depthsM = new double[256];
    private int depthCount;

    Ode4jEngine(PeerScene scene) {
        // QuickStep shuffles its rows with ODE's one global random generator (RANDOMLY_REORDER_CONSTRAINTS), so
        // without a fixed seed every episode of a scene would differ from the last, and the report's penetration
        // episode from the ones JMH times. Misc is internal, but ODE's dRandSetSeed has no other door in ode4j.
        Misc.dRandSetSeed(RANDOM_SEED);
        world = OdeHelper.createWorld();
        world.setGravity(0.0, 0.0, -PeerScene.GRAVITY_MPS2);
        world.setQuickStepNumIterations(ITERATIONS);
        world.setERP(ERP);
        world.setCFM(CFM);
        world.setContactSurfaceLayer(SURFACE_LAYER_M);
        world.setAutoDisableFlag(false);
        space = OdeHelper.createSapSpace(DSapSpace.AXES.XYZ);
        contacts = OdeHelper.createJointGroup();

        OdeHelper.createPlane(space, 0.0, 0.0, 1.0, 0.0);
        for (int w = 0; w < scene.walls(); w++) {
            double[] b = scene.wall(w);
            OdeHelper.createBox(space, 2 * b[3], 2 * b[4], 2 * b[5]).setPosition(b[0], b[1], b[2]);
        }
        bodies = new DBody[scene.bodies()];
        DMass mass = OdeHelper.createMass();
        double s = scene.sizeM();
        for (int i = 0; i < bodies.length; i++) {
            DBody body = OdeHelper.createBody(world);
            DGeom geom;
            if (scene.cubes()) {
                mass.setBoxTotal(scene.massKg(), 2 * s, 2 * s, 2 * s);
                geom = OdeHelper.createBox(space, 2 * s, 2 * s, 2 * s);
            } else {
                mass.setSphereTotal(scene.massKg(), s);
                geom = OdeHelper.createSphere(space, s);
            }
            body.setMass(mass);
            body.setPosition(scene.centreM(i, 0), scene.centreM(i, 1), scene.centreM(i, 2));
            body.setQuaternion(new DQuaternion(scene.orientation(i, 0), scene.orientation(i, 1),
                scene.orientation(i, 2), scene.orientation(i, 3)));
            geom.setBody(body);
            bodies[i] = body;
        }
        for (int c = 0; c < MAX_CONTACTS; c++) {
            DContact.DSurfaceParameters surface = buffer.get(c).surface;
            surface.mode = OdeConstants.dContactApprox1
                | (scene.restitution() > 0.0 ? OdeConstants.dContactBounce : 0);
            surface.mu = scene.friction();
            surface.bounce = scene.restitution();
        }
    }

    @Override
    public void step() {
        depthCount = 0;
        space.collide(null, nearCallback);
        world.quickStep(PeerScene.DT_S);
        contacts.empty();
    }

    private void near(Object data, DGeom o1, DGeom o2) {
        DBody b1 = o1.getBody();
        DBody b2 = o2.getBody();
        if (b1 == null && b2 == null) {
            return; // floor and walls never move
        }
        int n = OdeHelper.collide(o1, o2, MAX_CONTACTS, buffer.getGeomBuffer());
        for (int i = 0; i < n; i++) {
            DContact contact = buffer.get(i);
            OdeHelper.createContactJoint(world, contacts, contact).attach(b1, b2);
            if (depthCount == depthsM.length) {
                depthsM = Arrays.copyOf(depthsM, 2 * depthCount);
            }
            depthsM[depthCount++] = contact.geom.depth;
        }
    }

    @Override
    public void recordContacts(ContactStats stats) {
        stats.step();
        for (int i = 0; i < depthCount; i++) {
            stats.point(depthsM[i]);
        }
    }

    @Override
    public double centreM(int body, int axis) {
        return bodies[body].getPosition().get(axis);
    }

    @Override
    public double maxSpeedMps() {
        double max = 0.0;
        for (DBody body : bodies) {
            max = Math.max(max, body.getLinearVel().length());
        }
        return max;
    }

    @Override
    public void close() {
        contacts.destroy();
        space.destroy();
        world.destroy();
    }
}
