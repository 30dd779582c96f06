package org.hapticsd.server.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.hapticsd.device.sim.SimulatedDevice;
import org.hapticsd.server.safety.SafetyFault;
import org.hapticsd.server.safety.SafetyState;
import org.junit.jupiter.api.Test;

class HapticLoopTest {

    /** Default scene: the wall is the half-space x > 0.03 m; the tool radius is 5 mm; k = 1000 N/m. */
    private static final double WALL_X_M = 0.03;
    private static final double TOOL_RADIUS_M = 0.005;

    @Test
    void shouldTimeEveryStageOncePerTick() {
        LoopFixture f = fixtureWithScriptedDevice();
        f.ticks(500);
        LoopStats stats = f.assembly.stats().sample();
        assertEquals(500, stats.ticks());
        for (LoopStage stage : LoopStage.ALL) {
            assertEquals(500, stats.stageTime(stage).total().getTotalCount(), stage.label());
        }
        assertEquals(500, stats.tickTime().total().getTotalCount());
        // The first tick has no previous tick, so no period error.
        assertEquals(499, stats.periodError().total().getTotalCount());
    }

    @Test
    void shouldRecordPeriodErrorAgainstTheNominalPeriod() {
        LoopFixture f = fixtureWithScriptedDevice();
        f.loop.tick(0);
        f.loop.tick(1_000_000);
        f.loop.tick(2_250_000); // 250 µs late
        f.loop.tick(3_000_000); // 250 µs early
        LoopStats stats = f.assembly.stats().sample();
        // HdrHistogram with 3 significant digits: values within 0.1% of 250 µs.
        assertEquals(250_000, stats.periodError().total().getMaxValue(), 250);
        assertEquals(3, stats.periodError().total().getTotalCount());
    }

    @Test
    void shouldRenderWallForceAsStiffnessTimesPenetrationOntoTheDevice() {
        ScriptedDevice device = new ScriptedDevice();
        LoopFixture f = fixture(device);
        f.ticks(60); // free space: the start-up gate opens after 50 quiet ticks
        f.ticks(1100); // ramp of 1 s completes
        device.xM = 0.028; // 3 mm into the wall, at rest
        f.ticks(200); // slew limit 0.5 N/tick: 3 N needs 6 ticks
        LoopSnapshot s = f.snapshot();
        double depthM = device.xM + TOOL_RADIUS_M - WALL_X_M;
        // k·d with d = 3 mm; the wall's normal is −x, so the device is pushed toward −x. Damping adds nothing at
        // rest. Tolerance: a few ulps of the 3 N result.
        assertEquals(-1000.0 * depthM, s.commandedForceN[0], 1e-12);
        assertEquals(0.0, s.commandedForceN[1], 0.0);
        assertEquals(0.0, s.commandedForceN[2], 0.0);
        assertEquals(s.commandedForceN[0], device.lastForceXN, 0.0);
        assertSame(SafetyState.ACTIVE, s.safety);
        assertEquals(1, s.contactCount);
        assertEquals(depthM, s.maxPenetrationM, 1e-15);
    }

    @Test
    void shouldZeroForceOnTheTickAfterAnEmergencyStopCommand() {
        ScriptedDevice device = new ScriptedDevice();
        LoopFixture f = fixture(device);
        f.ticks(1200);
        device.xM = 0.028;
        f.ticks(20);
        assertTrue(device.lastForceMagnitudeN() > 2.9, "pressing the wall before the stop");

        assertTrue(f.assembly.commands().offer(LoopCommand.EMERGENCY_STOP));
        f.tick();
        assertEquals(0.0, device.lastForceMagnitudeN(), 0.0);
        assertSame(SafetyState.ESTOP, f.snapshot().safety);
        f.ticks(100);
        assertEquals(0.0, device.lastForceMagnitudeN(), 0.0, "latched");

        assertTrue(f.assembly.commands().offer(LoopCommand.RESET_SAFETY));
        f.tick();
        assertSame(SafetyState.GATED, f.snapshot().safety);
    }

    @Test
    void shouldKeepTickingWithZeroForceWhenTheDeviceThrows() {
        ScriptedDevice device = new ScriptedDevice();
        LoopFixture f = fixture(device);
        f.ticks(1200);
        device.xM = 0.028;
        f.ticks(20);
        device.throwOnRead = new IllegalStateException("USB unplugged");

        f.ticks(10);

        assertEquals(1230, f.loop.ticks(), "the loop kept ticking");
        assertEquals(0.0, device.lastForceMagnitudeN(), 0.0);
        assertSame(SafetyState.SAFE, f.snapshot().safety);
        assertSame(SafetyFault.INTERNAL_ERROR, f.snapshot().fault);
        assertEquals(10, f.loop.errorCount());
        assertSame(device.throwOnRead, f.loop.lastError());

        device.throwOnRead = null;
        f.ticks(10);
        assertSame(SafetyState.SAFE, f.snapshot().safety, "an internal error is latched until reset");
        assertEquals(0.0, device.lastForceMagnitudeN(), 0.0);
        f.assembly.commands().offer(LoopCommand.RESET_SAFETY);
        f.tick();
        assertSame(SafetyState.GATED, f.snapshot().safety);
    }

    @Test
    void shouldDropACommandThatThrowsWithoutFaultingTheLoop() {
        ScriptedDevice device = new ScriptedDevice();
        LoopFixture f = fixture(device);
        f.ticks(1200);
        device.xM = 0.028;
        f.ticks(20);
        IllegalArgumentException bad = new IllegalArgumentException("malformed client command");
        f.assembly.commands().offer(loop -> {
            throw bad;
        });
        f.assembly.commands().offer(LoopCommand.EMERGENCY_STOP);
        f.tick();
        assertEquals(1, f.loop.commandErrors());
        assertSame(bad, f.loop.lastError());
        assertEquals(0, f.loop.errorCount(), "no tick failed");
        assertSame(SafetyState.ESTOP, f.snapshot().safety, "the command after the bad one still ran");
    }

    @Test
    void shouldGoSafeWhenTheDeviceStopsProducingStates() {
        ScriptedDevice device = new ScriptedDevice();
        LoopFixture f = fixture(device);
        f.ticks(1200);
        device.xM = 0.028;
        f.ticks(20);
        device.producesStates = false;
        f.ticks(2);
        assertSame(SafetyState.ACTIVE, f.snapshot().safety, "2 stale ticks are below the watchdog's 3");
        f.tick();
        assertSame(SafetyState.SAFE, f.snapshot().safety);
        assertSame(SafetyFault.WATCHDOG, f.snapshot().fault);
        assertEquals(0.0, device.lastForceMagnitudeN(), 0.0);

        device.producesStates = true;
        f.tick();
        assertSame(SafetyState.GATED, f.snapshot().safety, "fresh states clear the watchdog into the gate");
        assertEquals(0.0, device.lastForceMagnitudeN(), 0.0);
    }

    @Test
    void shouldGoSafeAfterTheConfiguredNumberOfConsecutiveOverruns() {
        ScriptedDevice device = new ScriptedDevice();
        LoopFixture f = fixture(device);
        f.ticks(1200);
        for (int i = 0; i < 50; i++) {
            f.loop.tick(f.nowNs);
            f.loop.afterTick(true);
            f.nowNs += LoopFixture.PERIOD_NS;
        }
        f.tick();
        assertSame(SafetyFault.OVERRUNS, f.snapshot().fault);
        assertEquals(50, f.assembly.stats().overruns());
    }

    @Test
    void shouldPressTheSimulatedStylusIntoTheWall() throws Exception {
        LoopFixture f = LoopFixture.withSimulatedStylus();
        f.ticks(2000);
        LoopSnapshot s = f.snapshot();
        // The hand pulls toward x = 0.05 with 200 N/m, the wall pushes back with 1000 N/m: equilibrium at
        // 200·(0.05 − x) = 1000·(x + 0.005 − 0.03), x = 0.0291667, 4.1667 N. After 1.2 s of hold with a damping
        // ratio near 0.8 the residual motion is far below 1 µm.
        assertEquals(0.035 / 1.2, s.toolPositionM[0], 1e-6);
        assertEquals(-200.0 * (0.05 - 0.035 / 1.2), s.commandedForceN[0], 1e-3);
        assertEquals(-1000.0 * (s.toolPositionM[0] + TOOL_RADIUS_M - WALL_X_M), s.commandedForceN[0], 1e-9);
        SimulatedDevice stylus = (SimulatedDevice) f.device;
        assertEquals(s.commandedForceN[0], stylus.commandedForceXN(), 0.0);
    }

    @Test
    void shouldMoveTheSimulatedHandWhereACommandSendsIt() throws Exception {
        LoopFixture f = LoopFixture.withSimulatedStylus();
        f.ticks(100);
        assertTrue(f.assembly.commands().offer(HandCommands.moveHandTo(-0.02, 0.01, 0.03)));
        f.ticks(2000);
        LoopSnapshot s = f.snapshot();
        // Free space: the stylus settles on the commanded point instead of following the scene's path (which
        // would be pressing into the box at t = 2.1 s). 2 s at damping ratio ~0.8 leaves far below 1 µm.
        assertEquals(-0.02, s.devicePositionM[0], 1e-6);
        assertEquals(0.01, s.devicePositionM[1], 1e-6);
        assertEquals(0.03, s.devicePositionM[2], 1e-6);
        assertEquals(0, s.contactCount);
    }

    @Test
    void shouldRejectANonFiniteHandTargetOnTheSendersThread() {
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
            () -> HandCommands.moveHandTo(Double.NaN, 0, 0));
    }

    @Test
    void shouldCloseTheDeviceWithZeroForceOnShutdown() {
        ScriptedDevice device = new ScriptedDevice();
        LoopFixture f = fixture(device);
        f.ticks(1200);
        device.xM = 0.028;
        f.ticks(20);
        f.loop.shutdown();
        assertTrue(device.closed);
        assertEquals(0.0, device.lastForceMagnitudeN(), 0.0);
    }

    @Test
    void shouldPublishTheTickToSnapshotReaders() {
        LoopFixture f = fixtureWithScriptedDevice();
        LoopSnapshot reader = f.assembly.snapshots().newSnapshot();
        assertEquals(0, f.assembly.snapshots().read(reader), "nothing published before the first tick");
        f.ticks(7);
        assertTrue(f.assembly.snapshots().read(reader) > 0);
        assertEquals(6, reader.tick);
        assertEquals(6_000_000, reader.timeNs);
        assertEquals(f.scene.bodyNames().size() + 1, reader.bodyCount, "named bodies plus the tool");
    }

    private static LoopFixture fixtureWithScriptedDevice() {
        return fixture(new ScriptedDevice());
    }

    private static LoopFixture fixture(ScriptedDevice device) {
        try {
            return new LoopFixture(device);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
