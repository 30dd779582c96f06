package org.hapticsd.device.emulator;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.hapticsd.device.link.ByteLink;
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
import org.hapticsd.protocol.State;

/**
 * The host side of a real link in a test: the reference {@link FrameEncoder} writes host frames to a
 * {@link ByteLink}, and a host {@link FrameDecoder} decodes what the device sends, recording it. Everything runs on
 * the test thread: {@link #pumpFor} and {@link #pumpUntil} read the link and feed the decoder, sending a
 * HOST_HEARTBEAT every 100 ms so the device's 500 ms liveness rule never ends the session under test.
 */
final class LinkHost implements AutoCloseable {
    static final long MS = 1_000_000L;
    private static final long HEARTBEAT_INTERVAL_NS = 100 * MS;

    /** One STATE as it arrived. */
    record StateSample(int sequence, long deviceTimeUs, int statusFlags, float fxN, float fyN, float fzN) {
    }

    final ByteLink link;
    final FrameDecoder decoder;
    private final FrameEncoder encoder = new FrameEncoder();
    private final Hello hello = new Hello();
    private final Force force = new Force();
    private final Heartbeat heartbeat = new Heartbeat(Direction.HOST_TO_DEVICE);
    private final byte[] tx = new byte[1 + Frame.MAX_WIRE_BYTES];
    private final byte[] rx = new byte[4096];
    private int txSequence;
    private boolean heartbeats;
    private long nextHeartbeatNs;

    long bytesReceived;
    int infoCount;
    String infoName;
    int infoVersion = -1;
    int infoRateHz;
    final List<StateSample> states = new ArrayList<>();

    LinkHost(ByteLink link) {
        this.link = link;
        this.decoder = new FrameDecoder(this::onMessage);
    }

    /** Spec 6.1: one 0x00 to end any partial frame, then HELLO; heartbeats start with the session. */
    void sendZeroAndHello(int rateHz) throws IOException {
        tx[0] = Frame.DELIMITER;
        hello.set(1, 1, rateHz);
        int n = encoder.encode(hello, next(), tx, 1);
        link.write(tx, 0, 1 + n);
        heartbeats = true;
        nextHeartbeatNs = System.nanoTime() + HEARTBEAT_INTERVAL_NS;
    }

    void sendForce(float fxN, float fyN, float fzN, boolean enable) throws IOException {
        force.setForceN(fxN, fyN, fzN).setOutputEnabled(enable);
        write(force);
    }

    /** Sends a HOST_HEARTBEAT; returns the bytes written (12). */
    int sendHeartbeat() throws IOException {
        heartbeat.setSenderTimeUs(System.nanoTime() / 1000L);
        return write(heartbeat);
    }

    /** Stops the automatic heartbeats, e.g. while the cable is out and the test counts every byte. */
    void stopHeartbeats() {
        heartbeats = false;
    }

    void startHeartbeats() {
        heartbeats = true;
        nextHeartbeatNs = System.nanoTime();
    }

    private int write(Message message) throws IOException {
        int n = encoder.encode(message, next(), tx, 0);
        link.write(tx, 0, n);
        return n;
    }

    private int next() {
        int sequence = txSequence;
        txSequence = (txSequence + 1) & 0xFFFF;
        return sequence;
    }

    /** Reads and decodes for {@code durationNs}; returns the bytes received meanwhile. */
    long pumpFor(long durationNs) throws IOException {
        long before = bytesReceived;
        long endNs = System.nanoTime() + durationNs;
        while (System.nanoTime() - endNs < 0) {
            pumpOnce();
        }
        return bytesReceived - before;
    }

    /** Reads and decodes until {@code condition} holds or {@code timeoutNs} passed; returns the condition. */
    boolean pumpUntil(BooleanSupplier condition, long timeoutNs) throws IOException {
        long endNs = System.nanoTime() + timeoutNs;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - endNs >= 0) {
                return false;
            }
            pumpOnce();
        }
        return true;
    }

    /** Reads until {@code quietNs} pass with no byte, at most {@code timeoutNs}; returns whether it got quiet. */
    boolean drainUntilQuiet(long quietNs, long timeoutNs) throws IOException {
        long startNs = System.nanoTime();
        long lastByteNs = startNs;
        while (System.nanoTime() - lastByteNs < quietNs) {
            if (System.nanoTime() - startNs >= timeoutNs) {
                return false;
            }
            if (pumpOnce() > 0) {
                lastByteNs = System.nanoTime();
            }
        }
        return true;
    }

    private int pumpOnce() throws IOException {
        if (heartbeats && System.nanoTime() - nextHeartbeatNs >= 0) {
            sendHeartbeat();
            nextHeartbeatNs += HEARTBEAT_INTERVAL_NS;
        }
        int n = link.read(rx, 0, rx.length);
        bytesReceived += n;
        decoder.feed(rx, 0, n);
        return n;
    }

    private void onMessage(Message message) {
        if (message.type() == MessageType.INFO) {
            Info info = (Info) message;
            infoCount++;
            infoName = info.name();
            infoVersion = info.selectedVersion();
            infoRateHz = info.selectedRateHz();
        } else if (message.type() == MessageType.STATE) {
            State state = (State) message;
            states.add(new StateSample(state.sequence(), state.deviceTimeUs(), state.statusFlags(),
                    state.appliedForceN(0), state.appliedForceN(1), state.appliedForceN(2)));
        }
    }

    StateSample lastState() {
        return states.get(states.size() - 1);
    }

    @Override
    public void close() {
        link.close();
    }
}
