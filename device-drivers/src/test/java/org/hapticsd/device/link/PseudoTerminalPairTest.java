package org.hapticsd.device.link;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The socat pty pair: a null-modem cable between two serial ports that exist only in software. */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class PseudoTerminalPairTest {
    private static final int READ_TIMEOUT_MS = 10;

    @TempDir
    Path dir;

    private static void assumeSocat() {
        Assumptions.assumeTrue(PseudoTerminalPair.isAvailable(), "socat is not installed");
    }

    private static byte[] everyByteValue() {
        byte[] bytes = new byte[256];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) i;
        }
        return bytes;
    }

    /** Reads exactly {@code n} bytes or what arrived in 2 s. */
    private static byte[] readExactly(ByteLink link, int n) throws IOException {
        byte[] got = new byte[n];
        int have = 0;
        long endNs = System.nanoTime() + 2_000_000_000L;
        while (have < n && System.nanoTime() - endNs < 0) {
            have += link.read(got, have, n - have);
        }
        return java.util.Arrays.copyOf(got, have);
    }

    @Test
    void shouldRemoveTheTemporaryDirectoryItCreatedWhenClosed() throws IOException {
        assumeSocat();
        Path created;
        try (PseudoTerminalPair pair = PseudoTerminalPair.startInTempDirectory("hapticsd-pty-test-")) {
            created = pair.hostPath().getParent();
            assertTrue(Files.isDirectory(created));
        }
        assertFalse(Files.exists(created), created + " removed");
    }

    /**
     * Found by a tester: Ctrl-C or SIGTERM during {@code hapticsd test} left socat running under init, with its links
     * and folder behind. A JVM that started a pair and is terminated before closing it must stop socat and remove
     * the folder on its way out.
     */
    @Test
    void shouldStopSocatWhenTheJvmIsTerminatedBeforeClosingThePair() throws Exception {
        assumeSocat();
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-Xmx64m", "-cp", System.getProperty("java.class.path"), PtyExitChild.class.getName())
            .redirectErrorStream(true).start();
        String[] started;
        try (java.io.BufferedReader out = new java.io.BufferedReader(
            new java.io.InputStreamReader(child.getInputStream(), java.nio.charset.StandardCharsets.UTF_8))) {
            String line = out.readLine();
            assertTrue(line != null && line.startsWith(PtyExitChild.READY), "child said: " + line);
            started = line.substring(PtyExitChild.READY.length()).split(" ");
            long relayPid = Long.parseLong(started[0]);
            Path folder = Path.of(started[1]);
            assertTrue(ProcessHandle.of(relayPid).map(ProcessHandle::isAlive).orElse(false), "socat running");
            child.destroy(); // SIGTERM
            assertTrue(child.waitFor(10, TimeUnit.SECONDS), "child exited");
            long deadlineNs = System.nanoTime() + 5_000_000_000L;
            while (ProcessHandle.of(relayPid).map(ProcessHandle::isAlive).orElse(false)
                && System.nanoTime() - deadlineNs < 0) {
                Thread.sleep(20);
            }
            assertFalse(ProcessHandle.of(relayPid).map(ProcessHandle::isAlive).orElse(false),
                "socat " + relayPid + " stopped with the JVM");
            assertFalse(Files.exists(folder), folder + " removed");
        } finally {
            child.destroyForcibly();
        }
    }

    /** The JVM of the test above: starts a pair, says its relay's pid and folder, and waits to be terminated. */
    static final class PtyExitChild {
        static final String READY = "ready ";

        public static void main(String[] args) throws Exception {
            PseudoTerminalPair pair = PseudoTerminalPair.startInTempDirectory("hapticsd-pty-test-");
            System.out.println(READY + pair.relayPid() + " " + pair.hostPath().getParent());
            System.out.flush();
            Thread.sleep(60_000);
        }
    }

    @Test
    void shouldCarryEveryByteValueBothWays() throws IOException {
        assumeSocat();
        try (PseudoTerminalPair pair = PseudoTerminalPair.start(dir);
             SerialByteLink host = SerialByteLink.open(pair.hostPath().toString(), 1_000_000, READ_TIMEOUT_MS);
             SerialByteLink device = SerialByteLink.open(pair.devicePath().toString(), 1_000_000, READ_TIMEOUT_MS)) {
            assertEquals(dir.resolve("host").toAbsolutePath(), pair.hostPath());
            assertEquals(dir.resolve("device").toAbsolutePath(), pair.devicePath());
            // 0x00 (the frame delimiter), CR, LF, XON/XOFF, ^C, ^D and 0xFF: what a cooked tty would eat or change.
            byte[] sent = everyByteValue();
            host.write(sent, 0, sent.length);
            assertArrayEquals(sent, readExactly(device, sent.length), "host -> device");
            device.write(sent, 0, sent.length);
            assertArrayEquals(sent, readExactly(host, sent.length), "device -> host");
        }
    }

    /**
     * With socat gone, the host's pty takes no more bytes (writes return 0 once its buffer is full): a write then
     * fails within its stall limit, naming the port, instead of retrying forever on the loop's thread (a lockstep run
     * hung that way, a core at 100 %, when its socat was killed).
     */
    @Test
    void shouldFailAWriteTheOtherSideNoLongerTakes() throws IOException {
        assumeSocat();
        PseudoTerminalPair pair = PseudoTerminalPair.start(dir);
        try (SerialByteLink host = SerialByteLink.open(pair.hostPath().toString(), 1_000_000, READ_TIMEOUT_MS)) {
            pair.close();
            byte[] chunk = new byte[4096];
            long startNs = System.nanoTime();
            IOException stalled = assertThrows(IOException.class, () -> {
                for (int i = 0; i < 100_000; i++) {
                    host.write(chunk, 0, chunk.length);
                }
            });
            assertTrue(stalled.getMessage().startsWith("serial:" + pair.hostPath()), stalled.getMessage());
            assertTrue(System.nanoTime() - startNs < 10_000_000_000L, "failed within the class timeout's half");
        }
    }

    @Test
    void shouldStopSocatAndRemoveLinksOnClose() throws IOException {
        assumeSocat();
        PseudoTerminalPair pair = PseudoTerminalPair.start(dir);
        assertTrue(pair.isAlive());
        assertTrue(Files.isSymbolicLink(pair.hostPath()));
        pair.close();
        assertFalse(pair.isAlive());
        assertFalse(Files.exists(pair.hostPath(), LinkOption.NOFOLLOW_LINKS));
        assertFalse(Files.exists(pair.devicePath(), LinkOption.NOFOLLOW_LINKS));
        pair.close();
    }

    @Test
    void shouldReplaceADanglingLinkLeftByAKilledRun() throws IOException {
        assumeSocat();
        Files.createSymbolicLink(dir.resolve("host"), Path.of("/dev/pts/hapticsd-test-gone"));
        try (PseudoTerminalPair pair = PseudoTerminalPair.start(dir)) {
            assertTrue(Files.exists(pair.hostPath()), "the link now points at a live pty");
            assertTrue(Files.readSymbolicLink(pair.hostPath()).toString().startsWith("/dev/pts/"));
        }
    }

    @Test
    void shouldRefuseADirectoryAnotherPairIsUsing() throws IOException {
        assumeSocat();
        try (PseudoTerminalPair first = PseudoTerminalPair.start(dir)) {
            Path firstTarget = Files.readSymbolicLink(first.hostPath());
            IOException e = assertThrows(IOException.class, () -> PseudoTerminalPair.start(dir));
            assertTrue(e.getMessage().contains("another emulator"), e.getMessage());
            assertEquals(firstTarget, Files.readSymbolicLink(first.hostPath()), "the first pair's link is untouched");
            assertTrue(first.isAlive());
        }
    }

    @Test
    void shouldNameTheDebianPackageWhenSocatIsMissing() {
        IOException e = assertThrows(IOException.class,
                () -> PseudoTerminalPair.start(dir, dir.resolve("no-such-socat"), 1_000_000_000L));
        assertEquals("socat not found: install the Debian package socat", e.getMessage());
        assertFalse(Files.exists(dir.resolve("host"), LinkOption.NOFOLLOW_LINKS));
    }

    @Test
    void shouldReportSocatFailingToStart() throws IOException {
        // A stand-in "socat" that prints an error and exits 1, as socat does on a bad address.
        Path fake = dir.resolve("fake-socat");
        Files.writeString(fake, "#!/bin/sh\necho 'E unknown option' >&2\nexit 1\n");
        assertTrue(fake.toFile().setExecutable(true));
        IOException e = assertThrows(IOException.class,
                () -> PseudoTerminalPair.start(dir.resolve("ptys"), fake, 5_000_000_000L));
        assertEquals("socat exited with status 1: E unknown option", e.getMessage());
    }
}
