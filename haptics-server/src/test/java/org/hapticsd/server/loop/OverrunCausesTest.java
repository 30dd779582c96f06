package org.hapticsd.server.loop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;
import org.hapticsd.testsupport.JitPrimer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Why an overrunning tick overran: the rule by numbers, the runner's measurements on simulated wall and CPU clocks,
 * and what a real loop thread's CPU clock does not count.
 */
class OverrunCausesTest {
    /** The compiler's one-off allocations on the measuring thread, done before anything is measured. */
    @BeforeAll
    static void primeJit() {
        JitPrimer.primeClassPath();
    }

    @Test
    void shouldPutEachOverrunUnderTheLargestPartOfItsTime() {
        OverrunCauses causes = new OverrunCauses();
        assertNull(causes.summary(), "nothing to say without overruns");

        // Started 1.2 ms late, ran 40 µs: the lateness is the largest part.
        causes.record(1_200_000, 40_000, 32_000, 14_000, 0, false, 0);
        // Ran 3 ms with 50 µs of CPU: the thread was off its CPU for 2.95 ms of it.
        causes.record(10_000, 3_000_000, 50_000, 20_000, 0, false, 0);
        // Ran 1.19 ms with 1.23 ms of CPU (the two clocks differ by a few per cent), the step 1.14 ms of it.
        causes.record(1_000, 1_194_000, 1_225_000, 1_142_000, 0, false, 0);
        // 998 µs of work that started 4 µs late: it would have fitted without the 4 µs, and was a tick on the CPU.
        causes.record(4_000, 998_000, 990_000, 900_000, 0, false, 0);
        // Ties: three equal parts go to the CPU; late against off the CPU, to off the CPU.
        causes.record(400_000, 800_000, 400_000, 300_000, 0, false, 0);
        causes.record(500_000, 600_000, 100_000, 0, 0, false, 0);
        // Late by more than the time off the CPU and the CPU time.
        causes.record(700_000, 500_000, 100_000, 0, 0, false, 0);
        // No CPU clock: a long tick, or a late one when the lateness is the longer.
        causes.record(0, 2_500_000, -1, 0, 0, false, 0);
        causes.record(900_000, 200_000, -1, 0, 0, false, 0);

        assertEquals(3, causes.wokenLate());
        assertEquals(1_200_000, causes.maxLateNs());
        assertEquals(2, causes.offCpu());
        assertEquals(2_950_000, causes.maxOffCpuNs());
        assertEquals(3, causes.onCpu());
        assertEquals(1_225_000, causes.maxCpuNs());
        assertEquals(1_142_000, causes.maxStepCpuNs(), "the step of the tick with the most CPU time");
        assertEquals(1, causes.longTicks());
        assertEquals(9, causes.total());
        assertEquals("overruns by cause: 3 woken late (up to 1.20 ms after the deadline); 2 off the CPU (up to 2.95 ms"
            + " in a tick without it); 3 on the CPU (up to 1.23 ms of CPU time in a tick, the physics step 1.14 ms of"
            + " it); 1 long (up to 2.50 ms; the thread's CPU time cannot be read here)", causes.summary());
    }

    /**
     * A tick that started late at once because the tick before it overran ({@link TickSchedule}) and overran itself
     * mostly by that late start is put behind the overrun, not under a late wake-up; one whose own time was the larger
     * part keeps its own cause.
     */
    @Test
    void shouldPutATickThatStartedLateBehindAnOverrunUnderThatCause() {
        OverrunCauses causes = new OverrunCauses();
        // Started 450 µs late behind an overrun, ran 600 µs of which 300 µs on the CPU: the late start is the largest.
        causes.record(450_000, 600_000, 300_000, 250_000, 250_000, true, 0);
        // Started 300 µs late behind an overrun, then 800 µs on the CPU: its own work.
        causes.record(300_000, 800_000, 800_000, 700_000, 250_000, true, 0);
        // Woken 1.2 ms late after a wait: a late wake-up, as before.
        causes.record(1_200_000, 40_000, 32_000, 14_000, 0, false, 0);
        // Without a CPU clock, the late start longer than the tick.
        causes.record(400_000, 350_000, -1, 0, 0, true, 0);
        assertEquals(2, causes.behindOverrun());
        assertEquals(450_000, causes.maxBehindNs());
        assertEquals(1, causes.wokenLate());
        assertEquals(1, causes.onCpu());
        assertEquals(4, causes.total());
        assertEquals("overruns by cause: 1 woken late (up to 1.20 ms after the deadline); 2 behind an overrun (started"
            + " at once, up to 0.45 ms after the deadline); 1 on the CPU (up to 0.80 ms of CPU time in a tick, the"
            + " physics step 0.70 ms of it, usually 0.25 ms; 1 of the 1 in a step at least twice its usual time)",
            causes.summary());
    }

    /**
     * With the step's usual time known, the line says it for the tick with the most CPU time, and how many of the
     * overruns on the CPU had a step at least twice its usual time (the machine, not the scene).
     */
    @Test
    void shouldSayHowTheStepOfAnOverrunOnTheCpuComparesWithItsUsualTime() {
        OverrunCauses causes = new OverrunCauses();
        // The pile's stall: a step of 1.03 ms that usually takes 0.31 ms.
        causes.record(2_000, 1_080_000, 1_075_000, 1_030_000, 310_000, false, 0);
        // A step at exactly twice its usual time counts; one just under does not.
        causes.record(0, 1_010_000, 1_005_000, 620_000, 310_000, false, 0);
        causes.record(0, 1_010_000, 1_004_000, 619_999, 310_000, false, 0);
        // A heavy scene: the step as long as usual.
        causes.record(0, 1_050_000, 1_040_000, 990_000, 980_000, false, 0);
        assertEquals(4, causes.onCpu());
        assertEquals(2, causes.onCpuSlowStep());
        assertEquals(310_000, causes.maxStepUsualNs(), "the usual time when the tick with the most CPU time ran");
        assertEquals("overruns by cause: 4 on the CPU (up to 1.08 ms of CPU time in a tick, the physics step 1.03 ms of"
            + " it, usually 0.31 ms; 2 of the 4 in a step at least twice its usual time)", causes.summary());

        OverrunCauses heavy = new OverrunCauses();
        heavy.record(0, 1_050_000, 1_040_000, 990_000, 980_000, false, 0);
        assertEquals("overruns by cause: 1 on the CPU (up to 1.04 ms of CPU time in a tick, the physics step 0.99 ms of"
            + " it, usually 0.98 ms)", heavy.summary(), "the scene's weight: no slow steps to count");
    }

    /**
     * The deadlines skipped after each overrun go under its cause, so that a report can tell a host that stopped the
     * loop (one tick woken 15 ms late, 15 deadlines) from a scene too heavy for the rate (ticks on the CPU).
     */
    @Test
    void shouldPutTheDeadlinesSkippedAfterAnOverrunUnderItsCause() {
        OverrunCauses causes = new OverrunCauses();
        causes.record(15_200_000, 40_000, 32_000, 14_000, 0, false, 15);
        causes.record(1_000, 1_600_000, 1_590_000, 1_500_000, 300_000, false, 1);
        causes.record(1_000, 1_300_000, 1_290_000, 1_200_000, 300_000, false, 0);
        causes.record(400_000, 700_000, 350_000, 250_000, 300_000, true, 1);

        assertEquals(List.of("wokenLate", "offCpu", "onCpu", "longTicks", "behindOverrun"), OverrunCauses.SKIPPED_KEYS);
        assertArrayEquals(new long[] {15, 0, 1, 0, 1}, causes.skippedDeadlines());
        assertEquals("overruns by cause: 1 woken late (up to 15.20 ms after the deadline, 15 deadlines skipped); 1"
            + " behind an overrun (started at once, up to 0.40 ms after the deadline, 1 deadline skipped); 2 on the CPU"
            + " (up to 1.59 ms of CPU time in a tick, the physics step 1.50 ms of it, usually 0.30 ms; 2 of the 2 in a"
            + " step at least twice its usual time, 1 deadline skipped)", causes.summary());
        long[] copy = causes.skippedDeadlines();
        copy[0] = 99;
        assertEquals(15, causes.skippedDeadlines()[0], "a copy: the caller cannot change the counts");
    }

    /**
     * Classifying allocates nothing, once compiled: a loop thread a few hundred ticks old still runs interpreted code
     * that allocates what the compiled code does not (measured: 88–2,900 bytes in 100 plain ticks of a fresh
     * runner), so the check is made here, on this thread, after the JIT has had every branch.
     */
    @Test
    void shouldClassifyWithoutAllocating() {
        OverrunCauses causes = new OverrunCauses();
        com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long self = Thread.currentThread().getId();
        recordEachCause(causes, 200_000);
        long before = threads.getThreadAllocatedBytes(self);
        recordEachCause(causes, 200_000);
        long after = threads.getThreadAllocatedBytes(self);
        assertEquals(0L, after - before, "bytes allocated classifying 800,000 overruns");
        assertEquals(1_600_000L, causes.total());
    }

    private static void recordEachCause(OverrunCauses causes, int times) {
        for (int i = 0; i < times; i++) {
            causes.record(1_200_000 + i, 40_000, 32_000, 14_000, 0, false, 0);
            causes.record(10_000, 3_000_000 + i, 50_000, 20_000, 0, false, 0);
            causes.record(1_000, 1_194_000, 1_225_000 + i, 1_142_000, 310_000, false, 0);
            causes.record(0, 2_500_000 + i, -1, 0, 0, false, 0);
        }
    }

    /** A wall or CPU clock that moves only when the test's device or wait moves it; loop thread only. */
    private static final class SimClock implements NanoClock {
        volatile long nowNs;

        @Override
        public long nanoTime() {
            return nowNs;
        }
    }

    /** Reaches the deadline at once, or 1.5 ms after it on the next {@link #lateWakes} ticks, on a {@link SimClock}. */
    private static final class SimWait implements WaitStrategy {
        private final SimClock wall;
        final AtomicInteger lateWakes = new AtomicInteger();

        SimWait(SimClock wall) {
            this.wall = wall;
        }

        @Override
        public void waitUntil(long deadlineNs, long recentTickNs, NanoClock clock) {
            long untilNs = wakeAt(deadlineNs, lateWakes);
            wall.nowNs = Math.max(wall.nowNs, untilNs);
        }

        @Override
        public String name() {
            return "simulated";
        }

        @Override
        public boolean parks() {
            return false;
        }
    }

    /**
     * The runner measures each overrunning tick where the causes need it: on simulated wall and CPU clocks that the
     * device's reads move, three reads that take 3 ms off the CPU, three that take 3 ms on it and three wake-ups
     * 1.5 ms late are classified exactly so, with exactly those times, and nothing else overruns.
     */
    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void shouldMeasureTheLateStartTheTimeOffTheCpuAndTheCpuTimeOfEachOverrun() throws Exception {
        SimClock wall = new SimClock();
        SimClock cpu = new SimClock();
        AtomicInteger offCpuReads = new AtomicInteger();
        AtomicInteger onCpuReads = new AtomicInteger();
        ScriptedDevice device = new ScriptedDevice();
        device.onRead = () -> {
            if (offCpuReads.get() > 0) {
                offCpuReads.decrementAndGet();
                wall.nowNs += 3_000_000L;
            } else if (onCpuReads.get() > 0) {
                onCpuReads.decrementAndGet();
                wall.nowNs += 3_000_000L;
                cpu.nowNs += 3_000_000L;
            } else {
                wall.nowNs += 10_000L;
                cpu.nowNs += 10_000L;
            }
        };
        LoopFixture f = new LoopFixture(device);
        SimWait wait = new SimWait(wall);
        LoopRunner runner = new LoopRunner(f.loop, 1000, wait, wall).cpuClockForTest(cpu);
        runner.start();
        try {
            awaitReads(device, 50);
            inject(offCpuReads, 3, device);
            inject(onCpuReads, 3, device);
            inject(wait.lateWakes, 3, device);
        } finally {
            runner.close();
        }
        OverrunCauses causes = runner.overrunCauses();
        assertEquals(3, causes.offCpu(), causes.summary());
        assertEquals(3_000_000L, causes.maxOffCpuNs());
        assertEquals(3, causes.onCpu(), causes.summary());
        assertEquals(3_000_000L, causes.maxCpuNs());
        assertEquals(3, causes.wokenLate(), causes.summary());
        assertEquals(1_500_000L, causes.maxLateNs());
        assertEquals(0, causes.longTicks());
        assertEquals(f.assembly.stats().overruns(), causes.total(), "every overrun classified once");
        assertEquals(runner.skippedDeadlines(), java.util.Arrays.stream(causes.skippedDeadlines()).sum(),
            "every skipped deadline under the cause of the overrun it followed");
    }

    /**
     * After an overrun the runner starts the next tick at once for the deadline it ran past by less than half a period
     * ({@link TickSchedule}), and skips one passed longer ago, or run past by a late tick; a late tick that overruns
     * mostly by its late start is put behind the overrun. On simulated wall and CPU clocks, each tick's start time
     * exactly.
     */
    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void shouldStartTheNextTickAtOnceAfterAnOverrunOfLessThanHalfAPeriod() throws Exception {
        SimClock wall = new SimClock();
        SimClock cpu = new SimClock();
        // Each scripted read: {wall ns, CPU ns}; then ordinary reads of 10 µs on the CPU.
        long[][] script = {
            {1_300_000L, 1_300_000L},   // ends 0.3 ms past the next deadline: that tick starts at once
            {10_000L, 10_000L},         // the late tick, back in time for the deadline after it
            {1_800_000L, 1_800_000L},   // ends 0.8 ms past it: skipped, the loop waits for the one after
            {10_000L, 10_000L},
            {1_400_000L, 1_400_000L},   // 0.4 ms past: the next tick starts late by that
            {600_000L, 210_000L},       // and ends on the next deadline: 0.4 late, 0.39 off the CPU, 0.21 on it
            {10_000L, 10_000L},         // not a second late tick in a row: that deadline skipped, this one waits
        };
        AtomicInteger next = new AtomicInteger(-1);
        long[] startsNs = new long[script.length];
        ScriptedDevice device = new ScriptedDevice();
        device.onRead = () -> {
            int i = next.get();
            if (i >= 0 && i < script.length) {
                startsNs[i] = wall.nowNs;
                wall.nowNs += script[i][0];
                cpu.nowNs += script[i][1];
                next.incrementAndGet();
            } else {
                wall.nowNs += 10_000L;
                cpu.nowNs += 10_000L;
            }
        };
        LoopFixture f = new LoopFixture(device);
        LoopRunner runner = new LoopRunner(f.loop, 1000, new SimWait(wall), wall).cpuClockForTest(cpu);
        runner.start();
        try {
            awaitReads(device, 50);
            next.set(0);
            while (next.get() < script.length) {
                Thread.onSpinWait();
            }
            awaitReads(device, 10);
        } finally {
            runner.close();
        }
        long d = startsNs[0];
        assertEquals(d + 1_300_000L, startsNs[1], "at once behind the overrun, for the deadline at +1 ms");
        assertEquals(d + 2_000_000L, startsNs[2], "back on the deadlines");
        assertEquals(d + 4_000_000L, startsNs[3], "+3 ms skipped: the tick after waits for +4 ms");
        assertEquals(d + 5_000_000L, startsNs[4]);
        assertEquals(d + 6_400_000L, startsNs[5], "at once, 0.4 ms late");
        assertEquals(d + 8_000_000L, startsNs[6], "+7 ms skipped behind the late tick that overran");
        assertEquals(2, runner.lateStarts());
        assertEquals(2, runner.skippedDeadlines());
        OverrunCauses causes = runner.overrunCauses();
        assertEquals(4, causes.total(), causes.summary());
        assertEquals(3, causes.onCpu(), causes.summary());
        assertEquals(1, causes.behindOverrun(), causes.summary());
        assertEquals(400_000L, causes.maxBehindNs());
        assertEquals(0, causes.wokenLate());
        assertEquals(f.assembly.stats().overruns(), causes.total(), "every overrun classified once");
        // The +3 ms deadline skipped after the tick on the CPU, the +7 ms one behind the late tick that overran.
        assertArrayEquals(new long[] {0, 0, 1, 0, 1}, causes.skippedDeadlines());
    }

    /**
     * On the wall clock and the loop thread's own CPU clock: reads that sleep 3 ms and wake-ups 1.5 ms late are
     * never ticks on the CPU (the thread's CPU clock does not count the sleep), whatever else the host does. Which of
     * the two causes each gets can move with the host (a sleeping tick that also started 3 ms late is a late one;
     * a tester's CI run had the loop thread off its CPU for 7 ms), so only that is asserted.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldNotCountTimeTheLoopThreadSleptAsItsCpuTime() throws Exception {
        AtomicInteger sleepingReads = new AtomicInteger();
        ScriptedDevice device = new ScriptedDevice();
        LoopFixture f = new LoopFixture(device);
        LateWait wait = new LateWait();
        LoopRunner runner = new LoopRunner(f.loop, 1000, wait, SystemNanoClock.INSTANCE);
        device.onRead = () -> {
            if (sleepingReads.get() > 0) {
                sleepingReads.decrementAndGet();
                long untilNs = System.nanoTime() + 3_000_000L;
                for (long leftNs = 3_000_000L; leftNs > 0; leftNs = untilNs - System.nanoTime()) {
                    java.util.concurrent.locks.LockSupport.parkNanos(leftNs);
                }
            }
        };
        runner.start();
        try {
            awaitReads(device, 50);
            inject(sleepingReads, 6, device);
            inject(wait.lateWakes, 6, device);
        } finally {
            runner.close();
        }
        OverrunCauses causes = runner.overrunCauses();
        assertEquals(f.assembly.stats().overruns(), causes.total(), "every overrun classified once");
        assertEquals(0, causes.longTicks(), "the thread's CPU time is readable on Linux");
        assertTrue(causes.offCpu() + causes.wokenLate() >= 12, causes.summary());
        assertTrue(Math.max(causes.maxOffCpuNs(), causes.maxLateNs()) >= 2_900_000L, causes.summary());
    }

    /** Waits by spinning, and on the next {@link #lateWakes} ticks 1.5 ms past the deadline (a late wake-up). */
    private static final class LateWait implements WaitStrategy {
        final AtomicInteger lateWakes = new AtomicInteger();

        @Override
        public void waitUntil(long deadlineNs, long recentTickNs, NanoClock clock) {
            long untilNs = wakeAt(deadlineNs, lateWakes);
            while (clock.nanoTime() - untilNs < 0) {
                Thread.onSpinWait();
            }
        }

        @Override
        public String name() {
            return "late";
        }

        @Override
        public boolean parks() {
            return false;
        }
    }

    private static void awaitReads(ScriptedDevice device, long more) {
        long until = device.reads + more;
        while (device.reads < until) {
            Thread.onSpinWait();
        }
    }

    /** The deadline, or 1.5 ms after it while {@code lateWakes} has late wake-ups left (taking one). */
    private static long wakeAt(long deadlineNs, AtomicInteger lateWakes) {
        if (lateWakes.get() > 0) {
            lateWakes.decrementAndGet();
            return deadlineNs + 1_500_000L;
        }
        return deadlineNs;
    }

    /** Sets a counter the loop thread counts down, waits until it has, then for ten ordinary ticks. */
    private static void inject(AtomicInteger counter, int ticks, ScriptedDevice device) {
        counter.set(ticks);
        while (counter.get() > 0) {
            Thread.onSpinWait();
        }
        awaitReads(device, 10);
    }
}
