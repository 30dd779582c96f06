package org.hapticsd.physics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.hapticsd.physics.dynamics.SolidInertia;
import org.joml.Matrix3d;
import org.joml.Quaterniond;
import org.joml.Vector3d;
import org.junit.jupiter.api.Test;

/**
 * Source 000 §4: a row of five touching balls (r = 0.05 m, 1 kg, e = 1, frictionless, no gravity), struck by the
 * first at 0.5 m/s (phenomenon A) or by the first two (B). The resting contacts of the row carry no relative
 * velocity, so IMPULSE mode plays the row as a sequence of single-point collisions (§4.1): the last ball leaves at
 * the striking speed and the others stop (measured: 0.5 m/s to round-off, the others at rest). LCP contacts solve
 * the row at once and spread the momentum instead: here the last four leave at 0.20 m/s and the first rebounds at
 * −0.30 m/s (the issue measured 0.444 and −0.167 m/s on its own scene).
 */
class NewtonsCradleTest {

    private static final double DT_S = 0.001;
    private static final double R_M = 0.05;
    private static final double MASS_KG = 1.0;
    private static final double STRIKE_MPS = 0.5;

    @Test
    void shouldPassOneBallsMomentumDownTheRow() {
        PhysicsWorld world = row(ContactMode.IMPULSE, 1);
        double[] v = run(world);
        // The bars: the last ball at least 0.475 m/s, every other ball at most 0.025 m/s, energy to 1 %.
        assertTrue(v[4] >= 0.475, "last ball " + v[4]);
        for (int ball = 0; ball < 4; ball++) {
            assertTrue(Math.abs(v[ball]) <= 0.025, "ball " + ball + " at " + v[ball]);
        }
        assertEquals(0.5 * MASS_KG * STRIKE_MPS * STRIKE_MPS, kineticEnergyJ(v), 0.01 * 0.125, "kinetic energy");
        assertEquals(MASS_KG * STRIKE_MPS, momentum(v), 1e-12, "momentum, to round-off");
    }

    @Test
    void shouldPassTwoBallsMomentumDownTheRow() {
        PhysicsWorld world = row(ContactMode.IMPULSE, 2);
        double[] v = run(world);
        assertEquals(STRIKE_MPS, v[3], 0.05 * STRIKE_MPS, "fourth ball");
        assertEquals(STRIKE_MPS, v[4], 0.05 * STRIKE_MPS, "last ball");
        for (int ball = 0; ball < 3; ball++) {
            assertTrue(Math.abs(v[ball]) <= 0.025, "ball " + ball + " at " + v[ball]);
        }
        assertEquals(2 * MASS_KG * STRIKE_MPS, momentum(v), 1e-12, "momentum, to round-off");
    }

    @Test
    void shouldShowWhatTheSimultaneousLcpSolveGives() {
        // The comparison the issue measured: LCP resolves the row at once and spreads the momentum.
        double[] v = run(row(ContactMode.LCP, 1));
        assertTrue(v[4] < 0.46, "LCP's last ball " + v[4]);
        assertTrue(v[0] < -0.1, "LCP's first ball rebounds: " + v[0]);
    }

    /** Five balls along x, touching (0.1 µm deep), the first {@code striking} moving at 0.5 m/s toward the rest. */
    static PhysicsWorld row(ContactMode mode, int striking) {
        PhysicsWorld world = new PhysicsWorld(ContactSettings.defaults());
        world.setGravity(new Vector3d());
        world.setSceneContactMode(mode);
        Material steel = new Material(1.0, 0.0, 0.0);
        for (int ball = 0; ball < 5; ball++) {
            int body = world.addDynamicBody("b" + ball, new SphereShape(R_M),
                new Vector3d(ball * (2 * R_M - 1e-7), 0.0, 0.0), new Quaterniond(), MASS_KG,
                SolidInertia.sphere(MASS_KG, R_M, new Matrix3d()), steel);
            if (ball < striking) {
                world.setBodyVelocity(body, new Vector3d(STRIKE_MPS, 0.0, 0.0), new Vector3d());
            }
        }
        return world;
    }

    /** One second; the balls' x velocities after it. */
    private static double[] run(PhysicsWorld world) {
        for (int step = 0; step < 1000; step++) {
            world.step(DT_S);
        }
        double[] v = new double[5];
        Vector3d velocity = new Vector3d();
        for (int ball = 0; ball < 5; ball++) {
            v[ball] = world.bodyLinearVelocity(ball, velocity).x;
        }
        return v;
    }

    private static double kineticEnergyJ(double[] v) {
        double sum = 0.0;
        for (double vi : v) {
            sum += 0.5 * MASS_KG * vi * vi;
        }
        return sum;
    }

    private static double momentum(double[] v) {
        double sum = 0.0;
        for (double vi : v) {
            sum += MASS_KG * vi;
        }
        return sum;
    }
}
