package org.hapticsd.server;

import org.hapticsd.device.DeviceHealth;
import org.hapticsd.device.DeviceState;
import org.hapticsd.device.emulator.EmulatedDevice;
import org.hapticsd.device.emulator.EmulatorProfile;
import org.hapticsd.device.link.LinkSession;
import org.hapticsd.device.sim.FixedHandTarget;

/**
 * Compiles the device link's code before a real-time run, as {@link JitWarmUp} does the tick's: a throwaway
 * {@link LinkSession} and a throwaway {@link EmulatedDevice} exchange frames in memory on a simulated clock, through
 * the same encoder, decoder, COBS and CRC the link threads and the in-process emulator's firmware thread run, with
 * the paths a run meets (streaming with the clamp, watchdog trips and re-arms, garbage, PING/PONG, heartbeats).
 *
 * <p>Without it those threads start cold: the first seconds of a run execute the codec and the session
 * interpreted or C1-compiled while the compiler threads take a core, and on a 2-vCPU machine that showed as FORCE
 * gaps of tens of milliseconds in the first two seconds, long enough to trip a device watchdog
 * (docs/dil-tests.md). In memory, so nothing is opened and no time passes but the CPU's.
 */
public final class LinkWarmUp {
    /** Simulated 1 ms ticks: past C2's thresholds for the per-frame paths (several frames per tick). */
    public static final int DEFAULT_TICKS = 30_000;
    private static final long TICK_NS = 1_000_000L;
    private static final int CYCLE_TICKS = 1_000;

    private LinkWarmUp() {
    }

    public static void run(int rateHz) {
        run(rateHz, DEFAULT_TICKS);
    }

    public static void run(int rateHz, int ticks) {
        LinkSession session = new LinkSession(LinkSession.Config.defaults(rateHz), "warm-up");
        EmulatedDevice device = new EmulatedDevice(EmulatorProfile.falconLike(), new FixedHandTarget(0, 0, 0));
        byte[] toDevice = new byte[LinkSession.MAX_POLL_BYTES];
        byte[] toHost = new byte[EmulatedDevice.MAX_POLL_BYTES + 16];
        byte[] garbage = {0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77};
        DeviceState state = new DeviceState();
        DeviceHealth health = new DeviceHealth();
        long nowNs = 0;
        session.linkOpened(nowNs);
        for (int k = 0; k < ticks; k++) {
            int phase = k % CYCLE_TICKS;
            // Every cycle the "loop" stalls 8 ticks (the device's watchdog trips), then re-arms through zero.
            boolean stalled = phase >= 500 && phase < 508;
            if (!stalled) {
                session.readState(state);
                session.health(nowNs, health);
                boolean healthy = health.connected && health.fault == org.hapticsd.device.DeviceFault.NONE;
                double forceN = phase % 128 == 0 ? 40.0 : 0.5 + 0.001 * (phase & 7);
                session.commandForce(healthy ? forceN : 0.0, 0.0, 0.0);
                int n = session.poll(nowNs, toDevice, 0);
                device.receive(toDevice, 0, n, nowNs);
            }
            int n = device.poll(nowNs, toHost, 0);
            if (phase == 700) {
                session.receive(garbage, 0, garbage.length, nowNs);
            }
            session.receive(toHost, 0, n, nowNs);
            nowNs += TICK_NS;
        }
        session.beginClose(nowNs);
        while (!session.isClosed(nowNs)) {
            int n = session.poll(nowNs, toDevice, 0);
            device.receive(toDevice, 0, n, nowNs);
            n = device.poll(nowNs, toHost, 0);
            session.receive(toHost, 0, n, nowNs);
            nowNs += TICK_NS;
        }
    }
}
