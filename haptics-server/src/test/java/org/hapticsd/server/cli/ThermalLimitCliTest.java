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
        Path rec = dir.resolve("hold.rec");
        CliCall call = CliCall.run("simulate", "--scene", scene.toString(), "--duration", "8", "--out", csv.toString(),
            "--record", rec.toString());
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
        // The recording marks the tick the limit began to lower the force: the first whose force is below the peak
        // while the hand still demands 20 N (the press never lets go, so the limit never stops).
        org.hapticsd.server.record.Recording r = org.hapticsd.server.record.Recording.read(rec);
        int marked = -1;
        int marks = 0;
        for (int i = 0; i < r.recordCount(); i++) {
            if ((r.events(i) & org.hapticsd.server.loop.LoopEvents.THERMAL_LIMIT_CHANGED) != 0) {
                marked = marked < 0 ? i : marked;
                marks++;
            }
        }
        assertEquals(1, marks, "one change: the limit began and held to the end");
        double before = magnitude(r, marked - 1);
        assertEquals(8.0, before, 1e-9, "the tick before it still had the peak");
        assertTrue(magnitude(r, marked + 50) < 8.0, "lowered after it: " + magnitude(r, marked + 50));
        assertTrue(marked > 1500, "not before the press began (tick " + marked + ")");
        String out = call.out.toString();
        assertTrue(out.contains("THERMAL_LIMIT_CHANGED 1"), out);
        assertTrue(out.matches("(?s).*thermal limit: \\d+ ticks \\([0-9.]+ s\\) lowered toward the device's continuous force "
            + "4\\.00 N; motors at 100% of its heat at the end.*"), out);
    }

    private static double magnitude(org.hapticsd.server.record.Recording r, int i) {
        return Math.sqrt(sq(r.commandedForceN(i, 0)) + sq(r.commandedForceN(i, 1)) + sq(r.commandedForceN(i, 2)));
    }

    private static double sq(double v) {
        return v * v;
    }
}
