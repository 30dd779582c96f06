package org.hapticsd.device.lockstep;

import java.util.function.LongSupplier;

/**
 * Simulated time shared by a loop and the device emulator it drives in lockstep: it moves only when the loop moves
 * it (to its next tick, or by an injected stall), never with the wall clock, so a lockstep run gives the same
 * result however loaded the machine is. The loop thread writes it; other threads may read it (status, the end of
 * a run), hence volatile.
 */
public final class LockstepClock implements LongSupplier {
    private volatile long nowNs;

    public LockstepClock(long startNs) {
        this.nowNs = startNs;
    }

    /** Now, in simulated nanoseconds. */
    @Override
    public long getAsLong() {
        return nowNs;
    }

    /** Moves to {@code timeNs}, or stays if that is not later (time never runs backwards). */
    public void advanceTo(long timeNs) {
        if (timeNs - nowNs > 0) {
            nowNs = timeNs;
        }
    }

    /** Moves forward by {@code durationNs} (≥ 0): a stall of the loop thread, in simulated time. */
    public void advanceBy(long durationNs) {
        if (durationNs < 0) {
            throw new IllegalArgumentException("time never runs backwards: " + durationNs + " ns");
        }
        nowNs += durationNs;
    }
}
