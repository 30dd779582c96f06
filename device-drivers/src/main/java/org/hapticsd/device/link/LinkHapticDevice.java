package org.hapticsd.device.link;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;
import org.hapticsd.device.DeviceException;
import org.hapticsd.device.DeviceFault;
import org.hapticsd.device.DeviceHealth;
import org.hapticsd.device.DeviceInfo;
import org.hapticsd.device.DeviceState;
import org.hapticsd.device.HapticDevice;
import org.hapticsd.device.ThreadPolicy;

/**
 * A device on the other end of a device-link protocol connection ({@code docs/device-protocol.md}) in real time: a
 * serial port through jSerialComm, or TCP for serial-to-network bridges and tests. The protocol itself is a
 * {@link LinkSession}; this class is its shell of threads, a port and a clock.
 *
 * <p>Threads. The loop thread only copies memory: {@link #readState} takes the newest complete STATE from a
 * sequence lock, {@link #commandForce} leaves the force in a mailbox, and {@link #endOfTick} wakes the writer
 * once the tick is done. Two link threads do the
 * blocking I/O and take turns with the session under one lock (held for microseconds, never across a read or a
 * write): the <em>reader</em> feeds it what the device sends and publishes each new STATE; the <em>writer</em>
 * owns the link's lifecycle (open, reopen) and writes what the session owes the device. One thread numbers and
 * writes every frame, so FORCE sequence numbers strictly increase in the loop's order. If the writer falls behind,
 * the mailbox keeps only the newest force: an old force is never worth sending late.
 *
 * <p>Rejected: a reader that only moves bytes into a ring buffer for a third thread that owns the session. It
 * would make the session's single-threadedness structural rather than a lock, but it puts one more thread wake-up
 * between every STATE and the loop, on the path a 2-core machine under load is slowest on.
 *
 * <p>Loss and return. The device is judged by the age of its newest STATE, not by the port: an unplugged USB
 * adapter keeps its port "open". {@link #health} reports it disconnected once the newest STATE is older than
 * {@link LinkSession.Config#staleAfterNs()}, which takes the loop to SAFE; the loop's own watchdog does so even
 * earlier. After the spec's 500 ms with no valid frame the session is over and the session says HELLO again; a
 * broken or still silent link is closed and reopened every {@link LinkSession.Config#reopenAfterNs()}.
 *
 * <p>Closing sends the zero FORCE with outputEnable = 0 and keeps reading until the device acknowledges it (or
 * {@link LinkSession#CLOSE_TIMEOUT_NS} passes) before the port is closed: jSerialComm discards whatever a serial
 * port has not yet transmitted when it closes (tcflush), and on a pseudo-terminal that is often the last frame.
 */
public final class LinkHapticDevice implements HapticDevice {

    private static final VarHandle FORCE_VERSION;

    static {
        try {
            FORCE_VERSION = MethodHandles.lookup().findVarHandle(LinkHapticDevice.class, "forceVersion", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static final long MAX_PARK_NS = 10_000_000L;
    /** How long {@link #close()} waits for the writer: closing's own timeout plus a stalled machine's margin. */
    private static final long CLOSE_JOIN_MS = LinkSession.CLOSE_TIMEOUT_NS / 1_000_000L + 2_000L;

    private final LinkConnector connector;
    private final LinkSession.Config config;
    private final LongSupplier clockNs;
    private final LinkSession session;
    /** Guards {@link #session}: the reader and the writer take turns with it. */
    private final Object sessionLock = new Object();

    // Loop-thread side.
    private final StateExchange states = new StateExchange();
    private long stateVersionSeen;
    /** The caller ends its ticks with {@link #endOfTick}, which wakes the writer: commandForce need not. */
    private boolean endOfTickCalled;

    // Force mailbox: written by the loop thread, read by the writer (a sequence lock of three doubles).
    @SuppressWarnings("unused") // accessed through FORCE_VERSION
    private long forceVersion;
    private double mailboxXN;
    private double mailboxYN;
    private double mailboxZN;

    // Published by the link threads (under sessionLock) for the loop and other threads.
    private volatile boolean sessionActive;
    private volatile boolean incompatible;
    private volatile DeviceInfo info;
    private volatile long lastStateNs;
    private volatile DeviceFault fault = DeviceFault.LINK_LOST;
    private volatile int sessionRateHz;
    private volatile int sessionVersion;
    private volatile String lastError;
    private volatile boolean closeConfirmed;
    private long publishedStateCount;

    // Link lifecycle.
    private volatile ByteLink link;
    private volatile boolean running;
    private volatile boolean closeRequested;
    private volatile boolean linkBroken;
    private volatile String readError;
    private Thread reader;
    private Thread writer;

    public LinkHapticDevice(LinkConnector connector, LinkSession.Config config) {
        this(connector, config, System::nanoTime);
    }

    /** @param clockNs the loop's clock: STATE arrival times are compared with the {@code nowNs} of each tick */
    public LinkHapticDevice(LinkConnector connector, LinkSession.Config config, LongSupplier clockNs) {
        this.connector = connector;
        this.config = config;
        this.clockNs = clockNs;
        this.session = new LinkSession(config, connector.name());
    }

    /** The endpoint, as in {@code --device}. */
    public String name() {
        return connector.name();
    }

    /**
     * Starts the link threads and waits for the first INFO.
     *
     * @throws DeviceException naming the endpoint and why: the port cannot be opened, nothing answered within
     *     {@link LinkSession.Config#openTimeoutNs()}, or the device speaks no common protocol version
     */
    @Override
    public void open() throws DeviceException {
        if (running) {
            return;
        }
        running = true;
        writer = new Thread(this::writeLoop, "hapticsd-link-tx");
        reader = new Thread(this::readLoop, "hapticsd-link-rx");
        writer.setDaemon(true);
        reader.setDaemon(true);
        // Both sit on the force path (a late FORCE trips the device's 5 ms watchdog): same priority as the loop, and
        // its real-time policy when one is asked for (setRtPriority).
        writer.setPriority(Thread.MAX_PRIORITY);
        reader.setPriority(Thread.MAX_PRIORITY);
        reader.start();
        writer.start();
        long deadlineNs = clockNs.getAsLong() + config.openTimeoutNs();
        while (!sessionActive && !incompatible && clockNs.getAsLong() - deadlineNs < 0) {
            LockSupport.parkNanos(1_000_000L);
        }
        if (!sessionActive) {
            LinkStatistics stats;
            long bytes;
            String refusal;
            String rejected;
            String failure;
            synchronized (sessionLock) {
                stats = session.statistics();
                bytes = session.bytesReceived();
                refusal = session.infoRefusal();
                rejected = session.lastFrameRejection();
                failure = session.linkFailure();
            }
            long malformed = stats.malformedFrames();
            long linksOpened = stats.linksOpened();
            // One reason, said once: the INFO that was refused (naming its field), else what the line carried.
            String detail;
            if (refusal != null) {
                detail = ": " + refusal;
            } else if (rejected == null && bytes > 0 && stats.framesReceived() == 0) {
                // Noise, or a device at another baud rate: not one frame decoded, and none refused for a field's
                // value. (A tester's line of random bytes was told to read the INFO field ranges; one of zero bytes
                // was told nothing answered.)
                detail = String.format(java.util.Locale.ROOT, " (%d bytes received but no valid frame: %d CRC errors, "
                    + "%d malformed, %d oversize; wrong baud rate or not a hapticsd device?)", bytes, stats.crcErrors(),
                    malformed, stats.oversizeFrames());
            } else if (malformed > 0) {
                detail = " (" + malformed + " malformed frame(s) received"
                    + (rejected != null ? "; the last was an " + rejected : "")
                    + ": the ranges are in docs/device-protocol.md 2.4 and 4.2)";
            } else if (failure != null) {
                detail = ": " + failure;
            } else {
                detail = " (nothing answered HELLO)";
            }
            long timeoutMs = config.openTimeoutNs() / 1_000_000L;
            String why;
            if (incompatible) {
                why = lastError;
            } else if (linksOpened == 0 && failure != null) {
                // No HELLO ever went out: say that the port or connection never opened, and why, once.
                why = "could not open within " + timeoutMs + " ms: "
                    + withoutPrefix(withoutPrefix(failure, connector.name() + ": "), "cannot open: ");
            } else {
                why = "no usable INFO within " + timeoutMs + " ms of HELLO" + detail;
            }
            close();
            throw new DeviceException(incompatible ? why : connector.name() + ": " + why);
        }
    }

    private static String withoutPrefix(String text, String prefix) {
        return text.startsWith(prefix) ? text.substring(prefix.length()) : text;
    }

    @Override
    public DeviceInfo info() {
        DeviceInfo current = info;
        if (current == null) {
            throw new IllegalStateException(connector.name() + ": not open");
        }
        return current;
    }

    @Override
    public boolean readState(long nowNs, DeviceState dest) {
        long version = states.readIfNewer(stateVersionSeen, dest);
        if (version == stateVersionSeen) {
            return false;
        }
        stateVersionSeen = version;
        return true;
    }

    @Override
    public void commandForce(double forceXN, double forceYN, double forceZN,
                             double torqueXNm, double torqueYNm, double torqueZNm) {
        long v = (long) FORCE_VERSION.getOpaque(this);
        FORCE_VERSION.setOpaque(this, v + 1);
        VarHandle.storeStoreFence();
        mailboxXN = forceXN;
        mailboxYN = forceYN;
        mailboxZN = forceZN;
        FORCE_VERSION.setRelease(this, v + 2);
        if (!endOfTickCalled) {
            wakeWriter();
        }
    }

    /**
     * Wakes the writer for the force {@link #commandForce} left. Measured with the emulator over TCP: the wake in
     * {@code commandForce} made the loop's write stage p50 4 µs and p99 100–150 µs (the simulated stylus: 0.3 and
     * 1 µs), the woken writer's frame and TCP write running on the loop's CPU in the middle of its tick.
     */
    @Override
    public void endOfTick() {
        endOfTickCalled = true;
        wakeWriter();
    }

    private void wakeWriter() {
        Thread w = writer;
        if (w != null) {
            LockSupport.unpark(w);
        }
    }

    @Override
    public void health(long nowNs, DeviceHealth dest) {
        long stateNs = lastStateNs;
        boolean active = sessionActive;
        dest.lastStateAgeNs = stateNs == 0 ? Long.MAX_VALUE : nowNs - stateNs;
        dest.connected = active && stateNs != 0 && dest.lastStateAgeNs < config.staleAfterNs();
        dest.fault = fault;
    }

    /** Any thread: the link's counters and round-trip histogram since construction. */
    public LinkStatistics statistics() {
        synchronized (sessionLock) {
            return session.statistics();
        }
    }

    /** Any thread: the STATE rate the device selected in its last INFO (spec 6.2), 0 before the first. */
    public int sessionRateHz() {
        return sessionRateHz;
    }

    /** Any thread: the protocol version of the last session, 0 before the first. */
    public int sessionVersion() {
        return sessionVersion;
    }

    /** Any thread: whether a session is established (INFO received, device not silent). */
    public boolean isSessionActive() {
        return sessionActive;
    }

    /**
     * After {@link #close()}: whether the device acknowledged the closing zero FORCE (false when there was no
     * session to tell, or the device did not answer within {@link LinkSession#CLOSE_TIMEOUT_NS}).
     */
    public boolean closeConfirmed() {
        return closeConfirmed;
    }

    /**
     * Sends the closing zero FORCE with output disabled and waits until the device has it (at most
     * {@link LinkSession#CLOSE_TIMEOUT_NS}), then stops the link threads and closes the link. Idempotent.
     */
    @Override
    public void close() {
        if (!running) {
            return;
        }
        closeRequested = true;
        Thread w = writer;
        joinQuietly(w, CLOSE_JOIN_MS);
        running = false;
        ByteLink current = link;
        if (current != null) {
            current.close();
        }
        joinQuietly(reader, 2_000L);
        sessionActive = false;
    }

    private static void joinQuietly(Thread thread, long millis) {
        if (thread == null) {
            return;
        }
        LockSupport.unpark(thread);
        try {
            thread.join(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Copies what the loop and other threads read out of the session. Under {@link #sessionLock}. */
    private void publish() {
        LinkSession s = session;
        long count = s.stateCount();
        if (count != publishedStateCount) {
            publishedStateCount = count;
            states.publish(s.latestState());
            lastStateNs = s.lastStateNs();
        }
        boolean active = s.isSessionActive();
        if (active != sessionActive) {
            if (active) {
                info = s.info();
                sessionRateHz = s.sessionRateHz();
                sessionVersion = s.sessionVersion();
            }
            sessionActive = active;
        }
        DeviceFault now = s.fault();
        if (now != fault) {
            fault = now;
        }
        if (s.isIncompatible() != incompatible) {
            incompatible = s.isIncompatible();
        }
        String error = s.lastError();
        if (error != lastError) {
            lastError = error;
        }
    }

    // ---------------------------------------------------------------------------------------------------------
    // Writer thread: link lifecycle and everything the host sends.

    private final byte[] tx = new byte[LinkSession.MAX_POLL_BYTES];
    private long forceVersionSent;
    private long nextOpenNs;
    private double forceXN;
    private double forceYN;
    private double forceZN;

    /**
     * The real-time FIFO priority the link's reader and writer threads take when they start (0: the normal policy).
     * Both sit on the force path; the loop asks for its own priority ({@code --rt-priority}). Set before
     * {@link #open()}.
     */
    public void setRtPriority(int priority) {
        this.rtPriority = ThreadPolicy.checkedPriority(priority);
    }

    /**
     * The reader's and writer's scheduling once {@link #open()} has returned: "real-time FIFO priority N", "normal",
     * or "normal: real-time priority refused (why)".
     */
    public String threadPolicy() {
        return ThreadPolicy.describe(rtPriority, threadPolicyRefusal);
    }

    private volatile int rtPriority;
    private volatile String threadPolicyRefusal;

    private void takeRealTimePriority() {
        String refused = ThreadPolicy.setCurrentThreadFifo(rtPriority);
        if (refused != null) {
            threadPolicyRefusal = refused;
        }
    }

    private void writeLoop() {
        takeRealTimePriority();
        while (running) {
            long nowNs = clockNs.getAsLong();
            ByteLink current = link;
            if (current == null || linkBroken) {
                if (current != null) {
                    dropLink(current, readError);
                }
                if (closeRequested) {
                    return;
                }
                if (nowNs - nextOpenNs >= 0) {
                    openLink(nowNs);
                }
                LockSupport.parkNanos(Math.min(MAX_PARK_NS, Math.max(1L, nextOpenNs - clockNs.getAsLong())));
                continue;
            }
            int n;
            long nextNs;
            boolean done;
            synchronized (sessionLock) {
                if (closeRequested) {
                    session.beginClose(nowNs);
                } else if (session.wantsReopen(nowNs)) {
                    dropLink(current, null);
                    nextOpenNs = nowNs;
                    continue;
                }
                long v = readForceVersion();
                if (v != forceVersionSent && !closeRequested) {
                    forceVersionSent = v;
                    session.commandForce(forceXN, forceYN, forceZN);
                }
                n = session.poll(nowNs, tx, 0);
                nextNs = session.nextPollNs(nowNs);
                done = closeRequested && session.isClosed(nowNs);
                closeConfirmed = session.closeConfirmed();
                publish();
            }
            if (n > 0) {
                try {
                    current.write(tx, 0, n);
                } catch (IOException e) {
                    dropLink(current, e.getMessage());
                    continue;
                }
            }
            if (done) {
                return;
            }
            long parkNs = Math.min(MAX_PARK_NS, nextNs - clockNs.getAsLong());
            if (parkNs > 0) {
                LockSupport.parkNanos(parkNs);
            }
        }
    }

    private void openLink(long nowNs) {
        nextOpenNs = nowNs + config.reopenAfterNs();
        try {
            ByteLink opened = connector.connect();
            synchronized (sessionLock) {
                linkBroken = false;
                session.linkOpened(nowNs);
                link = opened;
                publish();
            }
        } catch (IOException e) {
            synchronized (sessionLock) {
                session.linkOpenFailed(e.getMessage());
                publish();
            }
        }
    }

    private void dropLink(ByteLink current, String error) {
        synchronized (sessionLock) {
            session.linkClosed(error);
            link = null;
            linkBroken = false;
            publish();
        }
        current.close();
    }

    /** Copies the mailbox (sequence lock read) into forceXN..; returns the version read. */
    private long readForceVersion() {
        while (true) {
            long before = (long) FORCE_VERSION.getAcquire(this);
            if ((before & 1) == 0) {
                double x = mailboxXN;
                double y = mailboxYN;
                double z = mailboxZN;
                VarHandle.loadLoadFence();
                if ((long) FORCE_VERSION.getOpaque(this) == before) {
                    forceXN = x;
                    forceYN = y;
                    forceZN = z;
                    return before;
                }
            }
            Thread.onSpinWait();
        }
    }

    // ---------------------------------------------------------------------------------------------------------
    // Reader thread: feeds the session what the device sends.

    private final byte[] rx = new byte[4096];

    private void readLoop() {
        takeRealTimePriority();
        while (running) {
            ByteLink current = link;
            if (current == null) {
                LockSupport.parkNanos(1_000_000L);
                continue;
            }
            try {
                int n = current.read(rx, 0, rx.length);
                if (n > 0) {
                    long nowNs = clockNs.getAsLong();
                    synchronized (sessionLock) {
                        // A link the writer has dropped meanwhile is no longer the session's.
                        if (link == current) {
                            session.receive(rx, 0, n, nowNs);
                            publish();
                        }
                    }
                }
            } catch (IOException e) {
                if (running && link == current) {
                    readError = e.getMessage();
                    linkBroken = true;
                    LockSupport.unpark(writer);
                }
                LockSupport.parkNanos(1_000_000L);
            }
        }
    }
}
