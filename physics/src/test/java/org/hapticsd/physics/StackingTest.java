package org.hapticsd.physics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.hapticsd.physics.collision.Narrowphase;
import org.hapticsd.physics.dynamics.SolidInertia;
import org.joml.Matrix3d;
import org.joml.Quaterniond;
import org.joml.Vector3d;
import org.junit.jupiter.api.Test;

/**
 * Ten boxes of 10 cm and 1 kg stacked on a floor in {@link ContactMode#LCP}: the classic test of an iterative
 * contact solver, since the bottom contact must carry ten times the weight of the top one and Gauss–Seidel passes
 * load one contact per sweep. The stack is built as a hand would: each box 1–2 mm off the one below, alternately
 * turned by ±1° about the vertical, each contact starting 0.1 mm deep.
 *
 * <p>{@link #shouldStandTenBoxStackForTenSecondsWithTheNarrowphase} runs the engine as shipped (the dynamic AABB
 * tree broadphase, the box–box separating-axis narrowphase).
 * {@link #shouldStandTenBoxStackForTenSecondsWithFaceClippingStandIn} runs the same stack with
 * {@link FaceClippingBoxBox}, a test-only face-clipping box–box, so that a failure can be told apart: solver or
 * narrowphase.
 *
 * <p>{@link #shouldStandAnAlignedColumnOfTenBoxesForTenSeconds} is the degenerate case that the hand-built stack
 * avoids: {@code scenes/stack.yaml}'s perfect column, faces and edges exactly on one another.
 */
class StackingTest {

    private static final int BOXES = 10;
    private static final double HALF_M = 0.05;
    private static final double MASS_KG = 1.0;
    private static final double DT_S = 0.001;
    private static final int TEN_SECONDS = 10_000;
    /** The brief's bound on the top box's drift over 10 s. */
    private static final double MAX_DRIFT_M = 1e-3;
    /**
     * Sideways bound for the aligned column, half the drift bound. Its impacts leave the 20 sweeps unconverged for
     * a few steps, and what that tips depends on the last bits of the start poses: measured 0.01 to 0.31 mm over
     * eight columns a few ulps apart (0.01 to 0.05 mm at 200 sweeps), 0.13 to 1.43 mm before the fix.
     */
    private static final double MAX_SIDEWAYS_M = 0.5e-3;

    @Test
    void shouldStandTenBoxStackForTenSecondsWithTheNarrowphase() {
        PhysicsWorld world = new PhysicsWorld(ContactSettings.defaults());
        double driftM = standStack(world);
        assertTrue(driftM < MAX_DRIFT_M, "top box drifted " + driftM + " m in 10 s");
    }

    @Test
    void shouldStandTenBoxStackForTenSecondsWithFaceClippingStandIn() {
        // Every sweep of every step (no early stop, and no work budget to cut the sweeps short): the solver's
        // converged answer.
        ContactSettings everySweep = ContactSettings.defaults().withLcpTolerance(0.0);
        PhysicsWorld world = new PhysicsWorld(everySweep.withLcpSweepBudget(everySweep.lcpIterations()),
                new AllPairsCandidatePairFinder(), new FaceClippingBoxBox());
        double driftM = standStack(world);
        // Measured 0.06 mm with the default 20 iterations (alternating sweeps); a one-way sweep order wandered
        // 2 mm. The brief's bound is 1 mm.
        assertTrue(driftM < MAX_DRIFT_M, "top box drifted " + driftM + " m in 10 s");
        // The whole stack rests on the floor: its contacts carry 10·m·g, to the solver's residual (1e-9 relative).
        assertEquals(BOXES * MASS_KG * 9.81, -world.contactForceOnBody(0, new Vector3d()).z,
                1e-9 * BOXES * MASS_KG * 9.81, "floor load");
        assertTrue(world.profile().lastLcpResidualNs() < 1e-9, "residual " + world.profile().lastLcpResidualNs());
    }

    @Test
    void shouldCarryTheStackToTheEarlyStopToleranceWithTheDefaultSettings() {
        ContactSettings settings = ContactSettings.defaults();
        PhysicsWorld world = new PhysicsWorld(settings, new AllPairsCandidatePairFinder(), new FaceClippingBoxBox());
        double driftM = standStack(world);
        assertTrue(driftM < MAX_DRIFT_M, "top box drifted " + driftM + " m in 10 s");
        // The sweeps stop once one changes no impulse by more than lcpTolerance of the largest, so the floor load
        // is that fraction of the weight from exact, not the converged 1e-9 above (measured 1.4e-6 relative).
        double weightN = BOXES * MASS_KG * 9.81;
        assertEquals(weightN, -world.contactForceOnBody(0, new Vector3d()).z, settings.lcpTolerance() * weightN,
                "floor load");
        // ... and it stops early: a resting stack needs fewer sweeps than the limit. Whether the last step also stays
        // under the work budget is a coin flip, not a property: over the last second the budget ends 40 % of the
        // steps (51 % since a point's own friction change counts for its revisit, which the skip rule had missed),
        // and this assertion had held only because the last step happened to be one of the others.
        assertTrue(world.profile().lastVelocitySweeps() < settings.lcpIterations(),
                "sweeps " + world.profile().lastVelocitySweeps());
    }

    /**
     * Ten 2 cm boxes of 50 g in a perfect column, each face exactly on the one below, as in {@code scenes/stack.yaml}
     * (same poses, materials and iterations; the tool, in penalty mode, is left out: the run is the scene's to the
     * last bit). The faces' edges coincide, so the face clipping names the same corner differently from step to
     * step, and the start poses' rounding leaves some faces touching at depth 0 (not a contact) and others at
     * 1e-17 m. Measured: the top box moved 1.23 mm (1.13 mm sideways) in 10 s while the warm start matched points
     * by feature id only, and an exactly touching face could fall back to a single edge–edge point at a corner;
     * 0.43 mm with the matching by position, the sliver vertices dropped and that fallback ruled out, of which
     * 0.014 mm sideways. The rest is the column settling: touching faces are not in contact, so each box falls
     * until the one below has stopped, and the overlap each impact leaves, under the 0.2 mm contact tolerance,
     * stays.
     */
    @Test
    void shouldStandAnAlignedColumnOfTenBoxesForTenSeconds() {
        PhysicsWorld world = new PhysicsWorld(ContactSettings.defaults());
        Material material = new Material(0.0, 0.6, 0.5);
        world.addStaticBody("floor", new PlaneShape(new Vector3d(0, 0, 1)), new Vector3d(0.0, 0.0, -0.05),
                new Quaterniond(), material);
        double halfM = 0.01;
        double massKg = 0.05;
        int top = -1;
        for (int k = 0; k < BOXES; k++) {
            // The scene's decimal literals -0.04, -0.02, ..., 0.14: n/100.0 rounds to the same doubles.
            Vector3d positionM = new Vector3d(0.04, 0.0, (2 * k - 4) / 100.0);
            top = world.addDynamicBody("box" + k, new BoxShape(halfM, halfM, halfM), positionM, new Quaterniond(),
                    massKg, SolidInertia.box(massKg, halfM, halfM, halfM, new Matrix3d()), material);
        }
        Vector3d startM = world.bodyPosition(top, new Vector3d());
        for (int i = 0; i < TEN_SECONDS; i++) {
            world.step(DT_S);
        }
        Vector3d endM = world.bodyPosition(top, new Vector3d());
        assertTrue(endM.distance(startM) < MAX_DRIFT_M, "top box drifted " + endM.distance(startM) + " m in 10 s");
        double sidewaysM = Math.hypot(endM.x - startM.x, endM.y - startM.y);
        assertTrue(sidewaysM < MAX_SIDEWAYS_M, "top box moved " + sidewaysM + " m sideways in 10 s");
    }

    /** Builds the stack on a floor, runs 10 s and returns how far the top box moved from where it was placed. */
    private static double standStack(PhysicsWorld world) {
        Material material = new Material(0.0, 0.6, 0.5);
        world.addStaticBody("floor", new PlaneShape(new Vector3d(0, 0, 1)), new Vector3d(), new Quaterniond(),
                material);
        int top = -1;
        for (int k = 0; k < BOXES; k++) {
            double zM = HALF_M - 1e-4 + k * (2 * HALF_M - 1e-4);
            Vector3d positionM = new Vector3d(0.002 * (k % 3 - 1), 0.0015 * ((k + 1) % 3 - 1), zM);
            Quaterniond yaw = new Quaterniond().rotationAxis(Math.toRadians(k % 2 == 0 ? 1.0 : -1.0), 0, 0, 1);
            top = world.addDynamicBody("box " + k, new BoxShape(HALF_M, HALF_M, HALF_M), positionM, yaw, MASS_KG,
                    SolidInertia.box(MASS_KG, HALF_M, HALF_M, HALF_M, new Matrix3d()), material);
        }
        Vector3d startM = world.bodyPosition(top, new Vector3d());
        for (int i = 0; i < TEN_SECONDS; i++) {
            world.step(DT_S);
        }
        return world.bodyPosition(top, new Vector3d()).distance(startM);
    }
}
