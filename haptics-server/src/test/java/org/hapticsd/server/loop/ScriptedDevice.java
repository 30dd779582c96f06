package org.hapticsd.server.loop;

import org.hapticsd.device.DeviceFault;
import org.hapticsd.device.DeviceHealth;
import org.hapticsd.device.DeviceInfo;
import org.hapticsd.device.DeviceState;
import org.hapticsd.device.HapticDevice;
import org.hapticsd.device.Workspace;

/** A device whose position, freshness and failures a test sets directly. Records what was commanded. */
final class ScriptedDevice implements HapticDevice {
    static final DeviceInfo INFO = new DeviceInfo("scripted", 3, Workspace.cube(0.2), 10.0, 4.0, 3000.0, 1.0);

    double xM;
    double yM;
    double zM;
    boolean producesStates = true;
    /** Reported not connected (a cable out), while still open. */
    boolean unplugged;
    /** Each read keeps the CPU busy this long (a tick that overruns on its own). */
    volatile long busyReadNs;
    /** Run at the start of every read, on the loop thread (a test's stall or simulated time), when set. */
    volatile Runnable onRead;
    RuntimeException throwOnRead;
    boolean open;
    boolean closed;
    volatile long reads;
    double lastForceXN = Double.NaN;
    double lastForceYN = Double.NaN;
    double lastForceZN = Double.NaN;
    long forceCommands;
    /** {@link #endOfTick} calls, and those that came without a force commanded since the previous one. */
    long endsOfTick;
    long endsOfTickWithoutForce;
    private long forceCommandsAtLastEnd;
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
        reads++;
        long busyUntilNs = System.nanoTime() + busyReadNs;
        while (busyReadNs > 0 && System.nanoTime() - busyUntilNs < 0) {
            Thread.onSpinWait();
        }
        Runnable hook = onRead;
        if (hook != null) {
            hook.run();
        }
        if (throwOnRead != null) {
            throw throwOnRead;
        }
        if (!producesStates) {
            return false;
        }
        dest.positionXM = xM;
        dest.positionYM = yM;
        dest.positionZM = zM;
        dest.deviceTimeNs = nowNs;
        dest.sequence = ++sequence;
        return true;
    }

    @Override
    public void commandForce(double forceXN, double forceYN, double forceZN,
                             double torqueXNm, double torqueYNm, double torqueZNm) {
        lastForceXN = forceXN;
        lastForceYN = forceYN;
        lastForceZN = forceZN;
        forceCommands++;
    }

    @Override
    public void endOfTick() {
        endsOfTick++;
        if (forceCommands == forceCommandsAtLastEnd) {
            endsOfTickWithoutForce++;
        }
        forceCommandsAtLastEnd = forceCommands;
    }

    @Override
    public void health(long nowNs, DeviceHealth dest) {
        dest.connected = open && !closed && !unplugged;
        dest.fault = DeviceFault.NONE;
        dest.lastStateAgeNs = 0;
    }

    @Override
    public void close() {
        lastForceXN = 0;
        lastForceYN = 0;
        lastForceZN = 0;
        closed = true;
    }

    double lastForceMagnitudeN() {
        return Math.sqrt(lastForceXN * lastForceXN + lastForceYN * lastForceYN + lastForceZN * lastForceZN);
    }
}
