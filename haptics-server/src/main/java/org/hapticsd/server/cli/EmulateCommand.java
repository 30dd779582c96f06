package org.hapticsd.server.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.hapticsd.device.emulator.EmulatedDevice;
import org.hapticsd.device.emulator.EmulatorProfile;
import org.hapticsd.device.emulator.EmulatorRunner;
import org.hapticsd.device.link.ByteLink;
import org.hapticsd.device.link.LinkAddress;
import org.hapticsd.device.link.LinkConnector;
import org.hapticsd.device.link.PseudoTerminalPair;
import org.hapticsd.device.link.SerialByteLink;
import org.hapticsd.device.link.TcpByteLink;
import org.hapticsd.protocol.Frame;
import org.hapticsd.protocol.MessageType;
import org.hapticsd.device.sim.FixedHandTarget;
import org.hapticsd.device.sim.HandTarget;
import org.hapticsd.server.device.DeviceSelector;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code hapticsd emulate}: a force-feedback device in software, speaking the device link protocol on a serial
 * port, a TCP port or a pty pair, so the server (or any host) can be tried without hardware. The firmware is
 * {@link EmulatedDevice} run by {@link EmulatorRunner}; its user's hand holds a point or follows a path file.
 *
 * <p>Every argument is checked, the hand path read and the port opened before the ready line, so misuse exits 2
 * with one line and nothing running. It then runs until Ctrl-C or {@code --seconds}, printing a line when a host
 * connects and when a session starts or ends, and a summary of the firmware's counters at the end.
 */
@Command(name = "emulate", mixinStandardHelpOptions = true,
    description = "Emulate a force-feedback device on a serial port, a TCP port or a pty pair until Ctrl-C.")
final class EmulateCommand implements Callable<Integer> {
    static final String FALCON = "falcon";
    /**
     * Read timeout of the emulator's end of the link: the longest a check for a departed host holds the firmware
     * loop, which happens only while the device is not streaming.
     */
    static final int READ_TIMEOUT_MS = 10;
    /** How often the main thread looks for connections and sessions to report. */
    private static final long EVENT_POLL_MS = 50;

    @ParentCommand
    HapticsdCommand parent;

    @Option(names = "--port", paramLabel = "PORT",
        description = "Serial port to be the device on (the host opens the other end of the cable).")
    String port;

    @Option(names = "--baud", paramLabel = "B",
        description = "Baud rate of --port. Default: " + LinkAddress.DEFAULT_BAUD + ".")
    Integer baud;

    @Option(names = "--tcp", paramLabel = "PORT",
        description = "Listen on this TCP port (0: any free port); one host at a time, the next when it leaves.")
    Integer tcpPort;

    @Option(names = "--bind", paramLabel = "ADDR",
        description = "Address --tcp listens on. Default: 127.0.0.1 (this machine only).")
    String bind;

    @Option(names = "--pty", paramLabel = "DIR",
        description = "Create a pty pair with socat: the device on DIR/device, the host connects to DIR/host.")
    Path ptyDir;

    @Option(names = "--profile", paramLabel = "NAME", defaultValue = FALCON,
        description = "Device model: falcon (3 DoF, 8 N) or touch (6 DoF sensed, 3.3 N). Default: ${DEFAULT-VALUE}.")
    String profileName;

    @Option(names = "--watchdog-ms", paramLabel = "MS",
        description = "FORCE watchdog minimum in ms; the timeout is max(MS, 3 periods). Default: 5 (the spec's).")
    Double watchdogMs;

    @Option(names = "--hand-target", paramLabel = "X,Y,Z", split = ",", hideParamSyntax = true,
        description = "Hold the emulated user's hand at this point, metres, device frame. Default: the origin.")
    double[] handTargetM;

    @Option(names = "--hand-path", paramLabel = "FILE",
        description = "Move the hand along timed waypoints: lines of t,x,y,z (s, m); '#' comments.")
    Path handPath;

    @Option(names = "--hand-loop", description = "Repeat --hand-path with period = its last time.")
    boolean handLoop;

    @Option(names = "--seconds", paramLabel = "S", description = "Stop after S seconds. Default: run until Ctrl-C.")
    Double seconds;

    @picocli.CommandLine.Mixin
    RealTimeOption realTime = new RealTimeOption();

    @Option(names = "--protocol", paramLabel = "V",
        description = "Newest device-link protocol version the firmware speaks: 1 or 2. Default: 2.")
    Integer protocolVersion;

    @Option(names = "--unhomed",
        description = "Start with positions relative (HOMED clear): the host must home the device before force.")
    boolean unhomed;

    /**
     * The device end of the link, where it is and what the host should connect to; {@code resource} (the server
     * socket or the pty pair, or null) is closed after the runner.
     */
    private record Transport(LinkConnector connector, String where, String connectWith, AutoCloseable resource) {
    }

    @Override
    public Integer call() {
        String transport = checkOneTransport();
        int rtPriority = realTime.rtPriority();
        EmulatorProfile profile = profile(profileName);
        long watchdogNs = watchdogNs();
        double limitS = seconds == null ? Double.POSITIVE_INFINITY : LoopOptions.positiveSeconds("--seconds", seconds);
        HandTarget hand = hand();
        if (protocolVersion != null && !MessageType.isSupported(protocolVersion)) {
            throw new UsageException("--protocol must be 1.." + Frame.LATEST_VERSION + ", got " + protocolVersion);
        }
        EmulatedDevice.Firmware firmware = EmulatedDevice.Firmware.defaults().withWatchdogMinTimeoutNs(watchdogNs)
            .withProtocolVersion(protocolVersion == null ? Frame.LATEST_VERSION : protocolVersion)
            .withHomedAtPowerUp(!unhomed);
        EmulatedDevice device = new EmulatedDevice(profile, hand, firmware);
        Transport link = open(transport);

        PrintWriter out = parent.out();
        EmulatorRunner runner = new EmulatorRunner(device, link.connector()).withRtPriority(rtPriority);
        CountDownLatch stopRequested = new CountDownLatch(1);
        CountDownLatch reported = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            stopRequested.countDown();
            awaitQuietly(reported, 3_000);
        }, "hapticsd-emulate-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        long startNs = System.nanoTime();
        try {
            runner.start();
            out.printf(Locale.ROOT, "emulating %s (--profile %s, watchdog %s ms%s) on %s; connect with %s; %s%n",
                profile.name(), profileName, formatMs(watchdogNs),
                (protocolVersion == null ? "" : ", protocol " + protocolVersion) + (unhomed ? ", unhomed" : ""),
                link.where(), link.connectWith(),
                seconds == null ? "Ctrl-C stops" : String.format(Locale.ROOT, "stopping after %s s", seconds));
            out.flush();
            reportEvents(out, runner, link.resource() instanceof PtyConnector pty ? pty : null, stopRequested,
                startNs, limitS);
        } finally {
            // The runner first: it owns the device end of the link; the pty pair or server socket outlives it.
            runner.close();
            closeQuietly(link.connector() instanceof OpenedFirst first ? first : null);
            closeQuietly(link.resource());
            printSummary(out, device, runner, (System.nanoTime() - startNs) * 1e-9);
            reported.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // Ctrl-C: the hook is running and waits for the summary above.
            }
        }
        return Main.EXIT_OK;
    }

    private String checkOneTransport() {
        List<String> given = new ArrayList<>();
        if (port != null) {
            given.add("--port");
        }
        if (tcpPort != null) {
            given.add("--tcp");
        }
        if (ptyDir != null) {
            given.add("--pty");
        }
        if (given.size() != 1) {
            throw new UsageException("emulate needs exactly one of --port PORT, --tcp PORT, --pty DIR; got "
                + (given.isEmpty() ? "none" : String.join(" and ", given)));
        }
        if (baud != null && port == null) {
            throw new UsageException("--baud applies to --port only");
        }
        if (bind != null && tcpPort == null) {
            throw new UsageException("--bind applies to --tcp only");
        }
        if (baud != null && baud <= 0) {
            throw new UsageException("--baud must be > 0, got " + baud);
        }
        if (tcpPort != null && (tcpPort < 0 || tcpPort > 65_535)) {
            throw new UsageException("--tcp must be a port 0..65535 (0: any free port), got " + tcpPort);
        }
        return given.get(0);
    }

    /** The same names as {@code --device emulator:NAME}, so one word means one device model everywhere. */
    private static EmulatorProfile profile(String name) {
        try {
            return DeviceSelector.profileNamed(name);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--profile: " + e.getMessage());
        }
    }

    private long watchdogNs() {
        if (watchdogMs == null) {
            return EmulatedDevice.WATCHDOG_MIN_TIMEOUT_NS;
        }
        double maxMs = EmulatedDevice.WATCHDOG_MAX_TIMEOUT_NS / 1e6;
        // At least 1 ns after rounding, so 0 < MS < 0.5e-6 cannot slip through as a zero watchdog.
        if (!(watchdogMs > 0) || watchdogMs > maxMs || Math.round(watchdogMs * 1e6) < 1) {
            throw new UsageException("--watchdog-ms must be > 0 and at most " + formatMs(
                EmulatedDevice.WATCHDOG_MAX_TIMEOUT_NS) + " (1 h), got " + watchdogMs);
        }
        return Math.round(watchdogMs * 1e6);
    }

    private HandTarget hand() {
        if (handTargetM != null && handPath != null) {
            throw new UsageException("--hand-target and --hand-path exclude each other: the hand holds a point or "
                + "follows a path");
        }
        if (handLoop && handPath == null) {
            throw new UsageException("--hand-loop needs --hand-path");
        }
        if (handPath != null) {
            return HandPathFile.load(handPath, handLoop);
        }
        if (handTargetM == null) {
            return new FixedHandTarget(0.0, 0.0, 0.0);
        }
        if (handTargetM.length != 3) {
            throw new UsageException("--hand-target: expected X,Y,Z in metres, got " + handTargetM.length
                + " value" + (handTargetM.length == 1 ? "" : "s"));
        }
        for (int k = 0; k < 3; k++) {
            // As in a --hand-path file: metres of reach are a unit slip (a tester's 20,0,0 was taken as is). A value
            // that is not finite is FixedHandTarget's to refuse.
            if (Double.isFinite(handTargetM[k]) && Math.abs(handTargetM[k]) > HandPathFile.MAX_REACH_M) {
                throw new UsageException("--hand-target: " + "xyz".charAt(k) + " " + handTargetM[k] + " m is more than "
                    + HandPathFile.MAX_REACH_M + " m from the device's origin: positions are in metres (20 mm is 0.02)");
            }
        }
        try {
            return new FixedHandTarget(handTargetM[0], handTargetM[1], handTargetM[2]);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--hand-target: " + e.getMessage());
        }
    }

    private Transport open(String transport) {
        return switch (transport) {
            case "--port" -> openSerialPort();
            case "--tcp" -> listen();
            default -> openPtyPair();
        };
    }

    private Transport openSerialPort() {
        int rate = baud == null ? LinkAddress.DEFAULT_BAUD : baud;
        OpenedFirst connector = openedFirst(SerialByteLink.connector(port, rate, READ_TIMEOUT_MS), "--port " + port);
        return new Transport(connector, connector.name(), "--device serial:PORT at the other end of the line", null);
    }

    private Transport listen() {
        String address = bind == null ? "127.0.0.1" : bind;
        ServerSocket server;
        try {
            server = new ServerSocket(tcpPort, 1, InetAddress.getByName(address));
        } catch (UnknownHostException e) {
            throw new UsageException("--bind: unknown address '" + address + "'");
        } catch (IOException e) {
            throw new UsageException("--tcp " + tcpPort + ": cannot listen on " + address + ": " + e.getMessage());
        }
        LinkConnector acceptor;
        try {
            // The acceptor's accept gives up after the read timeout, so the firmware runs while no host is there.
            acceptor = TcpByteLink.acceptor(server, READ_TIMEOUT_MS);
        } catch (IOException e) {
            closeQuietly(server);
            throw new UsageException("--tcp " + tcpPort + ": " + e.getMessage());
        }
        String host = server.getInetAddress().isAnyLocalAddress() ? "127.0.0.1"
            : server.getInetAddress().getHostAddress();
        String endpoint = "tcp:" + host + ":" + server.getLocalPort();
        String listening = "tcp:" + server.getInetAddress().getHostAddress() + ":" + server.getLocalPort();
        return new Transport(acceptor, listening, "--device " + endpoint, server);
    }

    private Transport openPtyPair() {
        PtyConnector pty;
        try {
            pty = new PtyConnector(ptyDir);
        } catch (IOException e) {
            throw new UsageException("--pty " + ptyDir + ": " + e.getMessage());
        }
        try {
            OpenedFirst connector = openedFirst(pty, "--pty " + ptyDir);
            return new Transport(connector, pty.devicePath.toString(), "--device serial:" + pty.hostPath, pty);
        } catch (UsageException e) {
            pty.close();
            throw e;
        }
    }

    /**
     * The device end of a pty pair that outlives its socat: when socat has exited (killed, or its ptys failed), the
     * next connect starts a new pair in the same directory, so the host's reconnect finds {@code DIR/host} again, as
     * it would a device that was unplugged and plugged back in. Rejected: exiting with an error, which leaves the
     * host retrying against an empty directory until someone restarts the emulator by hand.
     */
    private static final class PtyConnector implements LinkConnector, AutoCloseable {
        private final Path dir;
        /** The same path for every pair: socat links it anew. */
        private final Path hostPath;
        private final Path devicePath;
        private PseudoTerminalPair pair;
        private volatile long restarts;

        PtyConnector(Path dir) throws IOException {
            this.dir = dir;
            this.pair = PseudoTerminalPair.start(dir);
            this.hostPath = pair.hostPath();
            this.devicePath = pair.devicePath();
        }

        @Override
        public synchronized ByteLink connect() throws IOException {
            if (!pair.isAlive()) {
                pair.close();
                pair = PseudoTerminalPair.start(dir);
                restarts++;
            }
            return SerialByteLink.connector(devicePath.toString(), LinkAddress.DEFAULT_BAUD, READ_TIMEOUT_MS).connect();
        }

        @Override
        public String name() {
            return "pty " + dir;
        }

        /** Pairs started after the first, each because the one before had exited. */
        long restarts() {
            return restarts;
        }

        @Override
        public synchronized void close() {
            pair.close();
        }
    }

    /** Opens the port now, so a wrong name is misuse reported at once rather than a retry loop in the runner. */
    private static OpenedFirst openedFirst(LinkConnector connector, String option) {
        try {
            return new OpenedFirst(connector, connector.connect());
        } catch (IOException e) {
            throw new UsageException(option + ": " + e.getMessage());
        }
    }

    /** Hands out a link opened in advance, then opens new ones after it breaks. */
    private static final class OpenedFirst implements LinkConnector, AutoCloseable {
        private final LinkConnector connector;
        private ByteLink first;

        OpenedFirst(LinkConnector connector, ByteLink first) {
            this.connector = connector;
            this.first = first;
        }

        @Override
        public synchronized ByteLink connect() throws IOException {
            ByteLink link = first;
            first = null;
            return link != null ? link : connector.connect();
        }

        @Override
        public String name() {
            return connector.name();
        }

        /** Closes the first link if the runner never took it. */
        @Override
        public synchronized void close() {
            if (first != null) {
                first.close();
                first = null;
            }
        }
    }

    /**
     * Waits for Ctrl-C or the time limit, printing connections and session changes as they happen. They come from
     * the runner's event queue, each with its own link, so a link that opened and closed between two looks is still
     * reported, and a failure is never told of the wrong link.
     */
    private static void reportEvents(PrintWriter out, EmulatorRunner runner, PtyConnector pty,
                                     CountDownLatch stopRequested, long startNs, double limitS) {
        EventLog log = new EventLog(out, pty, startNs);
        while (true) {
            double elapsedS = (System.nanoTime() - startNs) * 1e-9;
            if (elapsedS >= limitS) {
                break;
            }
            long waitMs = (long) Math.min(EVENT_POLL_MS, Math.ceil((limitS - elapsedS) * 1e3));
            if (awaitQuietly(stopRequested, waitMs)) {
                break;
            }
            log.drain(runner);
        }
        log.drain(runner);
        log.flushRestarts();
    }

    /**
     * The lines of the event log. A session that a new HELLO replaced is told like any other end and start, once
     * per link; further ones on that link are counted and told in one line when something else happens: a host
     * refusing this device repeats HELLO ten times a second.
     */
    private static final class EventLog {
        private final PrintWriter out;
        private final PtyConnector pty;
        private final long startNs;
        private long ptyRestarts;
        private boolean restartToldOnLink;
        private long restartsUntold;

        EventLog(PrintWriter out, PtyConnector pty, long startNs) {
            this.out = out;
            this.pty = pty;
            this.startNs = startNs;
        }

        void drain(EmulatorRunner runner) {
            EmulatorRunner.Event e;
            while ((e = runner.pollEvent()) != null) {
                report(e);
            }
            reportPtyRestart();
        }

        private void report(EmulatorRunner.Event e) {
            if (e.kind() == EmulatorRunner.EventKind.SESSION_RESTARTED && restartToldOnLink) {
                restartsUntold++;
                return;
            }
            flushRestarts();
            switch (e.kind()) {
                case LINK_OPENED -> {
                    // The new pair is why this link could open: said first.
                    reportPtyRestart();
                    restartToldOnLink = false;
                    event(out, startNs, "link open: " + e.linkName());
                }
                // A host that closes its end is how a run ends, not an error, and is said so.
                case LINK_CLOSED_BY_PEER -> event(out, startNs, "link closed by the host: " + e.linkName());
                case LINK_FAILED -> event(out, startNs, "link lost: " + e.linkName() + " (" + e.detail() + ")");
                case SESSION_STARTED -> event(out, startNs, "session started at " + e.detail() + " Hz");
                case SESSION_RESTARTED -> {
                    restartToldOnLink = true;
                    event(out, startNs, "session ended (a new HELLO replaced it)");
                    event(out, startNs, "session started at " + e.detail() + " Hz");
                }
                case SESSION_ENDED -> event(out, startNs, "session ended");
            }
        }

        void flushRestarts() {
            if (restartsUntold > 0) {
                event(out, startNs, "session replaced by a new HELLO " + restartsUntold + " more time"
                    + (restartsUntold == 1 ? "" : "s"));
                restartsUntold = 0;
            }
        }

        private void reportPtyRestart() {
            if (pty != null && pty.restarts() != ptyRestarts) {
                ptyRestarts = pty.restarts();
                event(out, startNs, "socat had exited: started a new pty pair, the host connects to "
                    + pty.hostPath + " again");
            }
        }
    }

    private static void event(PrintWriter out, long startNs, String what) {
        out.printf(Locale.ROOT, "[%6.1f s] %s%n", (System.nanoTime() - startNs) * 1e-9, what);
        out.flush();
    }

    /** Read after {@link EmulatorRunner#close()} has joined the firmware thread, so the counters are final. */
    private static void printSummary(PrintWriter out, EmulatedDevice device, EmulatorRunner runner, double elapsedS) {
        out.printf(Locale.ROOT, "emulator summary after %.1f s%n", elapsedS);
        row(out, "links opened", runner.linksOpened());
        row(out, "frames sent", device.framesSent());
        row(out, "frames received", device.framesReceived());
        row(out, "forces accepted", device.forcesAccepted());
        row(out, "stale forces ignored", device.staleForcesIgnored());
        row(out, "CRC errors", device.crcErrors());
        row(out, "malformed frames", device.malformedFrames());
        row(out, "watchdog trips", device.watchdogTrips());
        row(out, "sessions started", device.sessionsStarted());
        row(out, "sessions ended", device.sessionsEnded());
        out.printf(Locale.ROOT, "  %-22s %s%n", "firmware thread", runner.threadPolicy());
        String error = runner.lastError();
        if (error != null) {
            out.println("  last link error: " + error);
        }
        out.flush();
    }

    private static void row(PrintWriter out, String name, long value) {
        out.printf(Locale.ROOT, "  %-22s %d%n", name, value);
    }

    private static String formatMs(long ns) {
        return ns % 1_000_000L == 0 ? Long.toString(ns / 1_000_000L)
            : String.format(Locale.ROOT, "%.6f", ns / 1e6).replaceAll("0+$", "");
    }

    private static boolean awaitQuietly(CountDownLatch latch, long ms) {
        try {
            return latch.await(ms, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return true;
        }
    }

    private static void closeQuietly(AutoCloseable resource) {
        if (resource == null) {
            return;
        }
        try {
            resource.close();
        } catch (Exception e) {
            // Shutting down: the summary still prints; the OS releases what is left when the process exits.
        }
    }
}
