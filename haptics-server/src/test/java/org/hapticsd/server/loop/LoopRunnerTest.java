package org.hapticsd.server.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;
import org.hapticsd.device.ThreadPolicy;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The runner's thread on a simulated clock: no test waits for real ticks. */
class LoopRunnerTest {

    /** Each read moves time by 300 µs, so a 1 kHz tick passes every few reads without real waiting. */
    private static final class FastClock implements NanoClock {
        private volatile long nowNs;

        @Override
        public long nanoTime() {
            long t = nowNs + 300_000;
            nowNs = t;
            return t;
        }
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void shouldRunTicksOnItsOwnThreadAndLeaveTheDeviceAtZeroWhenClosed() throws Exception {
        ScriptedDevice device = new ScriptedDevice();
        device.xM = 0.028; // in the wall, so rendered force is non-zero once the gate would open
        LoopFixture f = new LoopFixture(device);
        LoopRunner runner = new LoopRunner(f.loop, 1000, WaitStrategies.SPIN, new FastClock());
        runner.start();
        LoopSnapshot snapshot = f.assembly.snapshots().newSnapshot();
        while (f.assembly.snapshots().read(snapshot) == 0 || snapshot.tick < 200) {
            Thread.onSpinWait();
        }
        runner.close();

        assertFalse(runner.isRunning());
        assertTrue(device.closed, "device closed by the loop thread on stop");
        assertEquals(0.0, device.lastForceMagnitudeN(), 0.0);
        assertNull(runner.fatalError());
        assertTrue(f.assembly.stats().ticks() >= 200);
        // Each tick commanded a force, then told the device it was over (a link driver wakes its writer there).
        assertEquals(f.assembly.stats().ticks(), device.endsOfTick, "endOfTick once per tick");
        assertEquals(0, device.endsOfTickWithoutForce, "ticks ended without a force commanded");
    }

    @Test
    void shouldCloseTheDeviceWhenClosedWithoutEverStarting() throws Exception {
        ScriptedDevice device = new ScriptedDevice();
        LoopFixture f = new LoopFixture(device);
        LoopRunner runner = new LoopRunner(f.loop, 1000, WaitStrategies.SPIN, new FastClock());
        runner.close();
        assertTrue(device.closed);
        assertEquals(0.0, device.lastForceMagnitudeN(), 0.0);
    }

    /** This process's threads named hapticsd-loop* or process reaper, but {@code loopTid}: name and tid to policy. */
    private static java.util.Map<String, Integer> loopAndReaperThreads(long loopTid) throws java.io.IOException {
        java.util.Map<String, Integer> found = new java.util.TreeMap<>();
        try (java.util.stream.Stream<java.nio.file.Path> tasks = java.nio.file.Files.list(
                java.nio.file.Path.of("/proc/self/task"))) {
            for (java.nio.file.Path task : (Iterable<java.nio.file.Path>) tasks::iterator) {
                long tid = Long.parseLong(task.getFileName().toString());
                int[] policy = ThreadPolicy.policyOf(tid);
                String name;
                try {
                    name = java.nio.file.Files.readString(task.resolve("comm")).strip();
                } catch (java.io.IOException ended) {
                    continue;
                }
                if (policy != null && tid != loopTid
                        && (name.startsWith("hapticsd-loop") || name.startsWith("process reaper"))) {
                    found.put(name + " " + tid, policy[0]);
                }
            }
        }
        return found;
    }

    /** Whether this machine lets a thread take the FIFO policy (root, CAP_SYS_NICE or ulimit -r): CI's does. */
    private static boolean fifoPermitted() throws Exception {
        Process probe = new ProcessBuilder("chrt", "-f", "1", "true").redirectErrorStream(true).start();
        probe.getInputStream().readAllBytes();
        return probe.waitFor(10, TimeUnit.SECONDS) && probe.exitValue() == 0;
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldRunTheLoopThreadUnderTheFifoPolicyWhereItIsPermitted() throws Exception {
        Assumptions.assumeTrue(fifoPermitted(), "the FIFO policy is not permitted here");
        ScriptedDevice device = new ScriptedDevice();
        LoopFixture f = new LoopFixture(device);
        LoopRunner runner = new LoopRunner(f.loop, 1000, WaitStrategies.HYBRID, SystemNanoClock.INSTANCE, 7);
        runner.start();
        try {
            assertTrue(runner.isRealTime(), runner.policy());
            assertEquals("real-time FIFO priority 7", runner.policy());
            int[] policy = ThreadPolicy.policyOf(runner.threadTid());
            assertEquals(1, policy[0], "the kernel's policy of the loop thread (1 = SCHED_FIFO)");
            assertEquals(7, policy[1], "its real-time priority");
            // Only the loop thread: the caller's own thread is untouched, and so are the threads created around it
            // (a thread inherits its creator's policy: the guard and the JDK's process reaper were once FIFO too).
            assertEquals(0, ThreadPolicy.policyOf(ThreadPolicy.currentThreadTid())[0]);
            // The guard names itself once it runs (until then its name is its creator's): wait for it.
            java.util.Map<String, Integer> others = loopAndReaperThreads(runner.threadTid());
            for (int i = 0; i < 500 && others.keySet().stream().noneMatch(n -> n.startsWith("hapticsd-loop-g")); i++) {
                Thread.sleep(10);
                others = loopAndReaperThreads(runner.threadTid());
            }
            assertTrue(others.keySet().stream().anyMatch(n -> n.startsWith("hapticsd-loop-g")), "guard: " + others);
            assertTrue(others.values().stream().allMatch(kind -> kind == 0), "time-sharing: " + others);
            LoopSnapshot snapshot = f.assembly.snapshots().newSnapshot();
            while (f.assembly.snapshots().read(snapshot) == 0 || snapshot.tick < 100) {
                Thread.sleep(5);
            }
        } finally {
            runner.close();
        }
        assertNull(runner.fatalError());
        assertTrue(device.closed);
        assertEquals(0.0, device.lastForceMagnitudeN(), 0.0);
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldReturnASaturatedLoopToTheNormalPolicyBeforeTheKernelThrottlesIt() throws Exception {
        Assumptions.assumeTrue(fifoPermitted(), "the FIFO policy is not permitted here");
        ScriptedDevice device = new ScriptedDevice();
        // 0.95 ms of work a tick at 1 kHz: the loop waits only its last 50 µs, spinning, and keeps its core busy.
        // (A tick that overruns skips deadlines and parks until the next one: 1.5 ms of work is 75 % of a core.)
        device.busyReadNs = 950_000L;
        LoopFixture f = new LoopFixture(device);
        LoopRunner runner = new LoopRunner(f.loop, 1000, WaitStrategies.HYBRID, SystemNanoClock.INSTANCE, 5);
        runner.start();
        long tid = runner.threadTid();
        try {
            assertTrue(runner.isRealTime(), runner.policy());
            while (runner.isRealTime()) {
                Thread.sleep(20);
            }
            assertTrue(runner.policy().startsWith("normal since "), runner.policy());
            assertTrue(runner.policy().contains("of a core busy for a second"), runner.policy());
            assertEquals(0, ThreadPolicy.policyOf(tid)[0], "the kernel's policy of the loop thread after the guard");
            assertTrue(runner.isRunning(), "the loop goes on at normal priority");
        } finally {
            runner.close();
        }
        assertNull(runner.fatalError());
        assertEquals(0.0, device.lastForceMagnitudeN(), 0.0);
    }

    @Test
    void shouldKeepTheNormalPolicyForAStrategyThatNeverSleepsAndSayWhy() throws Exception {
        LoopFixture f = new LoopFixture(new ScriptedDevice());
        LoopRunner runner = new LoopRunner(f.loop, 1000, WaitStrategies.SPIN, new FastClock(), 10);
        runner.start();
        try {
            assertFalse(runner.isRealTime());
            assertTrue(runner.policy().startsWith("normal: --wait spin never sleeps"), runner.policy());
        } finally {
            runner.close();
        }
    }

    @Test
    void shouldRefuseAPriorityOutsideTheRange() throws Exception {
        LoopFixture f = new LoopFixture(new ScriptedDevice());
        for (int bad : new int[] {-1, 99}) {
            IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> new LoopRunner(f.loop, 1000, WaitStrategies.HYBRID, new FastClock(), bad));
            assertTrue(e.getMessage().contains("1..98"), e.getMessage());
        }
    }
}
