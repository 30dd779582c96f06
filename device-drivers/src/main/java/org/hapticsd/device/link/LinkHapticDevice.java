package org.hapticsd.device.link;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.hapticsd.device.DeviceException;
import org.hapticsd.device.DeviceFault;
import org.hapticsd.device.DeviceHealth;
import org.hapticsd.device.DeviceInfo;
import org.hapticsd.device.DeviceState;
import org.hapticsd.device.HapticDevice;
import org.hapticsd.device.Workspace;
import org.hapticsd.protocol.Direction;
import org.hapticsd.protocol.Force;
import org.hapticsd.protocol.Frame;
import org.hapticsd.protocol.FrameDecoder;
import org.hapticsd.protocol.FrameEncoder;
import org.hapticsd.protocol.Heartbeat;
import org.hapticsd.protocol.Hello;
import org.hapticsd.protocol.Info;
import org.hapticsd.protocol.Message;
import org.hapticsd.protocol.MessageType;
import org.hapticsd.protocol.Ping;
import org.hapticsd.protocol.Pong;
import org.hapticsd.protocol.State;
import org.hapticsd.protocol.Status;
import org.hapticsd.protocol.StatusFlags;

/**
 * A device on the other end of a device-link protocol connection ({@code docs/device-protocol.md}): a serial
 * port through jSerialComm, or TCP for serial-to-network bridges and tests.
 *
 * <p>Threads. The loop thread only copies memory: {@link #readState} takes the newest complete STATE from a
 * sequence lock, {@link #commandForce} leaves the force in a mailbox and wakes the writer. Two link threads do the
 * blocking I/O: the <em>reader</em> decodes what the device sends; the <em>writer</em> owns the link's lifecycle
 * (open, HELLO, reconnect), the sender's sequence counter, and every frame the host sends. So a slow port never
 * stalls a tick, and since one thread numbers and writes FORCE frames in the order the loop produced them, the
 * device sees each force once, in order, with strictly increasing sequence numbers (spec 5). If the writer falls
 * behind, the mailbox keeps only the newest force: an old force is never worth sending late.
 *
 * <p>Loss and return. The device is judged by the age of its newest STATE, not by the port: an unplugged USB
 * adapter keeps its port "open". {@link #health} reports it disconnected once the newest STATE is older than
 * {@link Config#staleAfterNs()}, which takes the loop to SAFE; the loop's own watchdog does so even earlier, after
 * a few ticks without a fresh state. After {@link Config#sessionLostAfterNs()} with no valid frame (the spec's
 * 500 ms) the session is over and the writer says HELLO again every {@link Config#helloIntervalNs()}; a broken or
 * still silent link is closed and reopened every {@link Config#reopenAfterNs()}. When INFO comes back the states
 * flow again and the loop's safety layer runs its start-up gate before any force reaches the device.
 *
 * <p>The device's own watchdog (spec 7) zeroes its output when FORCE frames stop for 5 ms, and needs a re-arm:
 * a FORCE with outputEnable = 0, then one with outputEnable = 1. This driver reports the tripped watchdog as a
 * {@link DeviceFault#WATCHDOG} fault (so the loop goes SAFE and commands zero), and sends the re-arm only while
 * the loop commands exactly zero force: force resumes through the loop's start-up gate, never by itself.
 *
 * <p>Round-trip time is measured with PING/PONG (spec 4.10) every {@link Config#pingIntervalNs()} and kept in an
 * HdrHistogram with the link counters ({@link #statistics()}, any thread).
 */
public final class LinkHapticDevice implements HapticDevice {

    /**
     * @param requestedRateHz     rate asked for in HELLO; 0 lets the device choose
     * @param openTimeoutNs       how long {@link #open()} waits for the first INFO
     * @param helloIntervalNs     HELLO is resent this often until INFO arrives (spec 6: 100 ms)
     * @param pingIntervalNs      PING period for round-trip measurement
     * @param heartbeatIntervalNs HOST_HEARTBEAT when no FORCE was sent for this long (spec 7: at least every 100 ms)
     * @param staleAfterNs        a STATE older than this makes the device "not connected" in {@link #health}
     * @param sessionLostAfterNs  no valid frame for this long ends the session (spec 7: 500 ms)
     * @param reopenAfterNs       a link that broke, or gave no INFO for this long after HELLO, is reopened
     * @param readTimeoutMs       the reader's blocking read timeout (bounds how fast it notices a new link)
     */
    public record Config(int requestedRateHz, long openTimeoutNs, long helloIntervalNs, long pingIntervalNs,
                         long heartbeatIntervalNs, long staleAfterNs, long sessionLostAfterNs, long reopenAfterNs,
                         int readTimeoutMs) {
        public Config {
            if (requestedRateHz < 0 || requestedRateHz > 0xFFFF) {
                throw new IllegalArgumentException("requestedRateHz must be 0..65535, got " + requestedRateHz);
            }
            if (openTimeoutNs <= 0 || helloIntervalNs <= 0 || pingIntervalNs <= 0 || heartbeatIntervalNs <= 0
                    || staleAfterNs <= 0 || sessionLostAfterNs <= 0 || reopenAfterNs <= 0 || readTimeoutMs <= 0) {
                throw new IllegalArgumentException("every link interval must be > 0");
            }
            if (heartbeatIntervalNs > 100_000_000L) {
                throw new IllegalArgumentException("heartbeatIntervalNs must be <= 100 ms (spec section 7)");
            }
        }

        /**
         * Spec values: HELLO every 100 ms, session lost after 500 ms; ping every 100 ms. The stale limit is 100 ms:
         * the loop's own watchdog (a few ticks without a fresh state, set per scene) is what takes the loop to SAFE
         * first; this limit only makes {@link DeviceHealth#connected} say what a user would call disconnected.
         */
        public static Config defaults(int requestedRateHz) {
            return new Config(requestedRateHz, 2_000_000_000L, 100_000_000L, 100_000_000L, 50_000_000L,
                    100_000_000L, 500_000_000L, 2_000_000_000L, 20);
        }
    }

    private static final VarHandle FORCE_VERSION;

    static {
        try {
            FORCE_VERSION = MethodHandles.lookup().findVarHandle(LinkHapticDevice.class, "forceVersion", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Ping tokens whose departure time is remembered; a PONG older than this is not timed. */
    private static final int PING_WINDOW = 64;
    private static final long MAX_PARK_NS = 10_000_000L;

    private final LinkConnector connector;
    private final Config config;
    private final LongSupplier clockNs;

    // Loop-thread side.
    private final StateExchange states = new StateExchange();
    private long stateVersionSeen;

    // Force mailbox: written by the loop thread, read by the writer (a sequence lock of three doubles).
    @SuppressWarnings("unused") // accessed through FORCE_VERSION
    private long forceVersion;
    private double mailboxXN;
    private double mailboxYN;
    private double mailboxZN;

    // Shared link state.
    private volatile ByteLink link;
    private volatile boolean running;
    private volatile boolean sessionActive;
    private volatile DeviceInfo info;
    private volatile long lastFrameNs;
    private volatile long lastStateNs;
    private volatile int deviceFlags;
    private volatile int deviceFaultCode;
    private volatile String lastError;
    private volatile boolean incompatible;
    private volatile int sessionRateHz;
    private Thread reader;
    private Thread writer;

    // Statistics (written by the link threads, read by any thread).
    private final Recorder roundTrip = new Recorder(1_000L, 10_000_000_000L, 3);
    private final Histogram roundTripTotal = new Histogram(1_000L, 10_000_000_000L, 3);
    private final AtomicLongArray pingSentNs = new AtomicLongArray(PING_WINDOW);
    private volatile long pingsSent;
    private volatile long forcesSent;
    private volatile long statesReceived;
    private volatile long linksOpened;
    private volatile long sessions;
    private volatile long sessionsLost;
    private volatile long deviceWatchdogTrips;
    private final LinkCounters counters = new LinkCounters();

    public LinkHapticDevice(LinkConnector connector, Config config) {
        this(connector, config, System::nanoTime);
    }

    /** @param clockNs the loop's clock: STATE arrival times are compared with the {@code nowNs} of each tick */
    public LinkHapticDevice(LinkConnector connector, Config config, LongSupplier clockNs) {
        this.connector = connector;
        this.config = config;
        this.clockNs = clockNs;
    }

    /** The endpoint, as in {@code --device}. */
    public String name() {
        return connector.name();
    }

    /**
     * Starts the link threads and waits for the first INFO.
     *
     * @throws DeviceException naming the endpoint and why: the port cannot be opened, nothing answered within
     *     {@link Config#openTimeoutNs()}, or the device speaks no common protocol version
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
        // Both sit on the force path (a late FORCE trips the device's 5 ms watchdog): same priority as the loop.
        writer.setPriority(Thread.MAX_PRIORITY);
        reader.setPriority(Thread.MAX_PRIORITY);
        reader.start();
        writer.start();
        long deadlineNs = clockNs.getAsLong() + config.openTimeoutNs();
        while (!sessionActive && !incompatible && clockNs.getAsLong() - deadlineNs < 0) {
            LockSupport.parkNanos(1_000_000L);
        }
        if (!sessionActive) {
            String why = incompatible ? "the device speaks no protocol version this host speaks (1)"
                    : "no INFO within " + config.openTimeoutNs() / 1_000_000L + " ms"
                    + (lastError == null ? " (nothing answered HELLO)" : ": " + lastError);
            close();
            throw new DeviceException(connector.name() + ": " + why);
        }
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
        int flags = deviceFlags;
        if (!active) {
            dest.fault = DeviceFault.LINK_LOST;
        } else if ((flags & StatusFlags.WATCHDOG_TRIPPED) != 0) {
            dest.fault = DeviceFault.WATCHDOG;
        } else if ((flags & (StatusFlags.FAULT | StatusFlags.ESTOP)) != 0) {
            dest.fault = DeviceFault.INTERNAL;
        } else {
            dest.fault = DeviceFault.NONE;
        }
    }

    /** Any thread: the link's counters and round-trip histogram since {@link #open()}. */
    public synchronized LinkStatistics statistics() {
        roundTripTotal.add(roundTrip.getIntervalHistogram());
        LinkCounters c = counters;
        return new LinkStatistics(roundTripTotal.copy(), c.framesDecoded, statesReceived, forcesSent,
                c.crcErrors, c.malformed, c.oversize, c.resyncs, c.gaps, c.lost, c.duplicates, c.stale,
                linksOpened, sessions, Math.max(0, sessions - 1), sessionsLost, deviceWatchdogTrips, lastError);
    }

    /** Any thread: the STATE rate the device selected in its last INFO (spec 6.2), 0 before the first. */
    public int sessionRateHz() {
        return sessionRateHz;
    }

    /** Any thread: whether a session is established (INFO received, device not silent). */
    public boolean isSessionActive() {
        return sessionActive;
    }

    /** Commands zero force with output disabled, stops the link threads and closes the link. Idempotent. */
    @Override
    public void close() {
        if (!running) {
            return;
        }
        commandForce(0.0, 0.0, 0.0, 0.0, 0.0, 0.0);
        running = false;
        Thread w = writer;
        Thread r = reader;
        joinQuietly(w);
        ByteLink current = link;
        if (current != null) {
            current.close();
        }
        joinQuietly(r);
        sessionActive = false;
    }

    private static void joinQuietly(Thread thread) {
        if (thread == null) {
            return;
        }
        LockSupport.unpark(thread);
        try {
            thread.join(2_000L);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    // ---------------------------------------------------------------------------------------------------------
    // Writer thread: link lifecycle and everything the host sends.

    private final FrameEncoder encoder = new FrameEncoder();
    private final Hello hello = new Hello();
    private final Force force = new Force();
    private final Ping ping = new Ping();
    private final Heartbeat heartbeat = new Heartbeat(Direction.HOST_TO_DEVICE);
    private final byte[] tx = new byte[Frame.MAX_WIRE_BYTES + 1];
    private int txSequence;
    private long forceVersionSent;
    private long nextOpenNs;
    private long handshakeStartNs;
    private long lastHelloNs;
    private long lastPingNs;
    private long lastTxNs;
    private long pingToken;
    private boolean reArmZeroSent;
    private volatile boolean linkBroken;

    private void writeLoop() {
        while (running) {
            long nowNs = clockNs.getAsLong();
            ByteLink current = link;
            try {
                if (current == null || linkBroken) {
                    if (current != null) {
                        dropLink(current, null);
                    }
                    if (nowNs - nextOpenNs >= 0) {
                        openLink(nowNs);
                    }
                } else {
                    serviceLink(current, nowNs);
                }
            } catch (IOException e) {
                dropLink(current, e.getMessage());
            }
            LockSupport.parkNanos(parkNs());
        }
        ByteLink current = link;
        if (current != null && sessionActive) {
            try {
                sendForce(current, 0.0, 0.0, 0.0, false);
            } catch (IOException ignored) {
                // Closing anyway; the device's own watchdog zeroes its output within 5 ms.
            }
        }
    }

    private void openLink(long nowNs) {
        nextOpenNs = nowNs + config.reopenAfterNs();
        try {
            ByteLink opened = connector.connect();
            linkBroken = false;
            sessionActive = false;
            link = opened;
            linksOpened++;
            // Spec 6.1: one 0x00 ends whatever partial frame the device holds, then HELLO.
            tx[0] = 0;
            opened.write(tx, 0, 1);
            handshakeStartNs = nowNs;
            sendHello(opened, nowNs);
        } catch (IOException e) {
            lastError = e.getMessage();
        }
    }

    private void dropLink(ByteLink current, String error) {
        if (error != null) {
            lastError = error;
        }
        if (sessionActive) {
            sessionsLost++;
        }
        sessionActive = false;
        if (current != null) {
            current.close();
        }
        link = null;
        linkBroken = false;
    }

    private void serviceLink(ByteLink current, long nowNs) throws IOException {
        if (!sessionActive) {
            if (nowNs - handshakeStartNs > config.reopenAfterNs()) {
                dropLink(current, connector.name() + ": no INFO within "
                        + config.reopenAfterNs() / 1_000_000L + " ms of HELLO; reopening");
                nextOpenNs = nowNs;
                return;
            }
            if (nowNs - lastHelloNs >= config.helloIntervalNs()) {
                sendHello(current, nowNs);
            }
            return;
        }
        if (nowNs - lastFrameNs > config.sessionLostAfterNs()) {
            // Spec 7: 500 ms without a valid frame is a lost device. Start over with HELLO on the same link.
            sessionActive = false;
            sessionsLost++;
            lastError = connector.name() + ": device silent for " + (nowNs - lastFrameNs) / 1_000_000L + " ms";
            handshakeStartNs = nowNs;
            sendHello(current, nowNs);
            return;
        }
        long v = readForceVersion();
        if (v != forceVersionSent) {
            forceVersionSent = v;
            sendCommandedForce(current);
            lastTxNs = nowNs;
        }
        if (nowNs - lastPingNs >= config.pingIntervalNs()) {
            sendPing(current, nowNs);
        }
        if (nowNs - lastTxNs >= config.heartbeatIntervalNs()) {
            heartbeat.setSenderTimeUs(nowNs / 1_000L);
            send(current, heartbeat);
            lastTxNs = nowNs;
        }
    }

    private double forceXN;
    private double forceYN;
    private double forceZN;

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

    /**
     * Sends the loop's force, or the re-arm sequence when the device's watchdog has tripped: while tripped, a
     * non-zero command goes out as zero with output disabled; a zero command sends outputEnable = 0 once, then
     * outputEnable = 1, which re-arms the device at zero force.
     */
    private void sendCommandedForce(ByteLink current) throws IOException {
        boolean tripped = (deviceFlags & StatusFlags.WATCHDOG_TRIPPED) != 0;
        if (!tripped) {
            reArmZeroSent = false;
            sendForce(current, forceXN, forceYN, forceZN, true);
            return;
        }
        boolean zero = forceXN == 0.0 && forceYN == 0.0 && forceZN == 0.0;
        if (zero && reArmZeroSent) {
            sendForce(current, 0.0, 0.0, 0.0, true);
        } else {
            sendForce(current, 0.0, 0.0, 0.0, false);
            reArmZeroSent = zero;
        }
    }

    private void sendForce(ByteLink current, double x, double y, double z, boolean enable) throws IOException {
        force.setForceN((float) x, (float) y, (float) z).setTorqueNm(0f, 0f, 0f).setOutputEnabled(enable);
        send(current, force);
        forcesSent++;
    }

    private void sendHello(ByteLink current, long nowNs) throws IOException {
        hello.set(Frame.VERSION, Frame.VERSION, config.requestedRateHz());
        send(current, hello);
        lastHelloNs = nowNs;
        lastTxNs = nowNs;
    }

    private void sendPing(ByteLink current, long nowNs) throws IOException {
        long token = pingToken++ & 0xFFFF_FFFFL;
        pingSentNs.set((int) (token % PING_WINDOW), nowNs);
        ping.setToken(token);
        send(current, ping);
        pingsSent++;
        lastPingNs = nowNs;
    }

    private void send(ByteLink current, Message message) throws IOException {
        int n = encoder.encode(message, txSequence, tx, 0);
        txSequence = (txSequence + 1) & 0xFFFF;
        current.write(tx, 0, n);
    }

    private long parkNs() {
        if (link == null) {
            return Math.min(MAX_PARK_NS, Math.max(1L, nextOpenNs - clockNs.getAsLong()));
        }
        return sessionActive ? Math.min(MAX_PARK_NS, config.heartbeatIntervalNs() / 2) : MAX_PARK_NS;
    }

    // ---------------------------------------------------------------------------------------------------------
    // Reader thread: decodes what the device sends.

    private final FrameDecoder decoder = new FrameDecoder(this::onMessage);
    private final byte[] rx = new byte[4096];
    private final DeviceState incoming = new DeviceState();
    private long unwrappedDeviceTimeUs;
    private long lastDeviceTimeUs = -1;
    private long stateCount;
    private long readerNowNs;
    private ByteLink readerLink;
    private boolean incomingOrientation;

    private void readLoop() {
        while (running) {
            ByteLink current = link;
            if (current == null) {
                LockSupport.parkNanos(1_000_000L);
                continue;
            }
            if (current != readerLink) {
                readerLink = current;
                // A new link: end any partial frame left from the old one.
                rx[0] = 0;
                decoder.feed(rx, 0, 1);
            }
            try {
                int n = current.read(rx, 0, rx.length);
                if (n > 0) {
                    readerNowNs = clockNs.getAsLong();
                    decoder.feed(rx, 0, n);
                    counters.copyFrom(decoder);
                }
            } catch (IOException e) {
                if (running && link == current) {
                    lastError = e.getMessage();
                    linkBroken = true;
                    LockSupport.unpark(writer);
                }
                LockSupport.parkNanos(1_000_000L);
            }
        }
    }

    private void onMessage(Message message) {
        long nowNs = readerNowNs;
        MessageType type = message.type();
        if (type == MessageType.INFO) {
            onInfo((Info) message, nowNs);
            return;
        }
        if (!sessionActive) {
            return;
        }
        lastFrameNs = nowNs;
        if (type == MessageType.STATE) {
            onState((State) message, nowNs);
        } else if (type == MessageType.STATUS) {
            Status status = (Status) message;
            setDeviceFlags(status.statusFlags());
            deviceFaultCode = status.faultCode();
        } else if (type == MessageType.PONG) {
            onPong((Pong) message, nowNs);
        }
    }

    private void onInfo(Info message, long nowNs) {
        if (message.selectedVersion() == 0) {
            incompatible = true;
            lastError = connector.name() + ": device answered with no common protocol version";
            return;
        }
        if (sessionActive) {
            return;
        }
        DeviceInfo described = new DeviceInfo(message.name().isEmpty() ? connector.name() : message.name(),
                message.actuatedDof(),
                new Workspace(message.workspaceMinM(0), message.workspaceMinM(1), message.workspaceMinM(2),
                        message.workspaceMaxM(0), message.workspaceMaxM(1), message.workspaceMaxM(2)),
                message.maxForceN(), message.maxContinuousForceN(), message.nominalStiffnessNpm(),
                message.nominalDampingNspm());
        DeviceInfo first = info;
        if (first != null && first.maxForceN() < described.maxForceN()) {
            // The safety layer was sized for the first device; a stronger one on the same link is not trusted.
            lastError = connector.name() + ": a different device answered (max force " + described.maxForceN()
                    + " N > " + first.maxForceN() + " N); keeping it disconnected";
            return;
        }
        if (first == null) {
            info = described;
        }
        incomingOrientation = message.sensedDof() > 3;
        sessionRateHz = message.selectedRateHz();
        lastDeviceTimeUs = -1;
        deviceFlags = 0;
        deviceFaultCode = 0;
        lastFrameNs = nowNs;
        sessions++;
        sessionActive = true;
    }

    private void onState(State message, long nowNs) {
        long timeUs = message.deviceTimeUs();
        if (lastDeviceTimeUs >= 0) {
            unwrappedDeviceTimeUs += (timeUs - lastDeviceTimeUs) & 0xFFFF_FFFFL;
        } else {
            unwrappedDeviceTimeUs = timeUs;
        }
        lastDeviceTimeUs = timeUs;
        DeviceState s = incoming;
        s.positionXM = message.positionM(0);
        s.positionYM = message.positionM(1);
        s.positionZM = message.positionM(2);
        s.velocityXMps = message.velocityMps(0);
        s.velocityYMps = message.velocityMps(1);
        s.velocityZMps = message.velocityMps(2);
        s.orientationW = message.orientation(0);
        s.orientationX = message.orientation(1);
        s.orientationY = message.orientation(2);
        s.orientationZ = message.orientation(3);
        s.hasOrientation = incomingOrientation;
        s.buttons = message.buttons();
        s.deviceTimeNs = unwrappedDeviceTimeUs * 1_000L;
        s.sequence = ++stateCount;
        s.appliedForceXN = message.appliedForceN(0);
        s.appliedForceYN = message.appliedForceN(1);
        s.appliedForceZN = message.appliedForceN(2);
        s.statusFlags = message.statusFlags();
        setDeviceFlags(message.statusFlags());
        states.publish(s);
        statesReceived = stateCount;
        lastStateNs = nowNs;
    }

    private void setDeviceFlags(int flags) {
        int before = deviceFlags;
        if ((flags & StatusFlags.WATCHDOG_TRIPPED) != 0 && (before & StatusFlags.WATCHDOG_TRIPPED) == 0) {
            deviceWatchdogTrips++;
        }
        deviceFlags = flags;
    }

    private void onPong(Pong message, long nowNs) {
        long token = message.token();
        long newest = (pingToken - 1) & 0xFFFF_FFFFL;
        long age = (newest - token) & 0xFFFF_FFFFL;
        if (age >= PING_WINDOW) {
            return;
        }
        long rttNs = nowNs - pingSentNs.get((int) (token % PING_WINDOW));
        if (rttNs > 0) {
            roundTrip.recordValue(Math.min(rttNs, 10_000_000_000L));
        }
    }

    /** The decoder's counters, republished after each read so other threads see them. */
    private static final class LinkCounters {
        volatile long framesDecoded;
        volatile long crcErrors;
        volatile long malformed;
        volatile long oversize;
        volatile long resyncs;
        volatile long gaps;
        volatile long lost;
        volatile long duplicates;
        volatile long stale;

        void copyFrom(FrameDecoder d) {
            framesDecoded = d.framesDecoded();
            crcErrors = d.crcErrors();
            malformed = d.malformedFrames();
            oversize = d.oversizeFrames();
            resyncs = d.resyncs();
            gaps = d.sequenceGaps(Direction.DEVICE_TO_HOST);
            lost = d.lostFrames(Direction.DEVICE_TO_HOST);
            duplicates = d.duplicates(Direction.DEVICE_TO_HOST);
            stale = d.staleFrames(Direction.DEVICE_TO_HOST);
        }
    }
}
