package org.hapticsd.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code scenes/grab.yaml} end to end, from the simulate CSV: with its button held, the stylus lifts a 150 g cube off
 * the table and the hand feels its weight; the cube hangs the spring's sag below where the tool took it; let go, it
 * stays where it was set down. Without the button the tool lifts off alone. A grab on a body that cannot be grabbed,
 * or one too stiff for the body's explicit step, is refused at load naming the field.
 */
class SimulateGrabTest {

    private static final double MASS_KG = 0.15;
    private static final double G_MPS2 = 9.81;
    private static final double K_NPM = 300.0;
    private static final double CUBE_REST_Z_M = 0.02;

    private static SimulatedCsv simulate(Path dir, Path scene, String duration) throws Exception {
        return SimulatedCsv.run(dir, scene, "grab", duration);
    }

    private static String[] at(SimulatedCsv csv, double tS) {
        return csv.rows().get((int) Math.round(tS * 1000.0));
    }

    @Test
    void theStylusLiftsTheCubeFeelsItsWeightAndSetsItDown(@TempDir Path dir) throws Exception {
        SimulatedCsv csv = simulate(dir, Path.of("../scenes/grab.yaml"), "8");
        double weightN = MASS_KG * G_MPS2;
        // Where the button went down (t = 1.0 s): the tool's centre is the anchor, this far above the cube's centre.
        String[] grabbed = at(csv, 1.0);
        assertEquals(CUBE_REST_Z_M, csv.get(grabbed, "cube.pz"), 2e-4, "the cube rests on the table until then");
        double anchorAboveCentreM = csv.get(grabbed, "tool.z") - csv.get(grabbed, "cube.pz");
        double sagM = weightN / K_NPM;
        int held = 0;
        List<Double> grabEvents = new ArrayList<>();
        for (String[] row : csv.rows()) {
            double t = csv.get(row, "t");
            if (csv.text(row, "events.names").contains("GRAB_CHANGED")) {
                grabEvents.add(t);
            }
            if (t >= 3.0 && t < 4.0) {
                held++;
                assertEquals(-weightN, csv.get(row, "force.z"), 0.01 * weightN, "the hand feels the weight, t = " + t);
                assertEquals(0.0, csv.get(row, "force.x"), 0.01 * weightN, "straight down, t = " + t);
                assertEquals(anchorAboveCentreM + sagM, csv.get(row, "tool.z") - csv.get(row, "cube.pz"), 3e-4,
                    "the cube hangs m·g/k below where it was taken, t = " + t);
                assertTrue(csv.get(row, "cube.pz") > CUBE_REST_Z_M + 0.045, "lifted off the table, t = " + t);
            }
            if (t >= 6.6) {
                assertEquals(0.0, csv.get(row, "force.z"), 0.0, "let go and lifted off: no force, t = " + t);
            }
        }
        assertEquals(1000, held);
        // The path's button goes down at t = 1.0 s and up at 6.5 s: the loop marks the tick of each.
        assertEquals(2, grabEvents.size(), "GRAB_CHANGED at " + grabEvents);
        assertEquals(1.0, grabEvents.get(0), 0.0015, "taken");
        assertEquals(6.5, grabEvents.get(1), 0.0015, "let go");
        String[] end = at(csv, 7.99);
        assertEquals(0.05, csv.get(end, "cube.px"), 0.005, "set down where the stylus carried it");
        assertEquals(CUBE_REST_Z_M, csv.get(end, "cube.pz"), 5e-4, "on the table");
        assertEquals(0.0, csv.get(end, "cube.vz"), 1e-3, "at rest");
    }

    @Test
    void withoutTheButtonTheToolLiftsOffAlone(@TempDir Path dir) throws Exception {
        String text = Files.readString(Path.of("../scenes/grab.yaml"));
        String noButton = text.replace(", buttons: 1}", "}");
        assertTrue(!noButton.contains("buttons: 1"), "every press taken out");
        Path scene = Files.writeString(dir.resolve("no-button.yaml"), noButton);
        SimulatedCsv csv = simulate(dir, scene, "4");
        for (String[] row : csv.rows()) {
            assertEquals(CUBE_REST_Z_M, csv.get(row, "cube.pz"), 2e-4, "the cube stays on the table");
            if (csv.get(row, "t") >= 1.5) {
                assertEquals(0.0, csv.get(row, "force.z"), 0.0, "nothing pulls the hand down");
            }
        }
    }

    /**
     * {@code scenes/grab.yaml} with the hand coming down to 1 cm under the resting cube's top face by 0.8 s and
     * staying there, its tool rendered by {@code rendering}; no button pressed.
     */
    static Path pressOnTheRestingCube(Path dir, String rendering) throws Exception {
        String text = Files.readString(Path.of("../scenes/grab.yaml"));
        String path = text.substring(text.indexOf("    path:"), text.indexOf("\ntool:"));
        String press = text.replace(path, """
                path:
                  - {t: 0.0, position: [0.0, 0.0, 0.08]}
                  - {t: 0.8, position: [0.0, 0.0, 0.035]}
                  - {t: 3.0, position: [0.0, 0.0, 0.035]}
            """).replace("loop: true", "loop: false").replace("  radiusM: 0.005\n",
            "  radiusM: 0.005\n  rendering: " + rendering + "\n");
        return Files.writeString(dir.resolve("press-" + rendering + ".yaml"), press);
    }

    /**
     * The hand pulls the stylus 1 cm into the resting cube's top face: the tool's penalty spring (1000 N/m, the
     * default against dynamic bodies) balances the hand's (300 N/m) and the force stands still. An LCP tool, the
     * default before, made it buzz between 0 and the safety layer's 8 N (docs/scenes.md, "contactModes").
     */
    @Test
    void pressingOnTheRestingCubeIsSteady(@TempDir Path dir) throws Exception {
        SimulatedCsv csv = simulate(dir, pressOnTheRestingCube(dir, "contact"), "3");
        double topM = 0.04 + 0.005;
        for (String[] row : csv.rows()) {
            double t = csv.get(row, "t");
            if (t >= 1.5) {
                double toolZ = csv.get(row, "tool.z");
                double fz = csv.get(row, "force.z");
                assertEquals(1000.0 * (topM - toolZ), fz, 0.01, "the tool's spring, t = " + t);
                assertEquals(300.0 * (toolZ - 0.035), fz, 0.03, "balances the hand's, t = " + t);
                assertEquals(2.3, fz, 0.1, "t = " + t);
                assertEquals(CUBE_REST_Z_M, csv.get(row, "cube.pz"), 2e-5, "the cube stays put, t = " + t);
            }
        }
    }

    @Test
    void aGrabThatCannotWorkIsRefusedAtLoadNamingTheField(@TempDir Path dir) throws Exception {
        String text = Files.readString(Path.of("../scenes/grab.yaml"));
        Path onTable = Files.writeString(dir.resolve("static.yaml"), text.replace(
            "    material: {staticFriction: 0.6, dynamicFriction: 0.4}\n  - name: cube",
            "    material: {staticFriction: 0.6, dynamicFriction: 0.4}\n    grab: {button: 0}\n  - name: cube"));
        String onlyDynamic = SimulatedCsv.refusal(dir, onTable);
        assertTrue(onlyDynamic.contains("bodies[0].grab") && onlyDynamic.contains("only a dynamic body"), onlyDynamic);

        // The cube's effective mass at its farthest anchor (corner 0.0346 m + reach 0.01 m) is
        // 1/(1/m + r²/I) = 0.0177 kg: at 1 kHz k·Δt² < 4·m_a − 2·b·Δt allows 6.92e4 N/m.
        Path stiff = Files.writeString(dir.resolve("stiff.yaml"), text.replace("stiffnessNpm: 300.0, dampingNspm: 0.8",
            "stiffnessNpm: 2.0e5, dampingNspm: 0.8"));
        String tooStiff = SimulatedCsv.refusal(dir, stiff);
        assertTrue(tooStiff.contains("bodies[1] (cube): grab.stiffnessNpm 200000.0 N/m is not below 6.921e+04 N/m"),
            tooStiff);
    }
}
