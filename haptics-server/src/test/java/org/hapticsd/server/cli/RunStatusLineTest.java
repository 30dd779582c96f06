package org.hapticsd.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.HdrHistogram.Histogram;
import org.hapticsd.client.StreamClientCounters;
import org.hapticsd.device.link.LinkStatistics;
import org.hapticsd.protocol.stream.FaultCode;
import org.hapticsd.protocol.stream.LoopStats;
import org.hapticsd.protocol.stream.SafetyCode;
import org.hapticsd.protocol.stream.StateMessage;
import org.hapticsd.protocol.stream.Vec3;

import org.hapticsd.server.loop.LoopSnapshot;
import org.hapticsd.server.safety.SafetyConfig;
import org.hapticsd.server.safety.SafetyLayer;
import org.junit.jupiter.api.Test;

/** The physics part of `run`'s status line: silent while all is well, explicit (and by how much) when not. */
class RunStatusLineTest {
    /**
     * Found by a tester: 300 random bytes on the line made the status line say "lost 11" while the end line said
     * "malformed 2, oversize 9, gaps 0 (0 frames lost)". Both now say damaged 11 and lost 0.
     */
    @Test
    void shouldCountNoiseAsDamagedNotLostInTheStatusLineAndTheEndLineAlike() {
        LinkStatistics link = new LinkStatistics(new Histogram(3), 5000, 4990, 5000,
            0, 2, 9, 1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 2, null, null);
        assertEquals("  link rtt -, damaged 11, lost 0, reconnects 0", RunCommand.linkStatus(link));
        assertTrue(link.summary().contains(", damaged 11 (crc errors 0, malformed 2, oversize 9), gaps 0 "
            + "(0 frames lost),"), link.summary());

        LinkStatistics gaps = new LinkStatistics(new Histogram(3), 5000, 4990, 5000,
            1, 0, 0, 0, 2, 7, 0, 0, 1, 1, 0, 0, 0, 2, null, null);
        assertEquals("  link rtt -, damaged 1, lost 7, reconnects 0", RunCommand.linkStatus(gaps));
        assertTrue(gaps.summary().contains(", damaged 1 (crc errors 1, malformed 0, oversize 0), gaps 2 "
            + "(7 frames lost),"), gaps.summary());
    }

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
        assertEquals("  PHYSICS OVER BUDGET: step p99 1420 us > 800 us (142% of the tick)"
            + "  contacts dropped (budget full): 12 pairs, 345 points", RunCommand.physicsStatus(s));
    }

    @Test
    void shouldSayByHowMuchBeyondTheStreamsCapOf255Percent() {
        // Found on a loaded host: a 3,305 us step p99 at 1 kHz printed "255% of the tick".
        LoopSnapshot s = new LoopSnapshot(1);
        s.physicsOverBudget = true;
        s.physicsStepP99Ns = 3_305_000L;
        s.physicsBudgetNs = 800_000L;
        s.physicsLoadPercent = 255;
        assertEquals("  PHYSICS OVER BUDGET: step p99 3305 us > 800 us (331% of the tick)",
            RunCommand.physicsStatus(s));
    }

    @Test
    void shouldSayWhenTheMotorsAreHotAndWhenTheThermalLimitHoldsTheForce() {
        LoopSnapshot s = new LoopSnapshot(1);
        s.motorHeat = 0.79;
        assertEquals("", RunCommand.thermalStatus(s));
        s.motorHeat = 0.874;
        assertEquals("  motors 87% hot", RunCommand.thermalStatus(s));
        s.motorHeat = 1.0;
        s.thermalLimited = true;
        assertEquals("  THERMAL LIMIT: force lowered toward the device's continuous force (motors 100%)",
            RunCommand.thermalStatus(s));
    }

    /** A tester's link device cycled through the start-up gate for seconds, its loop watchdog tripping unreported. */
    @Test
    void shouldCountTheSafetyFaultsOfARunByKind() {
        SafetyLayer safety = new SafetyLayer(SafetyConfig.defaults(), 8.0);
        assertNull(safety.faultSummary(), "no fault, no line");
        long nowNs = 0;
        for (int episode = 0; episode < 3; episode++) {
            for (int tick = 0; tick < 5; tick++) {
                safety.update(nowNs += 1_000_000L, 0, 0, 0, false, true, 0);
            }
            safety.update(nowNs += 1_000_000L, 0, 0, 0, true, true, 0);
        }
        safety.update(nowNs += 1_000_000L, 0, 0, 0, true, false, 0);
        assertEquals("safety faults: WATCHDOG 3, DEVICE 1 (each zeroed the force; see docs/scenes.md, safety)",
            safety.faultSummary());
    }

    @Test
    void shouldShowTheStreamsPhysicsBudgetInWatchsStatusLine() {
        StateMessage over = new StateMessage(5000L, 5_000_000_000L, 1, SafetyCode.ACTIVE, FaultCode.NONE, true, false,
            Vec3.ZERO, Vec3.ZERO, Vec3.ZERO, Vec3.ZERO, new LoopStats(953f, 250_000L, 1_420_000L, 47L, true, 142),
            List.of(), List.of());
        StreamClientCounters counters = new StreamClientCounters(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
        String line = WatchCommand.statusLine(1.0, counters, counters, 1.0, over);
        assertTrue(line.contains("  PHYSICS OVER BUDGET (step p99 142% of the tick)"), line);
        StateMessage within = new StateMessage(5000L, 5_000_000_000L, 1, SafetyCode.ACTIVE, FaultCode.NONE, true,
            false, Vec3.ZERO, Vec3.ZERO, Vec3.ZERO, Vec3.ZERO, new LoopStats(999f, 1_000L, 100_000L, 0L, false, 30),
            List.of(), List.of());
        assertFalse(WatchCommand.statusLine(1.0, counters, counters, 1.0, within).contains("BUDGET"));
    }

    @Test
    void shouldShowTheStreamsSaturatedLoadByteAsALowerBoundInWatchsStatusLine() {
        // A 23 ms step at 1 kHz is 2333 % of the tick; the STATE byte holds 255, which means "that or more".
        StateMessage saturated = new StateMessage(5000L, 5_000_000_000L, 1, SafetyCode.ACTIVE, FaultCode.NONE, true,
            false, Vec3.ZERO, Vec3.ZERO, Vec3.ZERO, Vec3.ZERO, new LoopStats(43f, 250_000L, 1_420_000L, 47L, true, 255),
            List.of(), List.of());
        StreamClientCounters counters = new StreamClientCounters(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
        String line = WatchCommand.statusLine(1.0, counters, counters, 1.0, saturated);
        assertTrue(line.contains("  PHYSICS OVER BUDGET (step p99 255% or more of the tick)"), line);
        assertEquals("254%", WatchCommand.loadPercent(254));
    }

    @Test
    void shouldSayInTheEndReportForHowLongThePhysicsWasOverBudget() {
        LoopSnapshot s = new LoopSnapshot(1);
        assertNull(RunCommand.physicsEndLine(s, 1414), "never over budget: no line");
        s.physicsOverBudgetTicks = 990;
        s.physicsWorstStepP99Ns = 3_785_000L;
        s.physicsBudgetNs = 800_000L;
        assertEquals("physics over budget on 990 of 1414 ticks (70%); worst window: step p99 3785 us > 800 us"
            + " (379% of the tick)", RunCommand.physicsEndLine(s, 1414));
    }

    @Test
    void shouldSayOnHowManyTicksTheSolverStoppedAtTheDeadline() {
        LoopSnapshot s = new LoopSnapshot(1);
        assertNull(RunCommand.solverDeadlineEndLine(s, 11840), "never cut: no line");
        assertEquals("", RunCommand.physicsStatus(s), "nor anything on the status line");
        s.solverDeadlineTicks = 2267;
        assertEquals("contact solver stopped at the tick's deadline (60% of the tick) on 2267 of 11840 ticks (19.1%)",
            RunCommand.solverDeadlineEndLine(s, 11840));
        assertEquals("  solver stopped at the tick's deadline on 2267 ticks", RunCommand.physicsStatus(s));
        s.solverDeadlineTicks = 1;
        assertEquals("  solver stopped at the tick's deadline on 1 tick", RunCommand.physicsStatus(s));
    }

    @Test
    void shouldSayOnHowManyTicksThePhysicsStepWasDroppedAndHowFarSimulatedTimeFellBehind() {
        LoopSnapshot s = new LoopSnapshot(1);
        assertNull(RunCommand.droppedStepsEndLine(s, 12004, 1_000_000L), "none dropped: no line");
        s.droppedSteps = 12;
        assertEquals("physics step dropped on 12 of 12004 ticks (0.10%): the machine ran it too slow to end before"
            + " the next deadline, so the bodies stood still for those ticks (simulated time 12.0 ms behind the"
            + " loop's)", RunCommand.droppedStepsEndLine(s, 12004, 1_000_000L));
        assertEquals("  physics steps dropped (too slow for the tick): 12", RunCommand.physicsStatus(s));
        assertEquals("physics step dropped on 3 of 4000 ticks (0.08%): the machine ran it too slow to end before"
            + " the next deadline, so the bodies stood still for those ticks (simulated time 0.8 ms behind the"
            + " loop's)", RunCommand.droppedStepsEndLine(withDropped(3), 4000, 250_000L), "at 4 kHz");
    }

    private static LoopSnapshot withDropped(long dropped) {
        LoopSnapshot s = new LoopSnapshot(1);
        s.droppedSteps = dropped;
        return s;
    }
}
