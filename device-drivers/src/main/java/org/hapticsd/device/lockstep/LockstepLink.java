package org.hapticsd.device.lockstep;

import java.io.IOException;
import org.hapticsd.device.DeviceException;
import org.hapticsd.device.DeviceFault;
import org.hapticsd.device.DeviceHealth;
import org.hapticsd.device.DeviceInfo;
import org.hapticsd.device.DeviceState;
import org.hapticsd.device.HapticDevice;
import org.hapticsd.device.emulator.EmulatedDevice;
import org.hapticsd.device.emulator.EmulatorControl;
import org.hapticsd.device.link.ByteLink;
import org.hapticsd.device.link.LinkConnector;
import org.hapticsd.device.link.LinkSession;
import org.hapticsd.device.link.LinkStatistics;

/**
 * The loop, the host's link session and the emulated firmware advancing together over a real link (a pty pair
 * through jSerialComm, or TCP): a device-in-the-loop run whose verdict does not depend on the machine.
 *
 * <p>Everything runs on the loop thread, on a {@link LockstepClock}. Each tick, {@link #readState} steps the device
 * to the tick's time: the host's bytes of the previous tick (its FORCE, a PING, ...) are read off the device end of
 * the link and handed to the firmware at the simulated time they were written, the firmware runs to the tick's time
 * and writes what it owes (the tick's STATE, a STATUS, ...), and the host end reads exactly those bytes before the
 * session decodes them. So the tick always sees the device's STATE of that tick, and the firmware's clock moves only
 * with the frames the loop sends and the ticks it runs, never with the wall clock: a loaded machine makes the run
 * slower, not different. {@link #commandForce} then lets the session write the tick's FORCE.
 *
 * <p>The bytes really cross the link, framing, COBS, CRC and the pty included; only their timing is simulated. The
 * two ends are read for exactly the number of bytes the other end wrote, so a wait never guesses: it ends when the
 * bytes are there, or after {@link #TRANSPORT_GUARD_NS} of wall clock, which only a broken link (socat gone) reaches
 * and which fails the tick with an error naming it.
 *
 * <p>Faults a script injects act on the same clock: an unplugged cable drops the bytes both ways while the firmware
 * keeps running (its watchdog trips, its session ends after 500 ms), garbage goes on the line ahead of the device's
 * next frames. A stall of the loop is the loop's clock jumping ({@link LockstepClock#advanceBy}).
 */
public final class LockstepLink implements HapticDevice, EmulatorControl {
    /** A wait for bytes the other end has written longer than this is a broken link, not a slow machine. */
    public static final long TRANSPORT_GUARD_NS = 10_000_000_000L;
    private static final int MAX_BATCHES = 64;
    private static final long OPEN_STEP_NS = 1_000_000L;

    private final EmulatedDevice device;
    private final LinkConnector deviceSide;
    private final LinkConnector hostSide;
    private final LockstepClock clock;
    private final LinkSession session;
    private ByteLink deviceLink;
    private ByteLink hostLink;
    private boolean open;

    // Host → device: bytes written by the session, not yet read at the device end, with their write times.
    private final int[] batchBytes = new int[MAX_BATCHES];
    private final long[] batchTimeNs = new long[MAX_BATCHES];
    private int batchHead;
    private int batchCount;

    // Device → host: bytes the device end wrote that the host end has yet to read.
    private long deviceBytesOwed;

    private final byte[] tx = new byte[LinkSession.MAX_POLL_BYTES];
    private final byte[] deviceTx = new byte[EmulatedDevice.MAX_POLL_BYTES];
    private final byte[] rx = new byte[4096];

    // Faults, set from any thread, applied at the next step.
    private volatile boolean unplugged;
    private volatile byte[] garbage;
    private long bytesDiscarded;

    /**
     * @param deviceSide opens the device end of the link (the emulator's)
     * @param hostSide   opens the host end (the driver's)
     */
    public LockstepLink(EmulatedDevice device, LinkConnector deviceSide, LinkConnector hostSide,
                        LinkSession.Config config, LockstepClock clock) {
        this.device = device;
        this.deviceSide = deviceSide;
        this.hostSide = hostSide;
        this.clock = clock;
        this.session = new LinkSession(config, hostSide.name());
    }

    /** The endpoint the host opens, as {@code --device} names a link. */
    public String name() {
        return hostSide.name();
    }

    /**
     * Opens both ends (the host's first, so a TCP device end can accept it), then runs the handshake on the lockstep
     * clock, a millisecond per step, until INFO; fails after the session's open timeout in simulated time.
     */
    @Override
    public void open() throws DeviceException {
        if (open) {
            return;
        }
        try {
            hostLink = hostSide.connect();
            deviceLink = deviceSide.connect();
        } catch (IOException e) {
            close();
            throw new DeviceException(hostSide.name() + ": " + e.getMessage());
        }
        open = true;
        long startNs = clock.getAsLong();
        session.linkOpened(startNs);
        try {
            while (!session.isSessionActive() && !session.isIncompatible()) {
                if (clock.getAsLong() - startNs > session.config().openTimeoutNs()) {
                    throw new DeviceException(hostSide.name() + ": no INFO within "
                            + session.config().openTimeoutNs() / 1_000_000L + " ms (lockstep)");
                }
                flushHost(clock.getAsLong());
                step(clock.getAsLong());
                clock.advanceBy(OPEN_STEP_NS);
            }
        } catch (IOException e) {
            close();
            throw new DeviceException(hostSide.name() + ": " + e.getMessage());
        } catch (DeviceException e) {
            close();
            throw e;
        }
        if (session.isIncompatible()) {
            String why = session.lastError();
            close();
            throw new DeviceException(why);
        }
    }

    /** The first transport failure, once the link broke; every later tick fails with it. */
    private IllegalStateException broken;

    @Override
    public DeviceInfo info() {
        DeviceInfo info = session.info();
        if (info == null) {
            throw new IllegalStateException(hostSide.name() + ": not open");
        }
        return info;
    }

    /** Steps the device to now and takes its STATE of this tick. A broken link fails the tick (the loop latches it). */
    @Override
    public boolean readState(long nowNs, DeviceState dest) {
        requireUnbroken();
        try {
            step(clock.getAsLong());
        } catch (IOException e) {
            throw breaks(e);
        }
        return session.readState(dest);
    }

    @Override
    public void commandForce(double forceXN, double forceYN, double forceZN,
                             double torqueXNm, double torqueYNm, double torqueZNm) {
        session.commandForce(forceXN, forceYN, forceZN);
        requireUnbroken();
        try {
            flushHost(clock.getAsLong());
        } catch (IOException e) {
            throw breaks(e);
        }
    }

    /**
     * A link that broke stays broken: every later tick fails at once with the first failure, instead of waiting out
     * the transport guard (or a stalled write) again on every tick, which held a lockstep run for hours of wall
     * clock after its socat was killed.
     */
    private void requireUnbroken() {
        if (broken != null) {
            throw broken;
        }
    }

    private IllegalStateException breaks(IOException e) {
        broken = new IllegalStateException("lockstep link " + hostSide.name() + ": " + e.getMessage(), e);
        return broken;
    }

    /** A broken link is a lost link: no longer connected, whatever the session last knew. */
    @Override
    public void health(long nowNs, DeviceHealth dest) {
        session.health(clock.getAsLong(), dest);
        if (broken != null) {
            dest.connected = false;
            dest.fault = DeviceFault.LINK_LOST;
        }
    }

    /** Any thread after the loop has stopped (or the loop thread): the link's counters. */
    public LinkStatistics statistics() {
        return session.statistics();
    }

    /** The firmware, for the loop thread or after the run. */
    public EmulatedDevice device() {
        return device;
    }

    /** Whether the device acknowledged the closing zero FORCE. */
    public boolean closeConfirmed() {
        return session.closeConfirmed();
    }

    @Override
    public void setUnplugged(boolean unplugged) {
        this.unplugged = unplugged;
    }

    @Override
    public void injectGarbage(byte[] bytes) {
        this.garbage = bytes.clone();
    }

    @Override
    public long watchdogTrips() {
        return device.watchdogTrips();
    }

    /** Time is simulated: nothing about the host's real timing can change a lockstep verdict. */
    @Override
    public HostTiming hostTiming() {
        return null;
    }

    /** Bytes the host sent while the cable was out. */
    public long bytesDiscarded() {
        return bytesDiscarded;
    }

    /**
     * Closes the session as the real driver does (the zero FORCE, resent until acknowledged), stepping the device
     * a millisecond at a time on the lockstep clock, then both ends of the link. Idempotent.
     */
    @Override
    public void close() {
        if (open && broken != null) {
            // Nothing can cross a broken link; the firmware's own watchdog zeroes its output.
            open = false;
        }
        if (open) {
            long nowNs = clock.getAsLong();
            session.beginClose(nowNs);
            try {
                while (!session.isClosed(clock.getAsLong())) {
                    flushHost(clock.getAsLong());
                    clock.advanceBy(OPEN_STEP_NS);
                    step(clock.getAsLong());
                }
            } catch (IOException ignored) {
                // The link broke while closing: the firmware's own watchdog zeroes its output.
            }
            open = false;
        }
        if (hostLink != null) {
            hostLink.close();
        }
        if (deviceLink != null) {
            deviceLink.close();
        }
    }

    /** Lets the session write what it owes at {@code nowNs}, remembering the bytes for the device's next step. */
    private void flushHost(long nowNs) throws IOException {
        int n = session.poll(nowNs, tx, 0);
        if (n == 0) {
            return;
        }
        hostLink.write(tx, 0, n);
        if (batchCount == MAX_BATCHES) {
            throw new IOException("more than " + MAX_BATCHES + " host writes without a device step");
        }
        int slot = (batchHead + batchCount) % MAX_BATCHES;
        batchBytes[slot] = n;
        batchTimeNs[slot] = nowNs;
        batchCount++;
    }

    /**
     * The device's step to {@code nowNs}: it receives the host's pending bytes at their write times, runs to now and
     * writes what it owes; then the host end reads all of it and the session decodes it at now.
     */
    private void step(long nowNs) throws IOException {
        while (batchCount > 0) {
            int bytes = batchBytes[batchHead];
            long writtenNs = batchTimeNs[batchHead];
            batchHead = (batchHead + 1) % MAX_BATCHES;
            batchCount--;
            readExactly(deviceLink, bytes, writtenNs, true);
        }
        int n = device.poll(nowNs, deviceTx, 0);
        if (!unplugged) {
            byte[] noise = garbage;
            if (noise != null) {
                garbage = null;
                deviceLink.write(noise, 0, noise.length);
                deviceBytesOwed += noise.length;
            }
            if (n > 0) {
                deviceLink.write(deviceTx, 0, n);
                deviceBytesOwed += n;
            }
        }
        if (deviceBytesOwed > 0) {
            long owed = deviceBytesOwed;
            deviceBytesOwed = 0;
            readExactly(hostLink, owed, nowNs, false);
        }
    }

    /** Reads exactly {@code bytes} from {@code link} and hands them to the firmware or the session at {@code atNs}. */
    private void readExactly(ByteLink link, long bytes, long atNs, boolean toDevice) throws IOException {
        long remaining = bytes;
        long guardStartNs = System.nanoTime();
        while (remaining > 0) {
            int n = link.read(rx, 0, (int) Math.min(rx.length, remaining));
            if (n > 0) {
                remaining -= n;
                if (!toDevice) {
                    session.receive(rx, 0, n, atNs);
                } else if (unplugged) {
                    bytesDiscarded += n;
                } else {
                    device.receive(rx, 0, n, atNs);
                }
            } else if (System.nanoTime() - guardStartNs > TRANSPORT_GUARD_NS) {
                throw new IOException(link.name() + ": " + remaining + " of " + bytes + " bytes written at the other"
                        + " end did not arrive within " + TRANSPORT_GUARD_NS / 1_000_000_000L + " s");
            }
        }
    }
}
