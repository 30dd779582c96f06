package org.hapticsd.device.link;

import org.HdrHistogram.Histogram;
import org.hapticsd.device.DeviceFault;
import org.hapticsd.device.DeviceHealth;
import org.hapticsd.device.DeviceInfo;
import org.hapticsd.device.DeviceState;
import org.hapticsd.device.Workspace;
import org.hapticsd.protocol.Direction;
import org.hapticsd.protocol.Force;
import org.hapticsd.protocol.Frame;
import org.hapticsd.protocol.FrameDecoder;
import org.hapticsd.protocol.FrameEncoder;
import org.hapticsd.protocol.Heartbeat;
import org.hapticsd.protocol.Hello;
import org.hapticsd.protocol.HomingProgress;
import org.hapticsd.protocol.HomingRequest;
import org.hapticsd.protocol.Info;
import org.hapticsd.protocol.Message;
import org.hapticsd.protocol.MessageType;
import org.hapticsd.protocol.Ping;
import org.hapticsd.protocol.Pong;
import org.hapticsd.protocol.State;
import org.hapticsd.protocol.Status;
import org.hapticsd.protocol.StatusFlags;

/**
 * The host half of the device link protocol ({@code docs/device-protocol.md}) as a single-threaded state machine
 * with time passed in: the mirror of {@link org.hapticsd.device.emulator.EmulatedDevice}. Bytes from the device go
 * in through {@link #receive}; {@link #poll} writes whatever the host owes the device at that time (HELLO and its
 * resends, FORCE at the session rate, the watchdog re-arm, HOMING_REQUEST, PING, HOST_HEARTBEAT, the closing zero
 * FORCE). It owns no thread, reads no clock and touches no port, so one class serves the real-time driver
 * ({@link LinkHapticDevice}: two I/O threads take turns with it), the lockstep link of a test script (the loop
 * thread drives it on simulated time) and the tests (an {@code EmulatedDevice} in memory on a fake clock).
 *
 * <p>What it decides, by spec section:
 * <ul>
 *   <li>6: HELLO offering versions 1 to {@link Frame#LATEST_VERSION} at the loop's rate, after one 0x00, resent
 *       every {@link Config#helloIntervalNs()} until INFO; every later frame in INFO's version. INFO with version 0
 *       is {@link #isIncompatible() incompatible}. A device that returns with a higher peak force than the first
 *       one is not accepted: the safety layer was sized for the first.
 *   <li>4.4, 6.2: one FORCE per commanded force, but never faster than the session rate the device chose: a
 *       device that negotiated 500 Hz under a 1 kHz loop receives every other force, the newest.
 *   <li>7: the device's watchdog trip is reported as {@link DeviceFault#WATCHDOG}, so the loop goes SAFE and
 *       commands zero; only while it commands exactly zero does the session re-arm (FORCE with outputEnable = 0,
 *       then outputEnable = 1), so force resumes through the loop's start-up gate. A trip has an identity in
 *       version 2 (STATE's trip count, section 4.11): the session re-arms once per trip, however soon a trip
 *       follows the last re-arm, and again if STATE acknowledges the re-arm frames but still reports the same trip
 *       (a frame was lost). A version-1 device carries no count: the re-arm is repeated when the device still
 *       reports the trip {@link #V1_REARM_RETRY_MIN_NS} (or 4 periods) after it.
 *   <li>4.9: force goes only to a HOMED device. A session whose device reports HOMED clear gets one
 *       HOMING_REQUEST (start, device default timeout); until HOMED is set every FORCE is zero with outputEnable
 *       = 0 and the device is reported {@link DeviceFault#NOT_HOMED}, so the loop stays SAFE. A failed run is not
 *       retried within the session.
 *   <li>4.10: PING every {@link Config#pingIntervalNs()}, round-trip time from the PONG into a histogram.
 *   <li>7: HOST_HEARTBEAT when nothing went out for {@link Config#heartbeatIntervalNs()}; the device counts as
 *       stale once its newest STATE is {@link Config#staleAfterNs()} old, and after
 *       {@link Config#sessionLostAfterNs()} without a valid frame the session is over and HELLO starts again.
 *   <li>11: closing sends a zero FORCE with outputEnable = 0 and waits until the device has it: in version 2 a
 *       STATE acknowledging that FORCE's sequence, in version 1 the second STATE after it with output off. It is
 *       resent every period until then, for at most {@link #CLOSE_TIMEOUT_NS}.
 * </ul>
 *
 * <p>Nothing here allocates after construction except {@link #statistics()} and the first INFO's
 * {@link DeviceInfo}. Not thread-safe: one thread at a time, with a happens-before edge between turns.
 */
public final class LinkSession {

    /**
     * @param requestedRateHz     rate asked for in HELLO (the loop's); 0 lets the device choose
     * @param openTimeoutNs       how long an opening driver waits for the first INFO
     * @param helloIntervalNs     HELLO is resent this often until INFO arrives (spec 6: 100 ms)
     * @param pingIntervalNs      PING period for round-trip measurement
     * @param heartbeatIntervalNs HOST_HEARTBEAT when nothing was sent for this long (spec 7: at most 100 ms)
     * @param staleAfterNs        a STATE older than this makes the device "not connected" in {@link #health}
     * @param sessionLostAfterNs  no valid frame for this long ends the session (spec 7: 500 ms)
     * @param reopenAfterNs       a link that broke, or gave no INFO for this long after HELLO, is reopened
     * @param readTimeoutMs       a driver's blocking read timeout (bounds how fast it notices a new link)
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

    /** Room that always suffices for one {@link #poll}: 0x00 + HELLO, or FORCE + HOMING_REQUEST + PING + heartbeat. */
    public static final int MAX_POLL_BYTES = 2 * Frame.MAX_WIRE_BYTES;
    /** How long closing waits for the device to acknowledge the zero FORCE before giving up. */
    public static final long CLOSE_TIMEOUT_NS = 100_000_000L;
    /**
     * Version 1 has no trip count, so a re-arm whose trip is still reported this long after its enable frame (or 4
     * session periods, if longer) is sent again: long enough for the frames to cross and a STATE to come back on a
     * sound link, short enough that a lost frame costs the user no more than a blink.
     */
    public static final long V1_REARM_RETRY_MIN_NS = 20_000_000L;
    /** Ping tokens whose departure time is remembered; a PONG older than this is not timed. */
    private static final int PING_WINDOW = 64;
    private static final long HISTOGRAM_MAX_NS = 10_000_000_000L;
    /** STATE frames not newer than the last, in a row, after which the session is restarted (32 ms at 1 kHz). */
    static final int STALE_STATES_BEFORE_RESTART = 32;

    private enum ReArm { NONE, DISABLE_SENT, ENABLE_SENT }

    private final Config config;
    private final String linkName;
    private final long loopPeriodNs;

    // Codec.
    private final FrameEncoder encoder = new FrameEncoder();
    private final FrameDecoder decoder = new FrameDecoder(this::onMessage);
    private final Hello hello = new Hello();
    private final Force force = new Force();
    private final Ping ping = new Ping();
    private final Heartbeat heartbeat = new Heartbeat(Direction.HOST_TO_DEVICE);
    private final HomingRequest homingRequest = new HomingRequest();
    private final byte[] delimiter = {Frame.DELIMITER};
    private long rxNowNs;

    // Link and session.
    private boolean linkOpen;
    private boolean helloDue;
    private boolean sessionActive;
    private boolean incompatible;
    private int sessionVersion = Frame.VERSION_1;
    /** Frames in a session whose header version was not the session's (counted as malformed). */
    private long otherVersionFrames;
    private int sessionRateHz;
    private long sessionPeriodNs;
    private DeviceInfo info;
    private boolean orientationSensed;
    private int txSequence;
    private long handshakeStartNs;
    private long lastHelloNs;
    private long lastFrameNs;
    private long lastStateNs;
    private long lastPingNs;
    private long lastTxNs;
    private long nextForceNs;
    private String lastError;
    /** Why the last session was lost (the link broke, the device went silent), or null: for the loss's log line. */
    private String lastLoss;
    /**
     * The last different device refused and what was said of it: the host sends HELLO every period and reopens every
     * {@link Config#reopenAfterNs()}, and the same refusal each time made a new WARN every second. Kept across links
     * (the device is the same after a reopen); cleared when a session starts.
     */
    private DeviceInfo refusedInfo;
    private String refusal;
    /** What the last INFO this handshake refused said, or null. */
    private String infoRefusal;
    /** Why the link last failed to open or broke (refused, end of stream), since it last opened; or null. */
    private String linkFailure;

    // The device as it last reported itself (STATE or STATUS).
    private boolean flagsKnown;
    private int deviceFlags;
    private int deviceFaultCode;
    private int deviceTrips = State.NOT_CARRIED;
    private int ackSequence = State.NOT_CARRIED;
    private boolean homingRequested;
    private boolean homingFailed;

    // The loop's newest command.
    private double commandXN;
    private double commandYN;
    private double commandZN;
    private boolean forcePending;

    // Watchdog re-arm.
    private ReArm reArm = ReArm.NONE;
    private int reArmTrip;
    private int reArmEnableSequence;
    private long reArmEnableNs;

    // Closing.
    private boolean closing;
    private boolean closeSent;
    private boolean closeConfirmed;
    private int closeSequence;
    private long closeStartNs;
    private long lastCloseSendNs;
    private int offStatesSinceClose;

    // States.
    private final DeviceState latest = new DeviceState();
    private long stateCount;
    private long stateCountRead;
    private long unwrappedDeviceTimeUs;
    private long lastDeviceTimeUs = -1;
    private int staleStatesInRow;

    // Statistics.
    private final Histogram roundTripNs = new Histogram(1_000L, HISTOGRAM_MAX_NS, 3);
    private final long[] pingSentNs = new long[PING_WINDOW];
    private long pingToken;
    /** The first PING token of the current session: a PONG to an older one is not a round trip of this session. */
    private long sessionFirstPingToken;
    private long forcesSent;
    private long linksOpened;
    private long sessions;
    private long sessionsLost;
    private long deviceWatchdogTrips;
    private long reArmsSent;

    /** @param linkName the endpoint, for messages ({@code serial:/dev/ttyACM0:1000000}) */
    public LinkSession(Config config, String linkName) {
        this.config = config;
        this.linkName = linkName;
        this.loopPeriodNs = config.requestedRateHz() > 0 ? 1_000_000_000L / config.requestedRateHz() : 0;
    }

    public Config config() {
        return config;
    }

    // ---------------------------------------------------------------------------------------------------------
    // The link under the session.

    /** A link was opened (or reopened): the next poll sends 0x00 and HELLO; nothing from an old link counts. */
    public void linkOpened(long nowNs) {
        linkOpen = true;
        linksOpened++;
        endSession();
        // Spec 2.3: a delimiter ends whatever partial frame the old link left in the decoder.
        decoder.feed(delimiter, 0, 1);
        decoder.resetSequences();
        helloDue = true;
        handshakeStartNs = nowNs;
        infoRefusal = null;
        linkFailure = null;
    }

    /** The link broke or was closed: the session, if any, is over. */
    public void linkClosed(String error) {
        if (error != null) {
            lastError = error;
            linkFailure = error;
        }
        if (sessionActive) {
            sessionsLost++;
            lastLoss = error != null ? error : linkName + ": link closed";
        }
        endSession();
        linkOpen = false;
        helloDue = false;
    }

    /** A link could not be opened: {@code error} names the endpoint and why; the driver tries again later. */
    public void linkOpenFailed(String error) {
        lastError = error;
        linkFailure = error;
    }

    /**
     * Whether the driver should close and reopen the link: it has given no INFO for {@link Config#reopenAfterNs()}
     * since HELLO (a USB adapter that came back as a new device node needs a new open, not more HELLOs).
     */
    public boolean wantsReopen(long nowNs) {
        if (linkOpen && !sessionActive && nowNs - handshakeStartNs > config.reopenAfterNs()) {
            if (infoRefusal != null && infoRefusal == refusal) {
                // A different device: its refusal already says it stays disconnected, and is said once.
                return true;
            }
            // An INFO this handshake refused says more than its absence: keep it (it named the bad field).
            lastError = (infoRefusal != null ? infoRefusal + "; no usable INFO" : linkName + ": no INFO")
                    + " within " + config.reopenAfterNs() / 1_000_000L + " ms of HELLO; reopening";
            return true;
        }
        return false;
    }

    // ---------------------------------------------------------------------------------------------------------
    // Input: bytes from the device, and the loop's command.
    private long bytesReceived;

    /** Feeds bytes from the device, in chunks of any size; frames they complete count as arriving at {@code nowNs}. */
    public void receive(byte[] bytes, int offset, int length, long nowNs) {
        rxNowNs = nowNs;
        bytesReceived += length;
        decoder.feed(bytes, offset, length);
    }

    /** Bytes the device has sent since construction, framed or not: tells a noisy line from a silent one. */
    public long bytesReceived() {
        return bytesReceived;
    }

    /** The loop's newest force, device frame, N; it goes out with the next FORCE the session rate allows. */
    public void commandForce(double forceXN, double forceYN, double forceZN) {
        commandXN = forceXN;
        commandYN = forceYN;
        commandZN = forceZN;
        forcePending = true;
    }

    /** Starts closing: the next polls send a zero FORCE with outputEnable = 0 until the device acknowledges it. */
    public void beginClose(long nowNs) {
        if (!closing) {
            closing = true;
            closeStartNs = nowNs;
        }
    }

    /** Closing is over: the device has the zero FORCE, or there is no session to tell, or it timed out. */
    public boolean isClosed(long nowNs) {
        return closing && (closeConfirmed || !sessionActive || nowNs - closeStartNs - CLOSE_TIMEOUT_NS >= 0);
    }

    /** Whether the device acknowledged the closing zero FORCE (rather than closing having timed out). */
    public boolean closeConfirmed() {
        return closeConfirmed;
    }

    // ---------------------------------------------------------------------------------------------------------
    // Output.

    /**
     * Writes every frame the host owes the device at {@code nowNs} into {@code out} from {@code offset}.
     *
     * @return bytes written (0 when nothing is due)
     * @throws IllegalArgumentException if {@code out} has less than {@link #MAX_POLL_BYTES} of room
     */
    public int poll(long nowNs, byte[] out, int offset) {
        if (out.length - offset < MAX_POLL_BYTES) {
            throw new IllegalArgumentException("poll needs " + MAX_POLL_BYTES + " bytes of room");
        }
        if (!linkOpen) {
            return 0;
        }
        int pos = offset;
        if (helloDue) {
            helloDue = false;
            out[pos++] = Frame.DELIMITER;
            return sendHello(nowNs, out, pos) - offset;
        }
        if (!sessionActive) {
            if (nowNs - lastHelloNs >= config.helloIntervalNs()) {
                pos = sendHello(nowNs, out, pos);
            }
            return pos - offset;
        }
        if (nowNs - lastFrameNs > config.sessionLostAfterNs()) {
            // Spec 7: 500 ms without a valid frame is a lost device. Start over with HELLO on the same link.
            lastError = linkName + ": device silent for " + (nowNs - lastFrameNs) / 1_000_000L + " ms";
            sessionsLost++;
            lastLoss = lastError;
            endSession();
            handshakeStartNs = nowNs;
            return sendHello(nowNs, out, pos) - offset;
        }
        if (closing) {
            return pollClosing(nowNs, out, pos) - offset;
        }
        if (flagsKnown && !homed() && !homing() && !homingRequested) {
            homingRequested = true;
            homingRequest.set(HomingRequest.ACTION_START, 0);
            pos = send(homingRequest, nowNs, out, pos);
        }
        if (forcePending && forceDue(nowNs)) {
            forcePending = false;
            pos = sendCommandedForce(nowNs, out, pos);
        }
        if (nowNs - lastPingNs >= config.pingIntervalNs()) {
            pos = sendPing(nowNs, out, pos);
        }
        if (nowNs - lastTxNs >= config.heartbeatIntervalNs()) {
            heartbeat.setSenderTimeUs(nowNs / 1_000L);
            pos = send(heartbeat, nowNs, out, pos);
        }
        return pos - offset;
    }

    /**
     * The latest time the next {@link #poll} is needed by without a new command or new bytes: a HELLO resend, a
     * PING, a heartbeat, the session-lost check or a closing resend. A driver parks until then at most.
     */
    public long nextPollNs(long nowNs) {
        if (!linkOpen) {
            return nowNs + config.helloIntervalNs();
        }
        if (helloDue) {
            return nowNs;
        }
        if (!sessionActive) {
            return lastHelloNs + config.helloIntervalNs();
        }
        if (closing) {
            return Math.min(lastCloseSendNs + sessionPeriodNs, closeStartNs + CLOSE_TIMEOUT_NS);
        }
        long next = Math.min(lastPingNs + config.pingIntervalNs(), lastTxNs + config.heartbeatIntervalNs());
        return Math.min(next, lastFrameNs + config.sessionLostAfterNs() + 1);
    }

    /**
     * FORCE at most at the session rate: due from half a period (of the loop or the session, the shorter) before
     * the next slot, so a late tick still lands in its slot and an early one does not steal the next.
     */
    private boolean forceDue(long nowNs) {
        long slackNs = (loopPeriodNs > 0 ? Math.min(loopPeriodNs, sessionPeriodNs) : sessionPeriodNs) / 2;
        return nowNs - (nextForceNs - slackNs) >= 0;
    }

    /**
     * The loop's force, or the re-arm of a tripped watchdog, or zero with output disabled: a device that is not
     * homed, or a tripped one while the loop still commands force, never gets output enabled.
     */
    private int sendCommandedForce(long nowNs, byte[] out, int pos) {
        if (!homed()) {
            reArm = ReArm.NONE;
            return sendForce(nowNs, 0.0, 0.0, 0.0, false, out, pos);
        }
        if (!tripped()) {
            reArm = ReArm.NONE;
            return sendForce(nowNs, commandXN, commandYN, commandZN, true, out, pos);
        }
        boolean zero = commandXN == 0.0 && commandYN == 0.0 && commandZN == 0.0;
        if (!zero) {
            reArm = ReArm.NONE;
            return sendForce(nowNs, 0.0, 0.0, 0.0, false, out, pos);
        }
        if (reArm == ReArm.ENABLE_SENT && reArmFailed(nowNs)) {
            reArm = ReArm.NONE;
        }
        if (reArm == ReArm.NONE) {
            reArm = ReArm.DISABLE_SENT;
            reArmTrip = deviceTrips;
            reArmsSent++;
            return sendForce(nowNs, 0.0, 0.0, 0.0, false, out, pos);
        }
        if (reArm == ReArm.DISABLE_SENT) {
            reArm = ReArm.ENABLE_SENT;
            reArmEnableSequence = txSequence;
            reArmEnableNs = nowNs;
        }
        // Enable = 1 at zero force: the re-arm's second frame, then the watchdog's feed until the STATE that says
        // the trip is over comes back.
        return sendForce(nowNs, 0.0, 0.0, 0.0, true, out, pos);
    }

    /**
     * Whether the re-arm sent for {@link #reArmTrip} did not take. Version 2: the device reports a newer trip (it
     * tripped again after the re-arm, however soon), or it acknowledges the enable frame and still reports the same
     * trip. Version 1: the trip is still reported a retry interval after the enable frame.
     */
    private boolean reArmFailed(long nowNs) {
        if (deviceTrips != State.NOT_CARRIED) {
            if (deviceTrips != reArmTrip) {
                return true;
            }
            return ackSequence != State.NOT_CARRIED && (short) (ackSequence - reArmEnableSequence) >= 0;
        }
        long retryNs = Math.max(V1_REARM_RETRY_MIN_NS, 4 * sessionPeriodNs);
        return nowNs - reArmEnableNs >= retryNs;
    }

    private int pollClosing(long nowNs, byte[] out, int pos) {
        if (closeConfirmed) {
            return pos;
        }
        if (!closeSent || nowNs - lastCloseSendNs >= sessionPeriodNs) {
            if (!closeSent) {
                closeSent = true;
                closeSequence = txSequence;
                offStatesSinceClose = 0;
            }
            lastCloseSendNs = nowNs;
            pos = sendForce(nowNs, 0.0, 0.0, 0.0, false, out, pos);
        }
        return pos;
    }

    private int sendForce(long nowNs, double x, double y, double z, boolean enable, byte[] out, int pos) {
        // The last guard before the wire: never more than the device declared, whatever the loop commanded (the
        // safety layer clamps already; this holds even if a caller or a rounding does not). No allocation.
        double magnitude = Math.sqrt(x * x + y * y + z * z);
        double limitN = info == null ? 0.0 : info.maxForceN();
        if (!(magnitude <= limitN)) {
            double scale = magnitude > 0.0 && Double.isFinite(magnitude) ? limitN / magnitude : 0.0;
            x *= scale;
            y *= scale;
            z *= scale;
        }
        force.setForceN((float) x, (float) y, (float) z).setTorqueNm(0f, 0f, 0f).setOutputEnabled(enable);
        if (nowNs - nextForceNs > sessionPeriodNs) {
            nextForceNs = nowNs;
        }
        nextForceNs += sessionPeriodNs;
        forcesSent++;
        return send(force, nowNs, out, pos);
    }

    private int sendHello(long nowNs, byte[] out, int pos) {
        hello.set(Frame.VERSION_1, Frame.LATEST_VERSION, config.requestedRateHz());
        lastHelloNs = nowNs;
        return send(hello, nowNs, out, pos);
    }

    private int sendPing(long nowNs, byte[] out, int pos) {
        long token = pingToken++ & 0xFFFF_FFFFL;
        pingSentNs[(int) (token % PING_WINDOW)] = nowNs;
        ping.setToken(token);
        lastPingNs = nowNs;
        return send(ping, nowNs, out, pos);
    }

    private int send(Message message, long nowNs, byte[] out, int pos) {
        int n = encoder.encode(message, sessionVersion, txSequence, out, pos);
        txSequence = (txSequence + 1) & 0xFFFF;
        lastTxNs = nowNs;
        return pos + n;
    }

    // ---------------------------------------------------------------------------------------------------------
    // What the device sent.

    private void onMessage(Message message) {
        long nowNs = rxNowNs;
        MessageType type = message.type();
        if (type == MessageType.INFO) {
            onInfo((Info) message, nowNs);
            return;
        }
        if (!sessionActive) {
            return;
        }
        if (message.version() != sessionVersion) {
            // Spec 6.4: after INFO every frame is in the session's version. A frame of another version this host
            // also speaks (a version-1 STATE in a version-2 session) lacks or misplaces fields the session relies on
            // (STATE's ackSequence, which confirms the closing FORCE): malformed, and not used.
            otherVersionFrames++;
            return;
        }
        lastFrameNs = nowNs;
        switch (type) {
            case STATE -> onState((State) message, nowNs);
            case STATUS -> {
                Status status = (Status) message;
                onDeviceFault(status.faultCode(), status.faultDetail());
                onDeviceStatus(status.statusFlags(), status.watchdogTrips());
            }
            case PONG -> onPong((Pong) message, nowNs);
            case HOMING_PROGRESS -> {
                if (((HomingProgress) message).phase() == HomingProgress.PHASE_FAILED) {
                    homingFailed = true;
                    lastError = linkName + ": the device's homing run failed (fault "
                            + ((HomingProgress) message).resultCode() + ")";
                }
            }
            default -> {
                // DEVICE_HEARTBEAT only proves liveness, recorded above.
            }
        }
    }

    private void onInfo(Info message, long nowNs) {
        if (message.selectedVersion() == 0) {
            incompatible = true;
            lastError = linkName + ": device answered with no common protocol version (host speaks 1.."
                    + Frame.LATEST_VERSION + ")";
            return;
        }
        if (sessionActive) {
            // An INFO nobody asked for: the device started a session of its own (spec 6.6), its trip count back at 0.
            // The session and its limits stay the first INFO's; the next count is taken from 0.
            deviceTrips = State.NOT_CARRIED;
            return;
        }
        if (message.selectedVersion() > Frame.LATEST_VERSION) {
            // Not a version this host offered (spec 6.2): a session in it could not be framed.
            incompatible = true;
            lastError = linkName + ": device chose protocol version " + message.selectedVersion()
                    + ", which the host did not offer (1.." + Frame.LATEST_VERSION + ")";
            return;
        }
        if (message.selectedRateHz() <= 0) {
            incompatible = true;
            lastError = linkName + ": device selected no session rate (selectedRateIndex 0xFF)";
            return;
        }
        DeviceInfo described;
        try {
            described = new DeviceInfo(message.name().isEmpty() ? linkName : message.name(),
                    message.actuatedDof(),
                    new Workspace(message.workspaceMinM(0), message.workspaceMinM(1), message.workspaceMinM(2),
                            message.workspaceMaxM(0), message.workspaceMaxM(1), message.workspaceMaxM(2)),
                    message.maxForceN(), message.maxContinuousForceN(), message.nominalStiffnessNpm(),
                    message.nominalDampingNspm());
        } catch (IllegalArgumentException e) {
            // The decoder checks the ranges of spec 4.2; this is the last guard: the receiver thread never dies on
            // what a device sends.
            lastError = linkName + ": device described itself inconsistently: " + e.getMessage();
            infoRefusal = lastError;
            return;
        }
        DeviceInfo first = info;
        if (first != null && !first.equals(described)) {
            // The safety layer, the workspace mapping and the force ceiling were sized for the first device. A weaker
            // one would get the first one's force (found by a device that came back declaring 1 N after 3 N), a
            // stronger one is not trusted: any other description is a different device, kept disconnected.
            if (!described.equals(refusedInfo)) {
                refusedInfo = described;
                refusal = linkName + ": a different device answered (" + difference(first, described)
                        + "); the session was sized for the first, so it stays disconnected: restart to use it";
                lastError = refusal;
            }
            // Said once per distinct device: a repeat leaves lastError as it is, so no one reports it again.
            infoRefusal = refusal;
            return;
        }
        if (first == null) {
            info = described;
        }
        sessionVersion = message.selectedVersion();
        sessionRateHz = message.selectedRateHz();
        sessionPeriodNs = sessionRateHz > 0 ? 1_000_000_000L / sessionRateHz : loopPeriodNs;
        orientationSensed = message.sensedDof() > 3;
        lastDeviceTimeUs = -1;
        lastFrameNs = nowNs;
        nextForceNs = nowNs;
        lastPingNs = nowNs - config.pingIntervalNs();
        sessions++;
        sessionActive = true;
        sessionFirstPingToken = pingToken;
        refusedInfo = null;
        refusal = null;
        incompatible = false;
    }

    /** The first field in which two descriptions differ, for the message that refuses the second. */
    private static String difference(DeviceInfo first, DeviceInfo second) {
        if (first.maxForceN() != second.maxForceN()) {
            return values("max force", second.maxForceN(), first.maxForceN(), "%.2f", " N");
        }
        if (first.maxContinuousForceN() != second.maxContinuousForceN()) {
            return values("continuous force", second.maxContinuousForceN(), first.maxContinuousForceN(), "%.2f", " N");
        }
        if (!first.workspace().equals(second.workspace())) {
            return "workspace " + second.workspace() + ", the first " + first.workspace();
        }
        if (first.degreesOfFreedom() != second.degreesOfFreedom()) {
            return second.degreesOfFreedom() + " actuated DOF, the first " + first.degreesOfFreedom();
        }
        if (!first.name().equals(second.name())) {
            return "name '" + second.name() + "', the first '" + first.name() + "'";
        }
        return String.format(java.util.Locale.ROOT, "stiffness %s N/m and damping %s N·s/m, the first %s N/m and %s N·s/m",
                asSent(second.maxStiffnessNpm()), asSent(second.dampingNspm()), asSent(first.maxStiffnessNpm()),
                asSent(first.dampingNspm()));
    }

    /**
     * "max force 3.30 N, the first 8.00 N". INFO carries float32 values, and printed as doubles they read
     * 3.299999952316284; two that round alike at this precision are printed as sent, so the two still differ.
     */
    private static String values(String what, double second, double first, String format, String unit) {
        String s = String.format(java.util.Locale.ROOT, format, second);
        String f = String.format(java.util.Locale.ROOT, format, first);
        if (s.equals(f)) {
            s = asSent(second);
            f = asSent(first);
        }
        return what + " " + s + unit + ", the first " + f + unit;
    }

    /** A value as the device sent it, a float32: the shortest decimal that reads back as that float. */
    private static String asSent(double value) {
        return Float.toString((float) value);
    }

    /**
     * A STATE that is not newer than the last (section 5: stale or duplicate) is counted by the decoder and not
     * used: the loop must never render from an older position than it already had. After
     * {@value #STALE_STATES_BEFORE_RESTART} of them in a row, none newer, the device's counter went back without a
     * new session (it restarted its firmware, say): the session is ended and HELLO sent, which restarts the count.
     */
    private void onStaleState(long nowNs) {
        if (++staleStatesInRow < STALE_STATES_BEFORE_RESTART) {
            return;
        }
        lastError = linkName + ": " + staleStatesInRow + " STATE frames in a row older than the last (the device's "
                + "sequence went back without a new session); restarting the session";
        sessionsLost++;
        lastLoss = lastError;
        endSession();
        handshakeStartNs = nowNs;
        helloDue = true;
    }

    private void onState(State message, long nowNs) {
        if (!message.isNewer()) {
            onStaleState(nowNs);
            return;
        }
        staleStatesInRow = 0;
        long timeUs = message.deviceTimeUs();
        if (lastDeviceTimeUs >= 0) {
            unwrappedDeviceTimeUs += (timeUs - lastDeviceTimeUs) & 0xFFFF_FFFFL;
        } else {
            unwrappedDeviceTimeUs = timeUs;
        }
        lastDeviceTimeUs = timeUs;
        DeviceState s = latest;
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
        s.hasOrientation = orientationSensed;
        s.buttons = message.buttons();
        s.deviceTimeNs = unwrappedDeviceTimeUs * 1_000L;
        s.sequence = ++stateCount;
        s.appliedForceXN = message.appliedForceN(0);
        s.appliedForceYN = message.appliedForceN(1);
        s.appliedForceZN = message.appliedForceN(2);
        s.statusFlags = message.statusFlags();
        lastStateNs = nowNs;
        if (message.ackSequence() != State.NOT_CARRIED) {
            ackSequence = message.ackSequence();
        }
        onDeviceStatus(message.statusFlags(), message.watchdogTrips());
        if (closeSent && !closeConfirmed) {
            confirmClose(message);
        }
    }

    private void confirmClose(State message) {
        if (ackSequence != State.NOT_CARRIED) {
            closeConfirmed = (short) (ackSequence - closeSequence) >= 0;
            return;
        }
        // Version 1 cannot say which FORCE a STATE reflects: the second STATE with output off after the closing
        // FORCE went out was sampled at least a period after it; on a sound link the FORCE had arrived by then.
        boolean off = (message.statusFlags() & StatusFlags.OUTPUT_ENABLED) == 0 && message.appliedForceN(0) == 0f
                && message.appliedForceN(1) == 0f && message.appliedForceN(2) == 0f;
        offStatesSinceClose = off ? offStatesSinceClose + 1 : 0;
        closeConfirmed = offStatesSinceClose >= 2;
    }

    /**
     * The device's fault code, reported when it changes (spec 7: the host never clears a device fault, it reports it
     * and commands zero). An over-temperature, an emergency stop and a vendor code all read "fault DEVICE" on the
     * status line, as a disconnect does (a tester). The watchdog's own code (5) is left to the trip count, and a
     * failed homing (8) to HOMING_PROGRESS's message; a String only when the code changes.
     */
    private void onDeviceFault(int code, long detail) {
        int before = deviceFaultCode;
        deviceFaultCode = code;
        if (code == before) {
            return;
        }
        if (code != 0 && code != Status.FAULT_WATCHDOG && code != Status.FAULT_HOMING_FAILED) {
            lastError = linkName + ": device reports fault " + code + " (" + faultName(code) + ")"
                + (detail == 0 ? "" : ", detail " + detail) + "; force held at zero until the device clears it";
        } else if (code == 0 && before != Status.FAULT_WATCHDOG && before != Status.FAULT_HOMING_FAILED) {
            lastError = linkName + ": device cleared fault " + before + " (" + faultName(before) + ")";
        }
    }

    /** A fault code's meaning (spec 4.6). */
    static String faultName(int code) {
        return switch (code) {
            case 1 -> "over-temperature";
            case 2 -> "over-current";
            case 3 -> "encoder";
            case 4 -> "emergency stop";
            case 5 -> "watchdog";
            case 6 -> "incompatible version";
            case 7 -> "power supply";
            case 8 -> "homing failed";
            default -> code >= 0x8000 ? "vendor-specific" : "unknown";
        };
    }

    private void onDeviceStatus(int flags, int trips) {
        boolean wasTripped = tripped();
        flagsKnown = true;
        deviceFlags = flags;
        if (trips != State.NOT_CARRIED) {
            // Version 2 counts every trip, even one that came and went between two reports.
            int before = deviceTrips == State.NOT_CARRIED ? 0 : deviceTrips;
            int added = (trips - before) & 0xFFFF;
            // A count that went back (the device reset it) would read as some 65,000 trips: count what it holds.
            deviceWatchdogTrips += added < 0x8000 ? added : trips;
            deviceTrips = trips;
        } else if (!wasTripped && tripped()) {
            deviceWatchdogTrips++;
        }
    }

    private void onPong(Pong message, long nowNs) {
        long token = message.token();
        long newest = (pingToken - 1) & 0xFFFF_FFFFL;
        long age = (newest - token) & 0xFFFF_FFFFL;
        // Sent before this session (the tokens count on across sessions): PINGs that waited in a pty's buffer for a
        // device that was away were answered on its return, and one 1.59 s "round trip" ruled the p99 (a tester).
        long sentThisSession = (pingToken - sessionFirstPingToken) & 0xFFFF_FFFFL;
        if (age >= PING_WINDOW || age >= sentThisSession) {
            return;
        }
        long rttNs = nowNs - pingSentNs[(int) (token % PING_WINDOW)];
        if (rttNs > 0) {
            roundTripNs.recordValue(Math.min(rttNs, HISTOGRAM_MAX_NS));
        }
    }

    private void endSession() {
        sessionActive = false;
        staleStatesInRow = 0;
        flagsKnown = false;
        deviceFlags = 0;
        deviceFaultCode = 0;
        deviceTrips = State.NOT_CARRIED;
        ackSequence = State.NOT_CARRIED;
        homingRequested = false;
        homingFailed = false;
        reArm = ReArm.NONE;
        forcePending = false;
    }

    private boolean tripped() {
        return (deviceFlags & StatusFlags.WATCHDOG_TRIPPED) != 0;
    }

    private boolean homed() {
        return (deviceFlags & StatusFlags.HOMED) != 0;
    }

    private boolean homing() {
        return (deviceFlags & StatusFlags.HOMING) != 0;
    }

    // ---------------------------------------------------------------------------------------------------------
    // What the loop and the driver read.

    /** The decoder's last frame refused for a field out of range ("INFO: maxForceN not finite and > 0"), or null. */
    public String lastFrameRejection() {
        return decoder.lastRejection();
    }

    /** Why the link last failed to open or broke since it last opened (connection refused, end of stream), or null. */
    public String linkFailure() {
        return linkFailure;
    }

    /** Why the last INFO of this handshake was refused (a field out of range, another device), or null. */
    public String infoRefusal() {
        return infoRefusal;
    }

    /** Copies the newest STATE into {@code dest} if one arrived since the last call; returns whether it did. */
    public boolean readState(DeviceState dest) {
        if (stateCount == stateCountRead) {
            return false;
        }
        stateCountRead = stateCount;
        dest.copyFrom(latest);
        return true;
    }

    /** The newest STATE as decoded (a driver publishes it to the loop); {@link #stateCount()} says when it changed. */
    public DeviceState latestState() {
        return latest;
    }

    /** STATEs received since construction. */
    public long stateCount() {
        return stateCount;
    }

    /** Link health as the loop sees it at {@code nowNs}. */
    public void health(long nowNs, DeviceHealth dest) {
        long stateNs = lastStateNs;
        dest.lastStateAgeNs = stateCount == 0 ? Long.MAX_VALUE : nowNs - stateNs;
        dest.connected = sessionActive && stateCount > 0 && dest.lastStateAgeNs < config.staleAfterNs();
        dest.fault = fault();
    }

    /** The device's fault as the host sees it; {@link DeviceFault#LINK_LOST} outside a session. */
    public DeviceFault fault() {
        if (!sessionActive) {
            return DeviceFault.LINK_LOST;
        }
        if (!flagsKnown) {
            return DeviceFault.NONE;
        }
        if (tripped()) {
            return DeviceFault.WATCHDOG;
        }
        if ((deviceFlags & (StatusFlags.FAULT | StatusFlags.ESTOP)) != 0) {
            return DeviceFault.INTERNAL;
        }
        if (!homed()) {
            return DeviceFault.NOT_HOMED;
        }
        return DeviceFault.NONE;
    }

    /** Arrival time of the newest STATE on the caller's clock; meaningful once {@link #stateCount()} > 0. */
    public long lastStateNs() {
        return lastStateNs;
    }

    public boolean isSessionActive() {
        return sessionActive;
    }

    /** INFO said the device speaks no version this host speaks. */
    public boolean isIncompatible() {
        return incompatible;
    }

    /** The first device's INFO, or null before one arrived. */
    public DeviceInfo info() {
        return info;
    }

    /** The STATE rate the device selected in its last INFO (spec 6.2), 0 before the first. */
    public int sessionRateHz() {
        return sessionRateHz;
    }

    /** The protocol version of the last session (INFO's selectedVersion); 1 before any. */
    public int sessionVersion() {
        return sessionVersion;
    }

    /** The device's own fault code from its last STATUS, 0 if none. */
    public int deviceFaultCode() {
        return deviceFaultCode;
    }

    /** Whether a homing run the session asked for failed (the device stays un-homed for this session). */
    public boolean homingFailed() {
        return homingFailed;
    }

    /** Re-arm sequences started (each: outputEnable = 0, then 1). */
    public long reArmsSent() {
        return reArmsSent;
    }

    public long forcesSent() {
        return forcesSent;
    }

    public String lastError() {
        return lastError;
    }

    /** The decoder's counts and this session's, with a copy of the round-trip histogram. Allocates. */
    public LinkStatistics statistics() {
        FrameDecoder d = decoder;
        return new LinkStatistics(roundTripNs.copy(), d.framesDecoded(), stateCount, forcesSent, d.crcErrors(),
                d.malformedFrames() + otherVersionFrames, d.oversizeFrames(), d.resyncs(), d.sequenceGaps(Direction.DEVICE_TO_HOST),
                d.lostFrames(Direction.DEVICE_TO_HOST), d.duplicates(Direction.DEVICE_TO_HOST),
                d.staleFrames(Direction.DEVICE_TO_HOST), linksOpened, sessions, Math.max(0, sessions - 1),
                sessionsLost, deviceWatchdogTrips, sessionVersion, lastError, lastLoss);
    }
}
