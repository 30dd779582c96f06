package org.hapticsd.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code forceField} end to end, from the simulate CSV: {@code scenes/curl-field.yaml}'s curl field pushes across the
 * reach with F = B·v and does no work; a viscous field opposes the motion and takes energy out; a field that could
 * give energy, or a malformed one, is refused at load naming the field.
 */
class SimulateForceFieldTest {



    /** Σ F·Δx over the run: the work the rendered force did on the stylus, J. */
    private static double work(SimulatedCsv csv) {
        double w = 0.0;
        for (int i = 0; i + 1 < csv.rows().size(); i++) {
            for (String axis : new String[] {"x", "y", "z"}) {
                w += csv.at(i, "force." + axis) * (csv.at(i + 1, "device." + axis) - csv.at(i, "device." + axis));
            }
        }
        return w;
    }

    @Test
    void theCurlFieldPushesAcrossTheReachAndDoesNoWork(@TempDir Path dir) throws Exception {
        SimulatedCsv csv = SimulatedCsv.run(dir, Path.of("../scenes/curl-field.yaml"), "curl", "3.6");
        int moving = 0;
        for (int i = 1; i + 1 < csv.rows().size(); i++) {
            double t = csv.at(i, "t");
            boolean steady = t >= 1.45 && t < 1.58 || t >= 2.65 && t < 2.78;
            if (steady) {
                moving++;
                double vx = csv.deviceVelocity(i, "x");
                double vy = csv.deviceVelocity(i, "y");
                // F_x = 5·v_y, F_y = −5·v_x: the loop reads the stylus's own velocity; the central difference of its
                // positions is that to about 1e-4 m/s while it moves steadily.
                assertEquals(5.0 * vy, csv.at(i, "force.x"), 2e-3, "F_x at t = " + t);
                assertEquals(-5.0 * vx, csv.at(i, "force.y"), 2e-3, "F_y at t = " + t);
                assertEquals(0.0, csv.at(i, "force.z"), 0.0);
                assertEquals(t < 2 ? 1.25 : -1.25, csv.at(i, "force.x"), 0.02, "across the reach, t = " + t);
                assertEquals(t < 2 ? 1.25 / 300.0 : -1.25 / 300.0, csv.at(i, "device.x"), 2e-4,
                    "the hand's spring gives way F/k, t = " + t);
            }
            if (t >= 2.1 && t < 2.4) {
                assertEquals(0.0, Math.hypot(csv.at(i, "force.x"), csv.at(i, "force.y")), 1e-3, "still: t = " + t);
            }
        }
        assertEquals(260, moving);
        // About 0.25 J of |F|·|dx| over the two reaches; the field does none of it.
        assertEquals(0.0, work(csv), 2e-3, "a curl field does no work");
    }

    @Test
    void aViscousFieldOpposesTheMotionAndTakesEnergyOut(@TempDir Path dir) throws Exception {
        String text = Files.readString(Path.of("../scenes/curl-field.yaml"));
        String field = text.substring(text.indexOf("forceField:"), text.indexOf("\ncontactModes:"));
        Path scene = Files.writeString(dir.resolve("viscous.yaml"), text.replace(field, "forceField:\n"
            + "  dampingNspm: 4.0\n"));
        assertTrue(Files.readString(scene).contains("name: target"), "only the field replaced");
        SimulatedCsv csv = SimulatedCsv.run(dir, scene, "viscous", "3.6");
        for (int i = 1; i + 1 < csv.rows().size(); i++) {
            double t = csv.at(i, "t");
            if (t >= 1.45 && t < 1.58) {
                assertEquals(-4.0 * csv.deviceVelocity(i, "y"), csv.at(i, "force.y"), 2e-3, "F = -b·v at t = " + t);
                assertEquals(-1.0, csv.at(i, "force.y"), 0.02, "t = " + t);
            }
        }
        // b·v²·(time moving): 4 × 0.25² × 0.8 s = 0.2 J, less the ramps at the ends of the reaches.
        double w = work(csv);
        assertTrue(w < -0.15 && w > -0.21, "the field takes energy out: " + w + " J");
    }

    @Test
    void aFieldThatCouldGiveEnergyOrIsMalformedIsRefusedAtLoad(@TempDir Path dir) throws Exception {
        String text = Files.readString(Path.of("../scenes/curl-field.yaml"));
        String active = text.replace("    - [0.0, 5.0, 0.0]\n    - [-5.0, 0.0, 0.0]", "    - [0.0, 5.0, 0.0]\n"
            + "    - [5.0, 0.0, 0.0]");
        assertRefused(dir, "active.yaml", active, "forceField.matrixNspm: the field would give energy: its symmetric "
            + "part (B + Bᵀ)/2 has the eigenvalue 5.000 N·s/m > 0");
        assertRefused(dir, "both.yaml", text.replace("forceField:\n", "forceField:\n  dampingNspm: 1.0\n"),
            "forceField: give exactly one of dampingNspm (a viscous field) and matrixNspm");
        assertRefused(dir, "short.yaml", text.replace("    - [0.0, 0.0, 0.0]\n", "    - [0.0, 0.0]\n"),
            "forceField.matrixNspm: row 2 must have three numbers");
        String rows = text.substring(text.indexOf("  matrixNspm:"), text.indexOf("\ncontactModes:"));
        assertRefused(dir, "text.yaml", text.replace(rows, "  matrixNspm: x\n"),
            "forceField.matrixNspm: must be three rows [[Bxx, Bxy, Bxz], [Byx, Byy, Byz], [Bzx, Bzy, Bzz]], N·s/m");
    }

    private static void assertRefused(Path dir, String name, String scene, String message) throws Exception {
        Path file = Files.writeString(dir.resolve(name), scene);
        String refusal = SimulatedCsv.refusal(dir, file);
        assertTrue(refusal.contains(message), refusal);
    }
}
