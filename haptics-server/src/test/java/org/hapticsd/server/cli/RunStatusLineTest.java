package org.hapticsd.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.hapticsd.server.loop.LoopSnapshot;
import org.junit.jupiter.api.Test;

/** The physics part of `run`'s status line: silent while all is well, explicit (and by how much) when not. */
class RunStatusLineTest {
    @Test
    void shouldSayNothingWhileThePhysicsKeepsWithinBudgetAndNothingWasDropped() {
        LoopSnapshot s = new LoopSnapshot(1);
        s.physicsStepP99Ns = 400_000L;
        s.physicsBudgetNs = 800_000L;
        s.physicsLoadPercent = 40;
        assertEquals("", RunCommand.physicsStatus(s));
    }

    @Test
    void shouldSayByHowMuchThePhysicsRunsOverAndHowManyContactsWereDropped() {
        LoopSnapshot s = new LoopSnapshot(1);
        s.physicsOverBudget = true;
        s.physicsStepP99Ns = 1_420_000L;
        s.physicsBudgetNs = 800_000L;
        s.physicsLoadPercent = 142;
        s.droppedPairsTotal = 12;
        s.droppedPointsTotal = 345;
        assertEquals(" PHYSICS OVER BUDGET: step p99 1420 us > 800 us (142% of the tick)"
            + " contacts dropped (budget full): 12 pairs, 345 points", RunCommand.physicsStatus(s));
    }
}
