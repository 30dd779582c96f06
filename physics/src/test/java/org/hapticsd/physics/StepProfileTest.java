package org.hapticsd.physics;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.joml.Quaterniond;
import org.joml.Vector3d;
import org.junit.jupiter.api.Test;

class StepProfileTest {

    @Test
    void shouldListStagesInExecutionOrder() {
        StepStage[] expected = {StepStage.BROADPHASE, StepStage.NARROWPHASE, StepStage.CONTACT_FORCES};
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
        // A thousand steps with three clock reads each cannot all measure 0 ns on a nanosecond-resolution clock.
        assertTrue(totalOverStepsNs > 0, "profile never advanced");
        assertSame(profile, world.profile());
    }
}
