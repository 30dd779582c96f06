package org.hapticsd.device.link;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Two pseudo-terminals joined back to back by {@code socat}: what one side writes the other reads, like a null-modem
 * cable between two serial ports. It lets the device emulator and the host each open a serial port on a machine
 * with no hardware. The ptys get unpredictable names ({@code /dev/pts/N}), so socat puts stable symbolic links in
 * a directory: {@code DIR/host} for the host and {@code DIR/device} for the emulator.
 *
 * <p>Both ptys are raw with echo off ({@code socat pty,raw,echo=0,link=DIR/host pty,raw,echo=0,link=DIR/device}):
 * a cooked pty would translate CR/LF and swallow control bytes, corrupting frames. socat keeps each pty's slave
 * open itself, so a side that closes and reopens its end (a host restarting) does not end the pair.
 *
 * <p>Rejected: opening {@code /dev/ptmx} from Java, which needs native calls ({@code grantpt}, {@code unlockpt})
 * that the JDK does not have; and a second serial library for it, when one Debian package does the job.
 */
public final class PseudoTerminalPair implements AutoCloseable {
    public static final String HOST_LINK_NAME = "host";
    public static final String DEVICE_LINK_NAME = "device";
    /** socat creates both ptys within milliseconds; 5 s covers a loaded machine starting a process. */
    public static final long DEFAULT_START_TIMEOUT_NS = 5_000_000_000L;
    static final String SOCAT = "socat";
    static final String NOT_FOUND = "socat not found: install the Debian package socat";
    private static final long STOP_TIMEOUT_MS = 2_000L;
    private static final long START_POLL_MS = 5L;
    private static final int MAX_STDERR_BYTES = 4096;

    private final Process process;
    private final Path hostPath;
    private final Path devicePath;
    private final Thread stderrReader;
    private final ByteArrayOutputStream stderr;
    /** The links' directory when {@link #start} created it: removed on close once empty. */
    private final Path createdDir;
    /**
     * Stops socat if the JVM exits before {@link #close} (Ctrl-C or SIGTERM during a run): socat is a separate
     * process, and it was left running under init with its links and directory behind (found by a tester
     * interrupting {@code hapticsd test}).
     */
    private final Thread exitHook;

    private PseudoTerminalPair(Process process, Path hostPath, Path devicePath, Thread stderrReader,
                               ByteArrayOutputStream stderr, Path createdDir) {
        this.process = process;
        this.hostPath = hostPath;
        this.devicePath = devicePath;
        this.stderrReader = stderrReader;
        this.stderr = stderr;
        this.createdDir = createdDir;
        this.exitHook = new Thread(this::stop, "hapticsd-socat-exit");
        Runtime.getRuntime().addShutdownHook(exitHook);
    }

    /** Whether {@code socat} is on the PATH. */
    public static boolean isAvailable() {
        return findOnPath(SOCAT) != null;
    }

    /**
     * Starts socat with the links {@code dir/host} and {@code dir/device}, creating {@code dir} if needed, and
     * waits up to {@link #DEFAULT_START_TIMEOUT_NS} until both links exist.
     *
     * @throws IOException if socat is missing ({@value #NOT_FOUND}), a link name is taken by something other than
     *                     a dangling link, or socat fails or does not create the links in time
     */
    public static PseudoTerminalPair start(Path dir) throws IOException {
        Path socat = findOnPath(SOCAT);
        if (socat == null) {
            throw new IOException(NOT_FOUND);
        }
        return start(dir, socat, DEFAULT_START_TIMEOUT_NS);
    }

    /**
     * {@link #start(Path)} in a new temporary directory named from {@code prefix}, which the pair owns: it is removed
     * when the pair closes, or when the JVM exits first.
     */
    public static PseudoTerminalPair startInTempDirectory(String prefix) throws IOException {
        Path socat = findOnPath(SOCAT);
        if (socat == null) {
            throw new IOException(NOT_FOUND);
        }
        Path dir = Files.createTempDirectory(prefix);
        try {
            return start(dir, socat, DEFAULT_START_TIMEOUT_NS, dir.toAbsolutePath());
        } catch (IOException e) {
            Files.deleteIfExists(dir);
            throw e;
        }
    }

    /** {@link #start(Path)} with an explicit socat executable and start timeout. */
    static PseudoTerminalPair start(Path dir, Path socat, long startTimeoutNs) throws IOException {
        return start(dir, socat, startTimeoutNs, Files.exists(dir) ? null : dir.toAbsolutePath());
    }

    private static PseudoTerminalPair start(Path dir, Path socat, long startTimeoutNs, Path createdDir)
        throws IOException {
        if (!Files.isExecutable(socat)) {
            throw new IOException(NOT_FOUND);
        }
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new IOException(dir + " is not a directory");
        }
        createDirectory(dir);
        Path host = dir.resolve(HOST_LINK_NAME).toAbsolutePath();
        Path device = dir.resolve(DEVICE_LINK_NAME).toAbsolutePath();
        // socat replaces whatever sits at a link path. A dangling link is left by a run that was killed and is
        // safe to replace; anything else may be another emulator's live pty or a user's file, so refuse.
        clearStaleLink(host);
        clearStaleLink(device);
        List<String> command = new ArrayList<>(relayPriority());
        command.addAll(List.of(socat.toString(), "pty,raw,echo=0,link=" + host, "pty,raw,echo=0,link=" + device));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.redirectInput(ProcessBuilder.Redirect.PIPE);
        builder.redirectOutput(ProcessBuilder.Redirect.DISCARD);
        Process process = builder.start();
        process.getOutputStream().close();
        ByteArrayOutputStream stderr = new ByteArrayOutputStream();
        Thread reader = new Thread(() -> drain(process.getErrorStream(), stderr), "hapticsd-socat-stderr");
        reader.setDaemon(true);
        reader.start();
        PseudoTerminalPair pair = new PseudoTerminalPair(process, host, device, reader, stderr, createdDir);
        pair.awaitLinks(startTimeoutNs);
        return pair;
    }

    /**
     * {@link Files#createDirectories} with the system's reason in the message: for the commonest failures
     * (no such file or directory, permission denied) the JDK's exception message is the bare path. For any command's
     * directory (also {@code test --record-dir}).
     */
    public static void createDirectory(Path dir) throws IOException {
        try {
            Files.createDirectories(dir);
        } catch (FileSystemException e) {
            String reason = IoReason.of(e);
            String where = e.getFile() == null || Path.of(e.getFile()).equals(dir) ? "" : " (at " + e.getFile() + ")";
            throw new IOException("cannot create the directory " + dir + where + ": " + reason, e);
        }
    }

    private void awaitLinks(long timeoutNs) throws IOException {
        long startNs = System.nanoTime();
        while (!(Files.exists(hostPath) && Files.exists(devicePath))) {
            if (!process.isAlive()) {
                String why = stderrText();
                close();
                throw new IOException("socat exited with status " + process.exitValue()
                        + (why.isEmpty() ? "" : ": " + why));
            }
            if (System.nanoTime() - startNs - timeoutNs >= 0) {
                close();
                throw new IOException("socat did not create " + hostPath + " and " + devicePath + " within "
                        + TimeUnit.NANOSECONDS.toMillis(timeoutNs) + " ms");
            }
            try {
                Thread.sleep(START_POLL_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                close();
                throw new IOException("interrupted while starting socat", e);
            }
        }
    }

    /**
     * The command prefix that raises socat above the threads it serves. socat relays every frame; at normal priority
     * it waits behind the loop, link and emulator threads (raised priority as root), and a 5 ms wait trips the
     * device's watchdog (24 trips in 10 s measured on the CI VM at normal priority). As root it runs under the
     * real-time FIFO policy ({@code chrt -f}), which no time-sharing thread can keep waiting; measured with one core
     * kept busy, that took the runs whose pty stalled beyond 20 ms from 4 of 6 (at nice -10) to 1 of 6. The rest
     * is the kernel's own tty workqueue, which no program should reprioritise (docs/dil-tests.md). Where the FIFO
     * policy is not allowed (a container without CAP_SYS_NICE), nice -10; not root, nothing.
     */
    private static List<String> relayPriority() {
        if (!isRoot()) {
            return List.of();
        }
        Path chrt = findOnPath("chrt");
        if (chrt != null && succeeds(chrt.toString(), "-f", RELAY_FIFO_PRIORITY, "true")) {
            return List.of(chrt.toString(), "-f", RELAY_FIFO_PRIORITY);
        }
        Path nice = findOnPath("nice");
        return nice == null ? List.of() : List.of(nice.toString(), "-n", "-10");
    }

    /** FIFO priority of the relay: low among real-time priorities (1..99), above every time-sharing thread. */
    static final String RELAY_FIFO_PRIORITY = "20";

    private static boolean succeeds(String... command) {
        try {
            Process probe = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return probe.waitFor(5, TimeUnit.SECONDS) && probe.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static boolean isRoot() {
        try {
            return new com.sun.security.auth.module.UnixSystem().getUid() == 0;
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }

    private static void clearStaleLink(Path link) throws IOException {
        if (!Files.exists(link, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        if (Files.isSymbolicLink(link) && !Files.exists(link)) {
            Files.delete(link);
            return;
        }
        String what = Files.isSymbolicLink(link) ? "is a link to " + Files.readSymbolicLink(link) : "exists";
        throw new IOException(link + " " + what + ": is another emulator using this directory? If not, remove "
                + link);
    }

    /** The pty the host opens, as a stable path: {@code DIR/host}. */
    public Path hostPath() {
        return hostPath;
    }

    /** The pty the device (the emulator) opens: {@code DIR/device}. */
    public Path devicePath() {
        return devicePath;
    }

    /** Whether socat still runs; it exits only when killed or when its ptys fail. */
    public boolean isAlive() {
        return process.isAlive();
    }

    /**
     * Stops socat (SIGTERM, on which it removes its links) and waits for it; kills it after
     * {@value #STOP_TIMEOUT_MS} ms. Removes links socat left behind, and the directory if {@link #start} created it
     * and it is now empty. Idempotent.
     */
    @Override
    public void close() {
        try {
            Runtime.getRuntime().removeShutdownHook(exitHook);
        } catch (IllegalStateException e) {
            // The JVM is exiting: the hook runs (or ran) stop() itself.
        }
        stop();
    }

    private void stop() {
        process.destroy();
        try {
            if (!process.waitFor(STOP_TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                process.waitFor(STOP_TIMEOUT_MS, TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        for (Path link : List.of(hostPath, devicePath)) {
            try {
                if (Files.isSymbolicLink(link) && !Files.exists(link)) {
                    Files.delete(link);
                }
            } catch (IOException ignored) {
                // Best effort: a dangling link left here is cleared by the next start.
            }
        }
        if (createdDir != null) {
            try {
                Files.deleteIfExists(createdDir);
            } catch (IOException ignored) {
                // Not empty (something else was put there) or gone: left as it is.
            }
        }
        try {
            stderrReader.join(STOP_TIMEOUT_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private String stderrText() {
        try {
            stderrReader.join(STOP_TIMEOUT_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (stderr) {
            return stderr.toString(StandardCharsets.UTF_8).strip().replace('\n', ' ');
        }
    }

    /** Keeps the first {@value #MAX_STDERR_BYTES} bytes of what socat prints; reads the rest so it never blocks. */
    private static void drain(InputStream in, ByteArrayOutputStream sink) {
        byte[] buffer = new byte[512];
        try (in) {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                synchronized (sink) {
                    sink.write(buffer, 0, Math.max(0, Math.min(n, MAX_STDERR_BYTES - sink.size())));
                }
            }
        } catch (IOException ignored) {
            // The process ended; what was read is kept.
        }
    }

    private static Path findOnPath(String program) {
        String path = System.getenv("PATH");
        if (path == null) {
            return null;
        }
        for (String dir : path.split(File.pathSeparator)) {
            if (dir.isEmpty()) {
                continue;
            }
            Path candidate = Path.of(dir, program);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        return null;
    }

    /** The relay's process id (tests: that it does not outlive the JVM). */
    long relayPid() {
        return process.pid();
    }

    @Override
    public String toString() {
        return "pty pair " + hostPath + " <-> " + devicePath;
    }
}
