package org.hapticsd.physics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.joml.Vector3d;
import org.junit.jupiter.api.Test;

/**
 * The velocity sweeps of a step do at most {@link ContactSettings#lcpSweepBudget()} full sweeps' worth of point
 * visits (never fewer than 512, never less than one sweep), say when the budget stopped them, and leave the rest of
 * the solve to the next steps' warm start. The scene is a pile: 196 spheres of 5 cm dropped in layers into a
 * 0.5 m box, where a new contact spreads through the whole pile and the sweeps do not meet the tolerance quickly.
 */
class LcpSweepBudgetTest {

    private static final double DT_S = 0.001;
    private static final double RADIUS_M = 0.05;
    private static final double MASS_KG = 1.0;
    private static final int PER_SIDE = 7;
    private static final int LAYERS = 4;
    /** Below this the budget does not cut a step (LcpContactModel.MIN_BUDGET_VISITS). */
    private static final int MIN_BUDGET_VISITS = 512;

    @Test
    void shouldStopTheSweepsAtTheBudgetAndSaySo() {
        double budget = 2.0;
        PhysicsWorld world = pile(ContactSettings.defaults().withLcpSweepBudget(budget));
        StepProfile profile = world.profile();
        int stoppedByBudget = 0;
        for (int step = 0; step < 1500; step++) {
            world.step(DT_S);
            int points = profile.lastLcpRowCount();
            long allowed = Math.max(Math.max(points, MIN_BUDGET_VISITS), (long) Math.ceil(budget * points));
            int visits = profile.lastVelocityVisits();
            assertTrue(visits <= allowed, "step " + step + ": " + visits + " visits, budget " + allowed);
            if (profile.lastVelocityBudgetReached()) {
                stoppedByBudget++;
                // The budget is checked before each visit: a step it stops has used exactly the budget.
                assertEquals(allowed, visits, "visits of a step the budget stopped, step " + step);
                assertTrue(profile.lastVelocitySweeps() < world.contactSettings().lcpIterations(),
                        "a step stopped by the budget ran " + profile.lastVelocitySweeps() + " sweeps");
            }
        }
        // Precondition: the landing pile needs more than the budget in some steps, or nothing was tested.
        assertTrue(stoppedByBudget > 0, "no step reached the budget");
    }

    @Test
    void shouldLetTheSameStepsRunLongerWithALargerBudget() {
        // The same pile with a budget as large as the sweep limit: its heaviest steps visit more points than the
        // budget of 2 would have allowed, so that budget is what bounded them above.
        PhysicsWorld world = pile(ContactSettings.defaults().withLcpSweepBudget(20.0));
        StepProfile profile = world.profile();
        int beyond = 0;
        for (int step = 0; step < 1500; step++) {
            world.step(DT_S);
            int points = profile.lastLcpRowCount();
            if (profile.lastVelocityVisits() > Math.max(MIN_BUDGET_VISITS, 2 * points)) {
                beyond++;
            }
            assertTrue(!profile.lastVelocityBudgetReached() || profile.lastVelocityVisits() >= 20 * points,
                    "a budget of 20 full sweeps cannot stop 20 sweeps short, step " + step);
        }
        assertTrue(beyond > 0, "no step of the pile needed more than 2 full sweeps");
    }

    @Test
    void shouldCarryWhatABudgetLeftOverToTheNextSteps() {
        // A tight budget converges the pile over several steps instead of one: once it rests, its contacts carry its
        // weight, and no sphere sinks deeper than the static contact model leaves it.
        ContactSettings settings = ContactSettings.defaults().withLcpSweepBudget(1.5);
        PhysicsWorld world = pile(settings);
        for (int step = 0; step < 3000; step++) {
            world.step(DT_S);
        }
        assertCarried(world, settings);
    }

    /**
     * A step given a deadline that has already passed ({@link PhysicsWorld#step(double, long)}: the real-time loop's,
     * on a machine too slow for its scene) runs its first velocity sweep and its first position sweep whole and no
     * more, and says so when that cut a sweep short. Deterministic: a deadline already passed cuts at the same place
     * whatever the clock. What it costs, with every step cut for 6 s (the worst case; a run cuts the steps of its
     * slow moments): the pile never quite rests, one Gauss–Seidel sweep a step spreading each disturbance slowly, but
     * it stays carried, its weight on the floor and walls on average over 3 to 6 s (measured: 1922.75 N of
     * 1922.76 N, single samples 1738–2032 N), and its deepest point stays within 3.44 mm (0.2 mm with every sweep).
     */
    @Test
    void shouldStopTheSweepsAfterTheFirstAtAPassedDeadlineAndStayCarried() {
        PhysicsWorld world = pile(ContactSettings.defaults());
        StepProfile profile = world.profile();
        int cut = 0;
        double supportSumN = 0.0;
        int samples = 0;
        double deepestM = 0.0;
        Vector3d supportN = new Vector3d();
        for (int step = 0; step < 6000; step++) {
            world.step(DT_S, System.nanoTime() - 1);
            int points = profile.lastLcpRowCount();
            assertTrue(profile.lastVelocitySweeps() <= 1, "step " + step + ": " + profile.lastVelocitySweeps()
                    + " velocity sweeps past the deadline");
            assertTrue(profile.lastPositionSweeps() <= 1, "step " + step + ": " + profile.lastPositionSweeps()
                    + " position sweeps past the deadline");
            // The first sweep is never cut: every point gets its visit.
            assertEquals(points, profile.lastVelocityVisits(), "step " + step + ": visits of the first sweep");
            cut += profile.lastSweepDeadlineReached() ? 1 : 0;
            if (step >= 3000 && step % 10 == 0) {
                supportSumN += support(world, supportN).z;
                samples++;
                for (int i = 0; i < world.contactCount(); i++) {
                    deepestM = Math.max(deepestM, world.contact(i).depthM());
                }
            }
        }
        // Precondition: the landing and the restless pile need more than one sweep in many steps.
        assertTrue(cut > 1000, "steps cut at the deadline: " + cut);
        double weightN = PER_SIDE * PER_SIDE * LAYERS * MASS_KG * 9.81;
        assertEquals(weightN, supportSumN / samples, 1e-3 * weightN, "mean support over 3–6 s");
        assertTrue(deepestM <= 0.0036, "deepest point over 3–6 s: " + deepestM + " m");
    }

    /** A deadline that is never reached changes nothing: the same bits as {@link PhysicsWorld#step(double)}. */
    @Test
    void shouldGiveThePlainStepsBitsWhenTheDeadlineIsNotReached() {
        PhysicsWorld plain = pile(ContactSettings.defaults());
        PhysicsWorld timed = pile(ContactSettings.defaults());
        Vector3d a = new Vector3d();
        Vector3d b = new Vector3d();
        for (int step = 0; step < 600; step++) {
            plain.step(DT_S);
            timed.step(DT_S, System.nanoTime() + 3_600_000_000_000L);
            assertTrue(!timed.profile().lastSweepDeadlineReached(), "step " + step + " cut at a deadline an hour off");
            for (int body = 0; body < plain.bodyCount(); body++) {
                assertEquals(plain.bodyPosition(body, a), timed.bodyPosition(body, b), "step " + step + " body " + body);
            }
        }
        assertTrue(plain.contactCount() > 100, "the pile must have landed: " + plain.contactCount() + " contacts");
    }

    /** At rest the floor and walls carry the pile's weight, and no point is deeper than a landing leaves it. */
    private static void assertCarried(PhysicsWorld world, ContactSettings settings) {
        double weightN = PER_SIDE * PER_SIDE * LAYERS * MASS_KG * 9.81;
        Vector3d supportN = support(world, new Vector3d());
        // At rest the floor and walls carry the weight, to the early stop's tolerance of the largest impulse (1e-5)
        // times the number of points; 1e-3 of the weight is three orders of magnitude looser than that and still
        // tells a pile that is not yet carried (an unfinished solve leaves whole contacts at zero).
        assertEquals(weightN, supportN.z, 1e-3 * weightN, "support of the resting pile");
        double deepestM = 0.0;
        for (int i = 0; i < world.contactCount(); i++) {
            deepestM = Math.max(deepestM, world.contact(i).depthM());
        }
        // The static contact model leaves up to d_tol (0.2 mm); 0.1 mm more is what one step of g·Δt² and the
        // correction rate γ = 0.2 leave after a landing.
        assertTrue(deepestM <= settings.contactToleranceM() + 1e-4, "deepest point " + deepestM + " m");
    }

    /** What the static bodies push the pile with: minus the contact forces on them, N. */
    private static Vector3d support(PhysicsWorld world, Vector3d destN) {
        destN.zero();
        Vector3d forceN = new Vector3d();
        for (int body = 0; body < world.bodyCount(); body++) {
            if (world.bodyType(body) == BodyType.STATIC) {
                destN.sub(world.contactForceOnBody(body, forceN));
            }
        }
        return destN;
    }

    /** {@link BoxPile} of 10 cm spheres of 1 kg: the layers overlap as they land. */
    private static PhysicsWorld pile(ContactSettings settings) {
        return BoxPile.build(settings, RADIUS_M, MASS_KG);
    }
}
