package org.hapticsd.physics;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.hapticsd.physics.dynamics.SolidInertia;
import org.joml.Matrix3d;
import org.joml.Quaterniond;
import org.joml.Vector3d;
import org.junit.jupiter.api.Test;

class StepProfileTest {

    @Test
    void shouldListStagesInExecutionOrder() {
        StepStage[] expected = {StepStage.BROADPHASE, StepStage.NARROWPHASE, StepStage.DEFORMABLE_CONTACTS,
                StepStage.PREPARE_CONTACTS, StepStage.INTEGRATE_VELOCITIES, StepStage.WARM_START, StepStage.SOLVE,
                StepStage.INTEGRATE, StepStage.DEFORMABLE_INTEGRATE, StepStage.CORRECT_POSITIONS, StepStage.RESTITUTION, StepStage.STORE_IMPULSES};
        assertArrayEquals(expected, StepStage.values());
        assertEquals(expected.length, StepStage.count());
        for (int i = 0; i < expected.length; i++) {
            assertSame(expected[i], StepStage.at(i));
        }
    }

    @Test
    void shouldReadZeroBeforeTheFirstStep() {
        PhysicsWorld world = new PhysicsWorld(new PenaltyContactSettings(1000.0, 0.0));
        for (int i = 0; i < StepStage.count(); i++) {
            assertEquals(0L, world.profile().lastNs(StepStage.at(i)));
        }
    }

    @Test
    void shouldTimeEveryStageNonNegativelyAndSumThemIntoTheTotal() {
        PhysicsWorld world = new PhysicsWorld(new PenaltyContactSettings(1000.0, 0.0));
        world.addStaticBody("floor", new PlaneShape(new Vector3d(0, 0, 1)), new Vector3d(), new Quaterniond());
        world.addStaticBody("box", new BoxShape(0.1, 0.1, 0.1), new Vector3d(0, 0, 0.1), new Quaterniond());
        int tool = world.addTool("tool", 0.01);
        world.setToolState(tool, new Vector3d(0, 0, 0.005), new Vector3d());
        StepProfile profile = world.profile();
        long totalOverStepsNs = 0;
        for (int i = 0; i < 1000; i++) {
            world.step(0.001);
            long sumNs = 0;
            for (int s = 0; s < StepStage.count(); s++) {
                long stageNs = profile.lastNs(StepStage.at(s));
                assertTrue(stageNs >= 0, StepStage.at(s) + " took " + stageNs + " ns");
                sumNs += stageNs;
            }
            assertEquals(sumNs, profile.lastTotalNs());
            totalOverStepsNs += sumNs;
        }
        // A thousand steps with nine clock reads each cannot all measure 0 ns on a nanosecond-resolution clock.
        assertTrue(totalOverStepsNs > 0, "profile never advanced");
        assertSame(profile, world.profile());
    }

    @Test
    void shouldReportLcpRowsAndAResidualThatVanishesAtRest() {
        PhysicsWorld world = new PhysicsWorld(ContactSettings.defaults());
        world.addStaticBody("floor", new PlaneShape(new Vector3d(0, 0, 1)), new Vector3d(), new Quaterniond());
        world.step(0.001);
        assertEquals(0, world.profile().lastLcpRowCount());
        assertEquals(0.0, world.profile().lastLcpResidualNs(), 0.0, "no LCP contact, no residual");
        world.addDynamicBody("box", new BoxShape(0.05, 0.05, 0.05), new Vector3d(0, 0, 0.05 + 0.002),
                new Quaterniond(), 1.0, SolidInertia.box(1.0, 0.05, 0.05, 0.05, new Matrix3d()), Material.DEFAULT);
        double firstContactResidualNs = -1.0;
        for (int i = 0; i < 1000; i++) {
            world.step(0.001);
            if (firstContactResidualNs < 0.0 && world.contactCount() > 0) {
                firstContactResidualNs = world.profile().lastLcpResidualNs();
            }
        }
        assertEquals(4, world.profile().lastLcpRowCount(), "four corners on the floor");
        assertTrue(firstContactResidualNs > 0.0, "landing needs the sweeps: residual " + firstContactResidualNs);
        // At rest the warm start is already the solution: sweeps change nothing beyond rounding of m·g·Δt/4.
        assertTrue(world.profile().lastLcpResidualNs() < 1e-15, "resting residual "
                + world.profile().lastLcpResidualNs());
    }
}
