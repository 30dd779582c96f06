package org.hapticsd.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The CSV of a {@code simulate} run, for the tests that read one: its columns by name and its rows. */
record SimulatedCsv(Map<String, Integer> columns, List<String[]> rows) {

    /**
     * Runs {@code simulate} on {@code scene} for {@code duration} seconds into {@code dir/name.csv}, asserts that it
     * exits 0 (its error output as the message otherwise), and reads the file.
     */
    static SimulatedCsv run(Path dir, Path scene, String name, String duration) throws Exception {
        Path csv = dir.resolve(name + ".csv");
        StringWriter err = new StringWriter();
        int code = Main.run(new PrintWriter(new StringWriter()), new PrintWriter(err), "simulate", "--scene",
            scene.toString(), "--duration", duration, "--out", csv.toString());
        assertEquals(0, code, err.toString());
        return read(csv);
    }

    /** Reads a CSV that {@code simulate} wrote. */
    static SimulatedCsv read(Path csv) throws Exception {
        List<String> lines = Files.readAllLines(csv);
        String[] header = lines.get(0).split(",", -1);
        Map<String, Integer> columns = new HashMap<>();
        for (int i = 0; i < header.length; i++) {
            columns.put(header[i], i);
        }
        List<String[]> rows = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            rows.add(line.split(",", -1));
        }
        return new SimulatedCsv(columns, rows);
    }

    /**
     * Runs {@code simulate} on {@code scene} for a second, asserts that it is refused with exit code 2 and one line of
     * error output, and returns that line.
     */
    static String refusal(Path dir, Path scene) throws Exception {
        StringWriter err = new StringWriter();
        int code = Main.run(new PrintWriter(new StringWriter()), new PrintWriter(err), "simulate", "--scene",
            scene.toString(), "--duration", "1", "--out", dir.resolve(scene.getFileName() + ".csv").toString());
        assertEquals(2, code, err.toString());
        assertEquals(1, err.toString().strip().lines().count(), "one line: " + err);
        return err.toString().strip();
    }

    /**
     * A copy of shipped scene {@code scene} in {@code dir} whose tool renders by {@code rendering}: its
     * {@code rendering:} line changed, or one added under a tool block of the default radius.
     */
    static Path withRendering(Path dir, String scene, String rendering) throws Exception {
        String text = Files.readString(Path.of("../scenes/" + scene));
        String changed = text.contains("rendering: proxy")
            ? text.replace("rendering: proxy", "rendering: " + rendering)
            : text.replace("tool:\n  radiusM: 0.005\n", "tool:\n  radiusM: 0.005\n  rendering: " + rendering + "\n");
        assertTrue(changed.contains("rendering: " + rendering), "the scene's tool block changed");
        Path file = dir.resolve(rendering + "-" + scene);
        Files.writeString(file, changed);
        return file;
    }

    /** The device's velocity on {@code axis} ("x", "y" or "z") at row {@code row}: its positions' central difference. */
    double deviceVelocity(int row, String axis) {
        return (at(row + 1, "device." + axis) - at(row - 1, "device." + axis)) / (at(row + 1, "t") - at(row - 1, "t"));
    }

    /** The mean and the (population) standard deviation of {@code column} over the rows with {@code from <= t <= to}. */
    double[] meanAndStd(String column, double from, double to) {
        double sum = 0.0;
        double squares = 0.0;
        int n = 0;
        for (String[] row : rows) {
            double t = get(row, "t");
            if (t >= from && t <= to) {
                double value = get(row, column);
                sum += value;
                squares += value * value;
                n++;
            }
        }
        double mean = sum / n;
        return new double[] {mean, Math.sqrt(Math.max(0.0, squares / n - mean * mean))};
    }

    /** The value of {@code column} in {@code row}. */
    double get(String[] row, String column) {
        Integer i = columns.get(column);
        assertNotNull(i, "no column " + column);
        return Double.parseDouble(row[i]);
    }

    /** The text of {@code column} in {@code row} (a name column such as {@code events.names}). */
    String text(String[] row, String column) {
        Integer i = columns.get(column);
        assertNotNull(i, "no column " + column);
        return row[i];
    }

    /** The value of {@code column} in row {@code row} (0 = the first tick). */
    double at(int row, String column) {
        return get(rows.get(row), column);
    }

    /** The value of {@code column} in the last row. */
    double last(String column) {
        return at(rows.size() - 1, column);
    }
}
