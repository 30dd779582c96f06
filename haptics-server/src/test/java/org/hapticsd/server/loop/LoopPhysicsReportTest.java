package org.hapticsd.server.loop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import org.agrona.concurrent.NanoClock;
import org.hapticsd.server.LoopAssembly;
import org.hapticsd.server.scene.BuiltScene;
import org.hapticsd.server.scene.SceneBuilder;
import org.hapticsd.server.scene.SceneLoader;
import org.junit.jupiter.api.Test;

/**
 * The loop says when its physics is too heavy for the rate, and when the contact budget made the engine drop
 * contacts: snapshot fields and event bits, which the status line, the stream and recordings carry.
 */
class LoopPhysicsReportTest {
    private static final long PERIOD_NS = 1_000_000L;

    /** A stage timer that moves on by a settable amount on every reading: each stage then takes exactly that. */
    private static final class SteppingClock implements NanoClock {
        long nowNs;
        long stepNs;

        @Override
        public long nanoTime() {
            nowNs += stepNs;
            return nowNs;
        }
    }

    private record Run(LoopAssembly assembly, SteppingClock clock, long[] tick) {
        /** {@code count} ticks; returns the ticks (loop tick numbers) whose events had {@code bit}. */
        List<Long> ticks(int count, int bit) {
            List<Long> marked = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                assembly.loop().tick(tick[0]);
                assembly.loop().afterTick(false);
                tick[0] += PERIOD_NS;
                LoopSnapshot s = assembly.loop().lastSnapshot();
                if ((s.events & bit) != 0) {
                    marked.add(s.tick);
                }
            }
            return marked;
        }

        LoopSnapshot snapshot() {
            return assembly.loop().lastSnapshot();
        }
    }

    private static Run run(BuiltScene scene, long stageNs) throws Exception {
        ScriptedDevice device = new ScriptedDevice();
        device.open();
        SteppingClock clock = new SteppingClock();
        clock.stepNs = stageNs;
        return new Run(new LoopAssembly(scene, device, 1000, clock), clock, new long[1]);
    }

    @Test
    void shouldSayWhenThePhysicsStepRunsOverBudgetAndWhenItIsBack() throws Exception {
        // Every stage takes 1 ms on this clock: the physics step is 125 % of its 800 µs budget on every tick.
        Run r = run(SceneBuilder.build(new SceneLoader().loadEmbedded()), 1_000_000L);
        assertEquals(List.of(), r.ticks(999, LoopEvents.PHYSICS_BUDGET_CHANGED), "no verdict before a second");
        assertFalse(r.snapshot().physicsOverBudget);
        assertEquals(List.of(999L), r.ticks(1, LoopEvents.PHYSICS_BUDGET_CHANGED), "the window's last tick");
        LoopSnapshot s = r.snapshot();
        assertTrue(s.physicsOverBudget);
        assertEquals(1_000_000L, s.physicsStepP99Ns);
        assertEquals(800_000L, s.physicsBudgetNs);
        assertEquals(100, s.physicsLoadPercent);
        assertEquals(List.of(), r.ticks(1000, LoopEvents.PHYSICS_BUDGET_CHANGED), "still over: nothing new");
        assertTrue(r.snapshot().physicsOverBudget, "the verdict holds between windows");

        r.clock().stepNs = 100_000L;
        assertEquals(List.of(2999L), r.ticks(1000, LoopEvents.PHYSICS_BUDGET_CHANGED), "back within budget");
        assertFalse(r.snapshot().physicsOverBudget);
        assertEquals(10, r.snapshot().physicsLoadPercent);
        // The run's account keeps what the present verdict no longer says: ticks 999..2998 were over, at 1 ms.
        assertEquals(2000L, r.snapshot().physicsOverBudgetTicks);
        assertEquals(1_000_000L, r.snapshot().physicsWorstStepP99Ns);
    }

    @Test
    void shouldNotJudgeTicksOnWhichThePausedLoopDidNotStep() throws Exception {
        Run r = run(SceneBuilder.build(new SceneLoader().loadEmbedded()), 1_000_000L);
        r.assembly().loop().setPaused(true);
        assertEquals(List.of(), r.ticks(5000, LoopEvents.PHYSICS_BUDGET_CHANGED));
        assertFalse(r.snapshot().physicsOverBudget);
        assertEquals(0L, r.snapshot().physicsStepP99Ns);
    }

    /** On simulated time (lockstep) the step's wall-clock time is not judged: the record stays the same run to run. */
    @Test
    void shouldNotJudgeTheStepWhenTheLoopRunsOnSimulatedTime() throws Exception {
        Run r = run(SceneBuilder.build(new SceneLoader().loadEmbedded()), 1_000_000L);
        r.assembly().loop().setJudgePhysicsBudget(false);
        assertEquals(List.of(), r.ticks(2000, LoopEvents.PHYSICS_BUDGET_CHANGED));
        assertFalse(r.snapshot().physicsOverBudget);
        assertEquals(0, r.snapshot().physicsLoadPercent);
    }

    /** Over budget, then paused: the snapshot says 0 and within budget while nothing is stepped (protocol 4.3). */
    @Test
    void shouldReportNoLoadWhilePausedAfterAWindowOverBudget() throws Exception {
        Run r = run(SceneBuilder.build(new SceneLoader().loadEmbedded()), 1_000_000L);
        r.ticks(1000, LoopEvents.PHYSICS_BUDGET_CHANGED);
        assertTrue(r.snapshot().physicsOverBudget);
        assertEquals(100, r.snapshot().physicsLoadPercent, "a 1 ms step is one tick period");
        r.assembly().loop().setPaused(true);
        r.ticks(10, LoopEvents.PHYSICS_BUDGET_CHANGED);
        assertFalse(r.snapshot().physicsOverBudget);
        assertEquals(0, r.snapshot().physicsLoadPercent);
        assertEquals(0L, r.snapshot().physicsStepP99Ns);
    }

    /**
     * Six 1 cm balls land on a floor, one contact point each, in a scene whose budget holds four points: from the
     * landing on, every step drops the two shallowest points (each ball rests at nearly the same depth, so which two
     * may change), and says so.
     */
    @Test
    void shouldCountAndMarkTheContactsTheBudgetMadeTheEngineDrop() throws Exception {
        StringBuilder yaml = new StringBuilder("""
            name: six-balls
            mapping: {origin: [0.0, 0.0, 1.0]}
            contact: {mode: lcp, maxPoints: 4}
            bodies:
              - {name: floor, shape: {type: plane, normal: [0.0, 0.0, 1.0]}, position: [0.0, 0.0, 0.0]}
            """);
        for (int i = 0; i < 6; i++) {
            // 5 mm above the floor: no contact at load (the budget is checked against the initial poses).
            yaml.append("  - {name: ball").append(i).append(", motion: dynamic, shape: {type: sphere, radiusM: 0.01},")
                .append(" position: [").append(0.05 * i).append(", 0.0, 0.015], massKg: 0.01}\n");
        }
        BuiltScene scene = SceneBuilder.build(new SceneLoader().parse("six-balls", new StringReader(yaml.toString())));
        Run r = run(scene, 1_000L);
        List<Long> dropping = r.ticks(300, LoopEvents.CONTACTS_DROPPED);
        // Falling 5 mm from rest takes sqrt(2 × 0.005 / 9.81) = 32 ms; within the contact tolerance a little sooner.
        assertTrue(!dropping.isEmpty() && dropping.get(0) > 10 && dropping.get(0) < 40,
            "drops start when the balls land: " + dropping);
        assertEquals(299L, dropping.get(dropping.size() - 1), "and go on while they rest");
        LoopSnapshot s = r.snapshot();
        assertEquals(2, s.droppedPoints, "six points, four kept");
        assertEquals(4, s.contactCount);
        assertTrue(s.droppedPointsTotal >= 2L * dropping.size(), "the total sums every tick's drops");
        r.assembly().loop().setPaused(true);
        r.ticks(1, 0);
        assertEquals(0, r.snapshot().droppedPoints, "a paused loop does not step, so drops nothing");
    }

    /**
     * The solver's deadline ({@link HapticLoop#setSolverDeadline}), on by default: put at the tick's very start
     * (share 0), every step of the landing pile that needs a second sweep stops after its first, and the loop counts
     * exactly those ticks in its snapshot. Off, or on simulated time (lockstep), no step is cut.
     */
    @Test
    void shouldStopTheSolverAtTheTicksDeadlineAndCountTheTicks() throws Exception {
        long cut = cutTicks(loop -> loop.setSolverDeadlineShare(0.0), true);
        assertTrue(cut > 100, "steps of the landing pile cut after one sweep: " + cut);
        assertEquals(0L, cutTicks(loop -> {
            loop.setSolverDeadlineShare(0.0);
            loop.setSolverDeadline(false);
        }, false), "with the deadline off");
        assertEquals(0L, cutTicks(loop -> {
            loop.setSolverDeadlineShare(0.0);
            loop.setJudgePhysicsBudget(false);
        }, false), "on simulated time");
    }

    /** Ticks of the first 0.6 s of the 200-sphere pile whose step stopped at the deadline, checked tick by tick. */
    private static long cutTicks(java.util.function.Consumer<HapticLoop> setUp, boolean cutting) throws Exception {
        BuiltScene pile = SceneBuilder.build(new SceneLoader().load(java.nio.file.Path.of("../scenes/pile-200.yaml")));
        Run r = run(pile, 1_000L);
        HapticLoop loop = r.assembly().loop();
        assertTrue(loop.solverDeadline(), "on by default");
        setUp.accept(loop);
        long counted = 0;
        for (int i = 0; i < 600; i++) {
            r.ticks(1, 0);
            org.hapticsd.physics.StepProfile profile = loop.world().profile();
            if (cutting) {
                assertTrue(profile.lastVelocitySweeps() <= 1, "tick " + i + ": " + profile.lastVelocitySweeps()
                    + " velocity sweeps after the deadline");
            }
            // A tick whose step the machine ran too slow is dropped (counted apart): its profile is the last step's.
            counted += profile.lastSweepDeadlineReached() && !profile.lastStepDropped() ? 1 : 0;
            assertEquals(counted, r.snapshot().solverDeadlineTicks, "tick " + i);
        }
        return counted;
    }

    /** A world clock that moves on by {@link #perReadNs} at every reading: each stage of a step takes that long. */
    private static final class PacedClock implements java.util.function.LongSupplier {
        long nowNs;
        long perReadNs;

        @Override
        public long getAsLong() {
            nowNs += perReadNs;
            return nowNs;
        }
    }

    /**
     * The world's clock set to run every stage of the step in 20 µs (about 300 µs a step), then ten times slower, as
     * in the host's slow stretches: the tick drops its step (the bodies stand still, {@code simTimeNs} does not move,
     * the event and the count say so) ten times in a row, then runs the eleventh whole however late.
     */
    @Test
    void shouldDropTheStepsTheMachineRunsTooSlowForTheTickAndSaySo() throws Exception {
        BuiltScene pile = SceneBuilder.build(new SceneLoader().load(java.nio.file.Path.of("../scenes/pile-200.yaml")));
        Run r = run(pile, 1_000L);
        HapticLoop loop = r.assembly().loop();
        PacedClock clock = new PacedClock();
        clock.perReadNs = 20_000L;
        loop.world().setClock(clock);
        assertEquals(List.of(), r.ticks(300, LoopEvents.PHYSICS_STEP_DROPPED), "at the typical pace");
        assertEquals(0L, r.snapshot().droppedSteps);
        double[] poses = r.snapshot().bodyPose.clone();
        long simTimeNs = r.snapshot().simTimeNs;
        long cut = r.snapshot().solverDeadlineTicks;

        clock.perReadNs = 200_000L;
        assertEquals(List.of(300L), r.ticks(1, LoopEvents.PHYSICS_STEP_DROPPED));
        LoopSnapshot s = r.snapshot();
        assertTrue((s.events & LoopEvents.PHYSICS_STEP_DROPPED) != 0);
        assertEquals(1L, s.droppedSteps);
        assertArrayEquals(poses, s.bodyPose, "no body moved");
        // A snapshot's simTimeNs is the time its tick's step starts from: tick 299's step moved it on by a period.
        assertEquals(simTimeNs + PERIOD_NS, s.simTimeNs);
        assertEquals(cut, s.solverDeadlineTicks, "a dropped step is not a step cut at the deadline");

        assertEquals(List.of(301L, 302L, 303L, 304L, 305L, 306L, 307L, 308L, 309L),
            r.ticks(10, LoopEvents.PHYSICS_STEP_DROPPED));
        s = r.snapshot();
        assertEquals(0, s.events & LoopEvents.PHYSICS_STEP_DROPPED, "the eleventh ran whole");
        assertEquals(10L, s.droppedSteps);
        assertEquals(simTimeNs + PERIOD_NS, s.simTimeNs, "the ten dropped steps did not move simulated time on");
        r.ticks(1, 0);
        assertEquals(simTimeNs + 2 * PERIOD_NS, r.snapshot().simTimeNs, "the eleventh did");
    }

    /** The 200-sphere pile: every contact in the snapshot (it carried 64 of about 450). */
    @Test
    void shouldPublishEveryContactOfAPileWithinItsBudget() throws Exception {
        BuiltScene pile = SceneBuilder.build(new SceneLoader().load(java.nio.file.Path.of("../scenes/pile-200.yaml")));
        Run r = run(pile, 1_000L);
        r.ticks(1500, 0);
        LoopSnapshot s = r.snapshot();
        assertTrue(s.contactCount > 300, "the pile rests on itself: " + s.contactCount);
        assertEquals(s.contactCount, s.publishedContacts);
        assertEquals(Math.min(LoopSnapshot.MAX_CONTACTS, pile.haptic().world().contactBudget().maxPoints()),
            s.contactCapacity);
    }
}
