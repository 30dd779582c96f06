package org.hapticsd.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code scenes/materials.yaml} end to end, from the simulate CSV (force: what the device was commanded, after the
 * safety layer, here past its ramp and within its limits; device: the stylus, which is the hand the effects read):
 * the chalk pad's stick-slip is a sawtooth whose rise follows the stylus at 400 N/m, the motor pad's 80 Hz rides on
 * its press, the magnet pad pulls the stylus in with its profile, the honey damps the pass through it, and the grating
 * pad's ridges push back with their slope times the press.
 */
class SimulateMaterialsTest {

    @Test
    void eachPadAndTheHoneyRenderTheirEffect(@TempDir Path dir) throws Exception {
        SimulatedCsv csv = SimulatedCsv.run(dir, Path.of("../scenes/materials.yaml"), "materials", "12");
        int slips = 0;
        int sticking = 0;
        double cos80 = 0.0;
        double sin80 = 0.0;
        int motor = 0;
        int pulled = 0;
        int inHoney = 0;
        int grating = 0;
        double k = 2.0 * Math.PI / 0.006;
        for (int i = 1; i + 1 < csv.rows().size(); i++) {
            double t = csv.at(i, "t");
            double fy = csv.at(i, "force.y");
            double fz = csv.at(i, "force.z");
            if (t > 2.4 && t < 3.8) {
                // The chalk: a spring of 400 N/m across the pad, from 0 to at most 0.4 N, let go at once when passed.
                double rise = fy - csv.at(i - 1, "force.y");
                assertTrue(fy <= 1e-12 && fy >= -0.4 - 1e-12, "chalk, t = " + t + ": " + fy);
                if (rise > 0.2) {
                    slips++;
                } else if (fy != 0.0 && csv.at(i - 1, "force.y") != 0.0) {
                    double stretch = csv.at(i, "device.y") - csv.at(i - 1, "device.y");
                    assertEquals(-400.0 * stretch, rise, 1e-9, "chalk, t = " + t + ": the spring follows the stylus");
                    sticking++;
                }
            }
            if (t > 4.9 && t < 5.8) {
                cos80 += fz * Math.cos(2.0 * Math.PI * 80.0 * t);
                sin80 += fz * Math.sin(2.0 * Math.PI * 80.0 * t);
                motor++;
            }
            if (t > 6.6 && t < 8.4) {
                // The magnet: the gap x between the tool's sphere and the pad's top (z = -0.03), F·x/(d/2) up to d/2
                // and F·(d − x)/(d/2) beyond, F = 1 N, d = 10 mm, pulling down; before contact.
                double gap = csv.at(i, "device.z") - 0.005 + 0.03;
                double pull = gap <= 0.0 || gap >= 0.01 ? 0.0 : gap <= 0.005 ? gap / 0.005 : (0.01 - gap) / 0.005;
                assertTrue(gap > 0.0, "the magnet holds the stylus off the pad, t = " + t);
                assertEquals(-pull, fz, 1e-9, "magnet, t = " + t + ", gap " + gap);
                pulled += pull > 0.4 ? 1 : 0;
            }
            if (t > 10.6 && t < 11.99) {
                // The grating: the press (force.z, the pad's normal force: nothing else acts along z) times the
                // ridges' slope, A·(2π/λ)·cos(2π·x/λ), the ridges across x from the pad's centre at x = 0.
                double expectedX = -fz * 0.0001 * k * Math.cos(k * csv.at(i, "device.x"));
                assertEquals(expectedX, csv.at(i, "force.x"), 1e-9, "grating, t = " + t);
                grating += fz > 1.0 ? 1 : 0;
            }
            if (t > 9.0 && t < 9.6) {
                double x = csv.at(i, "device.x");
                // The honey: x within ±0.04 m, the tool's sphere 5 mm around the stylus; 0.1 mm kept from its faces.
                if (Math.abs(x) < 0.045 - 1e-4) {
                    assertEquals(-0.9 * csv.deviceVelocity(i, "x"), csv.at(i, "force.x"), 2e-3, "honey, t = " + t);
                    inHoney++;
                } else if (Math.abs(x) > 0.045 + 1e-4) {
                    assertEquals(0.0, csv.at(i, "force.x"), 1e-12, "out of the honey, t = " + t);
                }
            }
        }
        // The stylus travels about 4 cm; a slip every 1 mm of stretch (0.4 N / 400 N/m), less what the hand's spring
        // holds back: measured 37.
        assertTrue(slips >= 33 && slips <= 40, "chalk slips: " + slips);
        assertTrue(sticking > 1000, "chalk ticks sticking: " + sticking);
        // The 0.3 N sine plus the stylus's own motion on the contact spring (measured 0.312 N).
        double amplitude = 2.0 * Math.hypot(cos80, sin80) / motor;
        assertEquals(0.31, amplitude, 0.02, "the motor's 80 Hz");
        assertTrue(pulled > 300, "the magnet pulled the stylus near its strongest for " + pulled + " ticks");
        assertTrue(inHoney > 350, "ticks in the honey: " + inHoney);
        assertTrue(grating > 1300, "ticks pressing the grating: " + grating);
    }
}
