package org.hapticsd.device.emulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.hapticsd.device.sim.SimulatedDeviceConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class EmulatorProfileTest {

    @Test
    void shouldCarryTypicalPublishedLimitsInFactoryProfiles() {
        EmulatorProfile falcon = EmulatorProfile.falconLike();
        assertEquals(8.0, falcon.maxForceN());
        assertEquals(3000.0, falcon.nominalStiffnessNpm());
        assertEquals(0.1, falcon.workspace().maxX() - falcon.workspace().minX(), 1e-12, "about a 4 in cube");

        EmulatorProfile touch = EmulatorProfile.touchLike();
        assertEquals(3.3, touch.maxForceN());
        assertEquals(0.88, touch.maxContinuousForceN());
        assertEquals(400.0, touch.nominalStiffnessNpm());
        assertEquals(0.045, touch.stylusMassKg());
        assertEquals(0.16, touch.workspace().maxX() - touch.workspace().minX(), 1e-12);
    }

    @Test
    void shouldBuildStylusPhysicsFromProfile() {
        EmulatorProfile touch = EmulatorProfile.touchLike();
        SimulatedDeviceConfig config = touch.simulatedDeviceConfig();
        assertEquals(touch.stylusMassKg(), config.massKg());
        assertEquals(touch.dampingNspm(), config.dampingNspm());
        assertEquals(touch.maxForceN(), config.info().maxForceN());
        assertEquals(SimulatedDeviceConfig.DEFAULT_HAND_STIFFNESS_NPM, config.handStiffnessNpm());
    }

    /** Spec 6.2 with supported rates 500 and 1000 Hz (mask 0x0C, default 1000 Hz). */
    @ParameterizedTest
    @CsvSource({"1000, 3", "500, 2", "0, 3", "750, 2", "8000, 3", "250, 2", "125, 2"})
    void shouldSelectRequestedOrHighestBelowOrLowestRate(int requestedHz, int expectedIndex) {
        EmulatorProfile profile = EmulatorProfile.falconLike().withSupportedRates(0x0C, 1000);
        assertEquals(expectedIndex, profile.selectRateIndex(requestedHz));
    }

    @Test
    void shouldRejectInconsistentProfiles() {
        EmulatorProfile falcon = EmulatorProfile.falconLike();
        assertThrows(IllegalArgumentException.class, () -> falcon.withSupportedRates(0x0C, 250));
        assertThrows(IllegalArgumentException.class, () -> falcon.withSupportedRates(0x80, 16000));
        assertThrows(IllegalArgumentException.class, () -> falcon.withHomingDurationNs(0));
        assertThrows(IllegalArgumentException.class, () -> new EmulatorProfile("x", 3, 3, 1, 0, 0,
                falcon.workspace(), 2.0, 3.0, 100.0, 0.0, 0.1, 0x08, 1000, 1L));
    }

    @Test
    void shouldGivePeriodOfEachRateIndexExactly() {
        assertEquals(8_000_000L, EmulatorProfile.periodNs(0));
        assertEquals(1_000_000L, EmulatorProfile.periodNs(3));
        assertEquals(125_000L, EmulatorProfile.periodNs(6));
    }
}
