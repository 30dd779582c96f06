package org.hapticsd.server.scene;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.joml.Vector3d;
import org.junit.jupiter.api.Test;

/**
 * {@code scenes/cradle.yaml} and {@code scenes/cradle-b.yaml}, loaded from their files and run on the loop on
 * simulated time, against the bars for IMPULSE mode (source 000 §4): one ball striking four, the last
 * leaves at 0.475 m/s or more and every other ball moves at 0.025 m/s or less, kinetic energy within 1 %; two
 * striking three, the last two leave at the striking speed within 5 %.
 */
class CradleScenesTest {
    private static final double STRIKE_MPS = 0.5;
    private static final double MASS_KG = 1.0;

    @Test
    void shouldPassOneBallsMomentumToTheLastInCradleScene() {
        double[] v = velocitiesAfterOneSecond("cradle.yaml");
        assertTrue(v[4] >= 0.475, "b4 at " + v[4]);
        for (int ball = 0; ball < 4; ball++) {
            assertTrue(Math.abs(v[ball]) <= 0.025, "b" + ball + " at " + v[ball]);
        }
        double energyJ = 0.0;
        for (double vi : v) {
            energyJ += 0.5 * MASS_KG * vi * vi;
        }
        assertEquals(0.5 * MASS_KG * STRIKE_MPS * STRIKE_MPS, energyJ, 0.01 * 0.125, "kinetic energy");
    }

    @Test
    void shouldPassTwoBallsMomentumToTheLastTwoInCradleBScene() {
        double[] v = velocitiesAfterOneSecond("cradle-b.yaml");
        assertEquals(STRIKE_MPS, v[3], 0.05 * STRIKE_MPS, "b3");
        assertEquals(STRIKE_MPS, v[4], 0.05 * STRIKE_MPS, "b4");
        for (int ball = 0; ball < 3; ball++) {
            assertTrue(Math.abs(v[ball]) <= 0.025, "b" + ball + " at " + v[ball]);
        }
    }

    private static double[] velocitiesAfterOneSecond(String file) {
        try (ValidationScenesTest.SceneRun run = new ValidationScenesTest.SceneRun(file)) {
            run.ticks(1000);
            double[] v = new double[5];
            Vector3d velocity = new Vector3d();
            for (int ball = 0; ball < 5; ball++) {
                v[ball] = run.world.bodyLinearVelocity(run.body("b" + ball), velocity).x;
            }
            return v;
        }
    }
}
