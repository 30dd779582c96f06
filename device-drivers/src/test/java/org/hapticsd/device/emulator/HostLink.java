package org.hapticsd.device.emulator;

import org.hapticsd.protocol.Direction;
import org.hapticsd.protocol.Force;
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

/**
 * The host side of a test: encodes host frames with the reference {@link FrameEncoder}, hands them to the
 * {@link EmulatedDevice}, and decodes everything the device sends with a host-side {@link FrameDecoder},
 * recording what arrived. Allocation-free after construction and free of string literals, so the allocation
 * test can drive it (see {@code EmulatedDeviceAllocationTest}).
 */
final class HostLink {
    static final int TYPE_LOG_SIZE = 64;

    final EmulatedDevice device;
    final FrameDecoder decoder;
    private final FrameEncoder encoder = new FrameEncoder();
    private final Hello hello = new Hello();
    private final Force force = new Force();
    private final Heartbeat heartbeat = new Heartbeat(Direction.HOST_TO_DEVICE);
    private final HomingRequest homing = new HomingRequest();
    private final Ping ping = new Ping();
    final byte[] tx = new byte[2 * org.hapticsd.protocol.Frame.MAX_WIRE_BYTES];
    final byte[] rx = new byte[EmulatedDevice.MAX_POLL_BYTES];
    int lastTxBytes;
    int lastPollBytes;
    private int txSequence;

    // What the device sent, in arrival order where it matters.
    final int[] typeLog = new int[TYPE_LOG_SIZE];
    int frames;
    int infoCount;
    final Info lastInfo = new Info();
    int stateCount;
    boolean stateSequenceIncreasing = true;
    int lastStateSequence = -1;
    long lastStateTimeUs = -1;
    long minStateIntervalUs = Long.MAX_VALUE;
    long maxStateIntervalUs = Long.MIN_VALUE;
    int lastStateFlags;
    int lastStateVersion;
    private int negotiatedVersion = 1;
    int lastStateAck;
    int lastStateTrips;
    int lastStatusTrips;
    float lastStatePositionXM;
    final float[] lastStateAppliedForceN = new float[3];
    int pongCount;
    long lastPongToken = -1;
    long lastPongDeviceTimeUs = -1;
    int statusCount;
    int lastStatusFlags;
    int lastStatusFault;
    int heartbeatCount;
    int progressCount;
    int lastProgressPhase = -1;
    int lastProgressPercent;
    int lastProgressResult;
    long lastProgressNs = -1;
    long maxProgressGapNs;
    long pollNs;

    HostLink(EmulatedDevice device) {
        this.device = device;
        this.decoder = new FrameDecoder(this::onMessage);
    }

    void sendHello(int minVersion, int maxVersion, int rateHz, long nowNs) {
        hello.set(minVersion, maxVersion, rateHz);
        send(hello, nowNs);
    }

    void sendForce(float fxN, float fyN, float fzN, boolean enable, long nowNs) {
        force.setForceN(fxN, fyN, fzN).setOutputEnabled(enable);
        send(force, nowNs);
    }

    /** A FORCE framed in {@code version} whatever the session's. */
    void sendForceInVersion(int version, float fxN, float fyN, float fzN, boolean enable, long nowNs) {
        force.setForceN(fxN, fyN, fzN).setOutputEnabled(enable);
        lastTxBytes = encoder.encode(force, version, txSequence, tx, 0);
        txSequence = (txSequence + 1) & 0xFFFF;
        device.receive(tx, 0, lastTxBytes, nowNs);
    }

    /** A FORCE with an explicit sequence; later frames continue from it. */
    void sendForceWithSequence(int sequence, float fxN, float fyN, float fzN, boolean enable, long nowNs) {
        txSequence = sequence & 0xFFFF;
        sendForce(fxN, fyN, fzN, enable, nowNs);
    }

    void sendHeartbeat(long nowNs) {
        heartbeat.setSenderTimeUs(nowNs / 1000L);
        send(heartbeat, nowNs);
    }

    void sendPing(long token, long nowNs) {
        ping.setToken(token);
        send(ping, nowNs);
    }

    void sendHoming(int action, int timeoutMs, long nowNs) {
        homing.set(action, timeoutMs);
        send(homing, nowNs);
    }

    /** Encodes a HELLO into {@code dst} without sending it, for tests that cut or corrupt the bytes. */
    int encodeHello(int minVersion, int maxVersion, int rateHz, byte[] dst, int offset) {
        hello.set(minVersion, maxVersion, rateHz);
        int n = encoder.encode(hello, sessionVersion(), txSequence, dst, offset);
        txSequence = (txSequence + 1) & 0xFFFF;
        return n;
    }

    /** Encodes a FORCE into {@code dst} without sending it. */
    int encodeForce(float fxN, float fyN, float fzN, boolean enable, byte[] dst, int offset) {
        force.setForceN(fxN, fyN, fzN).setOutputEnabled(enable);
        int n = encoder.encode(force, sessionVersion(), txSequence, dst, offset);
        txSequence = (txSequence + 1) & 0xFFFF;
        return n;
    }

    /** Sends the last frame again, same sequence: a duplicate the device must classify as not newer. */
    void resendLast(long nowNs) {
        device.receive(tx, 0, lastTxBytes, nowNs);
    }

    /** The version INFO selected, frames after it are framed with (spec 6.4); 1 before a session. */
    int sessionVersion() {
        return negotiatedVersion;
    }

    /** The sequence the next frame sent will carry. */
    int nextSequence() {
        return txSequence;
    }

    private void send(Message message, long nowNs) {
        lastTxBytes = encoder.encode(message, sessionVersion(), txSequence, tx, 0);
        txSequence = (txSequence + 1) & 0xFFFF;
        device.receive(tx, 0, lastTxBytes, nowNs);
    }

    /** Polls the device once and decodes what it wrote. */
    int poll(long nowNs) {
        pollNs = nowNs;
        lastPollBytes = device.poll(nowNs, rx, 0);
        decoder.feed(rx, 0, lastPollBytes);
        return lastPollBytes;
    }

    /** Polls at every step in [fromNs, toNs), keeping the session alive with a host heartbeat every 100 ms. */
    void pollEvery(long fromNs, long toNs, long stepNs) {
        for (long t = fromNs; t < toNs; t += stepNs) {
            if (t % 100_000_000L < stepNs) {
                sendHeartbeat(t);
            }
            poll(t);
        }
    }

    private void onMessage(Message message) {
        MessageType type = message.type();
        if (frames < TYPE_LOG_SIZE) {
            typeLog[frames] = type.code();
        }
        frames++;
        if (type == MessageType.INFO) {
            infoCount++;
            copyInfo((Info) message);
        } else if (type == MessageType.STATE) {
            onState((State) message);
        } else if (type == MessageType.STATUS) {
            Status status = (Status) message;
            statusCount++;
            lastStatusFlags = status.statusFlags();
            lastStatusFault = status.faultCode();
            lastStatusTrips = status.watchdogTrips();
        } else if (type == MessageType.PONG) {
            Pong pong = (Pong) message;
            pongCount++;
            lastPongToken = pong.token();
            lastPongDeviceTimeUs = pong.deviceTimeUs();
        } else if (type == MessageType.DEVICE_HEARTBEAT) {
            heartbeatCount++;
        } else if (type == MessageType.HOMING_PROGRESS) {
            HomingProgress progress = (HomingProgress) message;
            progressCount++;
            if (lastProgressNs >= 0) {
                maxProgressGapNs = Math.max(maxProgressGapNs, pollNs - lastProgressNs);
            }
            lastProgressNs = pollNs;
            lastProgressPhase = progress.phase();
            lastProgressPercent = progress.percent();
            lastProgressResult = progress.resultCode();
        }
    }

    private void onState(State state) {
        stateCount++;
        if (lastStateSequence >= 0 && (short) (state.sequence() - lastStateSequence) <= 0) {
            stateSequenceIncreasing = false;
        }
        lastStateSequence = state.sequence();
        if (lastStateTimeUs >= 0) {
            long intervalUs = (state.deviceTimeUs() - lastStateTimeUs) & 0xFFFF_FFFFL;
            minStateIntervalUs = Math.min(minStateIntervalUs, intervalUs);
            maxStateIntervalUs = Math.max(maxStateIntervalUs, intervalUs);
        }
        lastStateTimeUs = state.deviceTimeUs();
        lastStateFlags = state.statusFlags();
        lastStateVersion = state.version();
        lastStateAck = state.ackSequence();
        lastStateTrips = state.watchdogTrips();
        lastStatePositionXM = state.positionM(0);
        for (int i = 0; i < 3; i++) {
            lastStateAppliedForceN[i] = state.appliedForceN(i);
        }
    }

    private void copyInfo(Info info) {
        negotiatedVersion = info.selectedVersion() > 0 ? info.selectedVersion() : 1;
        lastInfo.setVersionAndDof(info.selectedVersion(), info.sensedDof(), info.actuatedDof())
                .setSelectedRateIndex(info.selectedRateIndex())
                .setFirmware(info.firmwareMajor(), info.firmwareMinor(), info.firmwarePatch())
                .setWorkspaceM(info.workspaceMinM(0), info.workspaceMinM(1), info.workspaceMinM(2),
                        info.workspaceMaxM(0), info.workspaceMaxM(1), info.workspaceMaxM(2))
                .setRatings(info.maxForceN(), info.maxContinuousForceN(), info.nominalStiffnessNpm(),
                        info.nominalDampingNspm())
                .setSupportedRates(info.supportedRates())
                .setName(info.name());
    }

    /** Forgets what arrived so far (the decoder's counters and sequence tracking are kept). */
    void clearRecord() {
        frames = 0;
        infoCount = 0;
        stateCount = 0;
        stateSequenceIncreasing = true;
        lastStateSequence = -1;
        lastStateTimeUs = -1;
        minStateIntervalUs = Long.MAX_VALUE;
        maxStateIntervalUs = Long.MIN_VALUE;
        statusCount = 0;
        heartbeatCount = 0;
        progressCount = 0;
        lastProgressNs = -1;
        maxProgressGapNs = 0;
    }
}
