package org.hapticsd.server.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.hapticsd.physics.BoxShape;
import org.hapticsd.physics.ContactMode;
import org.hapticsd.physics.ContactSettings;
import org.hapticsd.physics.Material;
import org.hapticsd.physics.PenaltyContactSettings;
import org.hapticsd.physics.PhysicsWorld;
import org.hapticsd.physics.dynamics.SolidInertia;
import org.hapticsd.physics.dynamics.contact.ImpulseWaveform;
import org.hapticsd.physics.dynamics.contact.ImpulseWaveformSettings;
import org.hapticsd.server.safety.TransientBudget;
import org.joml.Matrix3d;
import org.joml.Quaterniond;
import org.joml.Vector3d;
import org.junit.jupiter.api.Test;

/**
 * {@link ImpactTransients}: the tool striking a block plays source 000's waveform sized for
 * {@code IP = (1 + e)·m·v}, within its budget (impulse, energy, rate, peak), only for materials that ask for it,
 * and a dynamic block receives the opposite impulse.
 */
class ImpactTransientsTest {
    private static final double DT_S = 0.001;
    private static final double DEVICE_KG = 0.1;
    private static final double TOOL_R_M = 0.005;
    private static final ImpulseWaveformSettings WAVEFORM = ImpulseWaveformSettings.TABLE_2_SINGLE_POINT;

    @Test
    void shouldPlayThePulseOfTheStrikeAgainstAStaticBlock() {
        Strike strike = new Strike(false, TransientBudget.DEFAULTS, 10.0, true);
        double speedMps = 0.3;
        double[] pulse = strike.run(speedMps);
        // e is the mean of the tool's (0) and the block's (0.8) elasticity; m the device's 0.1 kg.
        double impulseNs = (1.0 + 0.4) * DEVICE_KG * speedMps;
        assertEquals(impulseNs, strike.transients.lastImpulseNs(), 1e-12, "IP = (1 + e)·m·v");
        assertEquals(impulseNs, pulse[0], 1e-12, "area of the played samples");
        double heightN = ImpulseWaveform.heightN(WAVEFORM, impulseNs);
        assertEquals(heightN, pulse[1], 0.02 * heightN, "peak");
        assertEquals(ImpulseWaveform.durationS(WAVEFORM, impulseNs) / DT_S, pulse[2], 1.0, "ticks");
        assertTrue(pulse[3] > 0.0, "the force pushes the tool out of the block (+z)");
    }

    @Test
    void shouldKeepTheImpulseWithinTheEnergyAndImpulseBudget() {
        // 0.02 J at 0.1 kg allows √(2·0.1·0.02) = 0.063 N·s; the strike at 1 m/s would carry 0.14 N·s.
        Strike strike = new Strike(false, new TransientBudget(0.5, 0.02, 20.0), 100.0, true);
        double[] pulse = strike.run(1.0);
        assertEquals(Math.sqrt(2.0 * DEVICE_KG * 0.02), pulse[0], 1e-12, "energy-bound impulse");
        Strike capped = new Strike(false, new TransientBudget(0.05, 1.0, 20.0), 100.0, true);
        assertEquals(0.05, capped.run(1.0)[0], 1e-12, "impulse-bound impulse");
    }

    @Test
    void shouldScaleThePulseDownToTheForceLimit() {
        Strike strike = new Strike(false, TransientBudget.DEFAULTS, 3.0, true);
        double[] pulse = strike.run(0.3);
        assertEquals(3.0, pulse[1], 1e-12, "peak at the limit, not above");
        assertTrue(pulse[0] < 1.4 * DEVICE_KG * 0.3, "the whole pulse scaled down: " + pulse[0]);
    }

    @Test
    void shouldPlayNothingForAMaterialWithoutTransients() {
        Strike strike = new Strike(false, TransientBudget.DEFAULTS, 10.0, false);
        assertEquals(0.0, strike.run(0.3)[0], 0.0, "no pulse");
        assertFalse(strike.transients.playing());
    }

    @Test
    void shouldNotStartASecondPulseBeforeTheRateBudgetRefills() {
        // 2 per second: a second strike 0.3 s after the first is skipped.
        Strike strike = new Strike(false, new TransientBudget(0.2, 0.1, 2.0), 10.0, true);
        strike.run(0.3);
        strike.lift();
        double[] second = strike.run(0.3);
        assertEquals(0.0, second[0], 0.0, "second pulse within 0.5 s");
        assertEquals(1, strike.transients.skippedPulses(), "counted as skipped");
    }

    @Test
    void shouldPushADynamicBlockBackWithTheOppositeImpulse() {
        // A free 0.5 kg block, its pair with the tool on a 1 N/m spring so that the contact itself moves it by less
        // than 1e-4 N·s: its momentum change is the pulse's, −IP along z, to 1 %.
        Strike strike = new Strike(true, TransientBudget.DEFAULTS, 10.0, true);
        double[] pulse = strike.run(0.3);
        assertTrue(pulse[0] > 0.0, "a pulse played");
        // The reduced mass of device and block: 1/(1/0.1 + 1/0.5) = 0.0833 kg (the tool strikes the face's centre).
        assertEquals(1.4 * 0.3 / (1.0 / DEVICE_KG + 1.0 / 0.5), pulse[0], 1e-9, "IP with the reduced mass");
        strike.world.step(DT_S);
        double blockMomentum = 0.5 * strike.world.bodyLinearVelocity(strike.block, new Vector3d()).z;
        assertEquals(-pulse[0], blockMomentum, 0.01 * pulse[0], "the block's momentum");
    }

    /** A tool moving down onto a block's top face at z = 0, in a world without gravity. */
    private static final class Strike {
        final PhysicsWorld world;
        final ImpactTransients transients;
        final int tool;
        final int block;
        private double zM = 0.01;

        Strike(boolean dynamicBlock, TransientBudget budget, double forceLimitN, boolean enabled) {
            world = new PhysicsWorld(ContactSettings.defaults().withPenalty(new PenaltyContactSettings(1.0, 0.0)));
            world.setGravity(new Vector3d());
            Material material = new Material(0.8, 0.5, 0.5);
            BoxShape shape = new BoxShape(0.05, 0.05, 0.02);
            Vector3d centre = new Vector3d(0.0, 0.0, -0.02);
            block = dynamicBlock
                ? world.addDynamicBody("block", shape, centre, new Quaterniond(), 0.5,
                    SolidInertia.box(0.5, 0.05, 0.05, 0.02, new Matrix3d()), material)
                : world.addStaticBody("block", shape, centre, new Quaterniond(), material);
            tool = world.addTool("tool", TOOL_R_M, new Material(0.0, 0.0, 0.0));
            world.setBodyContactMode(tool, ContactMode.PENALTY);
            boolean[] on = new boolean[world.bodyCount()];
            on[block] = enabled;
            double[] gain = new double[world.bodyCount()];
            gain[block] = 1.0;
            double[] elasticity = new double[world.bodyCount()];
            elasticity[block] = 0.8;
            transients = new ImpactTransients(WAVEFORM, DEVICE_KG, 0.1, budget, forceLimitN, 0.0, on, gain,
                elasticity);
        }

        /** Moves the tool down at {@code speedMps} into the block; returns {area, peak, ticks, direction z}. */
        double[] run(double speedMps) {
            Vector3d forceN = new Vector3d();
            double area = 0.0;
            double peak = 0.0;
            double ticks = 0;
            double directionZ = 0.0;
            for (int i = 0; i < 200; i++) {
                zM = Math.max(zM - speedMps * DT_S, TOOL_R_M - 0.002);
                world.setToolState(tool, new Vector3d(0.0, 0.0, zM), new Vector3d(0.0, 0.0,
                    zM > TOOL_R_M - 0.002 ? -speedMps : 0.0));
                world.step(DT_S);
                transients.update(world, tool, DT_S, forceN);
                if (forceN.lengthSquared() > 0.0) {
                    area += forceN.length() * DT_S;
                    peak = Math.max(peak, forceN.length());
                    ticks++;
                    directionZ = forceN.z;
                }
            }
            return new double[] {area, peak, ticks, directionZ};
        }

        /** Lifts the tool clear of the block over 0.1 s. */
        void lift() {
            Vector3d forceN = new Vector3d();
            for (int i = 0; i < 100; i++) {
                zM = 0.01;
                world.setToolState(tool, new Vector3d(0.0, 0.0, zM), new Vector3d());
                world.step(DT_S);
                transients.update(world, tool, DT_S, forceN);
            }
        }
    }
}
