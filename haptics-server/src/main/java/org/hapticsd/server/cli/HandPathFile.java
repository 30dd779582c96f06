package org.hapticsd.server.cli;

import java.io.IOException;
import java.nio.charset.MalformedInputException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.hapticsd.device.sim.WaypointHandTarget;
import org.hapticsd.device.sim.WaypointHandTarget.Waypoint;

/**
 * The {@code --hand-path} file of {@code hapticsd emulate}: timed waypoints for the emulated user's hand, one per
 * line as {@code t,x,y,z}: t in seconds since the emulator started, x, y, z in metres in the device frame.
 *
 * <pre>
 * # press 2 cm along x and come back, every 2 s with --hand-loop
 * t, x, y, z
 * 0.0, 0.00, 0, 0
 * 1.0, 0.02, 0, 0
 * 2.0, 0.00, 0, 0
 * </pre>
 *
 * <p>{@code #} starts a comment that runs to the end of the line; blank lines are ignored; spaces around fields
 * are ignored; a first line {@code t,x,y,z} is a header and is skipped. Times strictly increase. The hand moves in
 * straight lines between waypoints, holds the first point before the first time and the last point after the last
 * time, or with {@code --hand-loop} repeats with period = the last time ({@link WaypointHandTarget}).
 *
 * <p>CSV rather than YAML: four numbers a line is what a spreadsheet or a logger writes, and an error names the
 * line directly. Every error names the file and the line, as {@code FILE:LINE: problem}.
 */
final class HandPathFile {
    private static final String HEADER = "t,x,y,z";
    /** Farther than any desk device's workspace from its origin (the emulated ones reach 5–8 cm), m. */
    static final double MAX_REACH_M = 1.0;

    private HandPathFile() {
    }

    /**
     * Reads {@code file} into a hand target.
     *
     * @throws UsageException naming the file and line of the first problem
     */
    static WaypointHandTarget load(Path file, boolean loop) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new UsageException("--hand-path " + file + ": not found");
        } catch (MalformedInputException e) {
            throw new UsageException("--hand-path " + file + ": not a text file (not UTF-8)");
        } catch (IOException e) {
            throw new UsageException("--hand-path " + file + ": cannot read: " + e.getMessage());
        }
        List<Waypoint> waypoints = new ArrayList<>();
        List<Integer> lineNumbers = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            int lineNumber = i + 1;
            String text = stripComment(lines.get(i)).strip();
            if (text.isEmpty()) {
                continue;
            }
            if (waypoints.isEmpty() && text.replace(" ", "").equalsIgnoreCase(HEADER)) {
                continue;
            }
            Waypoint waypoint = parse(file, lineNumber, text);
            if (!waypoints.isEmpty()) {
                Waypoint previous = waypoints.get(waypoints.size() - 1);
                if (!(waypoint.timeS() > previous.timeS())) {
                    throw error(file, lineNumber, "time " + waypoint.timeS() + " s must be after "
                            + previous.timeS() + " s on line " + lineNumbers.get(lineNumbers.size() - 1));
                }
            }
            waypoints.add(waypoint);
            lineNumbers.add(lineNumber);
        }
        if (waypoints.isEmpty()) {
            throw new UsageException("--hand-path " + file + ": no waypoints (expected lines of t,x,y,z)");
        }
        if (loop) {
            Waypoint first = waypoints.get(0);
            Waypoint last = waypoints.get(waypoints.size() - 1);
            if (first.timeS() < 0.0) {
                throw error(file, lineNumbers.get(0), "--hand-loop needs the first time >= 0 s, got "
                        + first.timeS() + " s");
            }
            if (!(last.timeS() > 0.0)) {
                throw error(file, lineNumbers.get(lineNumbers.size() - 1),
                        "--hand-loop repeats with period = the last time, which must be > 0 s, got "
                                + last.timeS() + " s");
            }
        }
        return new WaypointHandTarget(waypoints, loop);
    }

    private static String stripComment(String line) {
        int hash = line.indexOf('#');
        return hash < 0 ? line : line.substring(0, hash);
    }

    private static Waypoint parse(Path file, int lineNumber, String text) {
        String[] fields = text.split(",", -1);
        if (fields.length != 4) {
            throw error(file, lineNumber, "expected t,x,y,z (4 numbers), got " + fields.length + " field"
                    + (fields.length == 1 ? "" : "s") + ": '" + text + "'");
        }
        double[] values = new double[4];
        String[] names = {"t", "x", "y", "z"};
        for (int k = 0; k < 4; k++) {
            String field = fields[k].strip();
            try {
                values[k] = Double.parseDouble(field);
            } catch (NumberFormatException e) {
                throw error(file, lineNumber, names[k] + " '" + field + "' is not a number");
            }
            // parseDouble accepts "NaN", "Infinity" and hex forms; one non-finite target would make the stylus NaN.
            if (!Double.isFinite(values[k])) {
                throw error(file, lineNumber, names[k] + " must be finite, got '" + field + "'");
            }
            // A desk haptic device reaches centimetres: a coordinate of metres is a unit slip (mm written as m), and
            // a tester's 5 m waypoint was taken as is.
            if (k > 0 && Math.abs(values[k]) > MAX_REACH_M) {
                throw error(file, lineNumber, names[k] + " " + field + " m is more than " + MAX_REACH_M + " m from the "
                    + "device's origin: positions are in metres (20 mm is 0.02)");
            }
        }
        return new Waypoint(values[0], values[1], values[2], values[3]);
    }

    private static UsageException error(Path file, int lineNumber, String problem) {
        return new UsageException("--hand-path " + file + ":" + lineNumber + ": " + problem);
    }
}
