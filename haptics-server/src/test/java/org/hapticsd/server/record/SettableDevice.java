package org.hapticsd.server.record;

import org.hapticsd.device.DeviceFault;
import org.hapticsd.device.DeviceHealth;
import org.hapticsd.device.DeviceInfo;
import org.hapticsd.device.DeviceState;
import org.hapticsd.device.HapticDevice;
import org.hapticsd.device.Workspace;

/**
 * A device held at the origin (free space in the default scene) whose connection, fault, status word and reported
 * applied force a test sets directly before each tick, and which can be made to throw on read.
 */
final class SettableDevice implements HapticDevice {
    static final DeviceInfo INFO = new DeviceInfo("settable", 3, Workspace.cube(0.2), 10.0, 4.0, 3000.0, 1.0);

    boolean connected = true;
    DeviceFault fault = DeviceFault.NONE;
    int statusFlags;
    double appliedXN;
    double appliedYN;
    double appliedZN;
    RuntimeException throwOnRead;
    private boolean open;
    private long sequence;

    @Override
    public void open() {
        open = true;
    }

    @Override
    public DeviceInfo info() {
        return INFO;
    }

    @Override
    public boolean readState(long nowNs, DeviceState dest) {
        if (throwOnRead != null) {
            throw throwOnRead;
        }
        dest.positionXM = 0.0;
        dest.positionYM = 0.0;
        dest.positionZM = 0.0;
        dest.deviceTimeNs = nowNs;
        dest.sequence = ++sequence;
        dest.appliedForceXN = appliedXN;
        dest.appliedForceYN = appliedYN;
        dest.appliedForceZN = appliedZN;
        dest.statusFlags = statusFlags;
        return true;
    }

    @Override
    public void commandForce(double forceXN, double forceYN, double forceZN,
                             double torqueXNm, double torqueYNm, double torqueZNm) {
    }

    @Override
    public void health(long nowNs, DeviceHealth dest) {
        dest.connected = open && connected;
        dest.fault = fault;
        dest.lastStateAgeNs = 0;
    }

    @Override
    public void close() {
        open = false;
    }
}
