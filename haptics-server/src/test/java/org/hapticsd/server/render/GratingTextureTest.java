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
 * {@code material.texture} on the default wall (its normal −x), a grating of period 4 mm and amplitude 0.1 mm running
 * along y, with every rendering: the hand presses 2 mm in and slides 2 cm along y at 2 cm/s. The force the texture
 * adds (the run with it less the same run without it) is, at every tick, −f_n·A·(2π/λ)·cos(2π·y/λ) along y, f_n the
 * wall's normal force on the tool, to 1e-9 N; nothing along the normal; nothing before the press. A grating whose
 * direction is the wall's normal adds nothing.
 */
class GratingTextureTest {

    private static final double PERIOD_M = 0.004;
    private static final double AMPLITUDE_M = 0.0001;

    private static String scene(ToolSpec.Rendering mode, String direction) throws Exception {
        String text = RendererRig.wallScene(mode, 1000.0, false);
        return direction == null ? text : RendererRig.withWallMaterial(text, "{texture: {periodM: " + PERIOD_M
            + ", amplitudeM: " + AMPLITUDE_M + ", direction: " + direction + "}}");
    }

    @ParameterizedTest
    @EnumSource(ToolSpec.Rendering.class)
    void aHandSlidingOverTheGratingFeelsItsSlopeScaledByThePress(ToolSpec.Rendering mode) throws Exception {
        RendererRig with = new RendererRig(scene(mode, "[0.0, 1.0, 0.0]"));
        RendererRig without = new RendererRig(scene(mode, null));
        // 20 µm off the 50 µm steps of the press, so that no tick has the tool exactly touching the wall.
        Vector3d x = new Vector3d(0.00002, 0.0, 0.0);
        Vector3d v = new Vector3d();
        double k = 2.0 * Math.PI / PERIOD_M;
        double largestN = 0.0;
        double largestPressN = 0.0;
        int pressed = 0;
        for (int i = 1; i <= 1700; i++) {
            double t = i * RendererRig.DT_S;
            double vx = t <= 0.54 ? 0.05 : 0.0;
            double vy = t > 0.6 && t <= 1.6 ? 0.02 : 0.0;
            x.add(vx * RendererRig.DT_S, vy * RendererRig.DT_S, 0.0);
            v.set(vx, vy, 0.0);
            Vector3d added = new Vector3d(with.tick(x, v)).sub(without.tick(x, v));
            double fn = with.toolNormalForceN();
            assertEquals(fn, without.toolNormalForceN(), 0.0, mode + ": the texture leaves the physics alone");
            double expectedY = -fn * AMPLITUDE_M * k * Math.cos(k * x.y);
            assertEquals(expectedY, added.y, 1e-9, mode + ", t = " + t + ", f_n = " + fn);
            assertEquals(0.0, added.x, 1e-9, mode + ", t = " + t + ": nothing along the normal");
            assertEquals(0.0, added.z, 1e-9, mode + ", t = " + t);
            largestN = Math.max(largestN, Math.abs(added.y));
            largestPressN = Math.max(largestPressN, fn);
            pressed += fn > 1.9 ? 1 : 0;
        }
        // The press: 2 mm into 1000 N/m, about 2 N; the slope's largest force f_n·A·2π/λ, about 0.31 N, reached
        // within 0.9° of phase at the slide's 20 µm a tick (cos ≥ 0.9998).
        assertTrue(pressed > 1000, mode + ": ticks pressing 2 N: " + pressed);
        double peakN = largestPressN * AMPLITUDE_M * k;
        assertTrue(largestN <= peakN + 1e-9 && largestN > 0.999 * peakN, mode + ": the slope's largest force "
            + largestN + " N against f_n·A·2π/λ = " + peakN + " N");
    }

    @Test
    void aGratingAlongTheNormalAddsNothing() throws Exception {
        RendererRig with = new RendererRig(scene(ToolSpec.Rendering.CONTACT, "[1.0, 0.0, 0.0]"));
        RendererRig without = new RendererRig(scene(ToolSpec.Rendering.CONTACT, null));
        Vector3d x = new Vector3d(0.00002, 0.0, 0.0);
        Vector3d v = new Vector3d(0.05, 0.0, 0.0);
        for (int i = 1; i <= 600; i++) {
            x.x = Math.min(0.02702, 0.00002 + 0.05 * i * RendererRig.DT_S);
            Vector3d added = new Vector3d(with.tick(x, v)).sub(without.tick(x, v));
            assertEquals(0.0, added.length(), 1e-12, "tick " + i);
        }
        assertTrue(with.toolNormalForceN() > 1.9, "pressed: " + with.toolNormalForceN());
    }

    @Test
    void aTextureWithoutItsDirectionIsRefused() throws Exception {
        String text = RendererRig.withWallMaterial(RendererRig.defaultScene(),
            "{texture: {periodM: 0.004, amplitudeM: 0.0001}}");
        SceneException refused = assertThrows(SceneException.class, () -> new RendererRig(text));
        assertTrue(refused.getMessage().contains("bodies[0] (wall): material.texture: give periodM, amplitudeM and "
            + "direction"), refused.getMessage());
    }
}
