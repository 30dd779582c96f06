package org.hapticsd.server.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.hapticsd.server.scene.ToolSpec;
import org.joml.Vector3d;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The stiff-wall conformance suite every {@link ForceRenderer} passes (the seam design's §C proof), on the default
 * scene's wall ({@code scenes/wall.yaml}: the plane x = 0.03 m, its normal −x, a 5 mm tool, the contact's spring 1000
 * N/m; the god-object's spring and the default coupling are 1000 N/m too), driven as the loop drives it: the hand set,
 * {@link ForceRenderer#beforeStep}, the step, {@link ForceRenderer#afterStep}, and, when the scene has it, the
 * passivity filter on the result.
 * <ul>
 *   <li>A hand held {@code d} behind the wall's surface feels {@code k·d} out of it.</li>
 *   <li>A hand in free space feels nothing, at rest or at a constant speed.</li>
 *   <li>With the passivity observer and controller on, a random hand motion in and out of a wall stiff enough to be
 *       active when sampled ({@code K·T/2} above the contact's damping) never makes the observed energy negative
 *       by more than one tick's flow; with it off, the same motion makes it so.</li>
 * </ul>
 */
class ForceRendererConformanceTest {

    private static final double DT_S = RendererRig.DT_S;
    /** Where the tool's sphere (5 mm) touches the wall at x = 0.03 m. */
    private static final double SURFACE_X_M = 0.025;
    private static final double K_NPM = 1000.0;

    private static RendererRig rig(ToolSpec.Rendering mode, double stiffnessNpm, boolean passivity) throws Exception {
        return new RendererRig(RendererRig.wallScene(mode, stiffnessNpm, passivity));
    }

    @ParameterizedTest
    @EnumSource(ToolSpec.Rendering.class)
    void aHandHeldBehindTheWallFeelsItsSpring(ToolSpec.Rendering rendering) throws Exception {
        for (double depthM : new double[] {0.002, 0.004, 0.008}) {
            RendererRig rig = rig(rendering, K_NPM, false);
            Vector3d x = new Vector3d();
            Vector3d v = new Vector3d();
            // In at 5 cm/s from the origin, then held for 1 s.
            double targetX = SURFACE_X_M + depthM;
            double speed = 0.05;
            int inTicks = (int) Math.ceil(targetX / (speed * DT_S));
            for (int i = 0; i < inTicks + 1000; i++) {
                boolean moving = i < inTicks;
                x.set(Math.min(targetX, (i + 1) * speed * DT_S), 0.0, 0.0);
                v.set(moving ? speed : 0.0, 0.0, 0.0);
                rig.tick(x, v);
            }
            Vector3d f = rig.forceN;
            // The contact's spring and the god-object's are the penalty law at rest, k·d; the coupled proxy rests on
            // the wall's surface in LCP, and the coupling's spring is stretched by d. All three measured to 1e-9 N;
            // a µN leaves room for the LCP solver's convergence.
            double expectedN = -K_NPM * depthM;
            assertEquals(expectedN, f.x, 1e-6, rendering + " at " + depthM + " m: " + f);
            assertEquals(0.0, f.y, 1e-9, rendering + " at " + depthM + " m: no sideways force");
            assertEquals(0.0, f.z, 1e-9, rendering + " at " + depthM + " m: no sideways force");
        }
    }

    @ParameterizedTest
    @EnumSource(ToolSpec.Rendering.class)
    void aHandInFreeSpaceFeelsNothing(ToolSpec.Rendering rendering) throws Exception {
        RendererRig rig = rig(rendering, K_NPM, false);
        Vector3d x = new Vector3d();
        Vector3d v = new Vector3d();
        for (int i = 0; i < 300; i++) {
            Vector3d f = rig.tick(x, v);
            assertEquals(0.0, f.length(), 1e-12, rendering + " at rest, tick " + i);
        }
        // 5 cm/s along −y for 0.6 s: clear of the wall (the tool is 2.5 cm from it) and of the box (under y > 0).
        v.set(0.0, -0.05, 0.0);
        double largestN = 0.0;
        for (int i = 1; i <= 600; i++) {
            x.set(0.0, -0.05 * i * DT_S, 0.0);
            Vector3d f = rig.tick(x, v);
            if (i > 300) {
                largestN = Math.max(largestN, f.length());
            }
        }
        // The coupled proxy lags the hand for its spring–mass's settling time (m = 2 g, k = 1000 N/m, b = 0.3 N·s/m:
        // a 13 ms decay), then moves with it: after 0.3 s the transient is e^-22 of the start's 15 mN.
        assertTrue(largestN < 1e-6, rendering + " at a constant speed: " + largestN + " N");
    }

    @ParameterizedTest
    @EnumSource(ToolSpec.Rendering.class)
    void thePassivityControllerKeepsARandomHandsObservedEnergyFromFallingBelowOneTicksFlow(ToolSpec.Rendering rendering)
            throws Exception {
        // A wall of 3000 N/m (the stylus's rating): K·T/2 = 1.5 N·s/m, well above the contact's 0.2 N·s/m, so the
        // sampled wall returns more energy on the way out than it took on the way in.
        for (long seed = 1; seed <= 3; seed++) {
            String run = rendering + ", motion " + seed + ": ";
            Energy off = observedEnergy(rig(rendering, 3000.0, false), seed);
            // Without the controller the deficit is many ticks' flow and keeps growing (measured 9.5–14 ticks' worth
            // at 5 s, 2.1–2.4 times its depth at 2.5 s).
            assertTrue(off.lowestJ() < -5.0 * off.largestFlowJ(), run + "uncontrolled, the wall gives energy: " + off);
            assertTrue(off.lowestJ() < 1.5 * off.lowestByHalfJ(), run + "uncontrolled, it keeps giving: " + off);
            Energy on = observedEnergy(rig(rendering, 3000.0, true), seed);
            // The controller takes out, within the next tick, whatever deficit the last tick made, unless its damping
            // reaches its cap m/T: the deficit stays below one tick's flow (measured at most 0.3 of it).
            assertTrue(on.lowestJ() >= -on.largestFlowJ(), run + "controlled, a deficit within one tick's: " + on);
        }
    }

    /**
     * The hand's depth behind the surface at {@code t}: from 3 mm in front of it, brought in over 0.5 s to a sum of
     * three sines of 1.5 mm about a 1.5 mm mean (so it goes from 3 mm behind the surface to 3 mm in front).
     */
    private static double depthM(double t, double[] frequencyHz, double[] phase) {
        double wave = 0.0015;
        for (int k = 0; k < frequencyHz.length; k++) {
            wave += 0.0015 * Math.sin(2.0 * Math.PI * frequencyHz[k] * t + phase[k]);
        }
        double s = Math.min(1.0, t / 0.5);
        double envelope = s * s * (3.0 - 2.0 * s);
        return -0.003 * (1.0 - envelope) + wave * envelope;
    }

    /**
     * The energy the hand put into the scene over a random motion, counted as the passivity observer counts it
     * ({@code E(n) = E(n−1) − f(n−1)·v(n)·T}): its lowest in the first 2.5 s and over all 5 s, and the largest flow
     * in one tick.
     */
    private record Energy(double lowestByHalfJ, double lowestJ, double largestFlowJ) {
    }

    /** {@link Energy} of {@code rig} under the random motion of {@code seed}. */
    private static Energy observedEnergy(RendererRig rig, long seed) {
        Random random = new Random(seed);
        double[] frequencyHz = new double[3];
        double[] phase = new double[3];
        for (int k = 0; k < 3; k++) {
            frequencyHz[k] = 1.0 + 7.0 * random.nextDouble();
            phase[k] = 2.0 * Math.PI * random.nextDouble();
        }
        Vector3d x = new Vector3d();
        Vector3d v = new Vector3d();
        Vector3d lastF = new Vector3d();
        double energyJ = 0.0;
        double lowestJ = 0.0;
        double largestFlowJ = 0.0;
        double lowestByHalfJ = 0.0;
        double lastDepthM = depthM(0.0, frequencyHz, phase);
        for (int i = 1; i <= 5000; i++) {
            double depth = depthM(i * DT_S, frequencyHz, phase);
            x.set(SURFACE_X_M + depth, 0.0, 0.0);
            // The velocity a device estimates from its last two positions.
            v.set((depth - lastDepthM) / DT_S, 0.0, 0.0);
            lastDepthM = depth;
            double flowJ = -lastF.dot(v) * DT_S;
            energyJ += flowJ;
            lowestJ = Math.min(lowestJ, energyJ);
            largestFlowJ = Math.max(largestFlowJ, Math.abs(flowJ));
            if (i == 2500) {
                lowestByHalfJ = lowestJ;
            }
            lastF.set(rig.tick(x, v));
        }
        return new Energy(lowestByHalfJ, lowestJ, largestFlowJ);
    }
}
