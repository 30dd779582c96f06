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
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code run --device serial:|tcp:|emulator}: devices on a link from the command line, and their misuse. */
class LinkDeviceCommandsTest {

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void shouldRunAgainstTheEmulatorAndPrintLinkStatisticsWhileRunningAndAtTheEnd(@TempDir Path dir) {
        Path recording = dir.resolve("run.rec");
        CliCall call = CliCall.run("run", "--device", "emulator", "--duration", "2.5", "--record", recording.toString(),
            "--no-stream");
        assertEquals(Main.EXIT_OK, call.exitCode(), call.toString());
        // A host that holds the whole process (the loop and the emulator's firmware alike) past the spec's 500 ms
        // without a frame makes the link end the session and start another (spec 7): the right response, not a
        // link fault. This guest froze both for 986 ms once in a full CI run (the loop's wake-up 986.15 ms late, the
        // firmware's longest gap 986.9 ms), and the run reconnected once. Measured in this run: then a reconnect is
        // allowed, and it must show as a device fault that zeroed the force; damaged and lost frames stay at zero.
        double heldMs = Math.max(
            number(call.out(), "emulator: late firmware cycles \\d+ \\(longest gap ([0-9.]+) ms\\)"),
            number(call.out(), "(?m)^  period error .* max +([0-9.]+) us") / 1000.0);
        String reconnects = heldMs >= 500.0 ? "reconnects \\d+" : "reconnects 0";
        // The status line carries the link's part every second; the end has the link summary.
        assertTrue(Pattern.compile("(?m)^\\[ +[12]\\.[0-9] s\\].* link rtt (p99 \\d+ us|-), damaged 0, lost 0, "
            + reconnects + "$").matcher(call.out()).find(), call.out());
        Matcher end = Pattern.compile("(?m)^link emulator: protocol v2, states (\\d+), forces (\\d+), "
            + "rtt p50/p99/max .*"
            + "damaged 0 \\(crc errors 0, malformed 0, oversize 0\\), gaps 0 \\(0 frames lost\\).*" + reconnects)
            .matcher(call.out());
        assertTrue(end.find(), call.out());
        if (!call.out().contains("reconnects 0, sessions lost 0")) {
            assertTrue(heldMs >= 500.0, "a reconnect without a stall of 500 ms: " + call.out());
            assertTrue(Pattern.compile("(?m)^safety faults: .*DEVICE \\d+").matcher(call.out()).find(), call.out());
        }
        // Both directions streamed all along: about one STATE and one FORCE per loop tick of the same run. Half
        // the ticks is the bound, relative to this run's own tick count rather than to 2.5 s of wall clock: a
        // loaded machine slows the loop and the emulator alike, and a descheduled thread merges a few frames.
        Matcher ticks = Pattern.compile("(?m)^  ticks (\\d+) in ").matcher(call.out());
        assertTrue(ticks.find(), call.out());
        long loopTicks = Long.parseLong(ticks.group(1));
        assertTrue(Long.parseLong(end.group(1)) > loopTicks / 2 && Long.parseLong(end.group(2)) > loopTicks / 2,
            call.out());
        assertTrue(call.out().contains("emulator: late firmware cycles"), call.out());
        assertTrue(Files.exists(recording));
    }

    /** The number in {@code regex}'s first group in {@code text}; 0 when it is not there. */
    private static double number(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        return m.find() ? Double.parseDouble(m.group(1)) : 0.0;
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldExitOneNamingTheDeviceWhenNothingAnswers() throws IOException {
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort();
        }
        CliCall call = CliCall.run("run", "--device", "tcp:127.0.0.1:" + port, "--duration", "1");
        // Not misuse: the command line was right and the device was not there.
        call.assertFailure("--device tcp:127.0.0.1:" + port, "refused");
    }

    @Test
    void shouldExitTwoForAMalformedDeviceBeforeWarmingUp() {
        CliCall.run("run", "--device", "tcp:localhost").assertMisuse("--device", "expected tcp:HOST:PORT");
        CliCall.run("run", "--device", "usb:1").assertMisuse("--device", "'usb:1' is not a device");
        CliCall.run("run", "--device", "serial:ttyS0:fast").assertMisuse("--device");
        CliCall.run("run", "--device", "emulator:phantom").assertMisuse("unknown emulator profile 'phantom'");
    }

    @Test
    void shouldRefuseALinkDeviceOnSimulatedTime(@TempDir Path dir) {
        CliCall call = CliCall.run("simulate", "--device", "emulator", "--duration", "1", "--out",
            dir.resolve("x.csv").toString());
        call.assertMisuse("simulated time needs sim or replay:FILE");
        assertTrue(!Files.exists(dir.resolve("x.csv")), "nothing created on misuse");
    }
}
