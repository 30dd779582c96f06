package org.hapticsd.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The safety layer's thermal limit through `simulate`: the simulated stylus pressed hard into a floor for 8 s gets
 * its peak force while the motors are cold, then the continuous force, and the run says so at the end.
 */
class ThermalLimitCliTest {
    /** The test scene {@code scenes/thermal-hold.yaml}. */
    static Path holdScene() throws Exception {
        return Path.of(ThermalLimitCliTest.class.getResource("/scenes/thermal-hold.yaml").toURI());
    }

    @Test
    void shouldGiveThePeakThenHoldTheContinuousForceAndSaySo(@TempDir Path dir) throws Exception {
        Path scene = holdScene();
        Path csv = dir.resolve("hold.csv");
        CliCall call = CliCall.run("simulate", "--scene", scene.toString(), "--duration", "8", "--out", csv.toString());
        assertEquals(0, call.exitCode(), call.err.toString());
        List<String> rows = Files.readAllLines(csv);
        double peakN = 0.0;
        double lastN = 0.0;
        for (String row : rows.subList(1, rows.size())) {
            String[] f = row.split(",");
            double force = Math.sqrt(sq(Double.parseDouble(f[7])) + sq(Double.parseDouble(f[8]))
                + sq(Double.parseDouble(f[9])));
            peakN = Math.max(peakN, force);
            lastN = force;
        }
        // The hand pulls 20 N into the floor: clamped to the peak while cold, then held at the continuous force.
        assertEquals(8.0, peakN, 1e-9, "the peak, while the motors were cold");
        assertEquals(4.0, lastN, 1e-6, "the continuous force, once hot");
        String out = call.out.toString();
        assertTrue(out.matches("(?s).*thermal limit: \\d+ ticks \\([0-9.]+ s\\) lowered toward the device's continuous force "
            + "4\\.00 N; motors at 100% of its heat at the end.*"), out);
    }

    private static double sq(double v) {
        return v * v;
    }
}
