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
 * {@code material.viscosityNspm}: a solid wall's damps the press (with every rendering, the force added is −b·v of
 * the hand while the tool's sphere at the hand overlaps the wall, to 1e-9 N, and nothing else); a box the tool passes
 * through ({@code contactModes} none) is a fluid: the hand feels −b·v inside it and nothing outside.
 */
class BodyViscosityTest {

    private static final double B_NSPM = 0.5;

    @ParameterizedTest
    @EnumSource(ToolSpec.Rendering.class)
    void aViscousWallDampsThePressWhileTheToolIsInIt(ToolSpec.Rendering mode) throws Exception {
        String plain = RendererRig.wallScene(mode, 1000.0, false);
        RendererRig with = new RendererRig(RendererRig.withWallMaterial(plain, "{viscosityNspm: " + B_NSPM + "}"));
        RendererRig without = new RendererRig(plain);
        Vector3d x = new Vector3d();
        Vector3d v = new Vector3d();
        int inside = 0;
        for (int i = 1; i <= 1500; i++) {
            double t = i * RendererRig.DT_S;
            // In 4 mm past the surface at 5 cm/s, held, out at 2 cm/s.
            double vx = t <= 0.58 ? 0.05 : t > 0.8 && t <= 1.5 ? -0.02 : 0.0;
            x.add(vx * RendererRig.DT_S, 0.0, 0.0);
            v.set(vx, 0.0, 0.0);
            Vector3d added = new Vector3d(with.tick(x, v)).sub(without.tick(x, v));
            boolean in = x.x + 0.005 > 0.03;
            double expectedX = in ? -B_NSPM * vx : 0.0;
            if (in && vx != 0.0) {
                inside++;
            }
            assertEquals(expectedX, added.x, 1e-9, mode + ", t = " + t + ", hand at " + x.x);
            assertEquals(0.0, added.y, 1e-9, mode + ", t = " + t);
            assertEquals(0.0, added.z, 1e-9, mode + ", t = " + t);
        }
        assertTrue(inside > 200, mode + ": the tool was in the wall and moving for " + inside + " ticks");
    }

    @Test
    void aBoxTheToolPassesThroughIsAFluid() throws Exception {
        String text = RendererRig.defaultScene()
            + "  - name: honey\n"
            + "    shape: {type: box, halfExtents: [0.01, 0.01, 0.01]}\n"
            + "    position: [0.0, -0.04, 0.0]\n"
            + "    material: {viscosityNspm: 0.8}\n"
            + "contactModes:\n"
            + "  - {pair: [tool, honey], mode: none}\n";
        RendererRig rig = new RendererRig(text);
        Vector3d x = new Vector3d();
        Vector3d v = new Vector3d(0.0, -0.05, 0.0);
        int inside = 0;
        for (int i = 1; i <= 1200; i++) {
            // 20 µm off the 50 µm steps, so that no tick has the sphere exactly touching the box.
            x.set(0.0, -0.00002 - 0.05 * i * RendererRig.DT_S, 0.0);
            Vector3d f = rig.tick(x, v);
            // The tool's 5 mm sphere overlaps the 2 cm box for y in (−0.055, −0.025).
            boolean in = x.y > -0.055 && x.y < -0.025;
            inside += in ? 1 : 0;
            assertEquals(in ? 0.04 : 0.0, f.y, 1e-9, "y = " + x.y);
            assertEquals(0.0, f.x, 1e-9, "y = " + x.y);
            assertEquals(0.0, f.z, 1e-9, "y = " + x.y);
        }
        assertEquals(600, inside, "ticks inside the fluid: 3 cm at 5 cm/s");
    }

    @Test
    void aNegativeViscosityIsRefusedNamingItsPlace() throws Exception {
        String text = RendererRig.withWallMaterial(RendererRig.defaultScene(), "{viscosityNspm: -1.0}");
        SceneException refused = assertThrows(SceneException.class, () -> new RendererRig(text));
        assertTrue(refused.getMessage().startsWith("wall.yaml:") && refused.getMessage().contains("viscosityNspm"),
            refused.getMessage());
    }
}
