package org.hapticsd.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hapticsd simulate --scene scenes/wall.yaml --duration 2 --out w.csv}: the stylus presses into the wall
 * and the force written to the device equals the scene's stiffness × penetration.
 */
class SimulateWallTest {
    private static final double STIFFNESS_NPM = 1000.0; // scenes/wall.yaml contact.stiffnessNpm
    private static final double DAMPING_NSPM = 0.2;     // contact.dampingNspm
    private static final double WALL_X_M = 0.03;        // the wall's plane, solid toward +x
    private static final double TOOL_RADIUS_M = 0.005;
    private static final double DT_S = 0.001;

    @Test
    void shouldPressTheStylusIntoTheWallWithForceEqualToStiffnessTimesPenetration(@TempDir Path dir) throws Exception {
        Path csv = dir.resolve("w.csv");
        StringWriter err = new StringWriter();
        int code = Main.run(new PrintWriter(new StringWriter()), new PrintWriter(err),
            "simulate", "--scene", "../scenes/wall.yaml", "--duration", "2", "--out", csv.toString());
        assertEquals(0, code, err.toString());

        List<String> lines = Files.readAllLines(csv);
        assertEquals(2001, lines.size(), "header + one row per tick");
        List<String> header = List.of(lines.get(0).split(","));
        int t = header.indexOf("t");
        int toolX = header.indexOf("tool.x");
        int forceX = header.indexOf("force.x");
        int forceY = header.indexOf("force.y");
        int safety = header.indexOf("safety");
        assertEquals(List.of("t", "device.x", "device.y", "device.z", "tool.x", "tool.y", "tool.z",
            "force.x", "force.y", "force.z", "safety"), header.subList(0, 11));
        assertEquals("wall.px", header.get(11));
        // The delivered force, the events and then the impact transient were added after the body columns, so no
        // older column moved.
        assertEquals(List.of("box.vz", "delivered.x", "delivered.y", "delivered.z", "events", "events.names",
            "transient.x", "transient.y", "transient.z", "pulse.impulseNs", "pulse.heightN", "pulse.durationS"),
            header.subList(header.size() - 12, header.size()));

        int checked = 0;
        double deepestM = 0;
        double previousDepthM = Double.NaN;
        for (String line : lines.subList(1, lines.size())) {
            String[] row = line.split(",");
            double depthM = Double.parseDouble(row[toolX]) + TOOL_RADIUS_M - WALL_X_M;
            double fx = Double.parseDouble(row[forceX]);
            boolean active = row[safety].equals("ACTIVE");
            if (active && depthM > 0 && Double.parseDouble(row[t]) >= 1.5) {
                // Steady hold in the wall, after the 1 s start-up ramp. The penalty force is k·d + b·ḋ; ḋ from the
                // row-to-row difference is below 1e-9 m/s here, so b·ḋ < 1e-9 N, and the slew limit (0.5 N/tick)
                // is inactive. Tolerance 1e-6 N covers both with three orders of magnitude to spare.
                double rateMps = (depthM - previousDepthM) / DT_S;
                assertEquals(-STIFFNESS_NPM * depthM, fx, 1e-6, "force.x at t=" + row[t]);
                assertTrue(Math.abs(DAMPING_NSPM * rateMps) < 1e-6, "stylus at rest at t=" + row[t]);
                assertEquals(0.0, Double.parseDouble(row[forceY]), 0.0);
                checked++;
            }
            deepestM = Math.max(deepestM, depthM);
            previousDepthM = depthM;
        }
        assertEquals(500, checked, "rows from t = 1.5 s to 1.999 s in steady contact");
        // The hand pulls 2 cm into the wall with 200 N/m against 1000 N/m: 4.17 mm of penetration at rest.
        assertTrue(deepestM > 0.004, "the stylus presses into the wall, deepest " + deepestM);
        String[] stderr = err.toString().strip().split("\n");
        assertTrue(stderr[stderr.length - 1].matches("step_us p50=[0-9.]+ p99=[0-9.]+"), stderr[stderr.length - 1]);
    }

    /**
     * The simulated stylus holds each command until the next, so the delivered force of row k is the force column
     * of row k − 1, character for character (Double.toString round-trips, and the stylus's 10 N clamp never acts
     * below the safety layer's 8 N). The events column is the bitmask, events.names its bits by name.
     */
    @Test
    void shouldWriteTheDeliveredForceAndTheEventsOfEachTick(@TempDir Path dir) throws Exception {
        Path csv = dir.resolve("w.csv");
        StringWriter err = new StringWriter();
        int code = Main.run(new PrintWriter(new StringWriter()), new PrintWriter(err),
            "simulate", "--scene", "../scenes/wall.yaml", "--duration", "4", "--out", csv.toString());
        assertEquals(0, code, err.toString());
        List<String> lines = Files.readAllLines(csv);
        List<String> header = List.of(lines.get(0).split(","));
        int force = header.indexOf("force.x");
        int delivered = header.indexOf("delivered.x");
        int events = header.indexOf("events");
        int names = header.indexOf("events.names");

        String[] first = lines.get(1).split(",", -1);
        assertEquals("0.0", first[delivered], "nothing commanded before the first tick");
        assertEquals(org.hapticsd.server.loop.LoopEvents.DEVICE_CONNECTED, Integer.parseInt(first[events]));
        assertEquals("DEVICE_CONNECTED", first[names]);
        int began = 0;
        int ended = 0;
        for (int k = 2; k < lines.size(); k++) {
            String[] previous = lines.get(k - 1).split(",", -1);
            String[] row = lines.get(k).split(",", -1);
            for (int axis = 0; axis < 3; axis++) {
                assertEquals(previous[force + axis], row[delivered + axis], "row " + k + " axis " + axis);
            }
            int mask = Integer.parseInt(row[events]);
            assertEquals(org.hapticsd.server.loop.LoopEvents.appendNames(mask, new StringBuilder()).toString(),
                row[names], "row " + k);
            if ((mask & org.hapticsd.server.loop.LoopEvents.CONTACT_BEGAN) != 0) {
                began++;
            }
            if ((mask & org.hapticsd.server.loop.LoopEvents.CONTACT_ENDED) != 0) {
                ended++;
            }
        }
        // scenes/wall.yaml: the hand reaches into the wall from 0.8 s and leaves it from 2.6 s, then comes down onto
        // the box from 3 s and holds until 4.5 s: in 4 s two contacts begin and one ends.
        assertEquals(2, began);
        assertEquals(1, ended);
    }

    @Test
    void shouldWriteBitIdenticalCsvForTheSameSceneAndDuration(@TempDir Path dir) throws Exception {
        Path a = dir.resolve("a.csv");
        Path b = dir.resolve("b.csv");
        PrintWriter quiet = new PrintWriter(new StringWriter());
        assertEquals(0, Main.run(quiet, quiet, "simulate", "--duration", "1", "--out", a.toString()));
        assertEquals(0, Main.run(quiet, quiet, "simulate", "--duration", "1", "--out", b.toString()));
        assertEquals(Files.readString(a), Files.readString(b));
    }
}
