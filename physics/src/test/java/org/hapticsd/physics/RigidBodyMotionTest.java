package org.hapticsd.physics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.hapticsd.physics.dynamics.SolidInertia;
import org.joml.Matrix3d;
import org.joml.Quaterniond;
import org.joml.Quaterniondc;
import org.joml.Vector3d;
import org.junit.jupiter.api.Test;

/** Free motion: the integrator against closed forms and conservation laws. No contacts. */
class RigidBodyMotionTest {

    private static final double DT_S = 0.001;
    private static final double G_MPS2 = 9.81;

    @Test
    void shouldFallAsSymplecticEulerWithinItsFirstOrderErrorOfHalfGTSquared() {
        PhysicsWorld world = new PhysicsWorld(ContactSettings.defaults());
        double z0M = 10.0;
        int ball = world.addDynamicBody("ball", new SphereShape(0.1), new Vector3d(1.0, 2.0, z0M), new Quaterniond(),
                2.0, SolidInertia.sphere(2.0, 0.1, new Matrix3d()), Material.DEFAULT);
        Vector3d p = new Vector3d();
        Vector3d v = new Vector3d();
        for (int n = 1; n <= 1000; n++) {
            world.step(DT_S);
            world.bodyPosition(ball, p);
            world.bodyLinearVelocity(ball, v);
            double tS = n * DT_S;
            // Semi-implicit Euler: v_n = −g·n·Δt, z_n = z0 + Δt·Σ v_k = z0 − g·Δt²·n(n+1)/2. The sum runs over n
            // roundings of values below 10 m: 1e-12 m covers them a hundredfold.
            assertEquals(-G_MPS2 * tS, v.z, 1e-12, "v_z at step " + n);
            assertEquals(z0M - G_MPS2 * DT_S * DT_S * n * (n + 1) / 2.0, p.z, 1e-12, "z at step " + n);
            // Against the exact ½·g·t²: the scheme lags by exactly ½·g·Δt·t (first order in Δt), so the error
            // stays within that bound, which is 4.9 mm after 1 s at 1 kHz.
            double exactZM = z0M - 0.5 * G_MPS2 * tS * tS;
            assertTrue(Math.abs(p.z - exactZM) <= 0.5 * G_MPS2 * DT_S * tS + 1e-12,
                    "error " + (p.z - exactZM) + " beyond ½·g·Δt·t at step " + n);
            assertEquals(1.0, p.x, 0.0, "no sideways motion");
            assertEquals(2.0, p.y, 0.0, "no sideways motion");
        }
    }

    @Test
    void shouldConserveAngularMomentumOfATorqueFreeBody() {
        PhysicsWorld world = new PhysicsWorld(ContactSettings.defaults());
        // Three distinct moments and off-diagonal terms in the body frame: diag(0.02, 0.05, 0.065) turned.
        Quaterniondc turn = new Quaterniond().rotationAxis(0.7, 1.0, -2.0, 0.5);
        Matrix3d r = new Matrix3d().set(turn);
        Matrix3d inertia = new Matrix3d(r).mul(new Matrix3d().scaling(0.02, 0.05, 0.065))
                .mul(new Matrix3d(r).transpose());
        int body = world.addDynamicBody("spinner", new BoxShape(0.1, 0.2, 0.3), new Vector3d(0, 0, 5),
                new Quaterniond().rotationAxis(0.3, 0.0, 1.0, 1.0), 3.0, inertia, Material.DEFAULT);
        Vector3d omega0 = new Vector3d(1.5, -2.0, 3.0);
        world.setBodyVelocity(body, new Vector3d(), omega0);
        Vector3d l0 = world.bodyAngularMomentum(body, new Vector3d());
        double energy0 = 0.5 * omega0.dot(l0);
        Vector3d l = new Vector3d();
        Vector3d omega = new Vector3d();
        double maxDirectionError = 0.0;
        double maxOmega = 0.0;
        for (int n = 1; n <= 10_000; n++) {
            world.step(DT_S);
            world.bodyAngularMomentum(body, l);
            world.bodyAngularVelocity(body, omega);
            maxOmega = Math.max(maxOmega, omega.length());
            maxDirectionError = Math.max(maxDirectionError, l.distance(l0) / l0.length());
            // The implicit midpoint gyroscopic step conserves |L| and the kinetic energy exactly in exact
            // arithmetic; what remains is its two Newton iterations' residual (below 1e-13 relative per step at
            // |ω|·Δt = 0.004) and rounding over 10 000 steps. 1e-9 relative is ten thousand times that and ten
            // million times below the 2 % that Catto's dissipative implicit Euler step loses on such a body.
            assertEquals(l0.length(), l.length(), 1e-9 * l0.length(), "|L| at step " + n);
            assertEquals(energy0, 0.5 * omega.dot(l), 1e-9 * energy0, "kinetic energy at step " + n);
        }
        // The world direction of L is conserved only to first order: the body-frame update uses the midpoint ω,
        // the orientation advances with the end-of-step ω, and that phase offset of order |ω|·Δt turns L back and
        // forth as the body precesses. It oscillates rather than grows (halving Δt halves it), so |ω|·Δt bounds
        // it at any time.
        assertTrue(maxDirectionError < maxOmega * DT_S,
                "world L moved by " + maxDirectionError + " of |L|, bound " + maxOmega * DT_S);
    }

    @Test
    void shouldFlipTHandleSpunNearItsIntermediateAxisWhileKeepingEnergyAndMomentum() {
        PhysicsWorld world = new PhysicsWorld(ContactSettings.defaults());
        world.setGravity(new Vector3d());
        Matrix3d inertia = tHandleInertia();
        // Principal moments x: 4.6e-4, y: 1.12e-3, z: 6.8e-4 kg·m²: z is the intermediate axis.
        assertTrue(inertia.m00() < inertia.m22() && inertia.m22() < inertia.m11(), "z must be intermediate");
        int handle = world.addDynamicBody("T-handle", new BoxShape(0.1, 0.01, 0.07), new Vector3d(),
                new Quaterniond(), 0.3, inertia, Material.DEFAULT);
        Vector3d omega0 = new Vector3d(0.01, 0.01, 6.0);
        world.setBodyVelocity(handle, new Vector3d(), omega0);
        Vector3d l0 = world.bodyAngularMomentum(handle, new Vector3d());
        double energy0 = 0.5 * omega0.dot(l0);
        Vector3d omega = new Vector3d();
        Vector3d omegaBody = new Vector3d();
        Vector3d l = new Vector3d();
        Quaterniond q = new Quaterniond();
        double firstFlipS = -1.0;
        double secondFlipS = -1.0;
        double previousSign = 1.0;
        for (int n = 1; n <= 10_000; n++) {
            world.step(DT_S);
            world.bodyAngularVelocity(handle, omega);
            world.bodyOrientation(handle, q).transformInverse(omega, omegaBody);
            double sign = Math.signum(omegaBody.z);
            if (sign != 0.0 && sign != previousSign) {
                if (firstFlipS < 0.0) {
                    firstFlipS = n * DT_S;
                } else if (secondFlipS < 0.0) {
                    secondFlipS = n * DT_S;
                }
                previousSign = sign;
            }
            world.bodyAngularMomentum(handle, l);
            // Same reasoning and bounds as the torque-free body above.
            assertEquals(l0.length(), l.length(), 1e-9 * l0.length(), "|L| at step " + n);
            assertEquals(energy0, 0.5 * omega.dot(l), 1e-9 * energy0, "kinetic energy at step " + n);
        }
        // Linear growth rate of the perturbation: ω·√((I_z − I_x)(I_y − I_z)/(I_x·I_y)) = 2.6/s, so from a
        // perturbation of 0.01/6 the spin axis turns over after about ln(600)/2.6 = 2.5 s, and back again one
        // period later.
        assertTrue(firstFlipS > 0.0 && firstFlipS < 5.0, "first flip at " + firstFlipS + " s");
        assertTrue(secondFlipS > firstFlipS && secondFlipS < 10.0, "second flip at " + secondFlipS + " s");
    }

    @Test
    void shouldKeepTheSpinOfAnIsotropicBodyBitForBit() {
        // A uniform cube (I = c·E) turned and spinning about a skew axis: ω × I·ω = 0, so with no torque and no
        // damping ω must not change at all. The general path (ω into the body frame, two Newton iterations, back)
        // rounds it by an ulp or so a step; the isotropic path leaves it alone, so equality is exact.
        PhysicsWorld world = new PhysicsWorld(ContactSettings.defaults());
        int cube = world.addDynamicBody("cube", new BoxShape(0.05, 0.05, 0.05), new Vector3d(0, 0, 5),
                new Quaterniond().rotationAxis(0.9, 1.0, -0.4, 0.3), 2.0,
                SolidInertia.box(2.0, 0.05, 0.05, 0.05, new Matrix3d()), Material.DEFAULT);
        Vector3d omega0 = new Vector3d(0.7, -3.1, 1.9);
        world.setBodyVelocity(cube, new Vector3d(), omega0);
        Vector3d omega = new Vector3d();
        for (int n = 1; n <= 2_000; n++) {
            world.step(DT_S);
            assertEquals(omega0, world.bodyAngularVelocity(cube, omega), "ω at step " + n);
        }
    }

    @Test
    void shouldTurnAnIsotropicBodyByTorqueOverItsMomentInAnyOrientation() {
        // A force at a lever arm on a turned sphere: Δω = Δt·τ/c in the world frame, whatever the orientation,
        // since R·(E/c)·Rᵀ = E/c. Exact arithmetic gives it to the last ulp; 1e-15 rad/s covers the rounding of the
        // torque and of the product.
        PhysicsWorld world = new PhysicsWorld(ContactSettings.defaults());
        world.setGravity(new Vector3d());
        double massKg = 3.0;
        double radiusM = 0.1;
        int ball = world.addDynamicBody("ball", new SphereShape(radiusM), new Vector3d(1, 2, 3),
                new Quaterniond().rotationAxis(2.2, -0.3, 0.8, 0.5), massKg,
                SolidInertia.sphere(massKg, radiusM, new Matrix3d()), Material.DEFAULT);
        double momentKgM2 = 0.4 * massKg * radiusM * radiusM;
        world.applyForce(ball, new Vector3d(0, 4, 0), new Vector3d(1.1, 2, 3));
        world.step(DT_S);
        // τ = (0.1, 0, 0) × (0, 4, 0) = (0, 0, 0.4) N·m.
        Vector3d omega = world.bodyAngularVelocity(ball, new Vector3d());
        assertEquals(0.0, omega.x, 1e-15);
        assertEquals(0.0, omega.y, 1e-15);
        assertEquals(DT_S * 0.4 / momentKgM2, omega.z, 1e-15 * (DT_S * 0.4 / momentKgM2) + 1e-15);
    }

    @Test
    void shouldDampVelocitiesImplicitly() {
        PhysicsWorld world = new PhysicsWorld(ContactSettings.defaults());
        world.setGravity(new Vector3d());
        int ball = world.addDynamicBody("ball", new SphereShape(0.1), new Vector3d(), new Quaterniond(), 1.0,
                SolidInertia.sphere(1.0, 0.1, new Matrix3d()), Material.DEFAULT);
        world.setDamping(ball, 2.0, 5.0);
        world.setBodyVelocity(ball, new Vector3d(1, 0, 0), new Vector3d(0, 0, 1));
        world.step(DT_S);
        // v/(1 + c·Δt): one division each, exact to a few ulps.
        assertEquals(1.0 / (1.0 + 2.0 * DT_S), world.bodyLinearVelocity(ball, new Vector3d()).x, 1e-15);
        assertEquals(1.0 / (1.0 + 5.0 * DT_S), world.bodyAngularVelocity(ball, new Vector3d()).z, 1e-15);
    }

    @Test
    void shouldLeaveKinematicBodyWhereItsOwnerPutIt() {
        PhysicsWorld world = new PhysicsWorld(ContactSettings.defaults());
        int platform = world.addKinematicBody("platform", new BoxShape(0.2, 0.2, 0.01), new Vector3d(),
                new Quaterniond(), Material.DEFAULT);
        Quaterniond turned = new Quaterniond().rotationAxis(0.4, 0.0, 0.0, 1.0);
        world.setKinematicState(platform, new Vector3d(0.1, 0.2, 0.3), turned, new Vector3d(1, 0, 0),
                new Vector3d(0, 0, 2));
        world.step(DT_S);
        world.step(DT_S);
        assertEquals(new Vector3d(0.1, 0.2, 0.3), world.bodyPosition(platform, new Vector3d()),
                "gravity and its velocity do not move a kinematic body");
        assertEquals(turned, world.bodyOrientation(platform, new Quaterniond()));
        assertEquals(new Vector3d(1, 0, 0), world.bodyLinearVelocity(platform, new Vector3d()));
        assertEquals(new Vector3d(0, 0, 2), world.bodyAngularVelocity(platform, new Vector3d()));
    }

    /**
     * A T-handle from two uniform boxes, as inertia about the common centre of mass: a bar of 0.2 kg, half
     * extents (0.1, 0.01, 0.01) m at the origin, and a stem of 0.1 kg, half extents (0.01, 0.01, 0.06) m centred
     * 0.07 m below it; each box's inertia is moved to the common centre by the parallel-axis theorem
     * {@code I + m·(|d|²·E − d·dᵀ)}, which for offsets along z adds {@code m·d²} about x and y.
     */
    static Matrix3d tHandleInertia() {
        double barKg = 0.2;
        double stemKg = 0.1;
        double stemZM = -0.07;
        double centreZM = (barKg * 0.0 + stemKg * stemZM) / (barKg + stemKg);
        Matrix3d bar = SolidInertia.box(barKg, 0.1, 0.01, 0.01, new Matrix3d());
        Matrix3d stem = SolidInertia.box(stemKg, 0.01, 0.01, 0.06, new Matrix3d());
        double barD2 = centreZM * centreZM;
        double stemD2 = (stemZM - centreZM) * (stemZM - centreZM);
        double ixx = bar.m00() + barKg * barD2 + stem.m00() + stemKg * stemD2;
        double iyy = bar.m11() + barKg * barD2 + stem.m11() + stemKg * stemD2;
        double izz = bar.m22() + stem.m22();
        return new Matrix3d().scaling(ixx, iyy, izz);
    }
}
