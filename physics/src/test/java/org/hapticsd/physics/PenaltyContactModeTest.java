package org.hapticsd.physics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.hapticsd.physics.dynamics.SolidInertia;
import org.joml.Matrix3d;
import org.joml.Quaterniond;
import org.joml.Quaterniondc;
import org.joml.Vector3d;
import org.junit.jupiter.api.Test;

/** {@link ContactMode#PENALTY} contacts on dynamic bodies: equilibrium depths, spring–stick friction, stability. */
class PenaltyContactModeTest {

    private static final double DT_S = 0.001;
    private static final double G_MPS2 = 9.81;
    private static final double MASS_KG = 1.0;
    private static final double K_NPM = 20_000.0;

    @Test
    void shouldRestSphereAtDepthMgOverK() {
        // Critical damping b = 2·√(k·m); stable since k·Δt² + 2·b·Δt = 0.59 kg < 4·m (see PenaltyContactModel).
        double b = 2.0 * Math.sqrt(K_NPM * MASS_KG);
        PhysicsWorld world = penaltyFloor(K_NPM, b, Material.DEFAULT);
        double r = 0.05;
        int ball = world.addDynamicBody("ball", new SphereShape(r), new Vector3d(0, 0, r), new Quaterniond(), MASS_KG,
                SolidInertia.sphere(MASS_KG, r, new Matrix3d()), Material.DEFAULT);
        run(world, 2000);
        // At rest k·d = m·g exactly; the transient decays by a factor below 0.85 per step, gone after 2000 steps,
        // so only rounding of a depth of 0.5 mm remains: 1e-12 m.
        assertEquals(MASS_KG * G_MPS2 / K_NPM, world.contact(0).depthM(), 1e-12, "depth");
        assertEquals(r - MASS_KG * G_MPS2 / K_NPM, world.bodyPosition(ball, new Vector3d()).z, 1e-12, "height");
        assertEquals(MASS_KG * G_MPS2, world.contactForceOnBody(ball, new Vector3d()).z, 1e-8, "spring carries m·g");
        assertEquals(ContactMode.PENALTY, world.contact(0).mode());
    }

    @Test
    void shouldRestBoxOnItsFourCornerSpringsAtMgOverFourK() {
        double b = 100.0;
        PhysicsWorld world = penaltyFloor(K_NPM, b, new Material(0.0, 0.5, 0.5));
        double h = 0.05;
        int box = world.addDynamicBody("box", new BoxShape(h, h, h), new Vector3d(0, 0, h), new Quaterniond(), MASS_KG,
                SolidInertia.box(MASS_KG, h, h, h, new Matrix3d()), new Material(0.0, 0.5, 0.5));
        run(world, 3000);
        assertEquals(4, world.contactCount());
        for (int i = 0; i < 4; i++) {
            // Four equal springs share the weight: k·d = m·g/4 at each corner, to rounding (1e-12 m).
            assertEquals(MASS_KG * G_MPS2 / (4.0 * K_NPM), world.contact(i).depthM(), 1e-12, "corner " + i);
        }
        assertEquals(MASS_KG * G_MPS2, world.contactForceOnBody(box, new Vector3d()).z, 1e-8, "total");
    }

    @Test
    void shouldHoldBlockOnInclineWithTheStickSpring() {
        double thetaRad = Math.toRadians(20.0);
        Material material = new Material(0.0, 0.5, 0.3);
        Quaterniondc turn = new Quaterniond().rotationAxis(thetaRad, 1.0, 0.0, 0.0);
        PhysicsWorld world = new PhysicsWorld(ContactSettings.defaults()
                .withPenalty(new PenaltyContactSettings(K_NPM, 100.0)));
        world.setSceneContactMode(ContactMode.PENALTY);
        world.addStaticBody("ramp", new PlaneShape(new Vector3d(0, 0, 1)), new Vector3d(), turn, material);
        double h = 0.05;
        Vector3d normal = turn.transform(new Vector3d(0, 0, 1));
        Vector3d downSlope = turn.transform(new Vector3d(0, -1, 0));
        // Placed at its equilibrium depth m·g·cos θ/(4k), so the friction bound is there from the first step.
        double depthM = MASS_KG * G_MPS2 * Math.cos(thetaRad) / (4.0 * K_NPM);
        int box = world.addDynamicBody("box", new BoxShape(h, h, h), new Vector3d(normal).mul(h - depthM), turn,
                MASS_KG, SolidInertia.box(MASS_KG, h, h, h, new Matrix3d()), material);
        Vector3d startM = world.bodyPosition(box, new Vector3d());
        run(world, 1000);
        double at1sM = world.bodyPosition(box, new Vector3d()).sub(startM).dot(downSlope);
        run(world, 1000);
        double at2sM = world.bodyPosition(box, new Vector3d()).sub(startM).dot(downSlope);
        // The block hangs on its springs. Each corner's tangential spring carries a quarter of m·g·sin θ,
        // stretching by s = m·g·sin θ/(4k) = 42 µm; the friction's moment m·g·sin θ·h about the centre of mass tilts
        // the block on its normal springs by φ = m·g·sin θ/(4k·h), moving the centre down the slope by h·φ = s
        // again. 2s from the two, plus one s for their coupling (the tilt also turns the tangential springs): the
        // block must hang within 3s (measured 2.4s). And it must not creep: the last second moves it by less than
        // 1 nm (the damped springs settle by a factor 0.85 per step).
        double stretchM = MASS_KG * G_MPS2 * Math.sin(thetaRad) / (4.0 * K_NPM);
        assertTrue(at2sM > 0.0 && at2sM < 3.0 * stretchM, "hangs " + at2sM + " m down the slope");
        assertEquals(at1sM, at2sM, 1e-9, "creep in the last second");
    }

    @Test
    void shouldSlideWithDynamicFrictionAndStopAfterVSquaredOverTwoMuG() {
        double mu = 0.3;
        Material material = new Material(0.0, mu, mu);
        PhysicsWorld world = penaltyFloor(K_NPM, 100.0, material);
        double h = 0.05;
        int box = world.addDynamicBody("box", new BoxShape(h, h, h), new Vector3d(0, 0, h - 1.2e-4),
                new Quaterniond(), MASS_KG, SolidInertia.box(MASS_KG, h, h, h, new Matrix3d()), material);
        run(world, 500);
        double startM = world.bodyPosition(box, new Vector3d()).x;
        double v0Mps = 1.0;
        world.setBodyVelocity(box, new Vector3d(v0Mps, 0, 0), new Vector3d());
        run(world, 1500);
        double distanceM = world.bodyPosition(box, new Vector3d()).x - startM;
        double expectedM = v0Mps * v0Mps / (2.0 * mu * G_MPS2);
        // While sliding the four corners carry m·g between them and each is bounded by μ·f_n, so the deceleration
        // is μ·g as in LCP mode; the stop differs by the stick spring's final stretch (μ·m·g/(4k) = 37 µm) and the
        // damper's share of the bound. 2 % as for the LCP block.
        assertEquals(expectedM, distanceM, 0.02 * expectedM, "sliding distance");
        assertEquals(0.0, world.bodyLinearVelocity(box, new Vector3d()).length(), 1e-6, "stopped");
    }

    @Test
    void shouldStayBoundedBelowAndDivergeAboveTheStiffnessBoundOfSymplecticEuler() {
        double massKg = 0.1;
        double boundNpm = PenaltyContactSettings.maxStableStiffnessNpm(massKg, DT_S);
        double r = 0.02;
        double perturbationM = 0.5e-6;
        double[] worstM = new double[2];
        double[] factors = {0.9, 1.1};
        for (int c = 0; c < 2; c++) {
            double kNpm = factors[c] * boundNpm;
            PhysicsWorld world = penaltyFloor(kNpm, 0.0, Material.DEFAULT);
            // Resting at its equilibrium depth m·g/k (2.7 µm at 0.9 of the bound), pushed 0.5 µm deeper.
            double restZM = r - massKg * G_MPS2 / kNpm;
            int ball = world.addDynamicBody("ball", new SphereShape(r), new Vector3d(0, 0, restZM - perturbationM),
                    new Quaterniond(), massKg, SolidInertia.sphere(massKg, r, new Matrix3d()), Material.DEFAULT);
            for (int i = 0; i < 200; i++) {
                world.step(DT_S);
                worstM[c] = Math.max(worstM[c], Math.abs(world.bodyPosition(ball, new Vector3d()).z - restZM));
            }
        }
        // Below 4·m/Δt² the undamped discrete oscillator keeps a modified energy: the amplitude stays within
        // 1/√(1 − (ω·Δt/2)²) = 3.2 times the push (ω·Δt = 1.90), so the ball never leaves the floor. Above it the
        // amplification matrix has an eigenvalue near −1.9: the oscillation grows every step and throws the ball off.
        assertTrue(worstM[0] < 3.2 * perturbationM * 1.01, "below the bound it strayed " + worstM[0] + " m");
        assertTrue(worstM[1] > 1e-3, "above the bound it strayed only " + worstM[1] + " m");
    }

    private static PhysicsWorld penaltyFloor(double stiffnessNpm, double dampingNspm, Material material) {
        PhysicsWorld world = new PhysicsWorld(ContactSettings.defaults()
                .withPenalty(new PenaltyContactSettings(stiffnessNpm, dampingNspm)));
        world.setSceneContactMode(ContactMode.PENALTY);
        world.addStaticBody("floor", new PlaneShape(new Vector3d(0, 0, 1)), new Vector3d(), new Quaterniond(),
                material);
        return world;
    }

    private static void run(PhysicsWorld world, int steps) {
        for (int i = 0; i < steps; i++) {
            world.step(DT_S);
        }
    }
}
