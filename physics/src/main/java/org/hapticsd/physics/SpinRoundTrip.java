package org.hapticsd.physics;

import java.util.concurrent.locks.LockSupport;

/**
 * The round trip of a spin handshake between the calling thread and an echo thread: what a step split over two
 * lanes ({@link PhysicsWorld#setStepLanes}) pays at each of its phase handshakes, and a gauge of how far apart the
 * host has put two vCPUs. On the project's 2-vCPU test machine it is about 70–120 ns in some minutes and 300–800 ns
 * in others, and a two-lane step of an 800-sphere pile is 1.3–1.6× faster than one lane in the first and 0.65–0.8×
 * as fast in the second (docs/performance.md, "Thirty-eighth session"), while two independent worlds on the two
 * threads run at full speed in both. The echo thread spins only while a measurement runs and waits parked
 * otherwise, so holding one costs the work around it nothing. Allocates a thread: not for a loop's tick.
 */
public final class SpinRoundTrip implements AutoCloseable {
    private final Thread echo;
    private volatile long ping;
    private volatile long pong;
    private volatile boolean echoing;
    private volatile boolean open = true;

    /**
     * Above this mean round trip, ns, the two threads' vCPUs are far apart: 70–120 ns near, 300–800 far, on the
     * machine above.
     */
    public static final long FAR_NS = 250;

    public SpinRoundTrip() {
        echo = new Thread(this::echo, "spin-round-trip-echo");
        echo.setDaemon(true);
        echo.start();
    }

    /** The mean of {@code trips} (at least 1) round trips, ns, after one that wakes the echo thread. */
    public long meanNs(int trips) {
        if (trips < 1) {
            throw new IllegalArgumentException("trips must be at least 1, was " + trips);
        }
        echoing = true;
        LockSupport.unpark(echo);
        long p = ping;
        ping = ++p;
        while (pong != p) {
            Thread.onSpinWait();
        }
        long t0 = System.nanoTime();
        for (int i = 0; i < trips; i++) {
            ping = ++p;
            while (pong != p) {
                Thread.onSpinWait();
            }
        }
        long meanNs = (System.nanoTime() - t0) / trips;
        echoing = false;
        return meanNs;
    }

    private void echo() {
        long echoed = 0;
        while (open) {
            if (!echoing) {
                LockSupport.park(this);
                continue;
            }
            long p = ping;
            if (p != echoed) {
                echoed = p;
                pong = p;
            } else {
                Thread.onSpinWait();
            }
        }
    }

    /** The echo thread, for a test that it ends. */
    Thread echoThread() {
        return echo;
    }

    /** Ends the echo thread. */
    @Override
    public void close() {
        open = false;
        LockSupport.unpark(echo);
    }
}
