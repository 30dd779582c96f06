package org.hapticsd.device;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.hapticsd.device.emulator.EmulatedDevice;
import org.hapticsd.device.emulator.EmulatorProfile;
import org.hapticsd.device.emulator.EmulatorRunner;
import org.hapticsd.device.link.LinkHapticDevice;
import org.hapticsd.device.link.LinkSession;
import org.hapticsd.device.link.TcpByteLink;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The scheduling policy of a thread as the kernel reports it, set through chrt; the FIFO cases where permitted. */
class ThreadPolicyTest {

    private static boolean fifoPermitted() throws Exception {
        Process probe = new ProcessBuilder("chrt", "-f", "1", "true").redirectErrorStream(true).start();
        probe.getInputStream().readAllBytes();
        return probe.waitFor(10, TimeUnit.SECONDS) && probe.exitValue() == 0;
    }

    /** Policy and priority of this process's threads by name (the kernel keeps 15 characters of it). */
    private static Map<String, int[]> policiesByName() throws IOException {
        Map<String, int[]> byName = new HashMap<>();
        try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
            for (Path task : (Iterable<Path>) tasks::iterator) {
                try {
                    String name = Files.readString(task.resolve("comm")).strip();
                    int[] policy = ThreadPolicy.policyOf(Long.parseLong(task.getFileName().toString()));
                    if (policy != null) {
                        byName.put(name, policy);
                    }
                } catch (IOException threadEnded) {
                    // A thread that ended while listed.
                }
            }
        }
        return byName;
    }

    @Test
    void shouldReadTheCallingThreadsIdAndItsNormalPolicy() {
        long tid = ThreadPolicy.currentThreadTid();
        assertTrue(tid > 0, "a Linux thread id");
        assertArrayEquals(new int[] {0, 0}, ThreadPolicy.policyOf(tid), "a JUnit thread runs under SCHED_OTHER");
        assertNull(ThreadPolicy.policyOf(Long.MAX_VALUE), "no such thread");
        assertNull(ThreadPolicy.setCurrentThreadFifo(0), "0 asks for nothing");
    }

    @Test
    void shouldGiveThePermissionHintOnlyWhenTheKernelRefused() {
        String refused = ThreadPolicy.refusal("chrt: failed to set pid 7's policy: Operation not permitted", 12);
        assertEquals("normal: real-time priority refused (chrt: failed to set pid 7's policy: Operation not permitted; "
            + "it needs CAP_SYS_NICE, which root has outside a restricted container, or an rtprio limit of 12 or more: "
            + "limits.conf rtprio, systemd LimitRTPRIO=)", refused);
        // chrt missing from PATH (a tester): nothing was refused, and permissions would not help.
        assertEquals("normal: real-time priority not set (chrt (util-linux) could not be run: Cannot run program "
            + "\"chrt\": error=2, No such file or directory)", ThreadPolicy.refusal("chrt (util-linux) could not be "
            + "run: Cannot run program \"chrt\": error=2, No such file or directory", 12));
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void shouldPutAThreadUnderFifoAndBackAndNameWhatWentWrong() throws Exception {
        Assumptions.assumeTrue(fifoPermitted(), "the FIFO policy is not permitted here");
        long[] tid = new long[1];
        String[] refused = new String[1];
        int[][] seen = new int[2][];
        Thread thread = new Thread(() -> {
            tid[0] = ThreadPolicy.currentThreadTid();
            refused[0] = ThreadPolicy.setCurrentThreadFifo(4);
            seen[0] = ThreadPolicy.policyOf(tid[0]);
            ThreadPolicy.setNormal(tid[0]);
            seen[1] = ThreadPolicy.policyOf(tid[0]);
        });
        thread.start();
        thread.join();
        assertNull(refused[0]);
        assertArrayEquals(new int[] {1, 4}, seen[0], "SCHED_FIFO at 4");
        assertArrayEquals(new int[] {0, 0}, seen[1], "back to SCHED_OTHER");
        String noThread = ThreadPolicy.setFifo(999_999_999L, 4);
        assertNotNull(noThread);
        assertTrue(noThread.startsWith("chrt: "), noThread);
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldRunTheLinkThreadsAndTheFirmwareUnderFifoWhenAsked() throws Exception {
        Assumptions.assumeTrue(fifoPermitted(), "the FIFO policy is not permitted here");
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             EmulatorRunner emulator = new EmulatorRunner(new EmulatedDevice(EmulatorProfile.touchLike()),
                 TcpByteLink.acceptor(server, 20)).withRtPriority(6).start()) {
            LinkHapticDevice link = new LinkHapticDevice(TcpByteLink.connector("127.0.0.1", server.getLocalPort(),
                1_000, 20), LinkSession.Config.defaults(1000));
            link.setRtPriority(6);
            link.open();
            try {
                Map<String, int[]> policies = policiesByName();
                assertArrayEquals(new int[] {1, 6}, policies.get("hapticsd-link-t"), "writer");
                assertArrayEquals(new int[] {1, 6}, policies.get("hapticsd-link-r"), "reader");
                assertArrayEquals(new int[] {1, 6}, policies.get("hapticsd-emulat"), "firmware");
                // The JDK's process reaper, created by whichever thread starts chrt, must not inherit FIFO (it did when
                // a thread ran chrt on itself and chrt finished before the reaper was created).
                int[] reaper = policies.get("process reaper");
                if (reaper != null) {
                    // Present while its pool keeps it (60 s idle); none at all would be time-sharing too.
                    assertArrayEquals(new int[] {0, 0}, reaper, "the JDK's process reaper");
                }
                assertEquals("real-time FIFO priority 6", link.threadPolicy());
                assertEquals("real-time FIFO priority 6", emulator.threadPolicy());
            } finally {
                link.close();
            }
        }
    }

    /** The tool's own error line, wherever it comes; else the last line said. */
    @Test
    void shouldNameAFailedToolsErrorLineNotWhatItPrintedBefore() {
        assertEquals("taskset: failed to set pid 7's affinity: Invalid argument", ThreadPolicy.refusalLine("taskset",
            "pid 7's current affinity list: 0,1\ntaskset: failed to set pid 7's affinity: Invalid argument"));
        assertEquals("chrt: failed to set pid 7's policy: Operation not permitted",
            ThreadPolicy.refusalLine("chrt", "chrt: failed to set pid 7's policy: Operation not permitted"));
        assertEquals("something else went wrong",
            ThreadPolicy.refusalLine("taskset", "first\nsomething else went wrong\n\n"));
    }

    @Test
    void shouldReadTheCpusAThreadMayRunOn() {
        assertArrayEquals(new int[] {0, 1, 2, 3, 6, 8, 9}, ThreadPolicy.parseCpuList("0-3,6,8-9"));
        assertArrayEquals(new int[] {5}, ThreadPolicy.parseCpuList("5"));
        assertArrayEquals(new int[0], ThreadPolicy.parseCpuList(""));
        long self = ThreadPolicy.currentThreadTid();
        Assumptions.assumeTrue(self >= 0, "Linux only");
        int[] cpus = ThreadPolicy.allowedCpus(self);
        assertTrue(cpus.length >= 1 && cpus[0] >= 0,
            java.util.Arrays.toString(cpus));
        assertEquals(0, ThreadPolicy.allowedCpus(Long.MAX_VALUE).length, "no such thread");
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void shouldPinAThreadToCpusAndGiveThemBack() throws Exception {
        long self = ThreadPolicy.currentThreadTid();
        Assumptions.assumeTrue(self >= 0, "Linux only");
        int[] all = ThreadPolicy.allowedCpus(self);
        long[] tid = {-1};
        java.util.concurrent.CountDownLatch started = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(1);
        Thread other = new Thread(() -> {
            tid[0] = ThreadPolicy.currentThreadTid();
            started.countDown();
            Uninterruptibly.await(done);
        });
        other.start();
        started.await();
        try {
            String refused = ThreadPolicy.pinToCpus(tid[0], all[all.length - 1]);
            Assumptions.assumeTrue(refused == null || !refused.contains("could not be run"), "taskset is missing");
            assertNull(refused);
            assertArrayEquals(new int[] {all[all.length - 1]}, ThreadPolicy.allowedCpus(tid[0]));
            assertArrayEquals(all, ThreadPolicy.allowedCpus(self), "only the thread named");
            assertNull(ThreadPolicy.pinToCpus(tid[0], all));
            assertArrayEquals(all, ThreadPolicy.allowedCpus(tid[0]));
            // A CPU the machine does not have: refused, in taskset's own words, and the thread's CPUs unchanged.
            String noCpu = ThreadPolicy.pinToCpus(tid[0], 4095);
            assertNotNull(noCpu);
            assertTrue(noCpu.startsWith("taskset: failed to set pid " + tid[0] + "'s affinity"), noCpu);
            assertArrayEquals(all, ThreadPolicy.allowedCpus(tid[0]));
        } finally {
            done.countDown();
            other.join();
        }
    }
}
