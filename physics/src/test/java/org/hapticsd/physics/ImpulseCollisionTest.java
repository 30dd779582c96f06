package org.hapticsd.physics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.hapticsd.physics.dynamics.SolidInertia;
import org.hapticsd.physics.dynamics.contact.ImpulseWaveform;
import org.hapticsd.physics.dynamics.contact.ImpulseWaveformModel;
import org.hapticsd.physics.dynamics.contact.ImpulseWaveformSettings;
import org.joml.Matrix3d;
import org.joml.Quaterniond;
import org.joml.Vector3d;
import org.junit.jupiter.api.Test;

/**
 * {@link ContactMode#IMPULSE} single-point collisions against closed forms (source 000 §2–3): Poisson restitution
 * and momentum exact to round-off whatever the waveform, a sphere striking a plane obliquely leaving rolling
 * (large μ: {@code v_t' = 5/7·v_t}, {@code ω'·r = v_t'}) or sliding throughout (small μ: tangential impulse
 * {@code μ_d} times the normal one), and the pulse's height, duration and area.
 */
class ImpulseCollisionTest {

    private static final double DT_S = 0.001;
    private static final double R_M = 0.05;
    private static final double MASS_KG = 1.0;
    /** Table 2's two fits and two made-up waveforms, short and long, to show the totals do not depend on them. */
    private static final ImpulseWaveformSettings[] WAVEFORMS = {
        ImpulseWaveformSettings.TABLE_2_SINGLE_POINT, ImpulseWaveformSettings.TABLE_2_MULTI_POINT,
        new ImpulseWaveformSettings(30.0, 5e-3, 2e-3), new ImpulseWaveformSettings(900.0, 0.0, 1e-3)};

    @Test
    void shouldReboundFromAPlaneAtETimesTheImpactSpeed() {
        for (double e : new double[] {0.0, 0.3, 0.72, 1.0}) {
            PhysicsWorld world = weightless();
            world.addStaticBody("wall", new PlaneShape(new Vector3d(0, 0, 1)), new Vector3d(), new Quaterniond(),
                new Material(e, 0.0, 0.0));
            int ball = ball(world, new Vector3d(0.0, 0.0, R_M + 0.0005), new Material(e, 0.0, 0.0));
            world.setBodyVelocity(ball, new Vector3d(0.0, 0.0, -0.8), new Vector3d());
            run(world, 100);
            // Both materials have the same e, so the pair's mean is e; Poisson's law with a frictionless normal
            // through the centre is Newton's: v' = e·v, exact to a few roundings.
            assertEquals(0.8 * e, world.bodyLinearVelocity(ball, new Vector3d()).z, 1e-12, "e = " + e);
        }
    }

    @Test
    void shouldExchangeMomentumExactlyWhateverTheWaveform() {
        for (ImpulseWaveformSettings waveform : WAVEFORMS) {
            PhysicsWorld world = weightless();
            ((ImpulseWaveformModel) world.contactModel(ContactMode.IMPULSE)).setSettings(waveform);
            Material rough = new Material(0.6, 0.4, 0.3);
            // Two boxes meeting corner-first and off-centre: friction, spin and a normal not through the centres.
            int a = box(world, new Vector3d(0.0, 0.0, 0.0), new Quaterniond().rotateXYZ(0.3, 0.2, 0.1), rough);
            int b = box(world, new Vector3d(0.03, 0.02, 0.105), new Quaterniond().rotateXYZ(-0.1, 0.4, 0.2), rough);
            world.setBodyVelocity(a, new Vector3d(0.1, 0.0, 0.5), new Vector3d(0.0, 1.0, 0.0));
            world.setBodyVelocity(b, new Vector3d(-0.2, 0.1, -0.4), new Vector3d(2.0, 0.0, -1.0));
            Vector3d before = momentum(world, a, b);
            int collisions = run(world, 200);
            assertTrue(collisions > 0, "no collision began with " + waveform);
            // 1e-14 N·s: a few roundings of the 1.3 kg·m/s of the pair.
            assertEquals(0.0, momentum(world, a, b).distance(before), 1e-14, "linear momentum, " + waveform);
        }
    }

    @Test
    void shouldKeepAngularMomentumInAnObliqueCollisionWithFriction() {
        // Two spheres (their free motion keeps L exactly: isotropic inertia, no gyroscopic term) striking off the
        // line of centres with friction: every sample acts equally and oppositely at one point, so L about any
        // fixed point is what it was. Without the position correction: it moves the bodies apart after the overlap a
        // collision leaves without changing their momenta, which shifts L about a fixed point by Δx × m·v.
        for (ImpulseWaveformSettings waveform : WAVEFORMS) {
            PhysicsWorld world = weightless();
            world.setContactSettings(world.contactSettings().withPositionIterations(0));
            ((ImpulseWaveformModel) world.contactModel(ContactMode.IMPULSE)).setSettings(waveform);
            Material rough = new Material(0.6, 0.5, 0.4);
            int a = ball(world, new Vector3d(0.0, 0.0, 0.0), rough);
            int b = ball(world, new Vector3d(0.06, 0.07, 0.005), rough);
            world.setBodyVelocity(a, new Vector3d(0.4, 0.1, 0.0), new Vector3d(0.0, 0.0, 3.0));
            world.setBodyVelocity(b, new Vector3d(-0.3, -0.2, 0.05), new Vector3d(1.0, -2.0, 0.0));
            Vector3d before = angularMomentum(world, a, b);
            Vector3d linearBefore = momentum(world, a, b);
            assertTrue(run(world, 200) > 0, "no collision began with " + waveform);
            assertEquals(0.0, angularMomentum(world, a, b).distance(before), 1e-15, "angular momentum, " + waveform);
            assertEquals(0.0, momentum(world, a, b).distance(linearBefore), 1e-15, "linear momentum, " + waveform);
        }
    }

    @Test
    void shouldLeaveRollingFromAnObliqueStrikeWithLargeFriction() {
        // Solid sphere, I = 2/5·m·r²: stopping the slip takes the tangential impulse (2/7)·m·v_t, so it leaves
        // with v_t' = 5/7·v_t and ω'·r = v_t', for any μ above (2/7)·v_t/((1 + e)·v_n) = 0.1 here.
        // The ball starts touching (0.1 µm deep), so the collision point, midway between the surfaces, is the
        // sphere's lowest point to 5e-8 m: the closed form's r to a relative 1e-6, the tolerance below.
        PhysicsWorld world = weightless();
        Material rough = new Material(0.5, 0.9, 0.9);
        world.addStaticBody("wall", new PlaneShape(new Vector3d(0, 0, 1)), new Vector3d(), new Quaterniond(), rough);
        int ball = ball(world, new Vector3d(0.0, 0.0, R_M - 1e-7), rough);
        double vt = 0.7;
        double vn = 1.0;
        world.setBodyVelocity(ball, new Vector3d(vt, 0.0, -vn), new Vector3d());
        run(world, 100);
        Vector3d v = world.bodyLinearVelocity(ball, new Vector3d());
        Vector3d w = world.bodyAngularVelocity(ball, new Vector3d());
        assertEquals(5.0 / 7.0 * vt, v.x, 1e-6 * vt, "v_t' = 5/7·v_t");
        // Rolling on the plane z = 0 toward +x: ω = (0, v_x/r, 0).
        assertEquals(v.x, w.y * R_M, 1e-6 * vt, "ω'·r = v_t'");
        assertEquals(0.5 * vn, v.z, 1e-12, "the normal rebound e·v_n");
    }

    @Test
    void shouldSlideThroughoutWithSmallFriction() {
        // μ_d = 0.05 < 0.1: the slip never stops; each sample's tangential impulse is μ_d times its normal one,
        // so the velocity changes keep that ratio: Δv_t = −μ_d·Δv_n.
        PhysicsWorld world = weightless();
        Material slick = new Material(0.5, 0.05, 0.05);
        world.addStaticBody("wall", new PlaneShape(new Vector3d(0, 0, 1)), new Vector3d(), new Quaterniond(), slick);
        int ball = ball(world, new Vector3d(0.0, 0.0, R_M + 0.0005), slick);
        world.setBodyVelocity(ball, new Vector3d(0.7, 0.0, -1.0), new Vector3d());
        run(world, 100);
        Vector3d v = world.bodyLinearVelocity(ball, new Vector3d());
        double normalNs = MASS_KG * (v.z + 1.0);
        double tangentialNs = MASS_KG * (0.7 - v.x);
        assertEquals(1.5, normalNs, 1e-12, "(1 + e)·m·v_n");
        assertEquals(0.05 * normalNs, tangentialNs, 1e-12, "μ_d × normal impulse");
        Vector3d w = world.bodyAngularVelocity(ball, new Vector3d());
        assertTrue(v.x - w.y * R_M > 0.1, "still slipping: " + (v.x - w.y * R_M));
    }

    @Test
    void shouldPlayTheNominalPulseWhenTheEstimateIsExact() {
        // A frictionless sphere on a plane: IP_z = (1 + e)·m·v_n is exact, so the samples are the nominal waveform:
        // peak H = S_h·IP_z (within the averaging over a step), duration W within one step, area IP_z.
        PhysicsWorld world = weightless();
        Material material = new Material(0.5, 0.0, 0.0);
        world.addStaticBody("wall", new PlaneShape(new Vector3d(0, 0, 1)), new Vector3d(), new Quaterniond(), material);
        int ball = ball(world, new Vector3d(0.0, 0.0, R_M + 0.0002), material);
        double vn = 0.1;
        world.setBodyVelocity(ball, new Vector3d(0.0, 0.0, -0.05 - vn), new Vector3d());
        ImpulseWaveformModel model = (ImpulseWaveformModel) world.contactModel(ContactMode.IMPULSE);
        double peakN = 0.0;
        double areaNs = 0.0;
        int samples = 0;
        double impulseNs = Double.NaN;
        double heightN = Double.NaN;
        double durationS = Double.NaN;
        Vector3d forceN = new Vector3d();
        for (int step = 0; step < 200; step++) {
            world.step(DT_S);
            if (model.startedCount() > 0) {
                impulseNs = model.startedImpulseNs(0);
                heightN = model.startedHeightN(0);
                durationS = model.startedDurationS(0);
            }
            world.contactForceOnBody(ball, forceN);
            if (forceN.z > 0.0) {
                peakN = Math.max(peakN, forceN.z);
                areaNs += forceN.z * DT_S;
                samples++;
            }
        }
        double expectedImpulseNs = 1.5 * MASS_KG * (0.05 + vn);
        assertEquals(expectedImpulseNs, impulseNs, 1e-12, "IP_z");
        ImpulseWaveformSettings table = ImpulseWaveformSettings.TABLE_2_SINGLE_POINT;
        assertEquals(ImpulseWaveform.heightN(table, impulseNs), heightN, 1e-12);
        assertEquals(heightN, peakN, 0.02 * heightN, "peak of the rendered samples");
        assertEquals(durationS / DT_S, samples, 1.0, "samples: the duration within one step");
        assertEquals(impulseNs, areaNs, 1e-12, "area");
    }

    /**
     * A tester's tumbling box with e = 1 gained 50 % of its energy in five bounces on a floor, and two frictionless
     * spheres meeting off-centre gained 1.2 %: Poisson's total returned more than the compression took once the
     * bodies turned during the pulse, and the samples were applied with the onset's inertia. The restitution now
     * ends where its work reaches e² times the compression's, and samples use the current inertia. Without
     * gravity (the position correction then adds no potential energy), no step may add kinetic energy: measured
     * before the change, up to 4.2 % for these boxes; after it, 2.5e-12 at most.
     */
    @Test
    void shouldNeverAddKineticEnergyWhileTheBodiesTurn() {
        for (double mu : new double[] {0.0, 0.5}) {
            for (int seed = 0; seed < 6; seed++) {
                PhysicsWorld world = weightless();
                java.util.Random random = new java.util.Random(seed);
                Material material = new Material(1.0, mu, mu);
                world.addStaticBody("floor", new PlaneShape(new Vector3d(0, 0, 1)), new Vector3d(), new Quaterniond(),
                    material);
                Quaterniond q = new Quaterniond().rotateXYZ(3 * random.nextDouble(), 3 * random.nextDouble(),
                    3 * random.nextDouble());
                int box = world.addDynamicBody("box", new BoxShape(0.03, 0.05, 0.02), new Vector3d(0, 0, 0.1), q, 0.4,
                    SolidInertia.box(0.4, 0.03, 0.05, 0.02, new Matrix3d()), material);
                world.setBodyVelocity(box, new Vector3d(random.nextGaussian(), random.nextGaussian(),
                    -2 - random.nextDouble()), new Vector3d(10 * random.nextGaussian(), 10 * random.nextGaussian(),
                    10 * random.nextGaussian()));
                double before = kineticEnergyJ(world, box);
                int collisions = 0;
                ImpulseWaveformModel model = (ImpulseWaveformModel) world.contactModel(ContactMode.IMPULSE);
                for (int step = 0; step < 1000; step++) {
                    world.step(DT_S);
                    collisions += model.startedCount();
                    assertTrue(kineticEnergyJ(world, box) <= before * (1 + 1e-9), "mu " + mu + ", seed " + seed
                        + ", step " + step + ": " + kineticEnergyJ(world, box) + " J from " + before + " J");
                }
                assertTrue(collisions > 0, "no collision, seed " + seed);
            }
        }
        PhysicsWorld world = weightless();
        Material elastic = new Material(1.0, 0.0, 0.0);
        int a = world.addDynamicBody("a", new SphereShape(0.04), new Vector3d(), new Quaterniond(), 1.0,
            SolidInertia.sphere(1.0, 0.04, new Matrix3d()), elastic);
        int b = world.addDynamicBody("b", new SphereShape(0.04), new Vector3d(0.2, 0, 0.04), new Quaterniond(), 2.5,
            SolidInertia.sphere(2.5, 0.04, new Matrix3d()), elastic);
        world.setBodyVelocity(a, new Vector3d(1.5, 0, 0), new Vector3d());
        world.setBodyVelocity(b, new Vector3d(-0.5, 0, 0), new Vector3d());
        double before = kineticEnergyJ(world, a) + kineticEnergyJ(world, b);
        assertTrue(run(world, 500) > 0, "the spheres collide");
        assertEquals(before, kineticEnergyJ(world, a) + kineticEnergyJ(world, b), 1e-9 * before,
            "frictionless, e = 1: the energy is kept (it was 1.2 % more)");
    }

    private static double kineticEnergyJ(PhysicsWorld world, int body) {
        Vector3d v = world.bodyLinearVelocity(body, new Vector3d());
        Vector3d w = world.bodyAngularVelocity(body, new Vector3d());
        Vector3d l = world.bodyAngularMomentum(body, new Vector3d());
        return 0.5 * world.bodyMassKg(body) * v.lengthSquared() + 0.5 * w.dot(l);
    }

    // ---- Scene helpers ---------------------------------------------------------------------------------------

    private static PhysicsWorld weightless() {
        PhysicsWorld world = new PhysicsWorld(ContactSettings.defaults());
        world.setGravity(new Vector3d());
        world.setSceneContactMode(ContactMode.IMPULSE);
        return world;
    }

    private static int ball(PhysicsWorld world, Vector3d positionM, Material material) {
        return world.addDynamicBody("ball", new SphereShape(R_M), positionM, new Quaterniond(), MASS_KG,
            SolidInertia.sphere(MASS_KG, R_M, new Matrix3d()), material);
    }

    private static int box(PhysicsWorld world, Vector3d positionM, Quaterniond q, Material material) {
        return world.addDynamicBody("box" + world.bodyCount(), new BoxShape(0.05, 0.04, 0.03), positionM, q, 1.3,
            SolidInertia.box(1.3, 0.05, 0.04, 0.03, new Matrix3d()), material);
    }

    /** Steps; returns how many collisions began. */
    private static int run(PhysicsWorld world, int steps) {
        ImpulseWaveformModel model = (ImpulseWaveformModel) world.contactModel(ContactMode.IMPULSE);
        int collisions = 0;
        for (int i = 0; i < steps; i++) {
            world.step(DT_S);
            collisions += model.startedCount();
        }
        return collisions;
    }

    private static Vector3d momentum(PhysicsWorld world, int a, int b) {
        Vector3d v = new Vector3d();
        Vector3d p = new Vector3d();
        p.fma(world.bodyMassKg(a), world.bodyLinearVelocity(a, v));
        p.fma(world.bodyMassKg(b), world.bodyLinearVelocity(b, v));
        return p;
    }

    private static Vector3d angularMomentum(PhysicsWorld world, int a, int b) {
        Vector3d total = new Vector3d();
        Vector3d x = new Vector3d();
        Vector3d v = new Vector3d();
        for (int body : new int[] {a, b}) {
            world.bodyPosition(body, x);
            world.bodyLinearVelocity(body, v).mul(world.bodyMassKg(body));
            total.add(x.cross(v, new Vector3d()));
            total.add(world.bodyAngularMomentum(body, v));
        }
        return total;
    }
}
