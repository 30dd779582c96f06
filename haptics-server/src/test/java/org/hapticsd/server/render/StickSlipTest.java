package org.hapticsd.server.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.hapticsd.server.scene.SceneException;
import org.hapticsd.server.scene.ToolSpec;
import org.joml.Vector3d;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code material.stickSlip} on the default wall (its normal −x), with every rendering: the hand presses 2 mm in,
 * slides 2 cm along +y at 2 cm/s, leaves the wall and presses again where it left (the wall is the only body the tool
 * meets on this path). The force the effect adds (the run
 * with it less the same run without it) is, at every tick, the sawtooth of a model written here: a spring of k = 500
 * N/m across the surface from where the hand stuck, let go when it would pass 0.5 N; nothing along the normal, and
 * nothing from the old point once the tool has left the wall.
 */
class StickSlipTest {

    private static final double K_NPM = 500.0;
    private static final double MAX_N = 0.5;

    private static String scene(ToolSpec.Rendering mode, boolean stickSlip) throws Exception {
        String text = RendererRig.wallScene(mode, 1000.0, false);
        return stickSlip ? RendererRig.withWallMaterial(text, "{stickSlip: {stiffnessNpm: " + K_NPM + ", maxForceN: "
            + MAX_N + "}}") : text;
    }

    @ParameterizedTest
    @EnumSource(ToolSpec.Rendering.class)
    void aHandDraggedAlongTheSurfaceFeelsTheSawtoothOfItsSpring(ToolSpec.Rendering mode) throws Exception {
        RendererRig with = new RendererRig(scene(mode, true));
        RendererRig without = new RendererRig(scene(mode, false));
        // 20 µm off the 50 µm steps of the press, so that no tick has the tool exactly touching the wall.
        Vector3d x = new Vector3d(0.00002, 0.0, 0.0);
        Vector3d v = new Vector3d();
        double stuckAtY = 0.0;
        boolean wasTouching = false;
        int slips = 0;
        double largestN = 0.0;
        for (int i = 1; i <= 3000; i++) {
            double t = i * RendererRig.DT_S;
            double vx = t <= 0.54 || t > 2.2 && t <= 2.74 ? 0.05 : t > 1.6 && t <= 2.14 ? -0.05 : 0.0;
            double vy = t > 0.6 && t <= 1.6 ? 0.02 : 0.0;
            x.add(vx * RendererRig.DT_S, vy * RendererRig.DT_S, 0.0);
            v.set(vx, vy, 0.0);
            Vector3d added = new Vector3d(with.tick(x, v)).sub(without.tick(x, v));
            // The model: stuck where the tool starts to touch the wall, slipping on the slide, forgotten when the tool
            // leaves, and stuck afresh where the second press meets the wall.
            double expectedY = 0.0;
            boolean touching = with.toolTouches();
            if (touching && !wasTouching) {
                stuckAtY = x.y;
            }
            wasTouching = touching;
            if (touching) {
                double stretch = x.y - stuckAtY;
                if (K_NPM * Math.abs(stretch) > MAX_N) {
                    stuckAtY = x.y;
                    slips++;
                } else {
                    expectedY = -K_NPM * stretch;
                }
            }
            largestN = Math.max(largestN, Math.abs(added.y));
            assertEquals(expectedY, added.y, 1e-9, mode + ", t = " + t + ": across the surface");
            assertEquals(0.0, added.x, 1e-9, mode + ", t = " + t + ": nothing along the normal");
            assertEquals(0.0, added.z, 1e-9, mode + ", t = " + t);
        }
        // 2 cm at a slip every 1 mm (0.5 N / 500 N/m); the spring reaches within one tick's 0.01 N of 0.5 N.
        assertEquals(19, slips, 1, mode + ": slips");
        assertTrue(largestN > MAX_N - 0.011 && largestN <= MAX_N, mode + ": the sawtooth's height " + largestN);
    }

    @Test
    void aStickSlipWithoutBothFieldsIsRefused() throws Exception {
        String text = RendererRig.withWallMaterial(RendererRig.defaultScene(), "{stickSlip: {stiffnessNpm: 500.0}}");
        SceneException refused = assertThrows(SceneException.class, () -> new RendererRig(text));
        assertTrue(refused.getMessage().contains("bodies[0] (wall): material.stickSlip: give both stiffnessNpm and "
            + "maxForceN"), refused.getMessage());
    }
}
