package org.hapticsd.protocol;

import java.lang.management.ManagementFactory;

/**
 * Runs encode + decode cycles (a STATE and a FORCE per cycle, as one 1 kHz tick) and reports the bytes the
 * current thread allocated. Holds no string literal, so nothing measured can come from interning one.
 */
final class CodecAllocationProbe {
    private final com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    private final FrameEncoder encoder = new FrameEncoder();
    private final byte[] wire = new byte[Frame.MAX_WIRE_BYTES];
    private final State state = new State();
    private final Force force = new Force();
    private long received;
    private final FrameDecoder hostSide = new FrameDecoder(m -> received++);
    private final FrameDecoder deviceSide = new FrameDecoder(m -> received++);
    private int sequence;

    /** Bytes allocated by {@code cycles} cycles. */
    long allocatedBytes(int cycles) {
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < cycles; i++) {
            sequence = (sequence + 1) & 0xFFFF;
            float t = i * 1e-6f;
            state.setDeviceTimeUs(sequence * 1000L).setPositionM(t, -t, 2 * t).setVelocityMps(t, t, t);
            int n = encoder.encode(state, sequence, wire, 0);
            hostSide.feed(wire, 0, n);
            force.setForceN(t, 0.5f, -t).setOutputEnabled((i & 1) == 0);
            n = encoder.encode(force, sequence, wire, 0);
            deviceSide.feed(wire, 0, n);
        }
        return threads.getCurrentThreadAllocatedBytes() - before;
    }

    /**
     * Runs windows until {@code consecutive} in a row allocate nothing (JIT compilation and escape analysis
     * done).
     *
     * @return windows run, or -1 if {@code maxWindows} did not reach it
     */
    int warmUp(int cycles, int consecutive, int maxWindows) {
        int zeros = 0;
        for (int w = 1; w <= maxWindows; w++) {
            zeros = allocatedBytes(cycles) == 0 ? zeros + 1 : 0;
            if (zeros == consecutive) {
                return w;
            }
        }
        return -1;
    }

    private byte[] kept;

    /** A control: allocates one array of {@code length} bytes, so a test can see the meter count it. */
    long allocatedBytesOfOneArray(int length) {
        long before = threads.getCurrentThreadAllocatedBytes();
        kept = new byte[length];
        return threads.getCurrentThreadAllocatedBytes() - before + (kept.length - length);
    }

    long received() {
        return received;
    }

    boolean supported() {
        return threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled();
    }
}
