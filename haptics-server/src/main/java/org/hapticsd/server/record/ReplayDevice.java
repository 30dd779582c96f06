package org.hapticsd.server.record;

import java.io.IOException;
import java.nio.file.Path;
import org.hapticsd.device.DeviceFault;
import org.hapticsd.device.DeviceHealth;
import org.hapticsd.device.DeviceInfo;
import org.hapticsd.device.DeviceState;
import org.hapticsd.device.HapticDevice;
import org.hapticsd.device.Workspace;

/**
 * A device that plays a tick recording back: each {@link #readState} returns the next recorded device state (the
 * positions and velocities as recorded, fresh or stale as they were, with the recorded delivered force and status
 * word), whatever force the loop commands; {@link #health} reports the connection and device fault recorded for
 * that tick, so the safety layer sees the device trouble the original run saw. For regression tests (the same
 * motion through a changed scene or safety layer) and for calibration work.
 *
 * <p>The delivered force is replayed as recorded, not as a response to the commands of the replay: it describes the
 * device of the original run, and a replay that renders different forces shows the difference between the two.
 *
 * <p>When the recording ends the device stops producing states, like an unplugged one: the loop's watchdog takes
 * it to SAFE. The commanded forces are kept so a test can compare them with the recorded ones.
 */
public final class ReplayDevice implements HapticDevice {
    private final Recording recording;
    private final DeviceInfo info;
    private boolean open;
    private boolean exhausted;
    private int next;
    /** The record the latest {@link #readState} consumed, fresh or not; −1 before the first. */
    private int current = -1;
    private long lastSampleNs = Long.MIN_VALUE;
    private double lastForceXN;
    private double lastForceYN;
    private double lastForceZN;

    /**
     * @param sceneRatings the ratings to report when the recording does not hold its device's (format version 2):
     *                     the scene's {@code device} section. The safety layer's ceiling and thermal limit follow the
     *                     ratings, so a replay matches its original only with the original device's (a tester's
     *                     recording of the Touch-like emulator, 3.3 N peak, was replayed at the fixed 10 N it used to
     *                     report); a version-3 recording holds them and the replay reports those.
     */
    public ReplayDevice(Path file, DeviceInfo sceneRatings) throws IOException {
        this.recording = Recording.read(file);
        if (recording.recordCount() == 0) {
            throw new IOException(file + ": the recording holds no ticks");
        }
        Recording.Ratings recorded = recording.device();
        Recording.Ratings ratings = recorded != null ? recorded : Recording.Ratings.of(sceneRatings);
        this.info = new DeviceInfo("replay of " + file.getFileName() + (recorded != null ? " (" + recorded.name() + ")"
            : ""), 3, Workspace.cube(1.0), ratings.maxForceN(), ratings.maxContinuousForceN(),
            ratings.maxStiffnessNpm(), ratings.dampingNspm());
    }

    @Override
    public void open() {
        open = true;
        exhausted = false;
        next = 0;
        current = -1;
    }

    @Override
    public DeviceInfo info() {
        return info;
    }

    @Override
    public boolean readState(long nowNs, DeviceState dest) {
        if (!open || next >= recording.recordCount()) {
            exhausted = open;
            return false;
        }
        int i = next++;
        current = i;
        if (!recording.deviceFresh(i)) {
            return false;
        }
        dest.positionXM = recording.devicePositionM(i, 0);
        dest.positionYM = recording.devicePositionM(i, 1);
        dest.positionZM = recording.devicePositionM(i, 2);
        dest.velocityXMps = recording.deviceVelocityMps(i, 0);
        dest.velocityYMps = recording.deviceVelocityMps(i, 1);
        dest.velocityZMps = recording.deviceVelocityMps(i, 2);
        dest.sequence = recording.deviceSequence(i);
        dest.deviceTimeNs = recording.timeNs(i);
        dest.hasOrientation = false;
        dest.appliedForceXN = recording.deliveredForceN(i, 0);
        dest.appliedForceYN = recording.deliveredForceN(i, 1);
        dest.appliedForceZN = recording.deliveredForceN(i, 2);
        dest.statusFlags = recording.deviceStatusFlags(i);
        lastSampleNs = nowNs;
        return true;
    }

    @Override
    public void commandForce(double forceXN, double forceYN, double forceZN,
                             double torqueXNm, double torqueYNm, double torqueZNm) {
        lastForceXN = forceXN;
        lastForceYN = forceYN;
        lastForceZN = forceZN;
    }

    @Override
    public void health(long nowNs, DeviceHealth dest) {
        boolean playing = open && !exhausted && current >= 0;
        dest.connected = playing ? recording.deviceConnected(current) : open && !exhausted;
        dest.lastStateAgeNs = lastSampleNs == Long.MIN_VALUE ? Long.MAX_VALUE : nowNs - lastSampleNs;
        dest.fault = playing ? recording.deviceFault(current) : DeviceFault.NONE;
    }

    @Override
    public void close() {
        lastForceXN = 0.0;
        lastForceYN = 0.0;
        lastForceZN = 0.0;
        open = false;
    }

    /** Records played so far. */
    public int played() {
        return next;
    }

    public Recording recording() {
        return recording;
    }

    public double lastForceXN() {
        return lastForceXN;
    }

    public double lastForceYN() {
        return lastForceYN;
    }

    public double lastForceZN() {
        return lastForceZN;
    }
}
