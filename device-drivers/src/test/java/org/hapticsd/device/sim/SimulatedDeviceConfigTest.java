package org.hapticsd.device.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.hapticsd.device.DeviceInfo;
import org.hapticsd.device.Workspace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** Configuration values are copied, not computed, so comparisons are exact. */
class SimulatedDeviceConfigTest {

    @Test
    void shouldProvideDocumentedDefaults() {
        SimulatedDeviceConfig config = SimulatedDeviceConfig.defaults();

        assertEquals(0.1, config.massKg(), 0.0);
        assertEquals(1.0, config.dampingNspm(), 0.0);
        assertEquals(200.0, config.handStiffnessNpm(), 0.0);
        assertEquals(6.0, config.handDampingNspm(), 0.0);
        assertEquals(0.0, config.initialXM(), 0.0);
        assertEquals(0.0, config.initialYM(), 0.0);
        assertEquals(0.0, config.initialZM(), 0.0);
        assertEquals(100_000L, config.maxSubstepNs());
        assertEquals(new DeviceInfo("simulated stylus", 3, Workspace.cube(0.1), 10.0, 4.0, 3000.0, 1.0),
                config.info());
    }

    @Test
    void shouldReportConfiguredDampingInInfo() {
        SimulatedDeviceConfig config = SimulatedDeviceConfig.defaults().withDampingNspm(2.5);
        assertEquals(2.5, config.info().dampingNspm(), 0.0);

        DeviceInfo other = new DeviceInfo("bench", 3, Workspace.cube(0.05), 5.0, 2.0, 1000.0, 9.0);
        SimulatedDeviceConfig withOther = config.withInfo(other);
        assertEquals("bench", withOther.info().name());
        assertEquals(5.0, withOther.info().maxForceN(), 0.0);
        assertEquals(2.5, withOther.info().dampingNspm(), 0.0, "the simulated damping wins over the info's");
    }

    @Test
    void shouldRejectNonPositiveMassNamingFieldAndValue() {
        assertMessage("massKg must be > 0, got -1.0", () -> SimulatedDeviceConfig.defaults().withMassKg(-1.0));
        assertMessage("massKg must be > 0, got 0.0", () -> SimulatedDeviceConfig.defaults().withMassKg(0.0));
        assertMessage("massKg must be finite, got NaN",
                () -> SimulatedDeviceConfig.defaults().withMassKg(Double.NaN));
    }

    @Test
    void shouldRejectNegativeOrNonFiniteGains() {
        assertMessage("dampingNspm must be >= 0, got -0.5",
                () -> SimulatedDeviceConfig.defaults().withDampingNspm(-0.5));
        assertMessage("handStiffnessNpm must be finite, got Infinity",
                () -> SimulatedDeviceConfig.defaults().withHandStiffnessNpm(Double.POSITIVE_INFINITY));
        assertMessage("handDampingNspm must be >= 0, got -6.0",
                () -> SimulatedDeviceConfig.defaults().withHandDampingNspm(-6.0));
    }

    @Test
    void shouldRejectNonFiniteInitialPosition() {
        assertMessage("initialYM must be finite, got NaN",
                () -> SimulatedDeviceConfig.defaults().withInitialPositionM(0.0, Double.NaN, 0.0));
    }

    @Test
    void shouldRejectNonPositiveSubstep() {
        assertMessage("maxSubstepNs must be > 0, got 0", () -> SimulatedDeviceConfig.defaults().withMaxSubstepNs(0));
    }

    @Test
    void shouldRejectSubstepTooLongForStability() {
        // h = 0.1 s: h^2 k/m = 0.01 * 2000 = 20 alone exceeds the bound of 4.
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SimulatedDeviceConfig.defaults().withMaxSubstepNs(100_000_000L));
        assertEquals(true, e.getMessage().startsWith("maxSubstepNs 100000000 is too long"), e.getMessage());
    }

    @Test
    void shouldRejectInfoWithTorque() {
        DeviceInfo sixDof = new DeviceInfo("6dof", 6, Workspace.cube(0.1), 10.0, 4.0, 3000.0, 1.0);
        assertMessage("info.degreesOfFreedom must be 3 (the simulated stylus renders no torque), got 6",
                () -> SimulatedDeviceConfig.defaults().withInfo(sixDof));
        assertMessage("info must not be null", () -> SimulatedDeviceConfig.defaults().withInfo(null));
    }

    private static void assertMessage(String expected, Executable executable) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, executable);
        assertEquals(expected, e.getMessage());
    }
}
