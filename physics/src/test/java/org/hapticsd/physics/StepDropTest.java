package org.hapticsd.physics;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.function.LongSupplier;

import org.hapticsd.physics.dynamics.SolidInertia;
import org.hapticsd.testsupport.JitPrimer;
import org.joml.Matrix3d;
import org.joml.Quaterniond;
import org.joml.Vector3d;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link PhysicsWorld#step(double, long, long)}: a step the machine runs too slow to end in time is dropped before it
 * changes anything, and the world goes on as if it had not been asked for; the rule ({@link StepPace}) by numbers.
 * The world's clock is a test's ({@link PhysicsWorld#setClock}): each reading moves it on by a set amount, so every
 * stage of a step takes exactly that, and "the machine runs slow" is a larger amount.
 */
class StepDropTest {

    private static final double DT_S = 0.001;
    /** Each stage of a step at the typical pace, and in the slow stretch: ten times slower. */
    private static final long TYPICAL_STAGE_NS = 20_000L;
    private static final long SLOW_STAGE_NS = 200_000L;
    /** The loop's margins at 1 kHz: the solver's deadline at 60 % of the tick, the step's end at 90 %. */
    private static final long SWEEP_DEADLINE_AFTER_NS = 600_000L;
    private static final long END_BY_AFTER_NS = 900_000L;
    /** The pairs of the rule-by-numbers steps. */
    private static final int PAIRS = 400;

    /** A clock that moves on by {@link #perReadNs} at every reading. */
    private static final class PacedClock implements LongSupplier {
        long nowNs;
        long perReadNs = TYPICAL_STAGE_NS;

        @Override
        public long getAsLong() {
            nowNs += perReadNs;
            return nowNs;
        }
    }

    /** The compiler's one-off allocations on the measuring thread, done before anything is measured. */
    @BeforeAll
    static void primeJit() {
        JitPrimer.primeClassPath();
    }

    /**
     * A step whose broadphase took ten times its typical 20 µs: at the checkpoint after it, 200 µs of 700 µs are
     * gone, and the other eleven stages at four times their typical 220 µs would end at 1,080 µs. Dropped: the
     * bodies, the contacts and the force on each body are the last whole step's, the force applied for the step is
     * gone and so are its onsets, and the next whole steps give the bits of a twin world never asked for it.
     */
    @Test
    void shouldDropASlowStepBeforeItChangesAnythingAndGoOnAsIfItHadNotBeenAsked() {
        PacedClock clockA = new PacedClock();
        PacedClock clockB = new PacedClock();
        PhysicsWorld a = balls(clockA);
        PhysicsWorld b = balls(clockB);
        for (int i = 0; i < 150; i++) {
            a.step(DT_S);
            b.step(DT_S);
        }
        assertTrue(a.contactCount() > 8, "the balls rest on the floor and on each other: " + a.contactCount());
        double[] before = state(a);
        int contacts = a.contactCount();
        Vector3d forceOnFloor = a.contactForceOnBody(0, new Vector3d());
        assertTrue(forceOnFloor.z < -1.0, "the balls' weight on the floor: " + forceOnFloor);

        a.applyForce(3, new Vector3d(0.0, 0.0, 50.0), a.bodyPosition(3, new Vector3d()));
        clockA.perReadNs = SLOW_STAGE_NS;
        assertFalse(stepOnTime(a), "dropped");
        StepProfile profile = a.profile();
        assertTrue(profile.lastStepDropped());
        assertEquals(SLOW_STAGE_NS, profile.lastNs(StepStage.BROADPHASE), "at the checkpoint after the broadphase");
        assertEquals(SLOW_STAGE_NS, profile.lastTotalNs(), "nothing after it ran");
        assertArrayEquals(before, state(a), "no body moved");
        assertEquals(contacts, a.contactCount());
        assertEquals(forceOnFloor, a.contactForceOnBody(0, new Vector3d()), "the last whole step's force holds");
        assertEquals(0, a.contactOnsets().count());

        clockA.perReadNs = TYPICAL_STAGE_NS;
        for (int i = 0; i < 300; i++) {
            assertTrue(stepOnTime(a), "step " + i + " at the typical pace");
            assertFalse(a.profile().lastStepDropped());
            b.step(DT_S, b.nanoTime() + SWEEP_DEADLINE_AFTER_NS);
            assertArrayEquals(state(b), state(a), "step " + i + " after the drop, against the twin");
        }
    }

    /** At ten times the pace for long, the eleventh step runs whole, and the slow pace becomes the typical one. */
    @Test
    void shouldRunTheStepAfterTenDropsInARowWholeAndLearnItsPaceAfresh() {
        PacedClock clock = new PacedClock();
        PhysicsWorld world = slowAfterWarmUp(clock);
        for (int i = 0; i < StepPace.MAX_CLOSE_DROPS; i++) {
            assertFalse(stepOnTime(world), "slow step " + i);
        }
        assertTrue(stepOnTime(world), "the eleventh runs whole");
        // Learning afresh: no drop until 64 steps are learnt, and then 12 stages of 200 µs do not fit in 900 µs, so
        // the slow pace is the scene's own and it is never dropped.
        for (int i = 0; i < 200; i++) {
            assertTrue(stepOnTime(world), "slow step " + i + " after the eleventh");
        }
        // Back at 20 µs, the typical pace is learnt again within a few dozen steps; then a slow step drops again.
        clock.perReadNs = TYPICAL_STAGE_NS;
        for (int i = 0; i < 300; i++) {
            assertTrue(stepOnTime(world));
        }
        clock.perReadNs = SLOW_STAGE_NS;
        assertFalse(stepOnTime(world));
    }

    /**
     * A whole step between drops does not start the count again: three slow steps dropped, one run whole because
     * its tick had 100 µs left (a typical step of twelve 20 µs stages would not fit), then seven more dropped and
     * the eleventh slow one runs whole and is learnt afresh: ten drops in eleven steps, then none in the next 200,
     * where the CI's script test once saw 13 while only drops in a row counted.
     */
    @Test
    void shouldDropAtMostTenStepsWhenWholeOnesComeBetween() {
        PacedClock clock = new PacedClock();
        PhysicsWorld world = slowAfterWarmUp(clock);
        for (int i = 0; i < 3; i++) {
            assertFalse(stepOnTime(world), "slow step " + i);
        }
        long nowNs = world.nanoTime();
        assertTrue(world.step(DT_S, nowNs + SWEEP_DEADLINE_AFTER_NS, nowNs + 100_000L), "too little time to save");
        for (int i = 3; i < StepPace.MAX_CLOSE_DROPS; i++) {
            assertFalse(stepOnTime(world), "slow step " + i);
        }
        for (int i = 0; i < 200; i++) {
            assertTrue(stepOnTime(world), "slow step " + i + " after the tenth drop");
        }
    }

    /**
     * The count of close drops: nine, a whole step, one more, and no eleventh until the typical times are learnt
     * afresh; nine, then 64 whole steps in a row, and ten may drop again.
     */
    @Test
    void shouldCountDropsUntilSixtyFourWholeStepsComeInARow() {
        StepProfile typical = profile(20_000, 50_000, 30_000, 50_000);
        StepPace pace = learnt(20_000, 50_000, 30_000, 50_000);
        for (int i = 0; i < 9; i++) {
            assertTrue(drop(pace, StepStage.BROADPHASE, 200_000, 700_000), "drop " + i);
            pace.dropped();
        }
        pace.learn(typical, PAIRS);
        assertTrue(drop(pace, StepStage.BROADPHASE, 200_000, 700_000), "the tenth");
        pace.dropped();
        assertFalse(drop(pace, StepStage.BROADPHASE, 200_000, 700_000), "no eleventh");
        pace.learn(typical, PAIRS);
        assertFalse(pace.warm(), "learnt afresh from the step after the tenth drop");

        StepPace rested = dropsThenWholeSteps(9, StepPace.WARM_STEPS - 1);
        rested.dropped();
        assertFalse(drop(rested, StepStage.BROADPHASE, 200_000, 700_000), "63 whole steps between: still close");
        rested.learn(typical, PAIRS);
        assertFalse(rested.warm(), "the tenth close drop: learnt afresh");

        StepPace apart = dropsThenWholeSteps(9, StepPace.WARM_STEPS);
        for (int i = 0; i < StepPace.MAX_CLOSE_DROPS; i++) {
            assertTrue(drop(apart, StepStage.BROADPHASE, 200_000, 700_000), "64 whole steps between: drop " + i);
            apart.dropped();
        }
        assertFalse(drop(apart, StepStage.BROADPHASE, 200_000, 700_000));
    }

    /** A pace learnt at 20/50/30/50 µs, then {@code drops} steps dropped and {@code whole} typical ones learnt. */
    private static StepPace dropsThenWholeSteps(int drops, int whole) {
        StepPace pace = learnt(20_000, 50_000, 30_000, 50_000);
        for (int i = 0; i < drops; i++) {
            pace.dropped();
        }
        StepProfile typical = profile(20_000, 50_000, 30_000, 50_000);
        for (int i = 0; i < whole; i++) {
            pace.learn(typical, PAIRS);
        }
        return pace;
    }

    @Test
    void shouldNotDropBeforeSixtyFourStepsAreLearntNorWithoutAnEnd() {
        PacedClock clock = new PacedClock();
        PhysicsWorld world = balls(clock);
        for (int i = 0; i < StepPace.WARM_STEPS - 1; i++) {
            world.step(DT_S);
        }
        clock.perReadNs = SLOW_STAGE_NS;
        assertTrue(stepOnTime(world), "63 steps learnt");
        clock.perReadNs = TYPICAL_STAGE_NS;
        world.step(DT_S, world.nanoTime() + SWEEP_DEADLINE_AFTER_NS);
        clock.perReadNs = SLOW_STAGE_NS;
        // The two-argument step and the plain one are never dropped.
        world.step(DT_S, world.nanoTime() + SWEEP_DEADLINE_AFTER_NS);
        assertFalse(world.profile().lastStepDropped());
        world.step(DT_S);
        assertFalse(world.profile().lastStepDropped());
        assertFalse(stepOnTime(world), "warm now");
    }

    /** The rule by numbers: typical stages of 20 µs (broadphase), 50 (narrowphase), 30 (set-up), 50 (solve). */
    @Test
    void shouldDropOnlyWhenTheRuleSaysSo() {
        StepPace pace = learnt(20_000, 50_000, 30_000, 50_000);
        // After the broadphase: done 20 µs, rest 130 µs; the step started at 0.
        assertFalse(drop(pace, StepStage.BROADPHASE, 29_000, 400_000), "pace 1.45: the scene's own variation");
        assertTrue(drop(pace, StepStage.BROADPHASE, 30_000, 150_000),
            "pace 1.5: 30 + 130 × 1.5 = 225 > 150, and 150 µs would hold a typical step");
        assertFalse(drop(pace, StepStage.BROADPHASE, 30_000, 149_999), "a typical step (150 µs) would not fit");
        assertFalse(drop(pace, StepStage.BROADPHASE, 40_000, 300_000), "40 + 130 × 2 = 300: ends in time");
        assertTrue(drop(pace, StepStage.BROADPHASE, 40_000, 299_999));
        assertTrue(drop(pace, StepStage.BROADPHASE, 200_000, 719_999), "pace 10 projects at 4: 200 + 520 = 720");
        assertFalse(drop(pace, StepStage.BROADPHASE, 200_000, 720_000));
        assertFalse(drop(pace, StepStage.BROADPHASE, 300_000, 300_000), "the time has run out: nothing to save");
        // After the narrowphase: done 70 µs, rest 80 µs, which must be at least 5 % of the time allowed.
        assertTrue(drop(pace, StepStage.NARROWPHASE, 400_000, 719_999), "400 + 80 × 4 = 720");
        assertTrue(drop(pace, StepStage.NARROWPHASE, 1_400_000, 1_599_000), "1,720 > 1,599, and 80 ≥ 5 % of it");
        assertFalse(drop(pace, StepStage.NARROWPHASE, 1_500_000, 1_700_000), "rest 80 µs < 5 % of 1,700 µs");

        // Twice the pairs: the step is expected to take twice as long (done 40, rest 260 µs), so 30 µs is no slow
        // pace and 300 µs do not fit in 150; 60 µs is pace 1.5, and 60 + 260 × 1.5 = 450 > 400.
        assertFalse(pace.shouldDrop(StepStage.BROADPHASE, 2 * PAIRS, 0L, 30_000, 150_000), "twice the work");
        assertFalse(pace.shouldDrop(StepStage.BROADPHASE, 2 * PAIRS, 0L, 59_999, 400_000), "pace just under 1.5");
        assertTrue(pace.shouldDrop(StepStage.BROADPHASE, 2 * PAIRS, 0L, 60_000, 400_000));
        assertFalse(pace.shouldDrop(StepStage.BROADPHASE, 2 * PAIRS, 0L, 80_000, 600_000), "80 + 260 × 2 = 600");
        // Fewer pairs than usual are not expected to be faster: half the pairs is the usual work.
        assertTrue(pace.shouldDrop(StepStage.BROADPHASE, PAIRS / 2, 0L, 30_000, 150_000));

        // A step of 4 µs in a tick woken so late that 20 µs are left: 10 + 3 × 4 = 22 > 20, and its rest of 3 µs is
        // 15 % of the time left; but it is not 5 % of the 1 ms the step advances, so nothing worth saving.
        StepPace tiny = learnt(1_000, 1_000, 1_000, 1_000);
        assertTrue(drop(tiny, StepStage.BROADPHASE, 10_000, 20_000), "judged by the time left alone");
        tiny.stepNs(1_000_000);
        assertFalse(drop(tiny, StepStage.BROADPHASE, 10_000, 20_000), "rest 3 µs < 5 % of the 1 ms step");
        pace.stepNs(1_000_000);
        assertTrue(drop(pace, StepStage.NARROWPHASE, 400_000, 719_999), "rest 80 µs ≥ 5 % of the 1 ms step");

        StepPace slowOnce = learnt(20_000, 50_000, 30_000, 50_000);
        StepProfile slow = profile(200_000, 500_000, 300_000, 500_000);
        slowOnce.learn(slow, PAIRS);
        assertEquals(20_000 * (1 + 1.0 / 32), slowOnce.typicalNs(StepStage.BROADPHASE), 1e-9,
            "a step ten times slower counts as twice the typical, at weight 1/32");
    }

    /** Dropping, and the whole step after ten drops, allocate nothing once the path has run. */
    @Test
    void shouldAllocateNothingToDropASlowStep() {
        com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assertTrue(threads.isThreadAllocatedMemorySupported(), "this JVM cannot count allocated bytes");
        threads.setThreadAllocatedMemoryEnabled(true);
        long bytes = -1;
        for (int round = 0; round < 3; round++) {
            PhysicsWorld world = slowAfterWarmUp(new PacedClock());
            long id = Thread.currentThread().getId();
            long start = threads.getThreadAllocatedBytes(id);
            int dropped = 0;
            for (int i = 0; i <= StepPace.MAX_CLOSE_DROPS; i++) {
                dropped += stepOnTime(world) ? 0 : 1;
            }
            bytes = threads.getThreadAllocatedBytes(id) - start;
            assertEquals(StepPace.MAX_CLOSE_DROPS, dropped);
        }
        assertEquals(0L, bytes, "bytes allocated by ten dropped steps and a whole one");
    }

    /** The balls stepped 100 times at the typical pace (learnt), then the clock made ten times slow. */
    private static PhysicsWorld slowAfterWarmUp(PacedClock clock) {
        PhysicsWorld world = balls(clock);
        for (int i = 0; i < 100; i++) {
            world.step(DT_S);
        }
        clock.perReadNs = SLOW_STAGE_NS;
        return world;
    }

    private static boolean stepOnTime(PhysicsWorld world) {
        long nowNs = world.nanoTime();
        return world.step(DT_S, nowNs + SWEEP_DEADLINE_AFTER_NS, nowNs + END_BY_AFTER_NS);
    }

    private static boolean drop(StepPace pace, StepStage doneThrough, long elapsedNs, long allowedNs) {
        return pace.shouldDrop(doneThrough, PAIRS, 0L, elapsedNs, allowedNs);
    }

    private static StepPace learnt(long broadNs, long narrowNs, long prepareNs, long solveNs) {
        StepPace pace = new StepPace();
        StepProfile typical = profile(broadNs, narrowNs, prepareNs, solveNs);
        for (int i = 0; i < StepPace.WARM_STEPS; i++) {
            pace.learn(typical, PAIRS);
        }
        assertTrue(pace.warm());
        return pace;
    }

    private static StepProfile profile(long broadNs, long narrowNs, long prepareNs, long solveNs) {
        StepProfile p = new StepProfile();
        p.record(StepStage.BROADPHASE, broadNs);
        p.record(StepStage.NARROWPHASE, narrowNs);
        p.record(StepStage.PREPARE_CONTACTS, prepareNs);
        p.record(StepStage.SOLVE, solveNs);
        return p;
    }

    /** A floor and eight 2 cm balls in a row, each overlapping the next by 2 mm, dropped from 1 cm up. */
    private static PhysicsWorld balls(PacedClock clock) {
        PhysicsWorld world = new PhysicsWorld(ContactSettings.defaults());
        world.setClock(clock);
        world.addStaticBody("floor", new PlaneShape(new Vector3d(0, 0, 1)), new Vector3d(), new Quaterniond());
        double radiusM = 0.02;
        double massKg = 0.05;
        for (int i = 0; i < 8; i++) {
            world.addDynamicBody("ball" + i, new SphereShape(radiusM), new Vector3d(0.038 * i, 0.001 * i, 0.03),
                new Quaterniond(), massKg, SolidInertia.sphere(massKg, radiusM, new Matrix3d()), Material.DEFAULT);
        }
        return world;
    }

    /** Every body's position, orientation, linear and angular velocity. */
    private static double[] state(PhysicsWorld world) {
        double[] s = new double[world.bodyCount() * 13];
        Vector3d v = new Vector3d();
        Quaterniond q = new Quaterniond();
        for (int body = 0, k = 0; body < world.bodyCount(); body++, k += 13) {
            put(s, k, world.bodyPosition(body, v));
            world.bodyOrientation(body, q);
            s[k + 3] = q.x;
            s[k + 4] = q.y;
            s[k + 5] = q.z;
            s[k + 6] = q.w;
            put(s, k + 7, world.bodyLinearVelocity(body, v));
            put(s, k + 10, world.bodyAngularVelocity(body, v));
        }
        return s;
    }

    private static void put(double[] dest, int at, Vector3d v) {
        dest[at] = v.x;
        dest[at + 1] = v.y;
        dest[at + 2] = v.z;
    }
}
