package org.hapticsd.server.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Misuse of the command line: exit code 2, exactly one non-empty line on standard error naming the problem, no
 * stack trace. Every case must be rejected before a real-time loop starts; where an argument could otherwise let
 * a loop start, the case also bounds it ({@code --duration}, {@code --seconds}, {@code --warmup}) so that a
 * regression fails the test instead of hanging the build, and the class timeout is a last backstop.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CliMisuseTest {

    /** A stack trace line as the JVM or Main's failure handler prints it, or an exception's class name. */
    private static final Pattern STACK_TRACE = Pattern.compile("(?m)^(\\tat |\\s+at )|Exception|\\.java:\\d+\\)");

    @TempDir
    Path dir;

    private record Result(int exitCode, String out, String err) {
        List<String> errLines() {
            return err.lines().toList();
        }

        @Override
        public String toString() {
            return "exit " + exitCode + "\n--- stdout ---\n" + out + "--- stderr ---\n" + err;
        }
    }

    private static Result run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
        return new Result(code, out.toString(), err.toString());
    }

    /** Exit 2, one non-empty stderr line containing every fragment, nothing on stdout, no stack trace. */
    private static String assertMisuse(Result r, String... fragments) {
        assertEquals(Main.EXIT_USAGE, r.exitCode(), r.toString());
        List<String> lines = r.errLines();
        assertEquals(1, lines.size(), "exactly one stderr line: " + r);
        String line = lines.get(0);
        assertFalse(line.isBlank(), r.toString());
        for (String fragment : fragments) {
            assertTrue(line.contains(fragment), "'" + fragment + "' in: " + line);
        }
        assertEquals("", r.out(), "nothing on stdout: " + r);
        assertFalse(STACK_TRACE.matcher(r.err()).find(), "no stack trace: " + r);
        return line;
    }

    /** Refused before the JIT warm-up (a tester waited 7 s for each): a directory to record to, a file not a recording. */
    @Test
    void shouldRefuseABadRecordPathOrReplayFileBeforeWarmingUp() throws IOException {
        assertMisuse(run("run", "--no-stream", "--duration", "1", "--record", dir.toString()),
            "--record " + dir + ": is a directory; give a file name");
        Path notRecording = java.nio.file.Files.writeString(dir.resolve("notes.txt"), "not a recording, long enough");
        assertMisuse(run("run", "--no-stream", "--duration", "1", "--device", "replay:" + notRecording),
            "--device replay:" + notRecording + ": " + notRecording + ": byte offset 0: not a tick recording");
    }

    /** A directory or a regular file named as a serial port waited 2 s for "not a serial port (errno 21)", exit 1. */
    @Test
    void shouldRefuseADirectoryOrFileAsASerialPortAtOnce() throws IOException {
        assertMisuse(run("run", "--no-stream", "--duration", "1", "--device", "serial:" + dir),
            "--device serial:" + dir + ": " + dir + " is a directory, not a serial port");
        Path file = java.nio.file.Files.writeString(dir.resolve("port.txt"), "x");
        assertMisuse(run("run", "--no-stream", "--duration", "1", "--device", "serial:" + file),
            "--device serial:" + file + ": " + file + " is a regular file, not a serial port");
    }

    /** A tester's {@code scene pile --spheres abc} read "'abc' is not an int": a Java type. */
    @Test
    void shouldNameNumbersNotJavaTypes() {
        assertMisuse(run("scene", "pile", "--spheres", "abc"), "'abc' is not a whole number");
        assertMisuse(run("run", "--rate", "1.5"), "'1.5' is not a whole number");
        assertMisuse(run("run", "--duration", "abc"), "'abc' is not a number");
    }

    /**
     * Every command's help formats cleanly: picocli reads a description as a format string, so a bare '%' (a share of
     * the tick, "60% of") is not printed as written but warned about on standard error, in every help and every
     * error message that shows the usage (found in `run --help` of the solver deadline's flag).
     */
    @Test
    void shouldFormatEveryCommandsHelpWithoutWarnings() {
        java.io.PrintStream stderr = System.err;
        java.io.ByteArrayOutputStream captured = new java.io.ByteArrayOutputStream();
        List<String> helps = new java.util.ArrayList<>();
        try {
            System.setErr(new java.io.PrintStream(captured, true, java.nio.charset.StandardCharsets.UTF_8));
            collectUsage(Main.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter())),
                helps);
        } finally {
            System.setErr(stderr);
        }
        String warnings = captured.toString(java.nio.charset.StandardCharsets.UTF_8);
        assertEquals("", warnings, "picocli warnings while formatting the help");
        assertTrue(helps.size() > 10, "every subcommand's help: " + helps.size());
        assertTrue(helps.stream().anyMatch(h -> h.contains("past 60% of the tick")), "the flag's share as written");
    }

    private static void collectUsage(picocli.CommandLine command, List<String> helps) {
        helps.add(command.getUsageMessage());
        for (picocli.CommandLine sub : command.getSubcommands().values()) {
            collectUsage(sub, helps);
        }
    }

    @Test
    void shouldRejectUnknownFlagOnRun() {
        assertMisuse(run("run", "--bogus"), "--bogus");
    }

    @Test
    void shouldRejectUnknownFlagGivenWithoutSubcommand() {
        assertMisuse(run("--bogus"), "--bogus");
    }

    @Test
    void shouldRejectUnknownSubcommand() {
        assertMisuse(run("bogus"), "'bogus'");
    }

    @Test
    void shouldRejectRateOutOfRange() {
        assertMisuse(run("run", "--rate", "100", "--duration", "0.5"), "--rate", "250..4000", "100");
    }

    @Test
    void shouldRejectNonNumericRate() {
        assertMisuse(run("run", "--rate", "abc", "--duration", "0.5"), "--rate", "'abc'");
    }

    @Test
    void shouldRejectNegativeDuration() {
        assertMisuse(run("run", "--duration", "-1"), "--duration", "-1");
    }

    @Test
    void shouldRejectZeroDuration() {
        assertMisuse(run("run", "--duration", "0"), "--duration", "positive");
    }

    @Test
    void shouldRejectUnknownDevice() {
        assertMisuse(run("run", "--device", "bogus", "--duration", "0.5"), "--device", "'bogus'");
    }

    @Test
    void shouldRejectReloadWithoutASceneFileOrWithoutTheStream() {
        assertMisuse(run("run", "--reload", "--duration", "0.5"), "--reload", "--scene FILE");
        assertMisuse(run("run", "--reload", "--scene", "../scenes/wall.yaml", "--no-stream", "--duration", "0.5"),
            "--reload", "--no-stream");
    }

    @Test
    void shouldRejectUnknownWaitStrategy() {
        assertMisuse(run("run", "--wait", "bogus", "--duration", "0.5"), "--wait", "'bogus'");
    }

    @Test
    void shouldRejectMissingSceneFile() {
        String line = assertMisuse(run("run", "--scene", "missing.yaml", "--duration", "0.5"), "missing.yaml");
        assertTrue(line.contains("not found"), line);
    }

    @Test
    void shouldRejectMissingSceneFileGivenWithoutSubcommand() {
        assertMisuse(run("--scene", "missing.yaml", "--duration", "0.5"), "missing.yaml", "not found");
    }

    @Test
    void shouldNameFileLineAndFieldOfInvalidScene() throws IOException {
        Path scene = dir.resolve("invalid.yaml");
        Files.writeString(scene, """
            name: invalid
            contact:
              stiffnessNpm: -5.0
            """);

        assertMisuse(run("run", "--scene", scene.toString(), "--duration", "0.5"),
            scene + ":3:", "contact.stiffnessNpm");
    }

    @Test
    void shouldRefuseAContactBudgetBeyondAQuarterOfTheMaximumHeapTheSameWayEveryTime() throws IOException {
        // Found by a 2,000-sphere pile refused in 3 of 6 identical runs: the limit was half the free heap, which counts
        // garbage not yet collected. Twice the points that fit a quarter of the maximum heap, at about 1.5 kB each.
        long points = Runtime.getRuntime().maxMemory() / 4 / 1500 * 2;
        Path scene = dir.resolve("greedy.yaml");
        Files.writeString(scene, "name: greedy\ncontact: {maxPoints: " + points + "}\n");
        for (int attempt = 0; attempt < 3; attempt++) {
            assertMisuse(run("simulate", "--scene", scene.toString(), "--duration", "0.01", "--out",
                dir.resolve("g.csv").toString()), scene.toString(), "more than a quarter of the JVM's maximum heap",
                "contact.maxPoints");
        }
    }

    @Test
    void shouldRefuseToStreamASceneWithMoreBodiesThanTheStreamCarries() throws IOException {
        // 4,100 static boxes and the tool: the physics takes them (no contact budget for static bodies), but a
        // SCENE message carries at most 4,096 bodies (docs/stream-protocol.md, 2.3). Before, the run failed after
        // the warm-up with the stream codec's exception, exit 1.
        StringBuilder yaml = new StringBuilder("name: crowd\nbodies:\n");
        for (int i = 0; i < 4100; i++) {
            yaml.append("  - {name: b").append(i).append(", shape: {type: box, halfExtents: [0.001, 0.001, 0.001]}, ")
                .append("position: [").append(0.5 + 0.003 * (i % 100)).append(", ").append(0.003 * (i / 100))
                .append(", 0.0]}\n");
        }
        Path scene = dir.resolve("crowd.yaml");
        Files.writeString(scene, yaml);

        assertMisuse(run("run", "--scene", scene.toString(), "--duration", "0.5"), scene.toString(),
            "cannot be streamed", "4096", "--no-stream");
    }

    @Test
    void shouldRejectSimulateWithoutOut() {
        assertMisuse(run("simulate", "--duration", "0.05"), "--out");
    }

    @Test
    void shouldRejectSimulateWithoutDuration() {
        Path csv = dir.resolve("ticks.csv");

        assertMisuse(run("simulate", "--out", csv.toString()), "--duration");
        assertFalse(Files.exists(csv), "no output file on misuse");
    }

    @Test
    void shouldRejectSimulateIntoMissingDirectory() {
        Path csv = dir.resolve("no-such-dir").resolve("ticks.csv");

        assertMisuse(run("simulate", "--duration", "0.05", "--out", csv.toString()), "--out", "no-such-dir",
            "does not exist");
        assertFalse(Files.exists(csv.getParent()), "the directory is not created");
    }

    @Test
    void shouldRejectSimulateIntoDirectory() {
        assertMisuse(run("simulate", "--duration", "0.05", "--out", dir.toString()), "--out", dir.toString());
    }

    @Test
    void shouldNameTheFlagOfABadSimulatedStylusValueNotTheScene() {
        String line = assertMisuse(run("simulate", "--duration", "0.1", "--out", dir.resolve("t.csv").toString(),
            "--sim-mass", "-1"), "--sim-mass", "-1");
        assertFalse(line.contains("cannot build the scene"), line);
        assertFalse(Files.exists(dir.resolve("t.csv")), "nothing written");
    }

    @Test
    void shouldRefuseAJunitXmlPathInAMissingDirectoryBeforeRunningAnyScript() {
        String missing = dir.resolve("no-such-dir").resolve("r.xml").toString();
        Result r = run("test", "../tests/dil/stall-lockstep.yaml", "--junit-xml", missing);
        assertMisuse(r, "--junit-xml", "does not exist");
    }

    @Test
    void shouldSayARecordingToReplayIsNotFound() {
        String missing = dir.resolve("nothere.rec").toString();
        assertMisuse(run("simulate", "--duration", "0.1", "--out", dir.resolve("r.csv").toString(), "--device",
            "replay:" + missing), missing, "not found");
    }

    /**
     * Found by a tester: {@code --record a.rec --device replay:a.rec} truncated the recording before reading it (it
     * was then refused as holding no ticks, the original gone), and {@code --out a.rec} replaced it with CSV.
     */
    @Test
    void shouldRefuseToWriteOverTheRecordingItReplays() throws Exception {
        Path rec = dir.resolve("a.rec");
        assertEquals(0, run("simulate", "--duration", "0.05", "--out", dir.resolve("a.csv").toString(), "--record",
            rec.toString()).exitCode());
        byte[] original = Files.readAllBytes(rec);
        String replay = "replay:" + rec;
        assertMisuse(run("simulate", "--duration", "0.05", "--out", dir.resolve("b.csv").toString(), "--record",
            rec.toString(), "--device", replay), "--record " + rec, "--device replay: reads");
        assertMisuse(run("simulate", "--duration", "0.05", "--out", rec.toString(), "--device", replay),
            "--out " + rec, "--device replay: reads");
        // The same file by another path.
        assertMisuse(run("simulate", "--duration", "0.05", "--out", dir.resolve("b.csv").toString(), "--record",
            dir.resolve(".").resolve("a.rec").toString(), "--device", replay), "--device replay: reads");
        assertMisuse(run("run", "--duration", "0.05", "--no-stream", "--record", rec.toString(), "--device", replay),
            "--record " + rec, "--device replay: reads");
        assertArrayEquals(original, Files.readAllBytes(rec), "the recording is untouched");
        assertFalse(Files.exists(dir.resolve("b.csv")), "nothing written");
    }

    @Test
    void shouldRefuseTheSameFileForOutAndRecord() {
        Path both = dir.resolve("both.out");
        assertMisuse(run("simulate", "--duration", "0.05", "--out", both.toString(), "--record", both.toString()),
            "--record " + both, "also the --out file");
        assertFalse(Files.exists(both), "nothing written");
    }

    @Test
    void shouldRefuseASceneFileAsTheOutput() throws Exception {
        Path scene = dir.resolve("s.yaml");
        Files.copy(Path.of("../scenes/wall.yaml"), scene);
        byte[] original = Files.readAllBytes(scene);
        assertMisuse(run("simulate", "--scene", scene.toString(), "--duration", "0.05", "--out", scene.toString()),
            "--out " + scene, "--scene reads");
        assertArrayEquals(original, Files.readAllBytes(scene));
    }

    /** Found by a tester: {@code --out floor.obj} replaced the mesh the scene reads with the CSV. */
    @Test
    void shouldRefuseAMeshTheSceneReadsAsTheOutput() throws Exception {
        Path scene = dir.resolve("ball.yaml");
        Files.copy(Path.of("../scenes/proxy-ball.yaml"), scene);
        Path mesh = Files.createDirectories(dir.resolve("meshes")).resolve("ball-320.obj");
        Files.copy(Path.of("../scenes/meshes/ball-320.obj"), mesh);
        byte[] original = Files.readAllBytes(mesh);
        assertMisuse(run("simulate", "--scene", scene.toString(), "--duration", "0.05", "--out", mesh.toString()),
            "--out " + mesh, "is the file that the scene reads");
        assertMisuse(run("simulate", "--scene", scene.toString(), "--duration", "0.05", "--out",
            dir.resolve("a.csv").toString(), "--record", mesh.toString()), "--record " + mesh, "the scene reads");
        assertArrayEquals(original, Files.readAllBytes(mesh), "the mesh is untouched");
        assertFalse(Files.exists(dir.resolve("a.csv")), "nothing written");
    }

    /** A missing recording was reported by run only after the warm-up (and its log line): now before it. */
    @Test
    void shouldSayARecordingToReplayIsADirectoryOrMissing() {
        assertMisuse(run("run", "--duration", "0.05", "--no-stream", "--device", "replay:" + dir.resolve("no.rec")),
            "not found");
        assertMisuse(run("simulate", "--duration", "0.05", "--out", dir.resolve("d.csv").toString(), "--device",
            "replay:" + dir), "is a directory");
    }

    /**
     * A tester: {@code simulate scenes/string-cantilever.yaml --rate 250} went NaN from tick 13 and exited 0, since
     * the stability checks ran at the file's 1000 Hz and --rate applied afterwards. The file with rateHz 250 was
     * refused; so is the flag now, and the message names it.
     */
    @Test
    void shouldCheckDeformableStabilityAtTheRateOfTheRateFlag() {
        Path csv = dir.resolve("s.csv");
        assertMisuse(run("simulate", "--scene", "../scenes/string-cantilever.yaml", "--duration", "0.05", "--out",
            csv.toString(), "--rate", "250"), "250 Hz", "(with --rate 250)");
        assertFalse(Files.exists(csv), "no CSV for a refused scene");
    }

    /** A serial port path that does not exist was reported only after the warm-up and 2 s of retries. */
    @Test
    void shouldSayASerialPortPathDoesNotExistBeforeTheWarmUp() {
        String port = dir.resolve("no-such-tty").toString();
        assertMisuse(run("run", "--duration", "0.05", "--no-stream", "--device", "serial:" + port),
            "--device serial:" + port + ": no such port (" + port + " does not exist");
    }

    /**
     * Nothing listening: the message said "no usable INFO within 2000 ms of HELLO" though no HELLO ever went out,
     * and named the endpoint three times. A device that is named correctly and does not answer is not misuse: exit 1
     * (a tester's script read the 2 as "my command line is wrong").
     */
    @Test
    void shouldSayATcpDeviceCouldNotBeOpenedNamingItOnce() throws IOException {
        int port;
        try (java.net.ServerSocket probe = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort();
        }
        String device = "tcp:127.0.0.1:" + port;
        Result r = run("run", "--duration", "0.05", "--no-stream", "--device", device);
        assertEquals(Main.EXIT_FAILURE, r.exitCode(), r.toString());
        List<String> lines = r.errLines();
        assertEquals(1, lines.size(), "exactly one stderr line: " + r);
        String line = lines.get(0);
        assertTrue(line.startsWith("hapticsd: --device " + device + ": could not open within 2000 ms: "), line);
        assertTrue(line.contains("refused"), line);
        assertEquals(line.indexOf(device), line.lastIndexOf(device), line);
        assertFalse(STACK_TRACE.matcher(r.err()).find(), "no stack trace: " + r);
    }

    /** Found by replaying a 1000 Hz recording at --rate 500: it ran at half speed and nothing said so. */
    @Test
    void shouldRefuseToReplayARecordingAtAnotherRate() {
        Path rec = dir.resolve("k.rec");
        assertEquals(0, run("simulate", "--duration", "0.05", "--out", dir.resolve("k.csv").toString(), "--record",
            rec.toString()).exitCode());
        assertMisuse(run("simulate", "--duration", "0.05", "--rate", "500", "--out", dir.resolve("r.csv").toString(),
            "--device", "replay:" + rec), rec.toString(), "was made at 1000 Hz", "--rate 1000");
    }

    @Test
    void shouldRejectSimulateShorterThanOneTick() {
        assertMisuse(run("simulate", "--duration", "0.0001", "--out", dir.resolve("ticks.csv").toString()),
            "--duration 1.0E-4", "shorter than one tick at 1000 Hz");
        assertFalse(Files.exists(dir.resolve("ticks.csv")), "nothing written");
    }

    /** Found by a researcher's hand-written scenes: each message named a Java class or no item. */
    @Test
    void shouldNameWhatTheFileHasWhereAMappingANumberOrAnItemIsWanted() throws IOException {
        Path scalar = dir.resolve("scalar.yaml");
        Files.writeString(scalar, "just a string\n");
        assertMisuse(run("simulate", "--scene", scalar.toString(), "--duration", "0.01", "--out",
            dir.resolve("o.csv").toString()), scalar + ":1:1: expected a mapping, got text 'just a string'");
        Path empty = dir.resolve("empty-item.yaml");
        Files.writeString(empty, "name: x\nbodies:\n  -\n");
        assertMisuse(run("simulate", "--scene", empty.toString(), "--duration", "0.01", "--out",
            dir.resolve("o.csv").toString()), "bodies: a list item is empty (a '-' with nothing after it)");
        Path text = dir.resolve("text.yaml");
        Files.writeString(text, "name: x\ngravity: [0, 0, \"-9.81\"]\n");
        assertMisuse(run("simulate", "--scene", text.toString(), "--duration", "0.01", "--out",
            dir.resolve("o.csv").toString()), text + ":2:17: gravity[2]: expected a number, got text \"-9.81\"");
    }

    @Test
    void shouldRejectSimulateWithNegativeDuration() {
        assertMisuse(run("simulate", "--duration", "-1", "--out", dir.resolve("ticks.csv").toString()),
            "--duration", "-1");
    }

    /** 1e9 s at 1 kHz is 1e12 rows: no disk holds them, so the run is refused before it writes a byte. */
    @Test
    void shouldRefuseASimulationWhoseCsvCannotFitOnTheDisk() throws IOException {
        Path csv = dir.resolve("previous.csv");
        Files.writeString(csv, "t,force.x\n0.0,1.0\n");

        assertMisuse(run("simulate", "--duration", "1e9", "--out", csv.toString()),
            "--duration: 1000000000000 ticks of", "GB free on its disk");
        assertEquals("t,force.x\n0.0,1.0\n", Files.readString(csv));
    }

    @Test
    void shouldRefuseAnAllowedOriginThatIsNotAnOrigin() {
        assertMisuse(run("run", "--allow-origin", "notaurl", "--duration", "0.5"), "--allow-origin notaurl",
            "scheme://host[:port]");
        assertMisuse(run("run", "--allow-origin", "http://viewer.lab:3000/", "--duration", "0.5"),
            "--allow-origin http://viewer.lab:3000/");
    }

    @Test
    void shouldRefuseTheSamePortForBothStreamPorts() {
        assertMisuse(run("run", "--http-port", "18555", "--tcp-port", "18555", "--duration", "0.5"),
            "--http-port and --tcp-port are both 18555");
    }

    @Test
    void shouldRefuseTwoScriptsThatWouldRecordToTheSameFile() throws IOException {
        Path a = Files.createDirectory(dir.resolve("a")).resolve("same.yaml");
        Path b = Files.createDirectory(dir.resolve("b")).resolve("same.yaml");
        Files.writeString(a, "name: a\ndevice: sim\n");
        Files.writeString(b, "name: b\ndevice: sim\n");
        assertMisuse(run("test", a.toString(), b.toString(), "--record-dir", dir.toString()),
            a + " and " + b + " would both record to " + dir.resolve("same.rec"));
    }

    /** Misuse must not destroy the result of an earlier run: the file is checked before it is opened. */
    @Test
    void shouldLeaveExistingOutputFileUntouchedWhenDeviceIsUnknown() throws IOException {
        Path csv = dir.resolve("previous.csv");
        Files.writeString(csv, "t,force.x\n0.0,1.0\n");

        assertMisuse(run("simulate", "--device", "bogus", "--duration", "0.05", "--out", csv.toString()),
            "--device", "'bogus'");
        assertEquals("t,force.x\n0.0,1.0\n", Files.readString(csv));
    }

    @Test
    void shouldRejectSceneWithoutGeneratorName() {
        assertMisuse(run("scene"), "scene", "pile", "stack");
    }

    @Test
    void shouldRejectUnknownSceneGenerator() {
        assertMisuse(run("scene", "bogus"), "'bogus'");
    }

    @Test
    void shouldRejectScenePileWithoutSpheres() {
        assertMisuse(run("scene", "pile"), "--spheres");
    }

    @Test
    void shouldRejectScenePileWithSpheresOutOfRangeOrNotANumber() {
        assertMisuse(run("scene", "pile", "--spheres", "0"), "--spheres", "1..1377", "0");
        assertMisuse(run("scene", "pile", "--spheres", "1378"), "--spheres", "1378");
        assertMisuse(run("scene", "pile", "--spheres", "many"), "--spheres", "'many'");
    }

    @Test
    void shouldRejectSceneStackWithAnOptionOfPile() {
        assertMisuse(run("scene", "stack", "--spheres", "10"), "--spheres");
    }

    @Test
    void shouldRejectSceneIntoMissingDirectory() {
        Path yaml = dir.resolve("no-such-dir").resolve("pile.yaml");

        assertMisuse(run("scene", "pile", "--spheres", "10", "--out", yaml.toString()), "--out", "no-such-dir",
            "does not exist");
        assertFalse(Files.exists(yaml.getParent()), "the directory is not created");
    }

    @Test
    void shouldRejectSceneIntoDirectory() {
        assertMisuse(run("scene", "stack", "--out", dir.toString()), "--out", dir.toString(), "is a directory");
    }

    /** Misuse must not destroy an earlier scene file: the count is checked before the file is opened. */
    @Test
    void shouldLeaveExistingSceneFileUntouchedWhenSpheresAreOutOfRange() throws IOException {
        Path yaml = dir.resolve("pile.yaml");
        Files.writeString(yaml, "name: mine\n");

        assertMisuse(run("scene", "pile", "--spheres", "-1", "--out", yaml.toString()), "--spheres");
        assertEquals("name: mine\n", Files.readString(yaml));
    }

    @Test
    void shouldRejectBenchWithoutName() {
        assertMisuse(run("bench"), "bench", "loop", "stream");
    }

    @Test
    void shouldRejectBenchStreamWithoutClientsOrWithABadRate() {
        assertMisuse(run("bench", "stream", "--fast-clients", "0", "--slow-clients", "0"), "--fast-clients");
        assertMisuse(run("bench", "stream", "--slow-rate", "0"), "--slow-rate");
    }

    @Test
    void shouldRejectUnknownBenchName() {
        assertMisuse(run("bench", "bogus"), "'bogus'");
    }

    @Test
    void shouldRejectBenchLoopWithZeroSeconds() {
        assertMisuse(run("bench", "loop", "--seconds", "0", "--warmup", "0"), "--seconds");
    }

    @Test
    void shouldRejectBenchLoopWithUnknownWaitStrategy() {
        assertMisuse(run("bench", "loop", "--wait", "bogus", "--seconds", "0.2", "--warmup", "0"),
            "--wait", "'bogus'");
    }

    @Test
    void shouldRejectBenchLoopWithNegativeWarmup() {
        assertMisuse(run("bench", "loop", "--warmup", "-1", "--seconds", "0.2"), "--warmup");
    }

    @Test
    void shouldRejectBenchLoopBackgroundAllocationOutOfRange() {
        // A tester's 10^12 MB/s owed a terabyte of garbage in the first microsecond; the 0.3 s benchmark took 55 s.
        assertMisuse(run("bench", "loop", "--background-alloc-mbps", "999999999999", "--seconds", "0.2"),
            "--background-alloc-mbps", "within 0..100000 MB/s");
        assertMisuse(run("bench", "loop", "--background-alloc-mbps", "-1", "--seconds", "0.2"),
            "--background-alloc-mbps");
        assertMisuse(run("bench", "loop", "--background-alloc-mbps", "NaN", "--seconds", "0.2"),
            "--background-alloc-mbps");
    }

    @Test
    void shouldSimulateEmbeddedSceneIntoCsv() throws IOException {
        Path csv = dir.resolve("ticks.csv");

        Result r = run("simulate", "--duration", "0.05", "--out", csv.toString());

        assertEquals(Main.EXIT_OK, r.exitCode(), r.toString());
        List<String> lines = Files.readAllLines(csv);
        String header = lines.get(0);
        assertTrue(header.startsWith("t,device.x,device.y,device.z,tool.x,tool.y,tool.z,force.x,force.y,force.z,"
            + "safety,wall.px,"), header);
        // 0.05 s at the embedded scene's 1000 Hz: round(0.05 * 1000) = 50 ticks, one row each.
        assertEquals(1 + 50, lines.size(), "header and 50 rows");
        int columns = header.split(",", -1).length;
        for (int i = 1; i < lines.size(); i++) {
            assertEquals(columns, lines.get(i).split(",", -1).length, "columns of row " + i);
        }
        // Tick k is at k ms; the time column is k * 1e6 ns * 1e-9 computed in double, so allow 1e-12 s.
        assertEquals(0.0, Double.parseDouble(lines.get(1).split(",")[0]), 1e-12);
        assertEquals(0.049, Double.parseDouble(lines.get(50).split(",")[0]), 1e-12);
        assertTrue(r.out().contains("wrote 50 ticks"), r.toString());
        List<String> errLines = r.errLines();
        assertFalse(errLines.isEmpty(), r.toString());
        String last = errLines.get(errLines.size() - 1);
        assertTrue(last.matches("^step_us p50=[0-9.]+ p99=[0-9.]+$"), last);
    }
}
