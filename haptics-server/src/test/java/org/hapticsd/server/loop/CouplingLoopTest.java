package org.hapticsd.server.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.hapticsd.server.scene.SceneBuilder;
import org.hapticsd.server.scene.SceneLoader;
import org.junit.jupiter.api.Test;

/**
 * The loop with a scene rendered by coupling ({@code scenes/coupling.yaml}) on a device a test moves: the snapshot's
 * tool is the proxy, which follows the hand; a device that was away and comes back elsewhere finds the proxy at its
 * hand, not pulled across the scene toward it.
 */
class CouplingLoopTest {

    @Test
    void aDeviceThatComesBackElsewhereFindsTheProxyAtItsHand() throws Exception {
        ScriptedDevice device = new ScriptedDevice();
        device.xM = -0.05;
        device.zM = 0.02;
        LoopFixture f = new LoopFixture(SceneBuilder.build(new SceneLoader().load(Path.of("../scenes/coupling.yaml"))),
            device);
        f.ticks(200);
        LoopSnapshot s = f.snapshot();
        assertEquals(-0.05, s.toolPositionM[0], 1e-9, "the proxy at the hand");
        assertEquals(0.02, s.toolPositionM[2], 1e-9);

        // Moving when unplugged: the proxy stops and floats where the hand left it.
        device.xM = -0.049;
        f.ticks(1);
        device.unplugged = true;
        device.producesStates = false;
        f.ticks(50);
        double leftM = f.snapshot().toolPositionM[0];
        assertEquals(-0.049, leftM, 1e-3, "where the hand left it");
        f.ticks(50);
        assertEquals(leftM, f.snapshot().toolPositionM[0], 1e-12, "stopped there");
        assertEquals(0.02, f.snapshot().toolPositionM[2], 1e-9, "weightless");

        // Back 15 cm away: over the cube, clear of it.
        device.xM = 0.1;
        device.zM = 0.1;
        device.unplugged = false;
        device.producesStates = true;
        f.ticks(1);
        s = f.snapshot();
        assertEquals(0.1, s.toolPositionM[0], 1e-9, "placed at the hand again");
        assertEquals(0.1, s.toolPositionM[2], 1e-9);
        assertEquals(0.0, Math.abs(s.renderedForceN[0]) + Math.abs(s.renderedForceN[2]), 1e-9, "nothing stretched");

        // Held where it is, the proxy stays with the hand.
        f.ticks(100);
        assertEquals(0.1, f.snapshot().toolPositionM[0], 1e-9);
        assertTrue(f.snapshot().renderedForceN[2] < 1e-9, "no pull: " + f.snapshot().renderedForceN[2]);
    }
}
