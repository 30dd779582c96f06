package org.hapticsd.device.emulator;

import org.hapticsd.device.DeviceState;
import org.hapticsd.device.sim.FixedHandTarget;
import org.hapticsd.device.sim.HandTarget;
import org.hapticsd.device.sim.SimulatedDevice;
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
 * The firmware of a force-feedback device speaking the device link protocol ({@code docs/device-protocol.md}),
 * as a transport-agnostic, single-threaded state machine driven with injected time. Bytes from the host go in
 * through {@link #receive}; {@link #poll} advances the firmware and writes the frames it has to send. A serial
 * port, a pipe or a test wires the two; nothing here owns a thread or reads a clock.
 *
 * <p>What it does, by spec section:
 * <ul>
 *   <li>6: answers HELLO with INFO (the highest version both speak, this firmware speaking 1 up to
 *       {@link Firmware#protocolVersion()}, 2 by default; the rate by the 6.2 rule); with no common version, INFO
 *       with version 0, then STATUS fault 6, and every frame but HELLO is ignored. After INFO it streams STATE at
 *       the session rate with OUTPUT_ENABLED clear, framed in the session's version. A HELLO during a session
 *       ends it and starts a new one (output off, watchdog stopped, trips counted from 0 again).
 *   <li>4.11 (version 2): STATE carries the sequence of the newest FORCE received in order (applied or not) and
 *       the session's watchdog trip count; STATUS carries the trip count too.
 *   <li>5: a FORCE whose sequence is not newer (RFC 1982, d ≤ 0, as classified by {@link FrameDecoder}) is
 *       neither applied nor fed to the watchdog, and is counted in {@link #staleForcesIgnored()}.
 *   <li>4.4: the applied force is clamped to the profile's peak force keeping its direction (FORCE_LIMITED);
 *       a non-finite component makes that frame zero output; torque is ignored (3 DoF actuated).
 *   <li>7: the watchdog runs from an accepted FORCE with outputEnable = 1 until one with outputEnable = 0; while
 *       it runs, no newer FORCE for max(5 ms, 3 periods) zeroes the output and sets WATCHDOG_TRIPPED and FAULT
 *       (code 5), and STATE keeps streaming; output resumes only after a FORCE with outputEnable = 0 followed,
 *       within one watchdog timeout, by one with outputEnable = 1 (the re-arm), which clears both. HOST_HEARTBEAT
 *       and PING never feed it. With no valid frame for 500 ms the session ends: output off, STATE stops.
 *   <li>4.6: STATUS goes out when the status word changes in a bit other than FORCE_LIMITED (which STATE carries
 *       every tick, and which may flip every tick while the host presses against the clamp) or the fault changes,
 *       at most one per session period (a change within it goes out with the next).
 *       While not streaming (homing, incompatible version) it sends DEVICE_HEARTBEAT and STATUS every
 *       {@link #HEARTBEAT_INTERVAL_NS}. The 5 ms is the spec's; a constructor takes another minimum, as a
 *       firmware build with a stricter or a more lenient watchdog would have, and the 3-period floor still holds.
 *   <li>4.7, 4.8: a homing run ignores FORCE, reports HOMING_PROGRESS on each phase change and every
 *       {@link #PROGRESS_INTERVAL_NS}, and succeeds after the profile's homing duration (HOMED) or fails with
 *       fault 8 at the request's timeout. A device built {@link Firmware#homedAtPowerUp() homed} (absolute
 *       encoders, the default) reports HOMED from the start; one that is not must be homed before the host
 *       applies force.
 * </ul>
 *
 * <p>The stylus is a {@link SimulatedDevice} built from {@link EmulatorProfile#simulatedDeviceConfig()}: the
 * applied force pushes a damped point mass held by a virtual hand. Physics is advanced to each call's
 * {@code nowNs} before that call acts, so a force accepted at time t acts from t on, and a watchdog trip zeroes
 * the force exactly at its deadline even if the next call comes later.
 *
 * <p>Output is conflated, not queued: if a STATE falls due more than one period late the schedule restarts
 * from now rather than bursting the missed frames, and several HELLOs between two polls get one INFO. A
 * destination with {@link #MAX_POLL_BYTES} of room always takes everything due; with less, a frame that does
 * not fit waits for the next poll (STATE is dropped instead, being stale by then).
 *
 * <p>Time is monotonic nanoseconds from any origin; deadlines are compared by subtraction. A {@code nowNs}
 * earlier than the previous call's is treated as equal to it. Neither {@link #receive} nor {@link #poll}
 * allocates after construction. Not thread-safe: one thread drives it.
 */
public final class EmulatedDevice {

    /** Room that always suffices for one poll: INFO + STATUS + PONG + HOMING_PROGRESS + STATE is at most 210 bytes. */
    public static final int MAX_POLL_BYTES = 2 * Frame.MAX_WIRE_BYTES;
    /** Spec 7: 5 ms, or 3 periods at rates where that is longer; the default minimum of every constructor. */
    public static final long WATCHDOG_MIN_TIMEOUT_NS = 5_000_000L;
    public static final int WATCHDOG_MIN_PERIODS = 3;
    /**
     * Upper bound of a configured minimum: one hour, far beyond any use (the session ends after 500 ms of
     * silence anyway) and far below the 2^63 ns at which deadlines compared by subtraction would wrap.
     */
    public static final long WATCHDOG_MAX_TIMEOUT_NS = 3_600_000_000_000L;
    /** Spec 7: the session ends after this long without a valid frame. */
    public static final long LIVENESS_TIMEOUT_NS = 500_000_000L;
    /**
     * Half the spec's 100 ms ceiling, so a poll arriving late by up to 50 ms still keeps the promise. Rejected:
     * exactly 100 ms, which any poll jitter turns into a violation the host may count as a lost device.
     */
    public static final long HEARTBEAT_INTERVAL_NS = 50_000_000L;
    /** Same reasoning as {@link #HEARTBEAT_INTERVAL_NS} for spec 4.8's "at least every 100 ms". */
    public static final long PROGRESS_INTERVAL_NS = 50_000_000L;

    private enum Session { WAITING_FOR_HELLO, ACTIVE, INCOMPATIBLE }

    /**
     * How this firmware was built.
     *
     * @param watchdogMinTimeoutNs the FORCE watchdog waits max(this, 3 periods); the spec's 5 ms by default
     * @param protocolVersion      the newest protocol version it speaks (it speaks 1 up to this one)
     * @param homedAtPowerUp       whether positions are absolute from power-up (HOMED set at once), or a homing run
     *                             must make them so
     */
    public record Firmware(long watchdogMinTimeoutNs, int protocolVersion, boolean homedAtPowerUp) {
        public Firmware {
            if (watchdogMinTimeoutNs <= 0 || watchdogMinTimeoutNs > WATCHDOG_MAX_TIMEOUT_NS) {
                throw new IllegalArgumentException("watchdog minimum timeout must be > 0 ns and at most "
                        + WATCHDOG_MAX_TIMEOUT_NS + " ns (1 h), got " + watchdogMinTimeoutNs);
            }
            if (!MessageType.isSupported(protocolVersion)) {
                throw new IllegalArgumentException("protocol version must be 1.." + Frame.LATEST_VERSION + ", got "
                        + protocolVersion);
            }
        }

        /** The spec's 5 ms watchdog, the newest protocol version, homed at power-up. */
        public static Firmware defaults() {
            return new Firmware(WATCHDOG_MIN_TIMEOUT_NS, Frame.LATEST_VERSION, true);
        }

        public Firmware withWatchdogMinTimeoutNs(long timeoutNs) {
            return new Firmware(timeoutNs, protocolVersion, homedAtPowerUp);
        }

        public Firmware withProtocolVersion(int version) {
            return new Firmware(watchdogMinTimeoutNs, version, homedAtPowerUp);
        }

        public Firmware withHomedAtPowerUp(boolean homed) {
            return new Firmware(watchdogMinTimeoutNs, protocolVersion, homed);
        }
    }

    // Cold: configuration and codec objects, built once.
    private final EmulatorProfile profile;
    private final SimulatedDevice stylus;
    private final DeviceState sample = new DeviceState();
    private final FrameDecoder decoder;
    private final FrameEncoder encoder = new FrameEncoder();
    private final Info info = new Info();
    private final State state = new State();
    private final Status status = new Status();
    private final Heartbeat heartbeat = new Heartbeat(Direction.DEVICE_TO_HOST);
    private final HomingProgress progress = new HomingProgress();
    private final Pong pong = new Pong();
    private final double maxForceN;
    private final long watchdogMinTimeoutNs;
    private final int firmwareVersion;

    // Clock.
    private boolean clockStarted;
    private long nowNs;

    // Session.
    private Session session = Session.WAITING_FOR_HELLO;
    private int sessionVersion = Frame.VERSION_1;
    /** Frames in a session whose header version was not the session's: malformed (spec 6.4). */
    private long otherVersionFrames;
    private int ackSequence;
    private int sessionWatchdogTrips;
    private int txSequence;
    private long periodNs;
    private long watchdogTimeoutNs;
    private long lastRxNs;
    private long nextStateNs;
    private long nextHeartbeatNs;
    private boolean infoPending;
    private boolean statusPending;
    private long lastStatusNs;
    private int lastReportedFlags = -1;
    private int lastReportedFault = -1;
    private boolean pongPending;
    private long pongToken;
    private long pongDeviceTimeUs;

    // Force output and watchdog.
    private double appliedXN;
    private double appliedYN;
    private double appliedZN;
    private boolean outputEnabled;
    private boolean forceLimited;
    private boolean watchdogRunning;
    private long watchdogDeadlineNs;
    private boolean watchdogTripped;
    private boolean reArmPending;
    private long reArmDeadlineNs;
    private int faultCode;

    // Homing.
    private boolean homed;
    private int homingPhase = HomingProgress.PHASE_IDLE;
    private int homingPercent;
    private int homingResult;
    private long homingStartNs;
    private long homingTimeoutNs;
    private long nextProgressNs;
    private boolean progressPending;

    // Counters.
    private long forcesReceived;
    private long lastForceReceivedNs;
    private long sessionsStarted;
    private long staleForcesIgnored;
    private long forcesAccepted;
    private long framesSent;
    private long watchdogTrips;
    private long sessionsEnded;
    private long pongsSent;

    /** A device whose simulated hand holds the stylus still at the origin. */
    public EmulatedDevice(EmulatorProfile profile) {
        this(profile, new FixedHandTarget(0.0, 0.0, 0.0));
    }

    public EmulatedDevice(EmulatorProfile profile, HandTarget hand) {
        this(profile, hand, Firmware.defaults());
    }

    /**
     * A device whose FORCE watchdog waits {@code max(watchdogMinTimeoutNs, 3 periods)} instead of the spec's
     * max(5 ms, 3 periods). A longer minimum lets a host on a machine with millisecond stalls (a shared virtual
     * machine, a debugger) keep force on; a shorter one shows how a host copes with a strict firmware. The
     * 3-period floor stays because below it a single late FORCE would trip the watchdog at low rates.
     *
     * @throws IllegalArgumentException unless {@code 0 < watchdogMinTimeoutNs <= WATCHDOG_MAX_TIMEOUT_NS}
     */
    public EmulatedDevice(EmulatorProfile profile, HandTarget hand, long watchdogMinTimeoutNs) {
        this(profile, hand, Firmware.defaults().withWatchdogMinTimeoutNs(watchdogMinTimeoutNs));
    }

    /** A device built as {@code firmware} says: its watchdog, the protocol versions it speaks, whether it is homed. */
    public EmulatedDevice(EmulatorProfile profile, HandTarget hand, Firmware firmware) {
        if (profile == null || firmware == null) {
            throw new IllegalArgumentException("profile and firmware must not be null");
        }
        this.watchdogMinTimeoutNs = firmware.watchdogMinTimeoutNs();
        this.firmwareVersion = firmware.protocolVersion();
        this.homed = firmware.homedAtPowerUp();
        this.profile = profile;
        this.maxForceN = profile.maxForceN();
        this.stylus = new SimulatedDevice(profile.simulatedDeviceConfig(), hand);
        this.stylus.open();
        this.decoder = new FrameDecoder(this::onMessage, firmwareVersion);
        info.setFirmware(profile.firmwareMajor(), profile.firmwareMinor(), profile.firmwarePatch())
                .setWorkspaceM((float) profile.workspace().minX(), (float) profile.workspace().minY(),
                        (float) profile.workspace().minZ(), (float) profile.workspace().maxX(),
                        (float) profile.workspace().maxY(), (float) profile.workspace().maxZ())
                .setRatings((float) profile.maxForceN(), (float) profile.maxContinuousForceN(),
                        (float) profile.nominalStiffnessNpm(), (float) profile.dampingNspm())
                .setSupportedRates(profile.supportedRates())
                .setName(profile.name());
    }

    /** Feeds bytes from the host, in chunks of any size; frames they complete act at {@code nowNs}. */
    public void receive(byte[] bytes, int offset, int length, long nowNs) {
        advanceTo(nowNs);
        decoder.feed(bytes, offset, length);
    }

    /**
     * Advances the firmware to {@code nowNs} and writes every frame due into {@code out} from {@code offset}.
     *
     * @return bytes written (0 when nothing is due or nothing fits)
     */
    public int poll(long nowNs, byte[] out, int offset) {
        advanceTo(nowNs);
        int pos = offset;
        if (infoPending) {
            if (!fits(out, pos, MessageType.INFO)) {
                return 0;
            }
            pos = send(info, out, pos);
            infoPending = false;
        }
        if (session == Session.WAITING_FOR_HELLO) {
            return pos - offset;
        }
        int flags = statusFlags();
        boolean changed = ((flags ^ lastReportedFlags) & ~StatusFlags.FORCE_LIMITED) != 0
                || faultCode != lastReportedFault;
        // Spec 4.6: at most one STATUS per session period; a change within it goes out with the next one.
        boolean slotFree = periodNs == 0 || this.nowNs - (lastStatusNs + periodNs) >= 0;
        if ((statusPending || (changed && slotFree)) && fits(out, pos, MessageType.STATUS)) {
            pos = sendStatus(flags, out, pos);
        }
        if (pongPending && fits(out, pos, MessageType.PONG)) {
            pong.set(pongToken, pongDeviceTimeUs);
            pos = send(pong, out, pos);
            pongPending = false;
            pongsSent++;
        }
        if (progressPending && fits(out, pos, MessageType.HOMING_PROGRESS)) {
            progress.set(homingPhase, homingPercent, homingResult);
            pos = send(progress, out, pos);
            progressPending = false;
        }
        if (isStreaming()) {
            nextHeartbeatNs = this.nowNs + HEARTBEAT_INTERVAL_NS;
            if (this.nowNs - nextStateNs >= 0) {
                if (fits(out, pos, MessageType.STATE)) {
                    pos = sendState(flags, out, pos);
                }
                nextStateNs += periodNs;
                if (this.nowNs - nextStateNs >= 0) {
                    nextStateNs = this.nowNs + periodNs;
                }
            }
        } else if (this.nowNs - nextHeartbeatNs >= 0 && out.length - pos
                >= wireBytes(MessageType.DEVICE_HEARTBEAT) + wireBytes(MessageType.STATUS)) {
            heartbeat.setSenderTimeUs(this.nowNs / 1000L);
            pos = send(heartbeat, out, pos);
            pos = sendStatus(flags, out, pos);
            nextHeartbeatNs = this.nowNs + HEARTBEAT_INTERVAL_NS;
        }
        return pos - offset;
    }

    private void advanceTo(long requestedNs) {
        if (!clockStarted) {
            clockStarted = true;
            nowNs = requestedNs;
            stylus.readState(requestedNs, sample);
        } else if (requestedNs - nowNs > 0) {
            nowNs = requestedNs;
        }
        if (session != Session.WAITING_FOR_HELLO && nowNs - (lastRxNs + LIVENESS_TIMEOUT_NS) >= 0) {
            endSession();
        }
        if (session == Session.ACTIVE && watchdogRunning && nowNs - watchdogDeadlineNs >= 0) {
            stylus.readState(watchdogDeadlineNs, sample);
            tripWatchdog();
        }
        if (homingPhase == HomingProgress.PHASE_RUNNING) {
            advanceHoming();
        }
        stylus.readState(nowNs, sample);
    }

    private void onMessage(Message message) {
        MessageType type = message.type();
        if (session == Session.ACTIVE && type != MessageType.HELLO && message.version() != sessionVersion) {
            // Spec 6.4: in a session every frame but HELLO is in the session's version; another is malformed.
            otherVersionFrames++;
            return;
        }
        lastRxNs = nowNs;
        if (type == MessageType.HELLO) {
            onHello((Hello) message);
        } else if (type == MessageType.PING) {
            onPing((Ping) message);
        } else if (session != Session.ACTIVE) {
            return;
        } else if (type == MessageType.FORCE) {
            onForce((Force) message);
        } else if (type == MessageType.HOMING_REQUEST) {
            onHomingRequest((HomingRequest) message);
        }
        // HOST_HEARTBEAT only proves liveness, recorded above.
    }

    /** Spec 4.10: answered after any HELLO, in every session state; only the newest of several is answered. */
    private void onPing(Ping ping) {
        if (session == Session.WAITING_FOR_HELLO) {
            return;
        }
        pongPending = true;
        pongToken = ping.token();
        pongDeviceTimeUs = nowNs / 1000L;
    }

    private void onHello(Hello hello) {
        if (session == Session.ACTIVE) {
            // A host that reconnects within the liveness timeout replaces its old session; counting that one as
            // ended keeps sessionsStarted() - sessionsEnded() the number running (0 or 1).
            sessionsEnded++;
        }
        zeroOutput();
        watchdogRunning = false;
        watchdogTripped = false;
        reArmPending = false;
        faultCode = Status.FAULT_NONE;
        homingPhase = HomingProgress.PHASE_IDLE;
        progressPending = false;
        infoPending = true;
        sessionWatchdogTrips = 0;
        ackSequence = hello.sequence();
        // Spec 6.2: the highest version in [min, max] this firmware also speaks (1 up to firmwareVersion).
        int selected = Math.min(hello.maxVersion(), firmwareVersion);
        boolean compatible = selected >= Math.max(hello.minVersion(), Frame.VERSION_1);
        if (compatible) {
            sessionVersion = selected;
            int rateIndex = profile.selectRateIndex(hello.requestedRateHz());
            periodNs = EmulatorProfile.periodNs(rateIndex);
            watchdogTimeoutNs = Math.max(watchdogMinTimeoutNs, WATCHDOG_MIN_PERIODS * periodNs);
            info.setVersionAndDof(selected, profile.sensedDof(), profile.actuatedDof())
                    .setSelectedRateIndex(rateIndex);
            session = Session.ACTIVE;
            sessionsStarted++;
            nextStateNs = nowNs;
            lastStatusNs = nowNs - periodNs;
        } else {
            sessionVersion = Frame.VERSION_1;
            info.setVersionAndDof(0, profile.sensedDof(), profile.actuatedDof()).setSelectedRateIndex(Info.NO_RATE);
            faultCode = Status.FAULT_INCOMPATIBLE_VERSION;
            statusPending = true;
            session = Session.INCOMPATIBLE;
        }
        nextHeartbeatNs = nowNs + HEARTBEAT_INTERVAL_NS;
    }

    private void onForce(Force force) {
        if (!force.isNewer()) {
            staleForcesIgnored++;
            return;
        }
        // Received in order: later STATEs reflect it, whether it is applied or ignored while homing (4.11).
        ackSequence = force.sequence();
        forcesReceived++;
        lastForceReceivedNs = nowNs;
        if (homingPhase == HomingProgress.PHASE_RUNNING) {
            return;
        }
        forcesAccepted++;
        boolean enable = force.outputEnabled();
        // Spec 7: the watchdog guards enabled output. Enable = 1 arms (or feeds) it; enable = 0 stops it, so a host
        // that closes with a zero FORCE and outputEnable = 0 leaves no trip behind.
        watchdogRunning = enable;
        watchdogDeadlineNs = nowNs + watchdogTimeoutNs;
        if (watchdogTripped) {
            if (!enable) {
                reArmPending = true;
                reArmDeadlineNs = nowNs + watchdogTimeoutNs;
            } else if (reArmPending && nowNs - reArmDeadlineNs >= 0) {
                // The two halves of a re-arm must come within one watchdog timeout of each other: a host that
                // stalled between them starts over, as one that stalls while applying force trips.
                reArmPending = false;
            } else if (reArmPending) {
                watchdogTripped = false;
                reArmPending = false;
                if (faultCode == Status.FAULT_WATCHDOG) {
                    faultCode = Status.FAULT_NONE;
                }
            }
        }
        if (enable && !watchdogTripped) {
            apply(force.forceN(0), force.forceN(1), force.forceN(2));
            outputEnabled = true;
        } else {
            zeroOutput();
        }
    }

    /** Clamps to the peak force keeping direction (spec 4.4); float components cannot overflow when squared. */
    private void apply(double fxN, double fyN, double fzN) {
        if (!(Double.isFinite(fxN) && Double.isFinite(fyN) && Double.isFinite(fzN))) {
            setOutput(0.0, 0.0, 0.0);
            forceLimited = false;
            return;
        }
        double magnitudeN = Math.sqrt(fxN * fxN + fyN * fyN + fzN * fzN);
        if (magnitudeN > maxForceN) {
            double scale = maxForceN / magnitudeN;
            setOutput(fxN * scale, fyN * scale, fzN * scale);
            forceLimited = true;
        } else {
            setOutput(fxN, fyN, fzN);
            forceLimited = false;
        }
    }

    private void onHomingRequest(HomingRequest request) {
        if (request.action() == HomingRequest.ACTION_ABORT) {
            if (homingPhase == HomingProgress.PHASE_RUNNING) {
                homingPhase = HomingProgress.PHASE_ABORTED;
                nextStateNs = nowNs;
            }
            progressPending = true;
            return;
        }
        if (homingPhase != HomingProgress.PHASE_RUNNING) {
            // Spec 4.8: the device drives the motors itself, so the host's force stops and the watchdog with it.
            zeroOutput();
            watchdogRunning = false;
            if (faultCode == Status.FAULT_HOMING_FAILED) {
                faultCode = Status.FAULT_NONE;
            }
            // Positions are relative again until the run succeeds.
            homed = false;
            homingPhase = HomingProgress.PHASE_RUNNING;
            homingPercent = 0;
            homingResult = 0;
            homingStartNs = nowNs;
            homingTimeoutNs = request.timeoutMs() == 0
                    ? 2 * profile.homingDurationNs() : request.timeoutMs() * 1_000_000L;
            nextProgressNs = nowNs + PROGRESS_INTERVAL_NS;
            nextHeartbeatNs = nowNs + HEARTBEAT_INTERVAL_NS;
        }
        progressPending = true;
    }

    private void advanceHoming() {
        long elapsedNs = nowNs - homingStartNs;
        long durationNs = profile.homingDurationNs();
        if (durationNs <= homingTimeoutNs && elapsedNs >= durationNs) {
            homingPhase = HomingProgress.PHASE_SUCCEEDED;
            homingPercent = 100;
            homed = true;
            endHomingRun();
        } else if (elapsedNs >= homingTimeoutNs) {
            homingPhase = HomingProgress.PHASE_FAILED;
            homingResult = Status.FAULT_HOMING_FAILED;
            faultCode = Status.FAULT_HOMING_FAILED;
            endHomingRun();
        } else {
            homingPercent = (int) Math.min(99L, elapsedNs * 100L / durationNs);
            if (nowNs - nextProgressNs >= 0) {
                progressPending = true;
                nextProgressNs = nowNs + PROGRESS_INTERVAL_NS;
            }
        }
    }

    private void endHomingRun() {
        progressPending = true;
        nextStateNs = nowNs;
    }

    private void tripWatchdog() {
        watchdogRunning = false;
        reArmPending = false;
        if (!watchdogTripped) {
            watchdogTripped = true;
            watchdogTrips++;
            sessionWatchdogTrips = (sessionWatchdogTrips + 1) & 0xFFFF;
            faultCode = Status.FAULT_WATCHDOG;
        }
        zeroOutput();
    }

    private void endSession() {
        zeroOutput();
        watchdogRunning = false;
        homingPhase = HomingProgress.PHASE_IDLE;
        progressPending = false;
        infoPending = false;
        statusPending = false;
        pongPending = false;
        if (session == Session.ACTIVE) {
            // An INCOMPATIBLE exchange never started a session, so it does not end one either.
            sessionsEnded++;
        }
        session = Session.WAITING_FOR_HELLO;
    }

    private void zeroOutput() {
        setOutput(0.0, 0.0, 0.0);
        outputEnabled = false;
        forceLimited = false;
    }

    private void setOutput(double fxN, double fyN, double fzN) {
        appliedXN = fxN;
        appliedYN = fyN;
        appliedZN = fzN;
        stylus.commandForce(fxN, fyN, fzN, 0.0, 0.0, 0.0);
    }

    private boolean fits(byte[] out, int pos, MessageType type) {
        return out.length - pos >= wireBytes(type);
    }

    private int wireBytes(MessageType type) {
        return type.wireBytes(type.frameVersion(sessionVersion));
    }

    private int send(Message message, byte[] out, int pos) {
        int written = encoder.encode(message, sessionVersion, txSequence, out, pos);
        txSequence = (txSequence + 1) & 0xFFFF;
        framesSent++;
        return pos + written;
    }

    private int sendStatus(int flags, byte[] out, int pos) {
        lastStatusNs = nowNs;
        status.set(flags, faultCode, 0L).setWatchdogTrips(sessionWatchdogTrips);
        lastReportedFlags = flags;
        lastReportedFault = faultCode;
        statusPending = false;
        return send(status, out, pos);
    }

    private int sendState(int flags, byte[] out, int pos) {
        state.setDeviceTimeUs(nowNs / 1000L)
                .setPositionM((float) sample.positionXM, (float) sample.positionYM, (float) sample.positionZM)
                .setVelocityMps((float) sample.velocityXMps, (float) sample.velocityYMps,
                        (float) sample.velocityZMps)
                .setButtons(sample.buttons)
                .setStatusFlags(flags)
                .setAppliedForceN((float) appliedXN, (float) appliedYN, (float) appliedZN)
                .setLinkCounters(ackSequence, sessionWatchdogTrips);
        return send(state, out, pos);
    }

    /** The status word STATE and STATUS would carry now (spec 4.9). */
    public int statusFlags() {
        int flags = 0;
        if (outputEnabled) {
            flags |= StatusFlags.OUTPUT_ENABLED;
        }
        if (homed) {
            flags |= StatusFlags.HOMED;
        }
        if (watchdogTripped) {
            flags |= StatusFlags.WATCHDOG_TRIPPED;
        }
        if (faultCode != Status.FAULT_NONE) {
            flags |= StatusFlags.FAULT;
        }
        if (forceLimited) {
            flags |= StatusFlags.FORCE_LIMITED;
        }
        if (homingPhase == HomingProgress.PHASE_RUNNING) {
            flags |= StatusFlags.HOMING;
        }
        return flags;
    }

    public EmulatorProfile profile() {
        return profile;
    }

    /** Force acting on the stylus now, after clamp and watchdog: component {@code axis} (0 x, 1 y, 2 z), N. */
    public double appliedForceN(int axis) {
        return axis == 0 ? appliedXN : axis == 1 ? appliedYN : appliedZN;
    }

    /** Stylus position at the last call's time, device frame, m. */
    public double positionM(int axis) {
        return axis == 0 ? sample.positionXM : axis == 1 ? sample.positionYM : sample.positionZM;
    }

    public double velocityMps(int axis) {
        return axis == 0 ? sample.velocityXMps : axis == 1 ? sample.velocityYMps : sample.velocityZMps;
    }

    /** A session is open (INFO with a common version sent) and STATE is due at the session rate. */
    public boolean isSessionActive() {
        return session == Session.ACTIVE;
    }

    /** Streaming STATE: in a session and not homing. */
    public boolean isStreaming() {
        return session == Session.ACTIVE && homingPhase != HomingProgress.PHASE_RUNNING;
    }

    /** A FORCE with outputEnable = 1 would be applied now: streaming and the watchdog not tripped. */
    public boolean isArmed() {
        return isStreaming() && !watchdogTripped;
    }

    public boolean isOutputEnabled() {
        return outputEnabled;
    }

    public boolean isWatchdogTripped() {
        return watchdogTripped;
    }

    public boolean isHomed() {
        return homed;
    }

    /** {@link HomingProgress} phase of the current or last run. */
    public int homingPhase() {
        return homingPhase;
    }

    /** The latched {@link Status} fault code, 0 if none. */
    public int faultCode() {
        return faultCode;
    }

    /** The protocol version of the session (INFO's selectedVersion); 1 before any. */
    public int sessionVersion() {
        return sessionVersion;
    }

    /** The newest protocol version this firmware speaks. */
    public int firmwareVersion() {
        return firmwareVersion;
    }

    /** Session rate in hertz, 0 outside a session. */
    public int sessionRateHz() {
        return session == Session.ACTIVE ? (int) (1_000_000_000L / periodNs) : 0;
    }

    /** Watchdog timeout of the current session: max(minimum, 3 periods), the minimum being 5 ms by default. */
    public long watchdogTimeoutNs() {
        return watchdogTimeoutNs;
    }

    /** The watchdog's minimum timeout this device was built with ({@link #WATCHDOG_MIN_TIMEOUT_NS} by default). */
    public long watchdogMinTimeoutNs() {
        return watchdogMinTimeoutNs;
    }

    /** Valid frames decoded from the host, of every type. */
    public long framesReceived() {
        return decoder.framesDecoded();
    }

    /** FORCE frames whose sequence was not newer than the last (d ≤ 0): neither applied nor fed to the watchdog. */
    public long staleForcesIgnored() {
        return staleForcesIgnored;
    }

    public long forcesAccepted() {
        return forcesAccepted;
    }

    /** FORCE frames received in order (newer), applied or ignored while homing. */
    public long forcesReceived() {
        return forcesReceived;
    }

    /** The time of the newest FORCE received in order; meaningful once {@link #forcesReceived()} > 0. */
    public long lastForceReceivedNs() {
        return lastForceReceivedNs;
    }

    /** Sessions opened by a HELLO with a common version. */
    public long sessionsStarted() {
        return sessionsStarted;
    }

    public long crcErrors() {
        return decoder.crcErrors();
    }

    public long malformedFrames() {
        return decoder.malformedFrames() + otherVersionFrames;
    }

    /** Frames recovered after garbage by the decoder's suffix search (spec 2.5). */
    public long resyncs() {
        return decoder.resyncs();
    }

    public long framesSent() {
        return framesSent;
    }

    public long watchdogTrips() {
        return watchdogTrips;
    }

    /** PONGs sent in answer to PINGs (spec 4.10). */
    public long pongsSent() {
        return pongsSent;
    }

    /**
     * Sessions ended, by the 500 ms liveness timeout or by a new HELLO replacing them: {@link #sessionsStarted()}
     * minus this is 1 while a session runs and 0 otherwise.
     */
    public long sessionsEnded() {
        return sessionsEnded;
    }
}
