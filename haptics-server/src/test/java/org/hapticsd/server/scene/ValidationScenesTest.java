package org.hapticsd.server.scene;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.agrona.concurrent.CachedNanoClock;
import org.hapticsd.device.sim.SimulatedDevice;
import org.hapticsd.physics.PhysicsWorld;
import org.hapticsd.server.LoopAssembly;
import org.hapticsd.server.loop.HapticLoop;
import org.hapticsd.server.loop.TickSchedule;
import org.joml.Vector3d;
import org.junit.jupiter.api.Test;

/**
 * The physics validation scenes shipped in {@code scenes/}, each loaded from its file and run headlessly on simulated
 * time through the loop, as {@code ./hapticsd simulate} runs it, against its closed form. The first four repeat the
 * engine's own {@code LcpContactTest} cases through the scene format (same bodies, same tolerances, reasoned the
 * same way), so a scene that drifts from the case it claims to show fails here.
 */
class ValidationScenesTest {
    private static final double G_MPS2 = 9.81;
    private static final double DT_S = 0.001;

    @Test
    void shouldReboundToApexHeightsInRatioElasticitySquaredInBounceScene() {
        double e = 0.5;
        double radiusM = 0.05;
        try (SceneRun run = new SceneRun("bounce.yaml")) {
            int ball = run.body("ball");
            double[] apexM = new double[4];
            apexM[0] = 0.5;
            int found = 1;
            double highestM = 0.0;
            boolean rising = false;
            Vector3d p = new Vector3d();
            Vector3d v = new Vector3d();
            for (int n = 0; n < 3000 && found < apexM.length; n++) {
                run.tick();
                run.world.bodyPosition(ball, p);
                run.world.bodyLinearVelocity(ball, v);
                if (v.z > 0.0) {
                    rising = true;
                    highestM = Math.max(highestM, p.z - radiusM);
                } else if (rising) {
                    apexM[found++] = highestM;
                    rising = false;
                    highestM = 0.0;
                }
            }
            assertEquals(apexM.length, found, "bounces seen");
            for (int k = 0; k + 1 < apexM.length; k++) {
                // As LcpContactTest: the impact is seen at the first step that penetrates, so the approach speed v
                // may be g·Δt high, the rebound starts up to v·Δt below the surface and the apex is sampled once a
                // step: |h_{k+1} − e²·h_k| <= (1 + e + e²)·v·Δt + g·Δt² with v = √(2·g·h_k), 4 % of e²·h_k for the
                // first bounce, 18 % for the third. Measured: 0.12486560 m, 0.03088580 m, 0.00758705 m, ratios
                // 0.2497, 0.2474, 0.2456 (0.1 %, 1 %, 2 % below e²).
                double vMps = Math.sqrt(2.0 * G_MPS2 * apexM[k]);
                double toleranceM = (1.0 + e + e * e) * vMps * DT_S + G_MPS2 * DT_S * DT_S;
                assertEquals(e * e * apexM[k], apexM[k + 1], toleranceM, "apex " + (k + 1) + " after " + apexM[k]);
            }
        }
    }

    @Test
    void shouldStopSlidingBlockAfterVSquaredOverTwoMuGInSlideScene() {
        double mu = 0.3;
        double v0Mps = 2.0;
        try (SceneRun run = new SceneRun("slide.yaml")) {
            int block = run.body("block");
            Vector3d startM = run.world.bodyPosition(block, new Vector3d());
            // v0/(μ·g) = 0.68 s to stop; 1.5 s leaves it at rest for over 0.8 s.
            run.ticks(1500);
            Vector3d v = run.world.bodyLinearVelocity(block, new Vector3d());
            // Stopped means static friction holds it: the solver leaves a residual speed near 1e-19 m/s (measured).
            assertEquals(0.0, v.length(), 1e-9, "block at rest after 1.5 s");
            Vector3d endM = run.world.bodyPosition(block, new Vector3d());
            double expectedM = v0Mps * v0Mps / (2.0 * mu * G_MPS2);
            // 2 %, as LcpContactTest: the discrete stop (up to one step of travel, 0.3 %) and the lag of semi-implicit
            // Euler (v0·Δt/2, 0.15 %) are the known errors, the rest is margin for the load shifting between the
            // corners. Measured 0.67858 m against 0.67958 m, 0.15 % short.
            assertEquals(expectedM, endM.x - startM.x, 0.02 * expectedM, "sliding distance");
            assertEquals(0.0, endM.y - startM.y, 1e-9, "no sideways drift (measured 3e-10 m)");
        }
    }

    @Test
    void shouldStickOnTwentyDegreeInclineWhileTangentBelowStaticFriction() {
        double thetaRad = Math.toRadians(20.0);
        assertTrue(Math.tan(thetaRad) < 0.5, "tan θ below μ0 = 0.5");
        try (SceneRun run = new SceneRun("incline.yaml")) {
            int block = run.body("block20");
            Vector3d startM = run.world.bodyPosition(block, new Vector3d());
            run.ticks(2000);
            double creepM = run.world.bodyPosition(block, new Vector3d()).sub(startM).dot(downSlope(thetaRad));
            // As LcpContactTest: a converged stick leaves only the solver's residual velocity (measured 6.6e-11 m of
            // creep in 2 s); a micrometre bounds it ten-thousandfold and is still a hundred-thousandth of the box.
            assertEquals(0.0, creepM, 1e-6, "creep down a 20° slope with μ0 = 0.5");
        }
    }

    @Test
    void shouldSlideDownThirtyDegreeInclineWithAccelerationGTimesSinMinusMuCos() {
        double thetaRad = Math.toRadians(30.0);
        double mu = 0.3;
        assertTrue(Math.tan(thetaRad) > 0.5, "tan θ above μ0 = 0.5");
        try (SceneRun run = new SceneRun("incline.yaml")) {
            int block = run.body("block30");
            Vector3d down = downSlope(thetaRad);
            Vector3d v = new Vector3d();
            run.ticks(1000);
            double v1Mps = run.world.bodyLinearVelocity(block, v).dot(down);
            run.ticks(1000);
            double v2Mps = run.world.bodyLinearVelocity(block, v).dot(down);
            double expected = G_MPS2 * (Math.sin(thetaRad) - mu * Math.cos(thetaRad));
            // As LcpContactTest: sliding faster than V_f, each step adds exactly g·(sin θ − μ·cos θ)·Δt to the speed
            // (semi-implicit Euler is exact for a constant acceleration) up to the Gauss–Seidel residual; 0.1 % is
            // generous for that. Measured 2.356287236662435 against 2.356287236662397 m/s².
            assertEquals(expected, (v2Mps - v1Mps) / 1.0, 1e-3 * expected, "acceleration down the slope");
        }
    }

    @Test
    void shouldSettleTwoHundredSpheresInsideTheBoxInPileScene() {
        SpherePile pile = new SpherePile(200);
        double r = SpherePile.RADIUS_M;
        double insideHalfM = 0.5 * SpherePile.BOX_INSIDE_M;
        try (SceneRun run = new SceneRun("pile-200.yaml")) {
            int[] spheres = new int[pile.spheres()];
            for (int i = 0; i < spheres.length; i++) {
                spheres[i] = run.body(pile.name(i));
            }
            double[] c = new double[3 * spheres.length];
            Vector3d p = new Vector3d();
            double deepestDuringM = 0.0;
            for (int n = 0; n < 5000; n++) {
                run.tick();
                for (int i = 0; i < spheres.length; i++) {
                    run.world.bodyPosition(spheres[i], p);
                    c[3 * i] = p.x;
                    c[3 * i + 1] = p.y;
                    c[3 * i + 2] = p.z;
                }
                deepestDuringM = Math.max(deepestDuringM, deepestPenetrationM(c, r, insideHalfM));
            }
            double deepestSettledM = deepestPenetrationM(c, r, insideHalfM);
            Vector3d v = new Vector3d();
            double fastestMps = 0.0;
            double highestM = 0.0;
            for (int i = 0; i < spheres.length; i++) {
                fastestMps = Math.max(fastestMps, run.world.bodyLinearVelocity(spheres[i], v).length());
                highestM = Math.max(highestM, c[3 * i + 2]);
            }
            // Inside: no centre beyond a wall's inner face or below the floor by more than the overlap bounded below,
            // and none above the 1.5 m walls, over which a sphere could have left. Measured: highest centre 0.2409 m.
            assertTrue(highestM + r < SpherePile.WALL_HEIGHT_M, "highest sphere top " + (highestM + r) + " m");
            // At rest the static contact model leaves each contact at most d_tol = 0.2 mm deep (it corrects only the
            // depth beyond it), plus what one step of the residual motion adds; 0.25 mm bounds that. Measured
            // 0.2000 mm. This also bounds how far any sphere is through the floor or a wall.
            assertTrue(deepestSettledM < 2.5e-4, "deepest overlap after 5 s " + deepestSettledM + " m");
            // While falling, an impact is seen one step late: the overlap reaches the approach speed times Δt. The
            // highest start (centre 0.32 m) falls at most 0.27 m, so v < √(2·g·0.27 m) = 2.3 m/s: 2.3 mm, plus d_tol,
            // bounds it. Measured 1.14 mm.
            assertTrue(deepestDuringM < 2.5e-3, "deepest overlap while falling " + deepestDuringM + " m");
            // Settled: every sphere slower than V_f = 0.01 m/s, where static friction takes over. Measured 1.9 mm/s
            // (2.4 before the sweeps revisited a point after its own friction change).
            assertTrue(fastestMps < 0.01, "fastest sphere after 5 s " + fastestMps + " m/s");
        }
    }

    @Test
    void shouldStandTenCubeStackForTenSecondsInCubeStackScene() {
        CubeStack stack = new CubeStack(CubeStack.BENCHMARK_CUBES);
        try (SceneRun run = new SceneRun("cube-stack.yaml")) {
            int top = run.body(stack.name(stack.cubes() - 1));
            Vector3d startM = run.world.bodyPosition(top, new Vector3d());
            run.ticks(10_000);
            double driftM = run.world.bodyPosition(top, new Vector3d()).distance(startM);
            // The validation's bound (issue 3), 1 mm, as the engine's StackingTest on the same construction. Each of
            // the ten contacts may settle anywhere within d_tol = 0.2 mm, so sinking alone could reach 2 mm; the stack
            // meets the bound because its contacts start 0.1 mm deep and hold there. Measured 0.098 mm (a perfect
            // column measured 0.7 to 1.6 mm, depending on the last bit of its start: see CubeStack).
            assertTrue(driftM < 1e-3, "top cube drifted " + driftM + " m in 10 s");
        }
    }

    /**
     * The deepest overlap among the spheres at centres {@code c} (x y z each): with one another, with the floor
     * (z = 0) and with the four walls' inner faces (x, y = ±{@code insideHalfM}), m; 0 when nothing overlaps.
     */
    private static double deepestPenetrationM(double[] c, double r, double insideHalfM) {
        double deepestM = 0.0;
        int n = c.length / 3;
        for (int i = 0; i < n; i++) {
            double x = c[3 * i];
            double y = c[3 * i + 1];
            double z = c[3 * i + 2];
            deepestM = Math.max(deepestM, r - z);
            deepestM = Math.max(deepestM, Math.abs(x) + r - insideHalfM);
            deepestM = Math.max(deepestM, Math.abs(y) + r - insideHalfM);
            for (int j = i + 1; j < n; j++) {
                double dx = c[3 * j] - x;
                double dy = c[3 * j + 1] - y;
                double dz = c[3 * j + 2] - z;
                deepestM = Math.max(deepestM, 2.0 * r - Math.sqrt(dx * dx + dy * dy + dz * dz));
            }
        }
        return deepestM;
    }

    /** Down the slope of a ramp turned by θ about +x (it rises toward +y): (0, −cos θ, −sin θ). */
    private static Vector3d downSlope(double thetaRad) {
        return new Vector3d(0.0, -Math.cos(thetaRad), -Math.sin(thetaRad));
    }

    /**
     * A shipped scene on the loop, driven tick by tick on simulated time with the scene's simulated stylus, as
     * {@code ./hapticsd simulate} drives it. The stage timer is a clock the test advances, so nothing here reads the
     * wall clock.
     */
    static final class SceneRun implements AutoCloseable {
        final BuiltScene scene;
        final PhysicsWorld world;
        private final HapticLoop loop;
        private final CachedNanoClock stageTimer = new CachedNanoClock();
        private final long periodNs;
        private long nowNs;

        SceneRun(String file) {
            try {
                scene = SceneBuilder.build(new SceneLoader().load(Path.of("../scenes", file)));
            } catch (SceneException e) {
                throw new AssertionError(e.getMessage(), e);
            }
            SimulatedDevice stylus = scene.newSimulatedDevice();
            stylus.open();
            loop = new LoopAssembly(scene, stylus, scene.rateHz(), stageTimer).loop();
            // Simulated time, as in lockstep: no wall-clock verdict on the step, so no solver cut at the tick's
            // deadline and no step dropped when the machine stalls (a stall once left the slide 1.4 µm sideways).
            loop.setJudgePhysicsBudget(false);
            world = loop.world();
            periodNs = TickSchedule.periodNsFor(scene.rateHz());
        }

        void tick() {
            loop.tick(nowNs);
            loop.afterTick(false);
            nowNs += periodNs;
            stageTimer.update(nowNs);
        }

        void ticks(int count) {
            for (int i = 0; i < count; i++) {
                tick();
            }
        }

        /** The world index of the scene's body {@code name}. */
        int body(String name) {
            int i = scene.bodyNames().indexOf(name);
            if (i < 0) {
                throw new AssertionError("no body " + name + " in " + scene.name());
            }
            return scene.bodyIndices()[i];
        }

        @Override
        public void close() {
            loop.shutdown();
        }
    }
}
