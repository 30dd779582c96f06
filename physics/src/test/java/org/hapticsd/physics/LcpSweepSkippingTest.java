package org.hapticsd.physics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.hapticsd.physics.dynamics.SolidInertia;
import org.joml.Matrix3d;
import org.joml.Quaterniond;
import org.joml.Vector3d;
import org.junit.jupiter.api.Test;

/**
 * The velocity sweeps revisit a point only when its bodies moved since its last visit (see
 * {@code LcpContactModel.solveVelocities}): a body settling after an impact must not make the sweeps walk over
 * every resting contact of the scene again, and must come out exactly as it would alone.
 */
class LcpSweepSkippingTest {

    private static final double DT_S = 0.001;
    private static final double HALF_M = 0.05;
    private static final int RESTING_BOXES = 5;
    /**
     * Lighter than B (1 kg), so that B's normal impulse is the largest in the scene and sets the tolerance in both
     * worlds of {@link #shouldSolveTheMovingBodyExactlyAsIfItWereAlone} (the tolerance is relative to it).
     */
    private static final double RESTING_MASS_KG = 0.25;
    /** A box face on the floor: four corner points. */
    private static final int POINTS_PER_BOX = 4;

    @Test
    void shouldRevisitOnlyThePointsOfTheBodyThatIsStillMoving() {
        PhysicsWorld world = restingBoxesAndAnImpact(RESTING_BOXES);
        world.step(DT_S);

        StepProfile profile = world.profile();
        int restingPoints = RESTING_BOXES * POINTS_PER_BOX;
        assertEquals(restingPoints + POINTS_PER_BOX, profile.lastLcpRowCount(), "points: the resting boxes' and B's");
        int sweeps = profile.lastVelocitySweeps();
        // Precondition: the oblique impact of B needs several sweeps, so there is something to skip.
        assertTrue(sweeps >= 3, "sweeps for the impact: " + sweeps);
        // The resting boxes' points converge in the first sweep and are not visited again; B's four points are
        // visited at most once per sweep. Without the skipping the count is sweeps × all points.
        int visits = profile.lastVelocityVisits();
        assertTrue(visits <= restingPoints + sweeps * POINTS_PER_BOX,
                "visits " + visits + " with " + sweeps + " sweeps over " + profile.lastLcpRowCount() + " points");
    }

    @Test
    void shouldSolveTheMovingBodyExactlyAsIfItWereAlone() {
        PhysicsWorld crowded = restingBoxesAndAnImpact(RESTING_BOXES);
        PhysicsWorld alone = restingBoxesAndAnImpact(0);
        int inCrowd = crowded.bodyCount() - 1;
        int single = alone.bodyCount() - 1;
        Vector3d expected = new Vector3d();
        Vector3d actual = new Vector3d();
        for (int step = 0; step < 50; step++) {
            crowded.step(DT_S);
            alone.step(DT_S);
            // Bodies that share no contact share no row, and the resting boxes converge in the first sweep, so B's
            // rows see the same arithmetic in the same order: equal to the bit. The skipping decides per body; this
            // guards that it does not couple bodies that do not touch.
            assertEquals(alone.bodyLinearVelocity(single, expected), crowded.bodyLinearVelocity(inCrowd, actual),
                    "B's velocity at step " + step);
            assertEquals(alone.bodyAngularVelocity(single, expected), crowded.bodyAngularVelocity(inCrowd, actual),
                    "B's angular velocity at step " + step);
        }
    }

    @Test
    void shouldKeepTheRestingContactsWarmWhenABodyIsAdded() {
        PhysicsWorld world = restingBoxesAndAnImpact(RESTING_BOXES);
        world.step(DT_S);
        LcpContactTest.settle(world, 1000);
        assertEquals(1, world.profile().lastVelocitySweeps(), "sweeps of the settled scene");
        // A body added far from everything resizes the contact buffers; the resting boxes keep their impulses.
        LcpContactTest.addBox(world, new Vector3d(5, 5, 5), new Quaterniond(), new Material(0.2, 0.5, 0.4));
        world.step(DT_S);
        assertEquals(1, world.profile().lastVelocitySweeps(),
                "sweeps the step after a body was added (from zero impulses the boxes need several)");
    }

    /**
     * A floor, {@code resting} light boxes settled on it 0.3 m apart, then box B moved to touch the floor 1 m away,
     * striking it obliquely (1 m/s down, 0.5 m/s sideways, spinning) so that friction and the four corners need
     * several sweeps. B waits out the settling far above (held there), so that both worlds have the same bodies
     * from the start.
     */
    private static PhysicsWorld restingBoxesAndAnImpact(int resting) {
        Material material = new Material(0.2, 0.5, 0.4);
        PhysicsWorld world = LcpContactTest.floorWorld(ContactSettings.defaults(), material);
        for (int i = 0; i < resting; i++) {
            world.addDynamicBody("resting" + i, new BoxShape(HALF_M, HALF_M, HALF_M),
                    new Vector3d(0.3 * i, 0, HALF_M - 1e-4), new Quaterniond(), RESTING_MASS_KG,
                    SolidInertia.box(RESTING_MASS_KG, HALF_M, HALF_M, HALF_M, new Matrix3d()), material);
        }
        Vector3d parkedM = new Vector3d(0, 1.0, 10.0);
        int b = LcpContactTest.addBox(world, parkedM, new Quaterniond(), material);
        for (int step = 0; step < 500; step++) {
            world.setBodyPose(b, parkedM, new Quaterniond());
            world.setBodyVelocity(b, new Vector3d(), new Vector3d());
            world.step(DT_S);
        }
        world.setBodyPose(b, new Vector3d(0, 1.0, HALF_M - 1e-4), new Quaterniond());
        world.setBodyVelocity(b, new Vector3d(0.5, 0, -1.0), new Vector3d(0, 0, 3.0));
        return world;
    }
}
