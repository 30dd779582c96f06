package org.hapticsd.server.calibrate;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.hapticsd.physics.BoxShape;
import org.hapticsd.physics.ContactMode;
import org.hapticsd.physics.ContactSettings;
import org.hapticsd.physics.Material;
import org.hapticsd.physics.PhysicsWorld;
import org.hapticsd.physics.PlaneShape;
import org.hapticsd.physics.SphereShape;
import org.hapticsd.physics.dynamics.SolidInertia;
import org.hapticsd.physics.dynamics.contact.ImpulseWaveformModel;
import org.joml.Matrix3d;
import org.joml.Quaterniond;
import org.joml.Vector3d;

/**
 * Collision data made by the engine (IMPULSE mode, no gravity, 1 kHz) with known parameters, written in the
 * calibration's CSV format with Gaussian noise: what {@code hapticsd calibrate} must recover.
 *
 * <ul>
 *   <li>{@link #singlePoint}: spheres and boxes striking a floor at random angles, speeds and spins; every fourth
 *       with its force samples.</li>
 *   <li>{@link #multiPoint}: rows of touching balls struck at one end (each pair with its α_j), and balls and boxes
 *       striking the floor obliquely (α = 1 there, which separates e from the products α_j·(1 + e)).</li>
 * </ul>
 */
final class SyntheticCollisions {

    static final double DT_S = 0.001;
    private static final double RADIUS_M = 0.05;
    private static final double GAP_M = 1e-4;
    private static final String HEADER = "event,a,b,px,py,pz,nx,ny,nz,"
        + "a_mass,a_ixx,a_iyy,a_izz,a_ixy,a_ixz,a_iyz,a_x,a_y,a_z,"
        + "a_vx0,a_vy0,a_vz0,a_wx0,a_wy0,a_wz0,a_vx1,a_vy1,a_vz1,a_wx1,a_wy1,a_wz1,"
        + "b_mass,b_ixx,b_iyy,b_izz,b_ixy,b_ixz,b_iyz,b_x,b_y,b_z,"
        + "b_vx0,b_vy0,b_vz0,b_wx0,b_wy0,b_wz0,b_vx1,b_vy1,b_vz1,b_wx1,b_wy1,b_wz1,force_dt,force";

    private final ImpulseParameters parameters;
    private final Random random;
    private final double velocityNoise;
    private final double forceNoise;
    private final List<String> lines = new ArrayList<>();
    double impactThresholdMps = ContactSettings.defaults().impactThresholdMps();

    /**
     * @param velocityNoise standard deviation of the noise on each velocity component, relative to the event's
     *                      largest speed (rad/s: relative to the body's largest angular speed)
     * @param forceNoise standard deviation of the noise on each force sample, relative to the pulse's peak
     */
    SyntheticCollisions(ImpulseParameters parameters, long seed, double velocityNoise, double forceNoise) {
        this.parameters = parameters;
        this.random = new Random(seed);
        this.velocityNoise = velocityNoise;
        this.forceNoise = forceNoise;
        lines.add("# made by SyntheticCollisions: " + parameters);
        lines.add(HEADER);
    }

    List<String> lines() {
        return lines;
    }

    /** Spheres (half) and boxes (half) striking a static floor. */
    SyntheticCollisions singlePoint(int events) {
        for (int n = 0; n < events; n++) {
            strikeFloor("s" + n, n % 2 == 0, n % 4 == 0, n % 2 == 0 ? "ball" : "box", 0.1, 4.0);
        }
        return this;
    }

    /**
     * Rows of touching balls struck at one end, in turn b0…b3, b0…b2 and b1…b3 (so that the outcomes hold the
     * products α₁α₂α₃, α₁α₂ and α₂α₃, which give each ratio), and as many strikes of a ball or a box on the floor
     * (α = 1 there: they give e and the friction apart from the ratios).
     */
    SyntheticCollisions multiPoint(int chains, int floorStrikes) {
        int[][] rows = {{0, 4}, {0, 3}, {1, 3}};
        for (int n = 0; n < chains; n++) {
            chain("c" + n, rows[n % 3][0], rows[n % 3][1]);
        }
        for (int n = 0; n < floorStrikes; n++) {
            strikeFloor("f" + n, n % 2 == 0, n % 3 == 0, n % 2 == 0 ? "b0" : "box", 0.5, 15.0);
        }
        return this;
    }

    // ---- Events ------------------------------------------------------------------------------------------------

    /**
     * A ball or a box striking the floor at 0.12–0.8 m/s, with a tangential speed {@code lowRatio … highRatio} times
     * the normal one (log-uniform: both sides of the stick-slip edge of the parameters, and not so fast sideways
     * that the noise, relative to the event's speed, hides the friction).
     */
    private void strikeFloor(String id, boolean sphere, boolean withForces, String name, double lowRatio,
                             double highRatio) {
        PhysicsWorld world = world();
        Material material = material();
        int floor = world.addStaticBody("floor", new PlaneShape(new Vector3d(0, 0, 1)), new Vector3d(),
            new Quaterniond(), material);
        int body;
        Matrix3d inertiaBody = new Matrix3d();
        Quaterniond orientation = new Quaterniond();
        double massKg;
        if (sphere) {
            massKg = 1.0;
            SolidInertia.sphere(massKg, RADIUS_M, inertiaBody);
            body = world.addDynamicBody(name, new SphereShape(RADIUS_M), new Vector3d(0, 0, RADIUS_M + GAP_M),
                orientation, massKg, inertiaBody, material);
        } else {
            massKg = 0.5;
            double hx = 0.06;
            double hy = 0.035;
            double hz = 0.02;
            SolidInertia.box(massKg, hx, hy, hz, inertiaBody);
            orientation.rotateXYZ(uniform(-1.2, 1.2), uniform(-1.2, 1.2), uniform(0, Math.PI));
            // The lowest corner GAP_M above the floor.
            double lowest = Double.POSITIVE_INFINITY;
            for (int corner = 0; corner < 8; corner++) {
                Vector3d c = new Vector3d((corner & 1) == 0 ? -hx : hx, (corner & 2) == 0 ? -hy : hy,
                    (corner & 4) == 0 ? -hz : hz);
                lowest = Math.min(lowest, orientation.transform(c).z);
            }
            body = world.addDynamicBody(name, new BoxShape(hx, hy, hz), new Vector3d(0, 0, -lowest + GAP_M),
                orientation, massKg, inertiaBody, material);
        }
        double normalMps = uniform(0.12, 0.8);
        double tangentialMps = normalMps * Math.exp(uniform(Math.log(lowRatio), Math.log(highRatio)));
        double heading = uniform(0, 2 * Math.PI);
        Vector3d v = new Vector3d(tangentialMps * Math.cos(heading), tangentialMps * Math.sin(heading), -normalMps);
        Vector3d w = new Vector3d(uniform(-3, 3), uniform(-3, 3), uniform(-3, 3));
        world.setBodyVelocity(body, v, w);
        record(world, id, withForces, new int[][] {{floor, body}}, true);
    }

    /**
     * {@code count} touching balls in a row along x, named from {@code b<first>}, the first {@code GAP_M} short of
     * the second and struck toward it at 0.3–1.5 m/s. The engine's impact threshold makes the slow re-approaches
     * of e = 0.31 inelastic (resting contacts), which the replay does too.
     */
    private void chain(String id, int first, int count) {
        PhysicsWorld world = world();
        Material material = material();
        int[] balls = new int[count];
        Matrix3d inertia = SolidInertia.sphere(1.0, RADIUS_M, new Matrix3d());
        for (int i = 0; i < count; i++) {
            double x = i == 0 ? -GAP_M : 2 * RADIUS_M * i;
            balls[i] = world.addDynamicBody("b" + (first + i), new SphereShape(RADIUS_M), new Vector3d(x, 0, 0),
                new Quaterniond(), 1.0, inertia, material);
        }
        ImpulseWaveformModel model = (ImpulseWaveformModel) world.contactModel(ContactMode.IMPULSE);
        int[][] contacts = new int[count - 1][];
        for (int i = 0; i < count - 1; i++) {
            model.setCorrelationRatio(balls[i], balls[i + 1], parameters.correlationRatio(
                CollisionData.Contact.pairKey("b" + (first + i), "b" + (first + i + 1))));
            contacts[i] = new int[] {balls[i], balls[i + 1]};
        }
        world.setBodyVelocity(balls[0], new Vector3d(uniform(0.3, 1.5), 0, 0), new Vector3d());
        record(world, id, false, contacts, false);
    }

    // ---- Running an event in the engine and writing its rows ---------------------------------------------------

    /**
     * Steps until the event is over, then writes one row per contact, with the state before the first collision and
     * after the last. A contact is where its first collision began, or for one that never collided (it only rested,
     * approaching slower than the impact threshold), the midpoint of the balls' centres. A single strike is over when its collision ends (a box's other corners would
     * strike next, at points the row does not describe); a chain when no collision has been in progress for 50
     * steps.
     */
    private void record(PhysicsWorld world, String id, boolean withForces, int[][] contacts, boolean single) {
        ImpulseWaveformModel model = (ImpulseWaveformModel) world.contactModel(ContactMode.IMPULSE);
        int bodies = world.bodyCount();
        Vector3d[] x0 = new Vector3d[bodies];
        Vector3d[] v0 = new Vector3d[bodies];
        Vector3d[] w0 = new Vector3d[bodies];
        Matrix3d[] inertia = new Matrix3d[bodies];
        List<int[]> pairs = new ArrayList<>();
        List<Vector3d> points = new ArrayList<>();
        List<Vector3d> normals = new ArrayList<>();
        List<List<Double>> forces = new ArrayList<>();
        List<Integer> onsets = new ArrayList<>();
        boolean begun = false;
        int quiet = 0;
        for (int step = 0; step < 5000 && quiet < 50; step++) {
            Vector3d[] xs = new Vector3d[bodies];
            Vector3d[] vs = new Vector3d[bodies];
            Vector3d[] ws = new Vector3d[bodies];
            Quaterniond[] qs = new Quaterniond[bodies];
            for (int i = 0; i < bodies; i++) {
                xs[i] = world.bodyPosition(i, new Vector3d());
                vs[i] = world.bodyLinearVelocity(i, new Vector3d());
                ws[i] = world.bodyAngularVelocity(i, new Vector3d());
                qs[i] = world.bodyOrientation(i, new Quaterniond());
            }
            world.step(DT_S);
            for (int k = 0; k < model.startedCount(); k++) {
                if (!begun) {
                    for (int i = 0; i < bodies; i++) {
                        x0[i] = xs[i];
                        v0[i] = vs[i];
                        w0[i] = ws[i];
                        Matrix3d r = new Matrix3d().set(qs[i]);
                        inertia[i] = r.mul(world.bodyInertia(i, new Matrix3d()), new Matrix3d())
                            .mul(new Matrix3d(r).transpose());
                    }
                    begun = true;
                }
                int a = model.startedBodyA(k);
                int b = model.startedBodyB(k);
                boolean known = false;
                for (int[] pair : pairs) {
                    known |= pair[0] == a && pair[1] == b;
                }
                if (!known) {
                    pairs.add(new int[] {a, b});
                    points.add(model.startedPointM(k, new Vector3d()));
                    normals.add(model.startedNormal(k, new Vector3d()));
                    forces.add(new ArrayList<>());
                    onsets.add(step);
                }
            }
            for (int p = 0; p < pairs.size(); p++) {
                // The normal force on a: the pair's own, when a touches nothing else (a ball on the floor, b0).
                forces.get(p).add(world.contactForceOnBody(pairs.get(p)[0], new Vector3d()).dot(normals.get(p)));
            }
            quiet = begun && model.activeCount() == 0 && model.startedCount() == 0 ? quiet + 1 : 0;
            if (single && begun && model.activeCount() == 0) {
                break;
            }
        }
        if (!begun) {
            throw new IllegalStateException(id + ": no collision began");
        }
        for (int[] contact : contacts) {
            int a = contact[0];
            int b = contact[1];
            boolean known = false;
            for (int[] pair : pairs) {
                known |= pair[0] == a && pair[1] == b || pair[0] == b && pair[1] == a;
            }
            if (!known) {
                pairs.add(new int[] {a, b});
                points.add(new Vector3d(x0[a]).add(x0[b]).mul(0.5));
                normals.add(new Vector3d(x0[a]).sub(x0[b]).normalize());
                forces.add(new ArrayList<>());
            }
        }
        if (pairs.size() != contacts.length) {
            throw new IllegalStateException(id + ": collisions between " + pairs.size() + " pairs, the event has "
                + contacts.length + " contacts");
        }
        double speedScale = 0.0;
        for (int i = 0; i < bodies; i++) {
            if (world.bodyMassKg(i) > 0) {
                speedScale = Math.max(speedScale, Math.max(v0[i].length(),
                    world.bodyLinearVelocity(i, new Vector3d()).length()));
            }
        }
        Vector3d[] v1 = new Vector3d[bodies];
        Vector3d[] w1 = new Vector3d[bodies];
        for (int i = 0; i < bodies; i++) {
            v1[i] = noisy(world.bodyLinearVelocity(i, new Vector3d()), speedScale);
            Vector3d w = world.bodyAngularVelocity(i, new Vector3d());
            w1[i] = noisy(w, Math.max(w.length(), w0[i].length()));
            v0[i] = noisy(v0[i], speedScale);
            w0[i] = noisy(w0[i], Math.max(w.length(), w0[i].length()));
        }
        for (int p = 0; p < pairs.size(); p++) {
            int a = pairs.get(p)[0];
            int b = pairs.get(p)[1];
            StringBuilder row = new StringBuilder(id).append(',').append(world.bodyName(a)).append(',')
                .append(world.bodyName(b));
            append(row, points.get(p));
            append(row, normals.get(p));
            body(row, world, a, x0, v0, w0, v1, w1, inertia);
            body(row, world, b, x0, v0, w0, v1, w1, inertia);
            if (withForces && pairs.size() == 1) {
                List<Double> samples = forces.get(p).subList(0, trimmed(forces.get(p)));
                double peak = 0.0;
                for (double f : samples) {
                    peak = Math.max(peak, Math.abs(f));
                }
                row.append(',').append(format(DT_S)).append(',');
                for (int s = 0; s < samples.size(); s++) {
                    row.append(s == 0 ? "" : " ").append(format(samples.get(s) + peak * forceNoise
                        * random.nextGaussian()));
                }
            } else {
                row.append(",,");
            }
            lines.add(row.toString());
        }
    }

    /** Samples up to the last non-zero one, and one more. */
    private static int trimmed(List<Double> samples) {
        int last = 0;
        for (int i = 0; i < samples.size(); i++) {
            if (samples.get(i) != 0.0) {
                last = i;
            }
        }
        return Math.min(samples.size(), last + 2);
    }

    private void body(StringBuilder row, PhysicsWorld world, int i, Vector3d[] x, Vector3d[] v0, Vector3d[] w0,
                      Vector3d[] v1, Vector3d[] w1, Matrix3d[] inertia) {
        boolean moves = world.bodyMassKg(i) > 0;
        row.append(',').append(moves ? format(world.bodyMassKg(i)) : "inf");
        Matrix3d j = inertia[i];
        if (moves) {
            // JOML: mRC is column R, row C; the tensor is symmetric.
            row.append(',').append(format(j.m00)).append(',').append(format(j.m11)).append(',').append(format(j.m22))
                .append(',').append(format(j.m10)).append(',').append(format(j.m20)).append(',')
                .append(format(j.m21));
        } else {
            row.append(",,,,,,");
        }
        append(row, x[i]);
        if (moves) {
            append(row, v0[i]);
            append(row, w0[i]);
            append(row, v1[i]);
            append(row, w1[i]);
        } else {
            row.append(",,,,,,,,,,,,");
        }
    }

    private static void append(StringBuilder row, Vector3d v) {
        row.append(',').append(format(v.x)).append(',').append(format(v.y)).append(',').append(format(v.z));
    }

    private Vector3d noisy(Vector3d v, double scale) {
        return new Vector3d(v.x + velocityNoise * scale * random.nextGaussian(),
            v.y + velocityNoise * scale * random.nextGaussian(), v.z + velocityNoise * scale * random.nextGaussian());
    }

    private static String format(double value) {
        return String.format(Locale.ROOT, "%.9g", value);
    }

    private double uniform(double low, double high) {
        return low + (high - low) * random.nextDouble();
    }

    private PhysicsWorld world() {
        PhysicsWorld world = new PhysicsWorld(ContactSettings.defaults().withImpactThresholdMps(impactThresholdMps));
        world.setGravity(new Vector3d());
        world.setSceneContactMode(ContactMode.IMPULSE);
        ((ImpulseWaveformModel) world.contactModel(ContactMode.IMPULSE)).setSettings(parameters.waveform());
        return world;
    }

    private Material material() {
        return new Material(parameters.elasticity(), parameters.staticFriction(), parameters.dynamicFriction());
    }
}
