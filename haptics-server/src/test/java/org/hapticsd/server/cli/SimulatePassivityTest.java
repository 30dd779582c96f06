package org.hapticsd.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tool.passivityControl} end to end: the default wall made 5000 N/m, past its passivity bound on the simulated
 * stylus (2·b/T = 2000 N/m with the device's 1 N·s/m at 1 kHz), pressed by a hand without damping. Without the
 * controller the stylus bounces off the wall between 0 and the safety limit; with it, it rests at the static balance.
 */
class SimulatePassivityTest {

    /** The static balance: 5000·(x − 0.025) = 200·(0.05 − x), so x = 0.0259615… and the force 4.8077 N. */
    private static final double BALANCE_N = 5000.0 * (135.0 / 5200.0 - 0.025);

    /** force.x over 1.6–2.5 s, the hand held 2 cm into the wall: {mean, standard deviation}; the output in out. */
    private static double[] press(Path dir, boolean control, StringWriter out) throws Exception {
        String wall = Files.readString(Path.of("../scenes/wall.yaml")).replace("stiffnessNpm: 1000.0",
            "stiffnessNpm: 5000.0");
        if (control) {
            wall = wall.replace("  radiusM: 0.005\n", "  radiusM: 0.005\n  passivityControl: true\n");
            assertTrue(wall.contains("passivityControl: true"));
        }
        Path scene = Files.writeString(dir.resolve("stiff-" + control + ".yaml"), wall);
        Path csv = dir.resolve("stiff-" + control + ".csv");
        StringWriter err = new StringWriter();
        int code = Main.run(new PrintWriter(out), new PrintWriter(err), "simulate", "--scene",
            scene.toString(), "--duration", "2.6", "--hand-damping", "0", "--out", csv.toString());
        assertEquals(0, code, err.toString());
        return SimulatedCsv.read(csv).meanAndStd("force.x", 1.6, 2.5);
    }

    @Test
    void aWallTooStiffForTheDeviceBouncesWithoutTheControllerAndRestsWithIt(@TempDir Path dir) throws Exception {
        StringWriter quiet = new StringWriter();
        StringWriter said = new StringWriter();
        double[] without = press(dir, false, quiet);
        double[] with = press(dir, true, said);
        assertTrue(without[1] > 1.0, "without the controller the force swings: std " + without[1] + " N");
        assertTrue(with[1] < 0.01, "with it the force is steady: std " + with[1] + " N");
        assertEquals(-BALANCE_N, with[0], 0.01, "and it is the wall's static balance");
        assertTrue(said.toString().contains("passivity control: damped on "), said.toString());
        assertTrue(!quiet.toString().contains("passivity control"), quiet.toString());
    }
}
