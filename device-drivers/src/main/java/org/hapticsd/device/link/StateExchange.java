package org.hapticsd.device.link;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.hapticsd.device.DeviceState;

/**
 * The newest device state, handed from a link's reader thread to the loop thread: a sequence lock, so the
 * reader never waits for the loop and the loop never waits for the reader (it retries the copy in the rare case
 * the reader wrote meanwhile). Only the newest state matters to a haptic loop; a queue would make it render
 * from stale positions after any hiccup. Fences as in {@link java.util.concurrent.locks.StampedLock}.
 */
final class StateExchange {
    private static final VarHandle VERSION;

    static {
        try {
            VERSION = MethodHandles.lookup().findVarHandle(StateExchange.class, "version", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final DeviceState shared = new DeviceState();
    @SuppressWarnings("unused") // accessed through VERSION
    private long version;

    /** Reader thread only. */
    void publish(DeviceState source) {
        long v = (long) VERSION.getOpaque(this);
        VERSION.setOpaque(this, v + 1);
        VarHandle.storeStoreFence();
        shared.copyFrom(source);
        VERSION.setRelease(this, v + 2);
    }

    /**
     * Copies the newest state into {@code dest} if it is newer than {@code knownVersion}.
     *
     * @return the version copied, or {@code knownVersion} when nothing newer was published ({@code dest} untouched)
     */
    long readIfNewer(long knownVersion, DeviceState dest) {
        while (true) {
            long before = (long) VERSION.getAcquire(this);
            if (before == knownVersion) {
                return knownVersion;
            }
            if ((before & 1) == 0) {
                dest.copyFrom(shared);
                VarHandle.loadLoadFence();
                if ((long) VERSION.getOpaque(this) == before) {
                    return before;
                }
            }
            Thread.onSpinWait();
        }
    }
}
