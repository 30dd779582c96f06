package org.hapticsd.server.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.hapticsd.physics.BoxShape;
import org.hapticsd.physics.ContactSettings;
import org.hapticsd.physics.Material;
import org.hapticsd.physics.PhysicsWorld;
import org.hapticsd.physics.PlaneShape;
import org.joml.Quaterniond;
import org.joml.Vector3d;
import org.junit.jupiter.api.Test;

/**
 * {@link SurfaceMagnet}: a 5 mm tool near the default scene's wall (a plane at x = 0.03, facing −x) and a box below
 * it, each magnetic with 1 N over 10 mm. The pull toward the surface grows from 0 at the surface to 1 N at 5 mm and
 * falls to 0 at 10 mm, the gap measured from the tool's sphere; nothing beyond, nothing touching.
 */
class SurfaceMagnetTest {

    private static final double RADIUS_M = 0.005;
    private static final double FORCE_N = 1.0;
    private static final double DISTANCE_M = 0.01;

    private static double[] pullN(double gapM) {
        return new double[] {gapM, gapM <= 0 || gapM >= DISTANCE_M ? 0.0
            : FORCE_N * (gapM <= DISTANCE_M / 2 ? gapM : DISTANCE_M - gapM) / (DISTANCE_M / 2)};
    }

    @Test
    void thePullRisesToItsMaximumHalfwayAndFallsToZeroAtTheDistance() {
        PhysicsWorld world = new PhysicsWorld(ContactSettings.defaults());
        int wall = world.addStaticBody("wall", new PlaneShape(new Vector3d(-1, 0, 0)), new Vector3d(0.03, 0, 0),
            new Quaterniond(), Material.DEFAULT);
        int box = world.addStaticBody("box", new BoxShape(0.015, 0.015, 0.01), new Vector3d(-0.1, 0.0, -0.03),
            new Quaterniond(), Material.DEFAULT);
        SurfaceMagnet magnet = new SurfaceMagnet(new int[] {wall, box}, new double[] {FORCE_N, FORCE_N},
            new double[] {DISTANCE_M, DISTANCE_M}, RADIUS_M);
        assertEquals(200.0, magnet.stiffnessNpm(0), 1e-12, "2·F/d");
        for (double gapM : new double[] {-0.001, 0.0005, 0.0025, 0.005, 0.0075, 0.0095, 0.012}) {
            double expected = pullN(gapM)[1];
            // In front of the wall: pulled along +x, into it.
            Vector3d f = magnet.addTo(world, new Vector3d(0.03 - RADIUS_M - gapM, 0.0, 0.0), new Vector3d());
            assertEquals(expected, f.x, 1e-9, "wall, gap " + gapM);
            assertEquals(0.0, Math.hypot(f.y, f.z), 1e-12, "wall, gap " + gapM);
            // Above the box's top face (z = -0.02): pulled down.
            Vector3d g = magnet.addTo(world, new Vector3d(-0.1, 0.0, -0.02 + RADIUS_M + gapM), new Vector3d());
            assertEquals(-expected, g.z, 1e-9, "box, gap " + gapM);
            assertEquals(0.0, Math.hypot(g.x, g.y), 1e-12, "box, gap " + gapM);
        }
    }

    @Test
    void aMagnetNeedsAForceAndADistance() {
        assertThrows(IllegalArgumentException.class,
            () -> new SurfaceMagnet(new int[] {0}, new double[] {0.0}, new double[] {0.01}, RADIUS_M));
        assertThrows(IllegalArgumentException.class,
            () -> new SurfaceMagnet(new int[] {0}, new double[] {1.0}, new double[] {Double.NaN}, RADIUS_M));
    }
}
