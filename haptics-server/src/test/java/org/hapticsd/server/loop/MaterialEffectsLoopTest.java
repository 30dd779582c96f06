package org.hapticsd.server.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringReader;
import org.hapticsd.server.scene.BuiltScene;
import org.hapticsd.server.scene.SceneBuilder;
import org.hapticsd.server.scene.SceneException;
import org.hapticsd.server.scene.SceneLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The materials' effects in the loop. {@code material.vibration}: the default scene with its wall vibrating at 50 Hz, 0.5 N. While the
 * stylus presses the wall, the rendered force is the wall's contact force plus 0.5·sin(2π·50·t) along the wall's
 * normal, with t the loop's simulated time, exactly, whether the tool renders by its contacts or by proxy; before the
 * press, and on the box that does not vibrate, nothing is added. A vibration above half the loop's rate, or without both its fields, is refused at load.
 */
class MaterialEffectsLoopTest {

    private static final double AMPLITUDE_N = 0.5;
    private static final double FREQUENCY_HZ = 50.0;

    /** The default scene with {@code material} (a YAML mapping) as its wall's material. */
    static String wallWithMaterial(String material) throws Exception {
        String wall = new String(SceneLoader.class.getResourceAsStream("/scenes/wall.yaml").readAllBytes(),
            java.nio.charset.StandardCharsets.UTF_8);
        String changed = wall.replace("    position: [0.03, 0.0, 0.0]\n",
            "    position: [0.03, 0.0, 0.0]\n    material: " + material + "\n");
        assertTrue(changed.contains("material: " + material), "the wall's material changed");
        return changed;
    }

    static String vibratingWall(String vibration) throws Exception {
        return wallWithMaterial("{vibration: " + vibration + "}");
    }

    private static BuiltScene build(String text) throws SceneException {
        return SceneBuilder.build(new SceneLoader().parse("wall.yaml", new StringReader(text)));
    }

    /** With the tool's own contacts, and through a proxy, whose resting contact the snapshot carries. */
    @ParameterizedTest
    @ValueSource(strings = {"contact", "proxy"})
    void theStylusPressingTheWallFeelsItsVibrationOnTopOfItsForce(String rendering) throws Exception {
        BuiltScene scene = build(vibratingWall("{frequencyHz: 50.0, amplitudeN: 0.5}").replace("  radiusM: 0.005\n",
            "  radiusM: 0.005\n  rendering: " + rendering + "\n"));
        LoopFixture f = new LoopFixture(scene, scene.newSimulatedDevice());
        int tool = scene.haptic().toolBody();
        int wall = scene.bodyIndices()[scene.bodyNames().indexOf("wall")];
        int onWall = 0;
        int elsewhere = 0;
        double largest = 0.0;
        // The wall from 0.8 to 2.6 s, the box under the hand from 3.5 to 4.5 s (scenes/wall.yaml's path).
        for (int i = 0; i < 5000; i++) {
            f.tick();
            LoopSnapshot s = f.snapshot();
            double[] contact = new double[3];
            boolean touchesWall = false;
            for (int c = 0; c < s.publishedContacts; c++) {
                if (s.contactBodies[2 * c] == tool) {
                    for (int k = 0; k < 3; k++) {
                        contact[k] += s.contactForceN[3 * c + k];
                    }
                    touchesWall |= s.contactBodies[2 * c + 1] == wall;
                }
            }
            double t = s.simTimeNs * 1e-9;
            // The wall's normal is −x: the positive half-wave pushes the tool out of it, toward −x.
            double expectedX = touchesWall ? -AMPLITUDE_N * Math.sin(2.0 * Math.PI * FREQUENCY_HZ * t) : 0.0;
            assertEquals(expectedX, s.renderedForceN[0] - contact[0], 1e-9, "x, t = " + t);
            assertEquals(0.0, s.renderedForceN[1] - contact[1], 1e-9, "y, t = " + t);
            assertEquals(0.0, s.renderedForceN[2] - contact[2], 1e-9, "z (the box does not vibrate), t = " + t);
            if (touchesWall) {
                onWall++;
                largest = Math.max(largest, Math.abs(expectedX));
            } else if (s.publishedContacts > 0) {
                elsewhere++;
            }
        }
        assertTrue(onWall > 1500 && elsewhere > 500, "on the wall " + onWall + ", on the box " + elsewhere);
        assertEquals(AMPLITUDE_N, largest, 1e-9, "the crests: 50 Hz sampled each ms hits them");
    }

    /**
     * {@code material.magnet}: the default wall pulling with 1 N over 10 mm. As the stylus nears it (the path moves
     * the hand from x = 0 to 0.05), the rendered force before any contact is the magnet's pull at the tool's gap
     * 0.025 − x: up to 1 N at 5 mm, nothing beyond 10 mm.
     */
    @Test
    void aMagneticWallPullsTheToolInAsItNears() throws Exception {
        BuiltScene scene = build(wallWithMaterial("{magnet: {maxForceN: 1.0, distanceM: 0.01}}"));
        LoopFixture f = new LoopFixture(scene, scene.newSimulatedDevice());
        int pulled = 0;
        double strongest = 0.0;
        for (int i = 0; i < 1000; i++) {
            f.tick();
            LoopSnapshot s = f.snapshot();
            if (s.publishedContacts > 0) {
                continue;
            }
            double gapM = 0.025 - s.devicePositionM[0];
            double expected = gapM <= 0.0 || gapM >= 0.01 ? 0.0 : (gapM <= 0.005 ? gapM : 0.01 - gapM) / 0.005;
            assertEquals(expected, s.renderedForceN[0], 1e-9, "gap " + gapM);
            if (expected > 0.0) {
                pulled++;
                strongest = Math.max(strongest, s.renderedForceN[0]);
            }
        }
        assertTrue(pulled > 20 && strongest > 0.9, "pulled on " + pulled + " ticks, at most " + strongest + " N");
    }

    @Test
    void aVibrationTheLoopCannotSampleOrAnEffectWithoutBothFieldsIsRefused() {
        SceneException fast = org.junit.jupiter.api.Assertions.assertThrows(SceneException.class,
            () -> build(vibratingWall("{frequencyHz: 600.0, amplitudeN: 0.5}")));
        assertTrue(fast.getMessage().contains("bodies[0] (wall): material.vibration.frequencyHz: 600 Hz is above "
            + "half the loop's rate (1000 Hz)"), fast.getMessage());
        SceneException half = org.junit.jupiter.api.Assertions.assertThrows(SceneException.class,
            () -> build(vibratingWall("{frequencyHz: 50.0}")));
        assertTrue(half.getMessage().contains("bodies[0] (wall): material.vibration: give both frequencyHz and "
            + "amplitudeN"), half.getMessage());
        SceneException magnet = org.junit.jupiter.api.Assertions.assertThrows(SceneException.class,
            () -> build(wallWithMaterial("{magnet: {maxForceN: 1.0}}")));
        assertTrue(magnet.getMessage().contains("bodies[0] (wall): material.magnet: give both maxForceN and distanceM"),
            magnet.getMessage());
    }
}
