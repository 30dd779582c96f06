package org.hapticsd.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code guide} end to end, from the simulate CSV: {@code scenes/guide.yaml}'s line pulls the hand back across it
 * with F = −k·e − b·v_e and leaves it free along it; a plane pulls only along its normal, a point along every axis;
 * a guide that names the wrong axis for its kind is refused at load.
 */
class SimulateGuideTest {

    private static final double K_NPM = 200.0;
    private static final double B_NSPM = 0.5;


    private static Path withGuide(Path dir, String name, String guide) throws Exception {
        String text = Files.readString(Path.of("../scenes/guide.yaml"));
        String block = text.substring(text.indexOf("guide:\n"), text.indexOf("\ncontactModes:"));
        Path file = Files.writeString(dir.resolve(name), text.replace(block, guide));
        assertTrue(Files.readString(file).contains(guide), "the guide replaced");
        return file;
    }

    @Test
    void theLinePullsTheHandBackAcrossItAndLeavesItFreeAlongIt(@TempDir Path dir) throws Exception {
        SimulatedCsv csv = SimulatedCsv.run(dir, Path.of("../scenes/guide.yaml"), "line", "5.5");
        int sliding = 0;
        for (int i = 1; i + 1 < csv.rows().size(); i++) {
            double t = csv.at(i, "t");
            double x = csv.at(i, "device.x");
            assertEquals(-K_NPM * x - B_NSPM * csv.deviceVelocity(i, "x"), csv.at(i, "force.x"), 2e-3,
                "across the line, t = " + t);
            assertEquals(0.0, csv.at(i, "force.y"), 0.0, "free along it, t = " + t);
            assertEquals(0.0, csv.at(i, "force.z"), 0.0, "on it in z, t = " + t);
            if (t >= 1.8 && t < 2.5) {
                sliding++;
                assertEquals(0.1, csv.deviceVelocity(i, "y"), 1e-3, "sliding along the line, t = " + t);
                assertEquals(0.006, x, 1e-5, "300/(300 + 200) of the hand's 1 cm, t = " + t);
            }
            if (t >= 3.7 && t < 4.0) {
                assertEquals(0.018, x, 1e-5, "of 3 cm, t = " + t);
                assertEquals(-3.6, csv.at(i, "force.x"), 2e-3, "t = " + t);
            }
        }
        assertEquals(700, sliding);
    }

    @Test
    void aPlanePullsAlongItsNormalOnlyAndAPointAlongEveryAxis(@TempDir Path dir) throws Exception {
        SimulatedCsv plane = SimulatedCsv.run(dir, withGuide(dir, "plane.yaml",
            "guide: {type: plane, point: [0.0, 0.0, 0.0], normal: [2.0, 0.0, 0.0], stiffnessNpm: 200.0, "
                + "dampingNspm: 0.5}\n"), "plane", "4");
        for (int i = 1; i + 1 < plane.rows().size(); i++) {
            double expectedN = -K_NPM * plane.at(i, "device.x") - B_NSPM * plane.deviceVelocity(i, "x");
            assertEquals(expectedN, plane.at(i, "force.x"), 2e-3, "along the normal (given unnormalised)");
            assertEquals(0.0, plane.at(i, "force.y"), 0.0, "free in the plane");
        }
        SimulatedCsv point = SimulatedCsv.run(dir, withGuide(dir, "point.yaml",
            "guide: {type: point, point: [0.0, -0.05, 0.0], stiffnessNpm: 50.0, dampingNspm: 0.5}\n"), "point", "4");
        // A softer spring, so that the 10 cm the hand goes stays under the safety layer's 8 N.
        double strongestY = 0.0;
        for (int i = 1; i + 1 < point.rows().size(); i++) {
            double y = point.at(i, "device.y") + 0.05;
            assertEquals(-50.0 * y - B_NSPM * point.deviceVelocity(i, "y"), point.at(i, "force.y"), 2e-3,
                "back toward the point along y too");
            strongestY = Math.min(strongestY, point.at(i, "force.y"));
        }
        assertTrue(strongestY < -3.0, "the hand pulled the stylus far from the point: " + strongestY + " N");
    }

    @Test
    void aGuideWithTheWrongAxisForItsKindIsRefusedAtLoad(@TempDir Path dir) throws Exception {
        assertRefused(dir, "line-normal.yaml", "guide: {type: line, normal: [0.0, 0.0, 1.0]}\n",
            "guide: a line takes a direction (and no normal)");
        assertRefused(dir, "plane.yaml", "guide: {type: plane, direction: [0.0, 0.0, 1.0]}\n",
            "guide: a plane takes a normal (and no direction)");
        assertRefused(dir, "point.yaml", "guide: {type: point, normal: [0.0, 0.0, 1.0]}\n",
            "guide: a point takes neither a direction nor a normal");
        assertRefused(dir, "zero.yaml", "guide: {type: line, direction: [0.0, 0.0, 0.0]}\n",
            "guide: the guide's direction must be a finite, non-zero vector");
        assertRefused(dir, "untyped.yaml", "guide: {point: [0.0, 0.0, 0.0]}\n", "guide.type: missing (point, line or "
            + "plane)");
        assertRefused(dir, "kind.yaml", "guide: {type: circle}\n", "guide.type: must be point, line or plane, got 'circle'");
    }

    private static void assertRefused(Path dir, String name, String guide, String message) throws Exception {
        Path file = withGuide(dir, name, guide);
        String refusal = SimulatedCsv.refusal(dir, file);
        assertTrue(refusal.contains(message), refusal);
    }
}
