package org.hapticsd.device;

/**
 * What a device is and what it can safely do.
 *
 * @param name                 human-readable device name
 * @param degreesOfFreedom     actuated degrees of freedom (3 = force only, 6 = force and torque)
 * @param workspace            reachable box in the device frame
 * @param maxForceN            peak force the device may ever be commanded
 * @param maxContinuousForceN  force the device can hold indefinitely without overheating
 * @param maxStiffnessNpm      nominal highest stable rendered stiffness
 * @param dampingNspm          nominal intrinsic damping of the mechanism
 */
public record DeviceInfo(String name, int degreesOfFreedom, Workspace workspace, double maxForceN,
                         double maxContinuousForceN, double maxStiffnessNpm, double dampingNspm) {

    public DeviceInfo {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("device name must not be blank");
        }
        if (degreesOfFreedom < 1 || degreesOfFreedom > 6) {
            throw new IllegalArgumentException("degreesOfFreedom must be 1..6, got " + degreesOfFreedom);
        }
        if (!(maxForceN > 0) || !(maxContinuousForceN > 0) || maxContinuousForceN > maxForceN) {
            throw new IllegalArgumentException("need 0 < maxContinuousForceN <= maxForceN");
        }
        if (!(maxStiffnessNpm > 0) || !(dampingNspm >= 0)) {
            throw new IllegalArgumentException("need maxStiffnessNpm > 0 and dampingNspm >= 0");
        }
    }

    public boolean supportsTorque() {
        return degreesOfFreedom >= 6;
    }
}
