package org.hapticsd.physics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class PenaltyContactSettingsTest {

    /** Each bound is one product and one quotient: relative rounding below 3.3e-16; 1e-12 relative is margin. */
    private static final double RELATIVE = 1e-12;

    @Test
    void shouldStateSymplecticEulerStabilityBoundAsFourMassOverStepSquared() {
        // m = 0.1 kg, Δt = 1 ms: 4·0.1/(1e-3)² = 400 000 N/m.
        assertEquals(400_000.0, PenaltyContactSettings.maxStableStiffnessNpm(0.1, 0.001), 400_000.0 * RELATIVE);
        // m = 2 kg, Δt = 0.5 ms: 4·2/(5e-4)² = 32 000 000 N/m.
        assertEquals(3.2e7, PenaltyContactSettings.maxStableStiffnessNpm(2.0, 0.0005), 3.2e7 * RELATIVE);
    }

    @Test
    void shouldStatePassiveStiffnessBoundAsTwiceDeviceDampingOverPeriod() {
        // b = 1 N·s/m, T = 1 ms: 2·1/1e-3 = 2000 N/m.
        assertEquals(2000.0, PenaltyContactSettings.maxPassiveStiffnessNpm(1.0, 0.001), 2000.0 * RELATIVE);
        // b = 0.5 N·s/m, T = 0.25 ms (4 kHz): 4000 N/m.
        assertEquals(4000.0, PenaltyContactSettings.maxPassiveStiffnessNpm(0.5, 0.00025), 4000.0 * RELATIVE);
        assertEquals(0.0, PenaltyContactSettings.maxPassiveStiffnessNpm(0.0, 0.001), 0.0);
    }

    @Test
    void shouldCountVirtualDampingAgainstTheDevicePassivityBudget() {
        // Device b = 1 N·s/m at T = 1 ms. K = 1000: K·T/2 = 0.5 < 1, passive.
        assertTrue(new PenaltyContactSettings(1000.0, 0.0).isPassiveFor(1.0, 0.001));
        // K = 1000 with B = 0.6: 0.5 + 0.6 = 1.1 > 1, not passive.
        assertFalse(new PenaltyContactSettings(1000.0, 0.6).isPassiveFor(1.0, 0.001));
        // K = 2000 sits on the bound 2b/T itself: the inequality is strict, so not passive.
        assertFalse(new PenaltyContactSettings(2000.0, 0.0).isPassiveFor(1.0, 0.001));
    }

    @Test
    void shouldKeepTheValuesItWasGiven() {
        PenaltyContactSettings settings = new PenaltyContactSettings(1234.5, 6.7);
        assertEquals(1234.5, settings.stiffnessNpm(), 0.0);
        assertEquals(6.7, settings.dampingNspm(), 0.0);
        assertEquals(new PenaltyContactSettings(1234.5, 6.7), settings);
    }

    @Test
    void shouldRejectInvalidValuesNamingFieldAndValue() {
        assertMessage("stiffnessNpm", "0.0", () -> new PenaltyContactSettings(0.0, 1.0));
        assertMessage("stiffnessNpm", "NaN", () -> new PenaltyContactSettings(Double.NaN, 1.0));
        assertMessage("dampingNspm", "-1.0", () -> new PenaltyContactSettings(1000.0, -1.0));
        assertMessage("dampingNspm", "Infinity", () -> new PenaltyContactSettings(1000.0, Double.POSITIVE_INFINITY));
        assertMessage("massKg", "-0.1", () -> PenaltyContactSettings.maxStableStiffnessNpm(-0.1, 0.001));
        assertMessage("dtS", "0.0", () -> PenaltyContactSettings.maxStableStiffnessNpm(0.1, 0.0));
        assertMessage("deviceDampingNspm", "-2.0", () -> PenaltyContactSettings.maxPassiveStiffnessNpm(-2.0, 0.001));
        assertMessage("periodS", "0.0", () -> PenaltyContactSettings.maxPassiveStiffnessNpm(1.0, 0.0));
    }

    static void assertMessage(String field, String value, org.junit.jupiter.api.function.Executable call) {
        String message = assertThrows(IllegalArgumentException.class, call).getMessage();
        assertTrue(message.contains(field) && message.contains(value),
                "message should name " + field + " and " + value + ": " + message);
    }
}
