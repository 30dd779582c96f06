package org.hapticsd.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import org.hapticsd.device.link.LinkAddress;
import org.hapticsd.device.link.LinkProbe;
import org.hapticsd.device.link.PseudoTerminalPair;
import org.hapticsd.device.link.TcpByteLink;
import org.hapticsd.protocol.Direction;
import org.hapticsd.protocol.Frame;
import org.hapticsd.protocol.FrameDecoder;
import org.hapticsd.protocol.FrameEncoder;
import org.hapticsd.protocol.Heartbeat;
import org.hapticsd.protocol.Hello;
import org.hapticsd.protocol.MessageType;
import org.hapticsd.protocol.State;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hapticsd emulate}: misuse exits 2 with one line before anything opens; a short run on TCP and on a pty
 * pair answers a host, moves the emulated hand as told, and ends with the firmware's counters.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class EmulateCommandTest {
    private static final long READY_TIMEOUT_MS = 10_000;
    private static final String READY = "emulating (.+) \\(--profile (\\w+), watchdog ([0-9.]+) ms\\) on (\\S+); "
        + "connect with --device (\\S+); (.+)";

    @TempDir
    Path dir;

    // ---- misuse ----

    @Test
    void shouldRequireATransport() {
        CliCall.run("emulate", "--seconds", "0.5").assertMisuse("exactly one of --port PORT, --tcp PORT, --pty DIR",
            "got none");
    }

    @Test
    void shouldRejectTwoTransports() {
        CliCall.run("emulate", "--tcp", "0", "--pty", dir.toString(), "--seconds", "0.5")
            .assertMisuse("exactly one of", "got --tcp and --pty");
    }

    @Test
    void shouldRejectAnUnknownProfile() {
        CliCall.run("emulate", "--tcp", "0", "--profile", "bogus", "--seconds", "0.5")
            .assertMisuse("--profile", "'bogus'", "falcon, touch");
    }

    @Test
    void shouldRejectANonPositiveWatchdog() {
        CliCall.run("emulate", "--tcp", "0", "--watchdog-ms", "0", "--seconds", "0.5")
            .assertMisuse("--watchdog-ms must be > 0", "got 0.0");
        CliCall.run("emulate", "--tcp", "0", "--watchdog-ms", "NaN", "--seconds", "0.5")
            .assertMisuse("--watchdog-ms", "NaN");
        CliCall.run("emulate", "--tcp", "0", "--watchdog-ms", "abc", "--seconds", "0.5")
            .assertMisuse("--watchdog-ms", "'abc'");
    }

    @Test
    void shouldRejectAHandTargetWithoutThreeFiniteValues() {
        CliCall.run("emulate", "--tcp", "0", "--hand-target", "0.01,0", "--seconds", "0.5")
            .assertMisuse("--hand-target", "X,Y,Z", "2 values");
        CliCall.run("emulate", "--tcp", "0", "--hand-target", "Infinity,0,0", "--seconds", "0.5")
            .assertMisuse("--hand-target", "finite");
    }

    @Test
    void shouldRejectHandTargetWithHandPathAndLoopWithoutPath() throws IOException {
        Path path = Files.writeString(dir.resolve("path.csv"), "0,0,0,0\n");
        CliCall.run("emulate", "--tcp", "0", "--hand-target", "0,0,0", "--hand-path", path.toString(),
            "--seconds", "0.5").assertMisuse("--hand-target and --hand-path exclude each other");
        CliCall.run("emulate", "--tcp", "0", "--hand-loop", "--seconds", "0.5")
            .assertMisuse("--hand-loop needs --hand-path");
    }

    @Test
    void shouldNameTheFileAndLineOfABadHandPath() throws IOException {
        Path path = Files.writeString(dir.resolve("path.csv"), "# t,x,y,z\n0,0,0,0\n1,0.02,zero,0\n");
        CliCall.run("emulate", "--tcp", "0", "--hand-path", path.toString(), "--seconds", "0.5")
            .assertMisuse("--hand-path " + path + ":3: y 'zero' is not a number");
        CliCall.run("emulate", "--tcp", "0", "--hand-path", dir.resolve("missing.csv").toString(),
            "--seconds", "0.5").assertMisuse("missing.csv", "not found");
        // A tester's 5 m waypoint (millimetres written as metres) was taken as is.
        Path far = Files.writeString(dir.resolve("far.csv"), "0,0,0,0\n1,0.02,0,0\n2,5,0,0\n");
        CliCall.run("emulate", "--tcp", "0", "--hand-path", far.toString(), "--seconds", "0.5")
            .assertMisuse("--hand-path " + far + ":3: x 5 m is more than 1.0 m from the device's origin: positions "
                + "are in metres (20 mm is 0.02)");
        CliCall.run("emulate", "--tcp", "0", "--hand-target", "20,0,0", "--seconds", "0.5")
            .assertMisuse("--hand-target: x 20.0 m is more than 1.0 m from the device's origin");
    }

    @Test
    void shouldRejectNonPositiveSeconds() {
        CliCall.run("emulate", "--tcp", "0", "--seconds", "0").assertMisuse("--seconds", "positive");
    }

    @Test
    void shouldRejectTcpPortOutOfRangeAndOneInUse() throws IOException {
        CliCall.run("emulate", "--tcp", "70000", "--seconds", "0.5").assertMisuse("--tcp", "0..65535", "70000");
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            CliCall.run("emulate", "--tcp", Integer.toString(taken.getLocalPort()), "--seconds", "0.5")
                .assertMisuse("--tcp " + taken.getLocalPort(), "cannot listen on 127.0.0.1");
        }
    }

    @Test
    void shouldRejectOptionsOfAnotherTransport() {
        CliCall.run("emulate", "--pty", dir.toString(), "--bind", "0.0.0.0", "--seconds", "0.5")
            .assertMisuse("--bind applies to --tcp only");
        CliCall.run("emulate", "--tcp", "0", "--baud", "115200", "--seconds", "0.5")
            .assertMisuse("--baud applies to --port only");
    }

    @Test
    void shouldRejectAPortThatCannotBeOpened() {
        CliCall.run("emulate", "--port", "/dev/hapticsd-no-such-port", "--seconds", "0.5")
            .assertMisuse("--port /dev/hapticsd-no-such-port: serial:/dev/hapticsd-no-such-port:1000000: no such port");
    }

    @Test
    void shouldRejectAPtyDirectoryThatIsAFile() throws IOException {
        Path file = Files.writeString(dir.resolve("file"), "");
        CliCall.run("emulate", "--pty", file.toString(), "--seconds", "0.5")
            .assertMisuse("--pty " + file, "is not a directory");
    }

    @Test
    void shouldSayWhyAPtyDirectoryCannotBeCreated() {
        Assumptions.assumeTrue(PseudoTerminalPair.isAvailable(), "socat is not installed");
        // procfs takes no new directories, not even from root; the JDK's message was the bare path.
        CliCall.run("emulate", "--pty", "/proc/hapticsd-nope", "--seconds", "0.5")
            .assertMisuse("--pty /proc/hapticsd-nope: cannot create the directory /proc/hapticsd-nope: "
                + "no such file or directory");
    }

    // ---- runs ----

    /*
     * The runs below give the emulator seconds more than the host needs (800 ms of STATE, then 500 ms until the
     * session ends): --seconds is wall-clock time counted from the command's start, and on a loaded machine the
     * host side can take a second or more to get going. Everything asserted is an event, never a duration.
     */
    @Test
    void shouldHoldTheHandTargetAndReportTheSessionOverTcp() throws Exception {
        CliCall emulate = CliCall.start("emulate", "--tcp", "0", "--profile", "touch",
            "--hand-target", "0.01,-0.005,0.002", "--seconds", "6");
        Matcher ready = emulate.awaitLine(READY, READY_TIMEOUT_MS);
        assertEquals("Touch-like emulator", ready.group(1));
        assertEquals("5", ready.group(3), "the spec's watchdog unless --watchdog-ms");
        assertTrue(ready.group(5).startsWith("tcp:127.0.0.1:"), ready.group(5));
        assertEquals("stopping after 6.0 s", ready.group(6));

        float[] position = settledPosition(LinkAddress.parse(ready.group(5)).number());
        // The touch profile's stylus on the default hand spring is critically damped with a 15 ms time constant;
        // after 800 ms it sits on the target to float precision. 1e-5 m allows for float32 and any residue.
        assertEquals(0.01, position[0], 1e-5);
        assertEquals(-0.005, position[1], 1e-5);
        assertEquals(0.002, position[2], 1e-5);

        assertEquals(0, emulate.exitCode(), emulate.toString());
        String out = emulate.out();
        assertTrue(out.matches("(?s).*\\] link open: tcp:127\\.0\\.0\\.1:\\d+\n.*"), out);
        assertTrue(out.contains("] session started at 1000 Hz\n"), out);
        // The host closed its socket while STATE streamed: EPIPE or ECONNRESET on the next write, which is the host
        // leaving, not an error.
        assertTrue(out.matches("(?s).*\\] link closed by the host: tcp:127\\.0\\.0\\.1:\\d+\n.*"), out);
        assertTrue(!out.contains("last link error") && !out.contains("Broken pipe"), out);
        // The host left after its 800 ms; 500 ms later the firmware's liveness rule ended the session.
        assertTrue(out.contains("] session ended\n"), out);
        assertTrue(out.contains("emulator summary after 6."), out);
        assertSummary(out, "links opened", 1);
        assertSummary(out, "forces accepted", 0);
        assertSummary(out, "CRC errors", 0);
        assertSummary(out, "watchdog trips", 0);
        assertSummary(out, "sessions started", 1);
        assertSummary(out, "sessions ended", 1);
        assertTrue(summaryValue(out, "frames received") >= 8, "HELLO and a heartbeat per 100 ms: " + out);
        assertTrue(summaryValue(out, "frames sent") >= 100, "INFO, STATUS and STATE for 800 ms: " + out);
        assertEquals("", emulate.err());
    }

    /**
     * A host that reconnects within the 500 ms liveness (as after a socat restart) sends HELLO while the old session
     * still runs at the same rate; the log used to watch only the rate and so never told of the second session.
     */
    @Test
    void shouldReportTheSessionOfAHostThatReconnects() throws Exception {
        CliCall emulate = CliCall.start("emulate", "--tcp", "0", "--seconds", "7");
        Matcher ready = emulate.awaitLine(READY, READY_TIMEOUT_MS);
        int port = LinkAddress.parse(ready.group(5)).number();
        settledPosition(port);
        settledPosition(port);

        assertEquals(0, emulate.exitCode(), emulate.toString());
        String out = emulate.out();
        assertEquals(2, out.split("\\] session started at 1000 Hz\n", -1).length - 1, out);
        assertEquals(1, out.split("\\] session ended \\(a new HELLO replaced it\\)\n", -1).length - 1, out);
        assertEquals(1, out.split("\\] session ended\n", -1).length - 1, out);
        assertSummary(out, "sessions started", 2);
        assertSummary(out, "sessions ended", 2);
    }

    @Test
    void shouldFollowTheHandPath() throws Exception {
        // Out to 2 cm along x over 0.3 s, then held: by the time the host has read 800 ms, the stylus is there.
        Path path = Files.writeString(dir.resolve("path.csv"), "t, x, y, z\n0.0, 0, 0, 0\n0.3, 0.02, 0, 0 # hold\n");
        CliCall emulate = CliCall.start("emulate", "--tcp", "0", "--profile", "touch", "--hand-path",
            path.toString(), "--seconds", "6");
        Matcher ready = emulate.awaitLine(READY, READY_TIMEOUT_MS);

        float[] position = settledPosition(LinkAddress.parse(ready.group(5)).number());
        assertEquals(0.02, position[0], 1e-5);
        assertEquals(0.0, position[1], 1e-5);
        assertEquals(0, emulate.exitCode(), emulate.toString());
    }

    @Test
    void shouldAnswerAProbeAndTheDevicesCommandOnAPtyPair() throws Exception {
        Assumptions.assumeTrue(PseudoTerminalPair.isAvailable(), "socat is not installed");
        Path ptys = dir.resolve("ptys");
        CliCall emulate = CliCall.start("emulate", "--pty", ptys.toString(), "--watchdog-ms", "50", "--seconds", "3");
        Matcher ready = emulate.awaitLine(READY, READY_TIMEOUT_MS);
        Path host = ptys.resolve("host").toAbsolutePath();
        assertEquals("serial:" + host, ready.group(5));
        assertEquals("50", ready.group(3));
        assertEquals(ptys.resolve("device").toAbsolutePath().toString(), ready.group(4));

        CliCall devices = CliCall.run("devices", "--probe", host.toString());
        assertEquals(0, devices.exitCode(), devices.toString());
        assertEquals(host + ": Falcon-like emulator, firmware 1.0.0, 3 DoF sensed / 3 actuated, max force 8.00 N"
            + " (continuous 4.00 N), rates 125/250/500/1000 Hz, default 1000 Hz, protocol 2\n", devices.out());

        assertEquals(0, emulate.exitCode(), emulate.toString());
        assertSummary(emulate.out(), "links opened", 1);
        assertTrue(summaryValue(emulate.out(), "frames received") >= 1, emulate.out());
        assertTrue(Files.notExists(host), "the pty links are gone with socat");
    }

    /**
     * socat dying (killed here) used to leave the emulator running with an empty directory and the host retrying
     * for good; a new pair in the same place is what the host's reconnect needs.
     */
    @Test
    void shouldStartANewPtyPairWhenSocatExits() throws Exception {
        Assumptions.assumeTrue(PseudoTerminalPair.isAvailable(), "socat is not installed");
        Path ptys = dir.resolve("ptys");
        CliCall emulate = CliCall.start("emulate", "--pty", ptys.toString(), "--seconds", "8");
        emulate.awaitLine(READY, READY_TIMEOUT_MS);
        Path host = ptys.resolve("host").toAbsolutePath();
        ProcessHandle socat = ProcessHandle.current().descendants()
            .filter(p -> p.info().arguments().map(a -> String.join(" ", a).contains(host.toString())).orElse(false))
            .findFirst().orElseThrow(() -> new AssertionError("no socat linking " + host));
        socat.destroy();
        assertTrue(socat.onExit().get(5, TimeUnit.SECONDS) != null);

        emulate.awaitLine("\\[ *[0-9.]+ s\\] socat had exited: started a new pty pair, the host connects to "
            + java.util.regex.Pattern.quote(host.toString()) + " again", READY_TIMEOUT_MS);
        CliCall devices = CliCall.run("devices", "--probe", host.toString());
        assertEquals(0, devices.exitCode(), devices.toString());
        assertTrue(devices.out().startsWith(host + ": Falcon-like emulator"), devices.out());

        assertEquals(0, emulate.exitCode(), emulate.toString());
        assertSummary(emulate.out(), "links opened", 2);
        assertTrue(Files.notExists(host), "the new pair's links are gone with its socat");
    }

    @Test
    void shouldEmulateAVersion1FirmwareWhenAsked() throws Exception {
        CliCall.run("emulate", "--tcp", "0", "--protocol", "3", "--seconds", "0.5")
            .assertMisuse("--protocol must be 1..2, got 3");
        CliCall emulate = CliCall.start("emulate", "--tcp", "0", "--protocol", "1", "--unhomed", "--seconds", "3");
        Matcher ready = emulate.awaitLine("emulating .* \\(--profile falcon, watchdog 5 ms, protocol 1, unhomed\\) on "
            + "(\\S+); connect with --device (\\S+); .*", READY_TIMEOUT_MS);
        LinkProbe.Result result = LinkProbe.probe(LinkAddress.parse(ready.group(2)), 2_000_000_000L);
        assertTrue(result.answered(), result.toString());
        assertEquals(1, result.protocolVersion(), "the host offers 1..2, the firmware speaks 1");
        assertEquals(0, emulate.exitCode(), emulate.toString());
    }

    @Test
    void shouldAnswerLinkProbeOverTcp() throws Exception {
        CliCall emulate = CliCall.start("emulate", "--tcp", "0", "--seconds", "3");
        Matcher ready = emulate.awaitLine(READY, READY_TIMEOUT_MS);
        LinkProbe.Result result = LinkProbe.probe(LinkAddress.parse(ready.group(5)), 2_000_000_000L);
        assertTrue(result.answered(), result.toString());
        assertEquals("Falcon-like emulator", result.deviceName());
        assertEquals(0, emulate.exitCode(), emulate.toString());
    }

    private static void assertSummary(String out, String name, long expected) {
        assertEquals(expected, summaryValue(out, name), name + " in:\n" + out);
    }

    private static long summaryValue(String out, String name) {
        Matcher m = java.util.regex.Pattern.compile("(?m)^  " + java.util.regex.Pattern.quote(name) + " +(\\d+)$")
            .matcher(out);
        if (!m.find()) {
            throw new AssertionError("no summary row '" + name + "' in:\n" + out);
        }
        return Long.parseLong(m.group(1));
    }

    /**
     * Plays a minimal host: HELLO, a heartbeat every 100 ms, and STATE frames for 800 ms of device time; returns the
     * last STATE's position.
     */
    private static float[] settledPosition(int port) throws IOException {
        float[] position = new float[3];
        long[] timesUs = {-1, -1};
        FrameDecoder decoder = new FrameDecoder(message -> {
            if (message.type() == MessageType.STATE) {
                State state = (State) message;
                for (int i = 0; i < 3; i++) {
                    position[i] = state.positionM(i);
                }
                if (timesUs[0] < 0) {
                    timesUs[0] = state.deviceTimeUs();
                }
                timesUs[1] = state.deviceTimeUs();
            }
        });
        FrameEncoder encoder = new FrameEncoder();
        byte[] tx = new byte[1 + Frame.MAX_WIRE_BYTES];
        byte[] rx = new byte[4096];
        int sequence = 0;
        try (TcpByteLink link = TcpByteLink.connect("127.0.0.1", port, 2_000, 10)) {
            tx[0] = 0;
            link.write(tx, 0, 1 + encoder.encode(new Hello().set(1, 1, 0), sequence++, tx, 1));
            Heartbeat heartbeat = new Heartbeat(Direction.HOST_TO_DEVICE);
            long endNs = System.nanoTime() + 5_000_000_000L;
            long nextHeartbeatNs = System.nanoTime();
            while (timesUs[0] < 0 || timesUs[1] - timesUs[0] < 800_000) {
                if (System.nanoTime() - endNs >= 0) {
                    throw new AssertionError("800 ms of STATE did not arrive within 5 s");
                }
                if (System.nanoTime() - nextHeartbeatNs >= 0) {
                    heartbeat.setSenderTimeUs(System.nanoTime() / 1000L);
                    link.write(tx, 0, encoder.encode(heartbeat, sequence++, tx, 0));
                    nextHeartbeatNs += 100_000_000L;
                }
                int n = link.read(rx, 0, rx.length);
                decoder.feed(rx, 0, n);
            }
        }
        return position;
    }
}
