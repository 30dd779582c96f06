package org.hapticsd.device.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.hapticsd.device.DeviceState;
import org.junit.jupiter.api.Test;

/** The simulated stylus under a hand that holds, presses with a force, and lets go. */
class ScriptedHandTest {
    private static final long MS = 1_000_000L;

    @Test
    void shouldReachTheTerminalVelocityOfThePressForceThenCoastWithMechanismDampingOnly() {
        SimulatedDeviceConfig config = SimulatedDeviceConfig.defaults();
        ScriptedHand hand = new ScriptedHand(new FixedHandTarget(0, 0, 0), List.of(
            new ScriptedHand.Phase(0.1, HandTarget.PRESSES, 0.0, 0.5, 0.0),
            new ScriptedHand.Phase(1.1, HandTarget.RELEASED, 0, 0, 0)));
        SimulatedDevice device = new SimulatedDevice(config, hand);
        device.open();
        DeviceState state = new DeviceState();
        for (long t = 0; t <= 1_100 * MS; t += MS) {
            device.readState(t, state);
        }
        // Pressing with 0.5 N against mechanism + hand damping c and no spring: v -> F / c. After 1 s (many time
        // constants m / c) the velocity is there to 1e-6 m/s.
        double c = config.dampingNspm() + config.handDampingNspm();
        assertEquals(0.5 / c, state.velocityYMps, 1e-6);
        assertEquals(0.0, state.velocityXMps, 0.0);
        double releasedVelocity = state.velocityYMps;
        for (long t = 1_101 * MS; t <= 1_200 * MS; t += MS) {
            device.readState(t, state);
        }
        // Let go: no hand force, only the mechanism's damping, v(t) = v0 exp(-c_m t / m) over 0.1 s. The
        // semi-implicit Euler substeps (0.1 ms) match the exponential to well under 1e-3 relative.
        double expected = releasedVelocity * Math.exp(-config.dampingNspm() * 0.1 / config.massKg());
        assertEquals(expected, state.velocityYMps, 1e-3 * Math.abs(expected));
    }

    @Test
    void shouldHoldBeforeTheFirstPhaseAndAfterGoingBackToHolding() {
        double[] force = new double[3];
        ScriptedHand hand = new ScriptedHand(new FixedHandTarget(0, 0, 0), List.of(
            new ScriptedHand.Phase(1.0, HandTarget.PRESSES, 1.0, 2.0, 3.0),
            new ScriptedHand.Phase(2.0, HandTarget.HOLDS, 0, 0, 0)));
        assertEquals(HandTarget.HOLDS, hand.modeAt(0.5, force));
        assertEquals(HandTarget.PRESSES, hand.modeAt(1.0, force));
        assertEquals(3.0, force[2], 0.0);
        assertEquals(HandTarget.HOLDS, hand.modeAt(2.5, force));
        assertEquals(HandTarget.HOLDS, hand.modeAt(0.2, force), "time going back restarts the lookup");
    }
}
