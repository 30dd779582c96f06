package org.hapticsd.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.hapticsd.server.calibrate.CollisionDataException;
import org.hapticsd.server.calibrate.RecordedTaps;
import org.hapticsd.server.calibrate.TapRecordings;
import org.hapticsd.server.loop.LoopSnapshot;
import org.hapticsd.server.record.Recording;
import org.hapticsd.server.record.RecordingFormat;
import org.hapticsd.server.record.TickRecorder;
import org.joml.Vector3d;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code hapticsd calibrate} from the command line: the shipped example, and what it refuses with exit 2. */
class CalibrateCommandTest {

    @TempDir
    Path dir;

    @Test
    void shouldFitTheShippedSinglePointExampleAndPrintTheTables() {
        CliCall call = CliCall.run("calibrate", "--data", "../examples/calibration/single-point.csv", "--model",
            "single", "--evaluations", "4000");
        assertEquals(Main.EXIT_OK, call.exitCode(), call.err());
        String out = call.out();
        assertTrue(out.contains("fitted parameters (source 000 Table 2):"), out);
        assertTrue(out.contains("errors per body with the fitted parameters (source 000 Tables 1 and 3):"), out);
        // The example was made with Table 2's single-point fit: e = 0.72 within 5 %.
        Matcher e = Pattern.compile("(?m)^  e\\s+([0-9.]+)").matcher(out);
        assertTrue(e.find(), out);
        assertEquals(0.72, Double.parseDouble(e.group(1)), 0.036, out);
        assertTrue(Pattern.compile("(?m)^  ball\\s+60\\s").matcher(out).find(), "60 ball strikes: " + out);
    }

    @Test
    void shouldRefuseABadRowNamingFileLineAndColumnWithExitTwo() throws Exception {
        List<String> lines = Files.readAllLines(Path.of("../examples/calibration/single-point.csv"));
        // Line 5 of the file (4th row): its a_vx1 cell made unreadable.
        String[] header = lines.get(1).split(",");
        int column = List.of(header).indexOf("a_vx1");
        String[] cells = lines.get(4).split(",", -1);
        cells[column] = "n/a";
        lines.set(4, String.join(",", cells));
        Path bad = dir.resolve("bad.csv");
        Files.write(bad, lines);
        CliCall.run("calibrate", "--data", bad.toString(), "--model", "single")
            .assertMisuse(bad + ":5:" + (column + 1) + ": 'a_vx1' is not a number: 'n/a'");
    }

    @Test
    void shouldRefuseMisuseWithExitTwo() throws Exception {
        assertUsage("--model must be single or multi", "--data", "../examples/calibration/single-point.csv",
            "--model", "double");
        assertUsage("missing.csv: not found", "--data", dir.resolve("missing.csv").toString(), "--model", "single");
        Path bounds = dir.resolve("bounds.yaml");
        Files.writeString(bounds, "e: [0.9, 0.2]\n");
        assertUsage("e: [0.9, 0.2] is not a range", "--data", "../examples/calibration/single-point.csv", "--model",
            "single", "--bounds", bounds.toString());
        Files.writeString(bounds, "alpha: [0.5, 1.2]\n");
        assertUsage("alpha: a correlation ratio is at most 1", "--data", "../examples/calibration/single-point.csv",
            "--model", "multi", "--bounds", bounds.toString());
        // A range for a pair the data has no multi-point contact of would be ignored: a typo, named.
        Files.writeString(bounds, "alphas:\n  b0-b9: [0.5, 1.0]\n");
        assertUsage(bounds + ": alphas: b0-b9 is not a pair that touches in a multi-point event of", "--data",
            "../examples/calibration/multi-point.csv", "--model", "multi", "--bounds", bounds.toString());
    }

    /**
     * Data a fit could only print noise from is refused, not fitted: no event collides at a threshold of 100 m/s
     * (the example's strikes approach at about 1 m/s), and an event whose velocities are all zero has no momentum to
     * take its errors relative to (before, every parameter was printed as fitted, e at mid-range).
     */
    @Test
    void shouldRefuseDataThatCarriesNothingToFit() throws Exception {
        assertUsage("single-point.csv: no event is a collision at an impact threshold of 100.0 m/s", "--data",
            "../examples/calibration/single-point.csv", "--model", "single", "--impact-threshold", "100");

        List<String> lines = Files.readAllLines(Path.of("../examples/calibration/single-point.csv"));
        List<String> header = List.of(lines.get(1).split(","));
        String[] cells = lines.get(2).split(",", -1);
        for (String column : List.of("a_vx0", "a_vy0", "a_vz0", "a_wx0", "a_wy0", "a_wz0", "a_vx1", "a_vy1", "a_vz1",
                "a_wx1", "a_wy1", "a_wz1")) {
            cells[header.indexOf(column)] = "0";
        }
        lines.set(2, String.join(",", cells));
        Path still = dir.resolve("still.csv");
        Files.write(still, lines);
        assertUsage(still + ":3: event s0: no body moves before or after", "--data", still.toString(), "--model",
            "single");
    }

    private static void assertUsage(String expected, String... args) {
        String[] all = new String[args.length + 1];
        all[0] = "calibrate";
        System.arraycopy(args, 0, all, 1, args.length);
        CliCall.run(all).assertMisuse(expected);
    }

    /** As a replay of the same file says at its start (recording.md): before, calibrate read it without a word. */
    @Test
    void shouldWarnOfARecordingCutShortAndFitItsWholeRecords() throws Exception {
        Path file = TapRecordings.write(dir.resolve("taps.rec"));
        long complete = Files.size(file);
        int trailerBytes = RecordingFormat.END_MAGIC.length + 16;
        long wholeRecords = Recording.read(file).recordCount() - 1;
        // The trailer and 10 bytes of the last record gone: a recorder that died mid-record.
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.truncate(complete - trailerBytes - 10);
        }
        CliCall call = CliCall.run("calibrate", "--data", file.toString(), "--model", "single", "--effective-mass",
            String.valueOf(TapRecordings.MASS_KG), "--evaluations", "2000");
        assertEquals(Main.EXIT_OK, call.exitCode(), call.err());
        assertEquals("hapticsd: WARN recording " + file + " has no trailer (its recorder stopped without closing it, "
            + "or bytes were added after it; " + (RecordingFormat.RECORD_BYTES - 10) + " bytes after the last whole "
            + "record): " + wholeRecords + " whole records are read for taps\n", call.err());
        assertTrue(call.out().contains("calibrate: 4 events (0 multi-point), 4 contacts"), call.out());
    }

    @Test
    void shouldTakeARecordingOnTheCommandLineWithTheToolsMass() throws Exception {
        Path file = TapRecordings.write(dir.resolve("taps.rec"));
        CliCall.run("calibrate", "--data", file.toString(), "--model", "single")
            .assertMisuse("--data " + file + " is a tick recording: give the tool's --effective-mass KG");
        CliCall call = CliCall.run("calibrate", "--data", file.toString(), "--model", "single", "--effective-mass",
            String.valueOf(TapRecordings.MASS_KG), "--evaluations", "2000");
        assertEquals(Main.EXIT_OK, call.exitCode(), call.err());
        assertTrue(call.out().contains("calibrate: 4 events (0 multi-point), 4 contacts"), call.out());
        Matcher e = Pattern.compile("(?m)^  e\\s+([0-9.]+)").matcher(call.out());
        assertTrue(e.find(), call.out());
        assertEquals(TapRecordings.E, Double.parseDouble(e.group(1)), 0.005 * TapRecordings.E, call.out());
        assertTrue(call.out().contains("not identified: no contact slides or could"), call.out());
        assertEquals("", call.err(), "a complete recording warns of nothing");

        Path empty = dir.resolve("idle.rec");
        try (TickRecorder recorder = TickRecorder.start(empty, "idle", 1000,
            new org.hapticsd.server.record.Recording.Ratings("test device", 10.0, 4.0, 2000.0, 0.0), TickRecorder.DEFAULT_RING_BYTES, true)) {
            LoopSnapshot s = new LoopSnapshot(1);
            for (int k = 0; k < 10; k++) {
                TapRecordings.set(s, k, 0, new Vector3d(), 0.0);
                recorder.onTick(s);
            }
        }
        CollisionDataException none = assertThrows(CollisionDataException.class,
            () -> RecordedTaps.read(empty, TapRecordings.MASS_KG, 0.1));
        assertTrue(none.getMessage().contains("no taps"), none.getMessage());
        CliCall.run("calibrate", "--data", empty.toString(), "--model", "single", "--effective-mass", "0.1")
            .assertMisuse("no taps");
    }
}
