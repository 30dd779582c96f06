package org.hapticsd.device;

/**
 * One sample of a device's state, preallocated by its owner and overwritten in place every tick.
 * Device frame, SI units.
 */
public final class DeviceState {
    public double positionXM;
    public double positionYM;
    public double positionZM;
    /** Unit quaternion; identity when the device reports no orientation. */
    public double orientationW = 1.0;
    public double orientationX;
    public double orientationY;
    public double orientationZ;
    public boolean hasOrientation;
    public double velocityXMps;
    public double velocityYMps;
    public double velocityZMps;
    /** Bit i set = button i pressed. */
    public int buttons;
    /** The device's own clock at the time of the sample. */
    public long deviceTimeNs;
    /** Increases by one per sample produced by the device. */
    public long sequence;
    /**
     * The force the device reports applying when the sample was taken, after its own clamp and watchdog, device
     * frame, N. Zero when its output is off. Drivers that cannot know it report the force they last commanded.
     */
    public double appliedForceXN;
    public double appliedForceYN;
    public double appliedForceZN;
    /** The device's status word as it reports it ({@code org.hapticsd.protocol.StatusFlags}); 0 if it has none. */
    public int statusFlags;

    public void copyFrom(DeviceState other) {
        positionXM = other.positionXM;
        positionYM = other.positionYM;
        positionZM = other.positionZM;
        orientationW = other.orientationW;
        orientationX = other.orientationX;
        orientationY = other.orientationY;
        orientationZ = other.orientationZ;
        hasOrientation = other.hasOrientation;
        velocityXMps = other.velocityXMps;
        velocityYMps = other.velocityYMps;
        velocityZMps = other.velocityZMps;
        buttons = other.buttons;
        deviceTimeNs = other.deviceTimeNs;
        sequence = other.sequence;
        appliedForceXN = other.appliedForceXN;
        appliedForceYN = other.appliedForceYN;
        appliedForceZN = other.appliedForceZN;
        statusFlags = other.statusFlags;
    }
}
