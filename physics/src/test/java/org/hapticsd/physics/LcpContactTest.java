package org.hapticsd.physics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.hapticsd.physics.dynamics.SolidInertia;
import org.joml.Matrix3d;
import org.joml.Quaterniond;
import org.joml.Quaterniondc;
import org.joml.Vector3d;
import org.joml.Vector3dc;
import org.junit.jupiter.api.Test;

/**
 * {@link ContactMode#LCP} contacts against closed forms: restitution, Coulomb friction on a floor and an incline,
 * rolling, and Springhead's two normal models. Default {@link ContactSettings} unless a test says otherwise.
 */
class LcpContactTest {

    private static final double DT_S = 0.001;
    private static final double G_MPS2 = 9.81;
    private static final double HALF_M = 0.05;
    private static final double MASS_KG = 1.0;

    @Test
    void shouldReboundToApexHeightsInRatioElasticitySquared() {
        double e = 0.5;
        Material material = new Material(e, 0.0, 0.0);
        PhysicsWorld world = new PhysicsWorld(ContactSettings.defaults());
        world.addStaticBody("floor", new PlaneShape(new Vector3d(0, 0, 1)), new Vector3d(), new Quaterniond(),
                material);
        double r = 0.05;
        double dropM = 0.5;
        int ball = world.addDynamicBody("ball", new SphereShape(r), new Vector3d(0, 0, r + dropM), new Quaterniond(),
                MASS_KG, SolidInertia.sphere(MASS_KG, r, new Matrix3d()), material);
        double[] apexM = new double[4];
        apexM[0] = dropM;
        int found = 1;
        double highestM = 0.0;
        boolean rising = false;
        Vector3d p = new Vector3d();
        Vector3d v = new Vector3d();
        for (int n = 0; n < 3000 && found < apexM.length; n++) {
            world.step(DT_S);
            world.bodyPosition(ball, p);
            world.bodyLinearVelocity(ball, v);
            if (v.z > 0.0) {
                rising = true;
                highestM = Math.max(highestM, p.z - r);
            } else if (rising) {
                apexM[found++] = highestM;
                rising = false;
                highestM = 0.0;
            }
        }
        assertEquals(apexM.length, found, "bounces seen");
        for (int k = 0; k + 1 < apexM.length; k++) {
            // The collision model sets the rebound speed to exactly e times the approach speed v, but the impact is
            // seen at the first step that penetrates, not at the instant of touching. Three one-step errors follow:
            // v is up to g·Δt faster than √(2·g·h_k), worth e²·v·Δt of rebound height; the rebound starts up to
            // v·Δt below the surface; and the apex is sampled at a step, up to e·v·Δt from the true top. Hence
            // |h_{k+1} − e²·h_k| <= (1 + e + e²)·v·Δt + g·Δt² with v = √(2·g·h_k): 4 % of e²·h_k for the first
            // bounce, 18 % for the third. (Measured: 0.1 %, 1 %, 2 %.)
            double vMps = Math.sqrt(2.0 * G_MPS2 * apexM[k]);
            double toleranceM = (1.0 + e + e * e) * vMps * DT_S + G_MPS2 * DT_S * DT_S;
            assertEquals(e * e * apexM[k], apexM[k + 1], toleranceM, "apex " + (k + 1) + " after " + apexM[k]);
        }
    }

    @Test
    void shouldStopSlidingBlockAfterVSquaredOverTwoMuG() {
        double mu = 0.3;
        // Static friction equal to dynamic: the threshold speed V_f then changes nothing.
        Material material = new Material(0.0, mu, mu);
        PhysicsWorld world = floorWorld(ContactSettings.defaults(), material);
        int box = addBox(world, new Vector3d(0, 0, HALF_M - 1e-4), new Quaterniond(), material);
        settle(world, 100);
        Vector3d startM = world.bodyPosition(box, new Vector3d());
        double v0Mps = 2.0;
        world.setBodyVelocity(box, new Vector3d(v0Mps, 0, 0), new Vector3d());
        Vector3d v = new Vector3d();
        int n = 0;
        do {
            world.step(DT_S);
            n++;
        } while (world.bodyLinearVelocity(box, v).length() > 1e-9 && n < 5000);
        settle(world, 100);
        double distanceM = world.bodyPosition(box, new Vector3d()).x - startM.x;
        double expectedM = v0Mps * v0Mps / (2.0 * mu * G_MPS2);
        // 2 %: the discrete stop (up to one step of travel, 0.3 %) and the first-order lag of symplectic Euler
        // (v0·Δt/2, 0.15 %) are the known errors; the rest is margin for the load shifting between corners.
        assertEquals(expectedM, distanceM, 0.02 * expectedM, "sliding distance");
        assertEquals(0.0, world.bodyPosition(box, new Vector3d()).y - startM.y, 1e-9, "no sideways drift");
    }

    @Test
    void shouldStickOnInclineWhileTangentBelowStaticFriction() {
        double thetaRad = Math.toRadians(20.0);
        assertTrue(Math.tan(thetaRad) < 0.5);
        Incline incline = new Incline(thetaRad, new Material(0.0, 0.5, 0.3));
        incline.run(2000);
        // A converged stick leaves only the solver's residual velocity (measured 1e-12 m of creep in 2 s): a
        // micrometre bounds it a millionfold and is still a thousandth of the box.
        assertEquals(0.0, incline.displacementAlongSlopeM(), 1e-6, "creep down a 20° slope with μ0 = 0.5");
    }

    @Test
    void shouldSlideDownInclineWithAccelerationGTimesSinMinusMuCos() {
        double thetaRad = Math.toRadians(30.0);
        double mu = 0.3;
        assertTrue(Math.tan(thetaRad) > 0.5);
        Incline incline = new Incline(thetaRad, new Material(0.0, 0.5, mu));
        incline.run(1000);
        double v1Mps = incline.speedAlongSlopeMps();
        incline.run(1000);
        double v2Mps = incline.speedAlongSlopeMps();
        double expected = G_MPS2 * (Math.sin(thetaRad) - mu * Math.cos(thetaRad));
        // Once sliding faster than V_f, every step adds exactly g·(sin θ − μ·cos θ)·Δt to the velocity (semi-implicit
        // Euler is exact for a constant acceleration) up to the Gauss–Seidel residual: 0.1 % is generous for that.
        assertEquals(expected, (v2Mps - v1Mps) / 1.0, 1e-3 * expected, "acceleration down the slope");
    }

    @Test
    void shouldRollSphereAtFiveSeventhsOfItsInitialSlidingSpeed() {
        Material material = new Material(0.0, 0.3, 0.3);
        PhysicsWorld world = floorWorld(ContactSettings.defaults(), material);
        double r = 0.05;
        int ball = world.addDynamicBody("ball", new SphereShape(r), new Vector3d(0, 0, r - 1e-4), new Quaterniond(),
                MASS_KG, SolidInertia.sphere(MASS_KG, r, new Matrix3d()), material);
        settle(world, 10);
        double v0Mps = 2.0;
        world.setBodyVelocity(ball, new Vector3d(v0Mps, 0, 0), new Vector3d());
        settle(world, 1000);
        Vector3d v = world.bodyLinearVelocity(ball, new Vector3d());
        Vector3d w = world.bodyAngularVelocity(ball, new Vector3d());
        // Angular momentum about the contact point is conserved while friction acts there, so sliding ends, once
        // the slip (2·v0/(7·μ·g) = 0.19 s) is over, with v = v0·x/(1 + x), x = m·ρ²/I, and ω = v/ρ, whatever
        // the step. ρ is the lever arm of the friction force: it acts midway between the surfaces, ρ = r − d/2,
        // so for the resting depth d = 0.1 mm x is 2.5·(ρ/r)² instead of 2.5 and v is 0.06 % below the textbook
        // 5/7·v0. What remains is the solver's residual: 1e-9 relative.
        double rhoM = r - 0.5 * world.contact(0).depthM();
        double x = MASS_KG * rhoM * rhoM / (0.4 * MASS_KG * r * r);
        assertEquals(v0Mps * x / (1.0 + x), v.x, 1e-9 * v0Mps, "rolling speed");
        assertEquals(5.0 / 7.0 * v0Mps, v.x, 1e-3 * v0Mps, "the textbook 5/7 within the 0.06 % of the lever arm");
        assertEquals(v.x / rhoM, w.y, 1e-9 * v0Mps / r, "rolls without slipping");
    }

    @Test
    void shouldRestBoxOnItsFourCornersCarryingItsWeight() {
        Material material = new Material(0.0, 0.5, 0.5);
        PhysicsWorld world = floorWorld(ContactSettings.defaults(), material);
        int box = addBox(world, new Vector3d(0.1, -0.2, HALF_M + 0.01), new Quaterniond(), material);
        settle(world, 1000);
        assertEquals(4, world.contactCount(), "a box flat on a plane touches at its four bottom corners");
        Vector3d forceN = world.contactForceOnBody(box, new Vector3d());
        // At rest the contact impulse per step is m·g·Δt exactly once the warm-started solve has converged (its
        // residual is reported as 0): 1e-9 relative leaves room for rounding only.
        assertEquals(MASS_KG * G_MPS2, forceN.z, 1e-9 * MASS_KG * G_MPS2, "normal force");
        assertEquals(0.0, Math.hypot(forceN.x, forceN.y), 1e-9, "no net friction at rest");
        assertVector(new Vector3d(0, 0, -MASS_KG * G_MPS2), world.contactForceOnBody(0, new Vector3d()),
                1e-9 * MASS_KG * G_MPS2);
        assertTrue(world.profile().lastLcpResidualNs() < 1e-9 * MASS_KG * G_MPS2 * DT_S,
                "residual " + world.profile().lastLcpResidualNs());
        assertEquals(12, world.profile().lastLcpRowCount() * 3, "four points, three rows each");
        // Depth settles within the contact tolerance: the static model corrects only what exceeds d_tol.
        double depthM = HALF_M - world.bodyPosition(box, new Vector3d()).z;
        assertTrue(depthM > 0.0 && depthM <= ContactSettings.defaults().contactToleranceM() + 1e-9,
                "resting depth " + depthM);
        for (int i = 0; i < world.contactCount(); i++) {
            assertEquals(ContactMode.LCP, world.contact(i).mode());
            assertEquals(box, world.contact(i).bodyA(), "the dynamic body is A");
        }
    }

    @Test
    void shouldReduceExcessDepthByErrorCorrectionRatePerStepWithoutAddingVelocity() {
        ContactSettings settings = ContactSettings.defaults();
        PhysicsWorld world = floorWorld(settings, Material.DEFAULT);
        world.setGravity(new Vector3d());
        double r = 0.05;
        double depthM = 0.002;
        int ball = world.addDynamicBody("ball", new SphereShape(r), new Vector3d(0, 0, r - depthM), new Quaterniond(),
                MASS_KG, SolidInertia.sphere(MASS_KG, r, new Matrix3d()), Material.DEFAULT);
        world.step(DT_S);
        double newDepthM = r - world.bodyPosition(ball, new Vector3d()).z;
        double gamma = settings.errorCorrectionRate();
        double toleranceM = settings.contactToleranceM();
        // Springhead eq. 7.2, d' = d − γ·max(d − d_tol, 0): one point converges in one sweep, so this holds to
        // rounding (1e-15 m).
        assertEquals(depthM - gamma * (depthM - toleranceM), newDepthM, 1e-15, "depth after one step");
        assertEquals(new Vector3d(), world.bodyLinearVelocity(ball, new Vector3d()),
                "split impulse: the correction moves the body but leaves no velocity");
    }

    @Test
    void shouldBounceOnlyAboveTheImpactThreshold() {
        Material elastic = new Material(1.0, 0.0, 0.0);
        ContactSettings settings = ContactSettings.defaults();
        double r = 0.05;
        for (double approachMps : new double[] {0.05, 0.5}) {
            PhysicsWorld world = floorWorld(settings, elastic);
            world.setGravity(new Vector3d());
            int ball = world.addDynamicBody("ball", new SphereShape(r), new Vector3d(0, 0, r - 1e-5),
                    new Quaterniond(), MASS_KG, SolidInertia.sphere(MASS_KG, r, new Matrix3d()), elastic);
            world.setBodyVelocity(ball, new Vector3d(0, 0, -approachMps), new Vector3d());
            world.step(DT_S);
            double vAfterMps = world.bodyLinearVelocity(ball, new Vector3d()).z;
            if (approachMps < settings.impactThresholdMps()) {
                // Static contact model: the approach is stopped, nothing bounces back (to rounding).
                assertEquals(0.0, vAfterMps, 1e-15, "below V_th the static model stops the ball");
            } else {
                // Collision model with e = 1: v' = −e·v^x exactly for a single point.
                assertEquals(approachMps, vAfterMps, 1e-15, "above V_th the collision model reflects it");
            }
        }
    }

    @Test
    void shouldStandColumnOfTenSpheres() {
        Material material = new Material(0.0, 0.5, 0.5);
        PhysicsWorld world = floorWorld(ContactSettings.defaults(), material);
        double r = 0.05;
        int top = -1;
        for (int k = 0; k < 10; k++) {
            top = world.addDynamicBody("ball " + k, new SphereShape(r), new Vector3d(0, 0, r - 1e-4 + k * (2 * r - 1e-4)),
                    new Quaterniond(), MASS_KG, SolidInertia.sphere(MASS_KG, r, new Matrix3d()), material);
        }
        Vector3d startM = world.bodyPosition(top, new Vector3d());
        settle(world, 10_000);
        // Ten contacts in series carry the load; each settles within d_tol of where it started, so the top may
        // sink by at most 10·d_tol = 2 mm; the brief's bound for a stack is 1 mm and the column meets it.
        assertEquals(0.0, world.bodyPosition(top, new Vector3d()).distance(startM), 1e-3, "top ball drift in 10 s");
        assertEquals(10, world.contactCount());
        assertEquals(10 * MASS_KG * G_MPS2, world.contactForceOnBody(0, new Vector3d()).negate().z,
                1e-9 * 10 * MASS_KG * G_MPS2, "the floor carries the column");
    }

    // ---- Helpers ---------------------------------------------------------------------------------------------

    /** A box of half extent 5 cm resting on a plane turned by θ about x, in a default LCP world. */
    private static final class Incline {
        final PhysicsWorld world;
        final int box;
        final Vector3d downSlope;
        final Vector3d startM;

        Incline(double thetaRad, Material material) {
            world = new PhysicsWorld(ContactSettings.defaults());
            Quaterniondc turn = new Quaterniond().rotationAxis(thetaRad, 1.0, 0.0, 0.0);
            world.addStaticBody("ramp", new PlaneShape(new Vector3d(0, 0, 1)), new Vector3d(), turn, material);
            Vector3d normal = turn.transform(new Vector3d(0, 0, 1));
            // +y turned by θ about x rises along the slope; down the slope is its opposite.
            downSlope = turn.transform(new Vector3d(0, -1, 0));
            box = addBox(world, new Vector3d(normal).mul(HALF_M - 1e-4), turn, material);
            startM = world.bodyPosition(box, new Vector3d());
        }

        void run(int steps) {
            settle(world, steps);
        }

        double displacementAlongSlopeM() {
            return world.bodyPosition(box, new Vector3d()).sub(startM).dot(downSlope);
        }

        double speedAlongSlopeMps() {
            return world.bodyLinearVelocity(box, new Vector3d()).dot(downSlope);
        }
    }

    static PhysicsWorld floorWorld(ContactSettings settings, Material material) {
        PhysicsWorld world = new PhysicsWorld(settings);
        world.addStaticBody("floor", new PlaneShape(new Vector3d(0, 0, 1)), new Vector3d(), new Quaterniond(),
                material);
        return world;
    }

    static int addBox(PhysicsWorld world, Vector3dc positionM, Quaterniondc orientation, Material material) {
        return world.addDynamicBody("box", new BoxShape(HALF_M, HALF_M, HALF_M), positionM, orientation, MASS_KG,
                SolidInertia.box(MASS_KG, HALF_M, HALF_M, HALF_M, new Matrix3d()), material);
    }

    static void settle(PhysicsWorld world, int steps) {
        for (int i = 0; i < steps; i++) {
            world.step(DT_S);
        }
    }

    static void assertVector(Vector3dc expected, Vector3dc actual, double tolerance) {
        assertEquals(expected.x(), actual.x(), tolerance, "x");
        assertEquals(expected.y(), actual.y(), tolerance, "y");
        assertEquals(expected.z(), actual.z(), tolerance, "z");
    }
}
