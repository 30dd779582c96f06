package org.hapticsd.physics.deformable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.hapticsd.physics.ContactSettings;
import org.hapticsd.physics.PhysicsWorld;
import org.joml.Vector3d;
import org.junit.jupiter.api.Test;

/**
 * Source 001's string in the world's step: the tool holds its free end 5 mm above where it lies and feels it pull
 * back. The string (a cantilever of stiffness 3R/L³ at its tip) and the grasp are two springs in series, so the tip
 * swings about the static balance and the force on the tool averages k_series·5 mm. (Small, so that the tip's
 * shortening and the tension the grasp then adds, which stiffen it by 3 % at 5 cm, stay below 0.1 %.)
 */
class StringBodyTest {

    @Test
    void shouldPullTheToolHoldingItsFreeEndWithTheBeamsStiffness() {
        double length = 1.0;
        double rho = 0.15;
        double r = 0.03;
        ElasticString model = new ElasticString(length, rho, r, 0.0, ElasticString.Basis.CLAMPED_FREE, 6, 200);
        model.setProjection(ElasticString.Projection.GALERKIN);
        model.setScheme(ElasticString.Scheme.CENTRED);
        double[] straight = new double[6];
        model.setCoefficients(straight, straight);
        StringBody string = new StringBody("string", model, new double[] {0, 0, 0}, 21, 0.005, rho, length);

        PhysicsWorld world = new PhysicsWorld(ContactSettings.defaults());
        world.setGravity(new Vector3d());
        int tool = world.addTool("tool", 0.005);
        int index = world.addDeformable(string, 0.0, 0.0);
        double grasp = 1.0;
        world.holdDeformableNode(index, 20, tool, grasp, 0.0);
        world.setToolState(tool, new Vector3d(length, 0, 0.005), new Vector3d());

        int steps = 60_000;
        double[] pull = new double[steps];
        Vector3d force = new Vector3d();
        for (int k = 0; k < steps; k++) {
            world.step(0.001);
            pull[k] = world.contactForceOnBody(tool, force).z;
        }
        double beam = 3 * r / (length * length * length);
        double series = beam * grasp / (beam + grasp);
        double expected = -series * 0.005;
        assertTrue(string.nodePosition(20, new Vector3d()).z > 0.0, "the tip is lifted toward the tool");
        assertEquals(expected, meanOverWholePeriods(pull), 0.02 * Math.abs(expected), "mean pull on the tool, N");
    }

    /**
     * The mean of an undamped swing over whole periods: between the first and the last upward crossing of the
     * signal's own mean (refined twice), so a part-period at the end does not bias it.
     */
    private static double meanOverWholePeriods(double[] signal) {
        int from = 0;
        int to = signal.length;
        double mean = 0;
        for (int pass = 0; pass < 3; pass++) {
            double sum = 0;
            for (int k = from; k < to; k++) {
                sum += signal[k];
            }
            mean = sum / (to - from);
            int first = -1;
            int last = -1;
            for (int k = 1; k < signal.length; k++) {
                if (signal[k - 1] < mean && signal[k] >= mean) {
                    if (first < 0) {
                        first = k;
                    }
                    last = k;
                }
            }
            if (first < 0 || last <= first) {
                break;
            }
            from = first;
            to = last;
        }
        return mean;
    }
}
