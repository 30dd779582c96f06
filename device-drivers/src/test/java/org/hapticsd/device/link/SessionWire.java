package org.hapticsd.device.link;

import java.util.ArrayDeque;
import java.util.Arrays;
import org.hapticsd.device.DeviceHealth;
import org.hapticsd.device.DeviceState;
import org.hapticsd.device.emulator.EmulatedDevice;

/**
 * A {@link LinkSession} and an {@link EmulatedDevice} joined in memory on a fake clock, as Aeron's
 * {@code SenderTest} joins a sender to a mocked transport: each {@link #step} is one loop tick at the current
 * time. Both directions can delay their bytes (a link's latency), hold them (a stalled reader thread: bytes wait
 * in the OS buffer and arrive together), or drop them (an unplugged cable); the host can skip commanding a force
 * (a stalled loop). Nothing here reads a real clock or sleeps.
 */
final class SessionWire {
    static final long MS = 1_000_000L;
    static final long US = 1_000L;

    private record Chunk(long dueNs, byte[] bytes) {
    }

    final LinkSession session;
    final EmulatedDevice device;
    final DeviceState state = new DeviceState();
    final DeviceHealth health = new DeviceHealth();
    long nowNs;
    long latencyNs;
    /** Bytes from the device wait until released: the host's reader is not running. */
    boolean holdDeviceBytes;
    /** Bytes in either direction are lost: the cable is out. */
    boolean unplugged;
    /** Bytes from the host are lost (noise on the host → device line). */
    boolean dropToDevice;
    int fresh;

    private final ArrayDeque<Chunk> toDevice = new ArrayDeque<>();
    private final ArrayDeque<Chunk> toHost = new ArrayDeque<>();
    private final byte[] buffer = new byte[Math.max(LinkSession.MAX_POLL_BYTES, EmulatedDevice.MAX_POLL_BYTES)];

    SessionWire(LinkSession session, EmulatedDevice device) {
        this.session = session;
        this.device = device;
        session.linkOpened(nowNs);
    }

    /** Moves bytes both ways at the current time (no command). */
    void exchange() {
        int n = session.poll(nowNs, buffer, 0);
        if (n > 0 && !unplugged && !dropToDevice) {
            toDevice.add(new Chunk(nowNs + latencyNs, Arrays.copyOf(buffer, n)));
        }
        while (!toDevice.isEmpty() && toDevice.peek().dueNs() - nowNs <= 0) {
            byte[] b = toDevice.poll().bytes();
            device.receive(b, 0, b.length, nowNs);
        }
        n = device.poll(nowNs, buffer, 0);
        if (n > 0 && !unplugged) {
            toHost.add(new Chunk(nowNs + latencyNs, Arrays.copyOf(buffer, n)));
        }
        if (!holdDeviceBytes) {
            while (!toHost.isEmpty() && toHost.peek().dueNs() - nowNs <= 0) {
                byte[] b = toHost.poll().bytes();
                session.receive(b, 0, b.length, nowNs);
            }
        }
    }

    /**
     * One tick of a loop that behaves like the server's: read the newest state, and command {@code fx, fy, fz}
     * only while the device is healthy (its safety layer commands zero otherwise); then advance the clock.
     */
    void tick(double fx, double fy, double fz, long stepNs) {
        exchange();
        if (session.readState(state)) {
            fresh++;
        }
        session.health(nowNs, health);
        boolean healthy = health.connected && health.fault == org.hapticsd.device.DeviceFault.NONE;
        session.commandForce(healthy ? fx : 0.0, healthy ? fy : 0.0, healthy ? fz : 0.0);
        exchange();
        nowNs += stepNs;
    }

    /** Ticks every millisecond for {@code ms} milliseconds. */
    void run(long ms, double fx, double fy, double fz) {
        for (long k = 0; k < ms; k++) {
            tick(fx, fy, fz, MS);
        }
    }

    /** The loop is stalled: no command for {@code ms} milliseconds, while the link and the device go on. */
    void stallLoop(long ms) {
        for (long k = 0; k < ms * 10; k++) {
            exchange();
            nowNs += 100 * US;
        }
    }

    /** Ticks until {@code condition} holds, at most {@code ms} milliseconds; returns whether it did. */
    boolean runUntil(long ms, double fx, double fy, double fz, java.util.function.BooleanSupplier condition) {
        for (long k = 0; k < ms; k++) {
            tick(fx, fy, fz, MS);
            if (condition.getAsBoolean()) {
                return true;
            }
        }
        return false;
    }
}
