package org.hapticsd.device.emulator;

import org.hapticsd.device.DeviceInfo;
import org.hapticsd.device.Workspace;
import org.hapticsd.device.sim.SimulatedDeviceConfig;

/**
 * What an {@link EmulatedDevice} reports in INFO and how its stylus moves. Immutable.
 *
 * <p>The factory profiles use typical published specifications of two well-known desktop devices, rounded; they
 * are plausible orders of magnitude for testing the host, not measurements of any particular unit, and values a
 * vendor does not publish (continuous force of the Falcon, moving masses, homing time) are estimates and say so.
 *
 * @param name                name sent in INFO, printable ASCII, at most 32 characters
 * @param sensedDof           degrees of freedom measured, 3..6 (orientation is always sent as identity)
 * @param actuatedDof         degrees of freedom actuated; must be 3 (the stylus renders force, no torque)
 * @param firmwareMajor       firmware version sent in INFO
 * @param firmwareMinor       firmware version sent in INFO
 * @param firmwarePatch       firmware version sent in INFO
 * @param workspace           reachable box, device frame, m
 * @param maxForceN           peak force; every applied force is clamped to this magnitude
 * @param maxContinuousForceN force sustainable without thermal limiting (reported only), ≤ maxForceN
 * @param nominalStiffnessNpm stiffness rendered stably at the default rate (reported only)
 * @param dampingNspm         viscous damping of the mechanism; reported in INFO and used by the stylus physics
 * @param stylusMassKg        moving mass felt at the stylus tip
 * @param supportedRates      INFO bit mask: bit i set = 125·2^i Hz supported, bits 0..6 only
 * @param defaultRateHz       rate used when HELLO asks for 0; one of the supported rates
 * @param homingDurationNs    time a homing run takes to succeed
 */
public record EmulatorProfile(String name, int sensedDof, int actuatedDof, int firmwareMajor, int firmwareMinor,
                              int firmwarePatch, Workspace workspace, double maxForceN, double maxContinuousForceN,
                              double nominalStiffnessNpm, double dampingNspm, double stylusMassKg,
                              int supportedRates, int defaultRateHz, long homingDurationNs) {

    /** 125, 250, 500 and 1000 Hz: the rates both factory profiles offer. */
    public static final int RATES_125_TO_1000_HZ = 0x0F;
    private static final int MAX_NAME_CHARS = 32;
    private static final int RATE_COUNT = 7;

    public EmulatorProfile {
        if (name == null || name.isBlank() || name.length() > MAX_NAME_CHARS) {
            throw new IllegalArgumentException("name must be 1.." + MAX_NAME_CHARS + " characters");
        }
        if (sensedDof < 3 || sensedDof > 6 || actuatedDof != 3) {
            throw new IllegalArgumentException("need sensedDof 3..6 and actuatedDof 3, got "
                    + sensedDof + " and " + actuatedDof);
        }
        if (workspace == null) {
            throw new IllegalArgumentException("workspace must not be null");
        }
        if (!(maxForceN > 0) || !(maxContinuousForceN > 0) || maxContinuousForceN > maxForceN
                || !Double.isFinite(maxForceN)) {
            throw new IllegalArgumentException("need 0 < maxContinuousForceN <= maxForceN < infinity");
        }
        if (!(nominalStiffnessNpm > 0) || !(dampingNspm >= 0) || !(stylusMassKg > 0)) {
            throw new IllegalArgumentException("need nominalStiffnessNpm > 0, dampingNspm >= 0, stylusMassKg > 0");
        }
        if (supportedRates <= 0 || supportedRates >= 1 << RATE_COUNT) {
            throw new IllegalArgumentException("supportedRates must set some of bits 0..6, got " + supportedRates);
        }
        if (rateIndexOf(supportedRates, defaultRateHz) < 0) {
            throw new IllegalArgumentException("defaultRateHz " + defaultRateHz + " is not a supported rate");
        }
        if (homingDurationNs <= 0) {
            throw new IllegalArgumentException("homingDurationNs must be > 0, got " + homingDurationNs);
        }
    }

    /**
     * A Novint Falcon-like 3-DoF device: typical published specs give a workspace of about 4 in (0.10 m) cube,
     * a peak force of about 2 lb (8.9 N, rounded down to 8 N here) and a stiffness around 3000 N/m at 1 kHz. The
     * continuous force (4 N), the moving mass (0.15 kg), the damping (1 N·s/m) and the homing time (1 s) are
     * estimates, not published figures.
     */
    public static EmulatorProfile falconLike() {
        return new EmulatorProfile("Falcon-like emulator", 3, 3, 1, 0, 0, Workspace.cube(0.05),
                8.0, 4.0, 3000.0, 1.0, 0.15, RATES_125_TO_1000_HZ, 1000, 1_000_000_000L);
    }

    /**
     * A 3D Systems Touch-like device (6 DoF sensed, 3 actuated): typical published specs give a workspace of
     * about 160 × 120 × 70 mm, a peak force of 3.3 N, a continuous force of 0.88 N and an apparent tip mass of
     * about 45 g. The published stiffness is 1 to 2.3 N/mm per axis; 400 N/m is the conservative value the
     * host should plan with. The damping (0.2 N·s/m) and homing time (2 s) are estimates.
     */
    public static EmulatorProfile touchLike() {
        return new EmulatorProfile("Touch-like emulator", 6, 3, 1, 0, 0,
                new Workspace(-0.08, -0.06, -0.035, 0.08, 0.06, 0.035),
                3.3, 0.88, 400.0, 0.2, 0.045, RATES_125_TO_1000_HZ, 1000, 2_000_000_000L);
    }

    public EmulatorProfile withHomingDurationNs(long homingDurationNs) {
        return new EmulatorProfile(name, sensedDof, actuatedDof, firmwareMajor, firmwareMinor, firmwarePatch,
                workspace, maxForceN, maxContinuousForceN, nominalStiffnessNpm, dampingNspm, stylusMassKg,
                supportedRates, defaultRateHz, homingDurationNs);
    }

    public EmulatorProfile withSupportedRates(int supportedRates, int defaultRateHz) {
        return new EmulatorProfile(name, sensedDof, actuatedDof, firmwareMajor, firmwareMinor, firmwarePatch,
                workspace, maxForceN, maxContinuousForceN, nominalStiffnessNpm, dampingNspm, stylusMassKg,
                supportedRates, defaultRateHz, homingDurationNs);
    }

    /**
     * The stylus physics: this profile's mass, damping and ratings, with {@link SimulatedDeviceConfig}'s default
     * virtual hand, starting at the origin.
     */
    public SimulatedDeviceConfig simulatedDeviceConfig() {
        return SimulatedDeviceConfig.defaults()
                .withMassKg(stylusMassKg)
                .withDampingNspm(dampingNspm)
                .withInfo(new DeviceInfo(name, 3, workspace, maxForceN, maxContinuousForceN,
                        nominalStiffnessNpm, dampingNspm));
    }

    /**
     * The rate index INFO selects for {@code requestedRateHz} (spec section 6.2): the requested rate if
     * supported, otherwise the highest supported rate below it, otherwise the lowest supported rate; 0 asks for
     * the default.
     */
    public int selectRateIndex(int requestedRateHz) {
        int wantedHz = requestedRateHz == 0 ? defaultRateHz : requestedRateHz;
        int below = -1;
        int lowest = -1;
        for (int i = 0; i < RATE_COUNT; i++) {
            if ((supportedRates & (1 << i)) == 0) {
                continue;
            }
            if (lowest < 0) {
                lowest = i;
            }
            if (125 << i <= wantedHz) {
                below = i;
            }
        }
        return below >= 0 ? below : lowest;
    }

    /** Tick period at rate index {@code i}: 125·2^i Hz is exactly 8 ms / 2^i. */
    public static long periodNs(int rateIndex) {
        return 8_000_000L >> rateIndex;
    }

    private static int rateIndexOf(int supportedRates, int rateHz) {
        for (int i = 0; i < RATE_COUNT; i++) {
            if (125 << i == rateHz) {
                return (supportedRates & (1 << i)) != 0 ? i : -1;
            }
        }
        return -1;
    }
}
