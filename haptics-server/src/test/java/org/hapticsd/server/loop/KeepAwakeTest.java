package org.hapticsd.server.loop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.SystemNanoClock;
import org.hapticsd.device.ThreadPolicy;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link LoopRunner#keepCpuAwake}: the loop thread on one CPU, an idle-policy thread spinning on the same CPU while the
 * loop runs, and nothing of it once the loop stops. Read back from the kernel ({@code /proc/self/task}). At the normal
 * policy, so that it runs without CAP_SYS_NICE; the FIFO loop is {@link LoopRunnerTest}'s.
 */
class KeepAwakeTest {
    /** SCHED_IDLE in {@code /proc/PID/task/TID/stat}'s policy field. */
    private static final int SCHED_IDLE = 5;

    private static boolean tasksetRuns() throws Exception {
        try {
            Process probe = new ProcessBuilder("taskset", "-p", "1").redirectErrorStream(true).start();
            probe.getInputStream().readAllBytes();
            return probe.waitFor(10, TimeUnit.SECONDS) && probe.exitValue() == 0;
        } catch (java.io.IOException missing) {
            return false;
        }
    }

    /** The kernel id of this process's live thread named exactly {@code name}, or -1. */
    private static long tidNamed(String name) throws Exception {
        try (java.util.stream.Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
            for (Path task : (Iterable<Path>) tasks::iterator) {
                try {
                    if (Files.readString(task.resolve("comm")).strip().equals(name)) {
                        return Long.parseLong(task.getFileName().toString());
                    }
                } catch (java.io.IOException ended) {
                    // The thread ended while listed.
                }
            }
        }
        return -1;
    }

    /**
     * {@link #tidNamed}, after waiting up to 10 s for such a thread to leave the task list: a Java thread is no longer
     * alive before its kernel task has exited, and on a loaded host the task can outlive {@code isAlive()} by
     * milliseconds (CI saw an ended companion's task still listed). A thread that runs on stays listed and is found.
     */
    private static long tidNamedOnceExited(String name) throws Exception {
        long untilNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        long tid = tidNamed(name);
        while (tid != -1 && System.nanoTime() < untilNs) {
            Thread.sleep(5);
            tid = tidNamed(name);
        }
        return tid;
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldRunTheLoopOnOneCpuWithAnIdleThreadSpinningThereUntilItStops() throws Exception {
        long self = ThreadPolicy.currentThreadTid();
        Assumptions.assumeTrue(self >= 0, "Linux only");
        Assumptions.assumeTrue(tasksetRuns(), "taskset (util-linux) is not installed");
        int[] mine = ThreadPolicy.allowedCpus(self);
        ScriptedDevice device = new ScriptedDevice();
        LoopFixture f = new LoopFixture(device);
        LoopRunner runner = new LoopRunner(f.loop, 1000, WaitStrategies.HYBRID, SystemNanoClock.INSTANCE, 0)
            .keepCpuAwake(true);
        runner.start();
        KeepAwake awake = runner.keepAwake();
        try {
            // The last CPU the loop thread could use, which it inherited from this thread.
            int cpu = mine[mine.length - 1];
            assertEquals(cpu, runner.loopCpu());
            assertEquals("CPU " + cpu + ", kept awake by an idle-priority thread", runner.placement());
            long loopTid = tidNamed(LoopRunner.THREAD_NAME);
            assertTrue(loopTid > 0, "the loop thread");
            assertArrayEquals(new int[] {cpu}, ThreadPolicy.allowedCpus(loopTid), "the loop thread's CPUs");
            assertEquals(0, ThreadPolicy.policyOf(loopTid)[0], "the loop thread's policy: normal, as asked");
            assertNotNull(awake);
            assertNull(awake.refused());
            assertTrue(awake.tid() > 0);
            assertArrayEquals(new int[] {cpu}, ThreadPolicy.allowedCpus(awake.tid()), "the companion's CPUs");
            assertEquals(SCHED_IDLE, ThreadPolicy.policyOf(awake.tid())[0], "the companion's policy (5 = SCHED_IDLE)");
            // Nothing else was moved: this thread keeps its CPUs and policy.
            assertArrayEquals(mine, ThreadPolicy.allowedCpus(self));
            assertEquals(0, ThreadPolicy.policyOf(self)[0]);
            LoopSnapshot snapshot = f.assembly.snapshots().newSnapshot();
            while (f.assembly.snapshots().read(snapshot) == 0 || snapshot.tick < 100) {
                Thread.sleep(5);
            }
            assertTrue(awake.isAlive(), "spinning while the loop runs");
        } finally {
            runner.close();
        }
        assertFalse(awake.isAlive(), "stopped with the loop");
        assertNull(runner.fatalError());
        assertTrue(device.closed);
        assertEquals(0.0, device.lastForceMagnitudeN(), 0.0);
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldLeaveTheCpuAloneWhenNotAskedOrWhenTheWaitSpins() throws Exception {
        for (boolean spin : new boolean[] {false, true}) {
            LoopFixture f = new LoopFixture(new ScriptedDevice());
            LoopRunner runner = new LoopRunner(f.loop, 1000, spin ? WaitStrategies.SPIN : WaitStrategies.HYBRID,
                SystemNanoClock.INSTANCE, 0);
            // A spinning wait keeps its CPU busy by itself: asking changes nothing.
            runner.keepCpuAwake(spin);
            runner.start();
            try {
                assertEquals(-1, runner.loopCpu());
                assertNull(runner.keepAwake());
                assertEquals("any CPU", runner.placement());
                // An earlier test's companion may still be exiting; one made here would spin until close().
                assertEquals(-1, tidNamedOnceExited(KeepAwake.THREAD_NAME.substring(0, 15)), "no companion thread");
            } finally {
                runner.close();
            }
        }
    }

    @Test
    void shouldBeSetBeforeTheLoopStarts() throws Exception {
        LoopFixture f = new LoopFixture(new ScriptedDevice());
        LoopRunner runner = new LoopRunner(f.loop, 1000, WaitStrategies.SPIN, SystemNanoClock.INSTANCE, 0);
        runner.start();
        try {
            org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class, () -> runner.keepCpuAwake(true));
        } finally {
            runner.close();
        }
    }

    /**
     * A companion that cannot have its CPU (here one the machine does not have, so taskset refuses) says why and
     * ends: it must not go on spinning at the idle policy on whatever CPU it was given, and {@code close()} of a
     * companion that already ended returns.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldSayWhyAndEndWhenItsCpuCannotBeHad() throws Exception {
        Assumptions.assumeTrue(ThreadPolicy.currentThreadTid() >= 0, "Linux only");
        Assumptions.assumeTrue(tasksetRuns(), "taskset (util-linux) is not installed");
        KeepAwake awake = new KeepAwake(4095);
        try {
            assertNotNull(awake.refused(), "the refusal");
            // taskset's own error line, not the line it prints first (the thread's CPUs before it tried).
            assertTrue(awake.refused().startsWith("taskset: failed to set pid "), awake.refused());
            assertEquals(-1, awake.tid(), "no thread id while it does not run");
            long untilNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (awake.isAlive() && System.nanoTime() < untilNs) {
                Thread.sleep(5);
            }
            assertFalse(awake.isAlive(), "ended, not spinning elsewhere");
            assertEquals(-1, tidNamedOnceExited(KeepAwake.THREAD_NAME.substring(0, 15)), "no companion thread left");
        } finally {
            awake.close();
        }
    }
}
