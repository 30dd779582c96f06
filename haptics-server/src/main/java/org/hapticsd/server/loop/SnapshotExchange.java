package org.hapticsd.server.loop;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Latest-value handoff from the loop to any number of reader threads: a sequence lock over a short history.
 *
 * <p>The writer never waits: it makes the version odd, copies into the next of {@link #HISTORY} slots, and makes
 * the version even again. A reader copies a slot and keeps the copy only if the writer has not begun to reuse that
 * slot meanwhile (it reuses a slot {@link #HISTORY} publishes later); otherwise it tries again. At 1 kHz with a copy
 * of well under a microsecond, a retry is rare and the loop is never blocked, which is the property that matters (a
 * lock would let a slow reader stall the tick; a queue would make slow readers see stale backlog instead of the
 * newest state). Fences follow the Java seqlock pattern of
 * {@link java.util.concurrent.locks.StampedLock#tryOptimisticRead()}.
 *
 * <p>The history is for a stream client that takes every tick ({@link #read(long, LoopSnapshot)}): its event loop's
 * timers wake in whole milliseconds (Java NIO's selector), so with the newest snapshot only, such a client got about
 * 80 % of a 1 kHz loop's ticks on an idle machine. The slots it reads are never the one being written.
 */
public final class SnapshotExchange {
    private static final VarHandle VERSION;

    static {
        try {
            VERSION = MethodHandles.lookup().findVarHandle(SnapshotExchange.class, "version", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * Publishes kept, the newest included. A reader can take any of the newest {@code HISTORY - 1} while the next is
     * written: 3 ms of ticks at 1 kHz. Measured with a client taking every tick of the default scene over TCP
     * (docs/performance.md, "Twenty-sixth session"): 81–82 % of the ticks with the newest only, 98.1–99.4 % with 4
     * slots, 99.8 % with 8. The loop's publish writes a slot it last wrote 4 ticks ago: about 3 µs more at the
     * median on the 200-sphere pile, with 4 slots or 8 alike; 4 keeps the memory of the largest scene's slots
     * (4096 bodies, contacts and 32,768 nodes: 1.5 MB each) at 6 MB.
     */
    public static final int HISTORY = 4;

    /** Slot {@code p % HISTORY} holds publish {@code p} (counted from 1) until publish {@code p + HISTORY} begins. */
    private final LoopSnapshot[] slots = new LoopSnapshot[HISTORY];
    @SuppressWarnings("unused") // accessed through VERSION
    private long version;

    public SnapshotExchange(int bodyCount) {
        this(bodyCount, 0);
    }

    public SnapshotExchange(int bodyCount, int nodeCount) {
        for (int i = 0; i < HISTORY; i++) {
            slots[i] = new LoopSnapshot(bodyCount, nodeCount);
        }
    }

    /**
     * For a scene's world: its bodies, its nodes, and as many contacts as its contact budget holds, a STATE's 4096 at
     * most (it was 64 for every scene, so a 200-sphere pile showed 64 of its 450 contacts and their events).
     */
    public static SnapshotExchange forWorld(org.hapticsd.physics.PhysicsWorld world) {
        return new SnapshotExchange(world.bodyCount(), world.deformableNodeCount(),
            Math.max(1, Math.min(LoopSnapshot.MAX_CONTACTS, world.contactBudget().maxPoints())));
    }

    public SnapshotExchange(int bodyCount, int nodeCount, int contactCapacity) {
        for (int i = 0; i < HISTORY; i++) {
            slots[i] = new LoopSnapshot(bodyCount, nodeCount, contactCapacity);
        }
    }

    /**
     * The version of the newest complete publish (even, 2 per publish; 0 before the first): cheap enough to poll for
     * "the loop has published again" without copying a snapshot.
     */
    public long version() {
        return ((long) VERSION.getAcquire(this)) & ~1L;
    }

    /** Publishes so far, complete ones: the number of the newest, for {@link #read(long, LoopSnapshot)}. */
    public long published() {
        return ((long) VERSION.getAcquire(this)) >>> 1;
    }

    /** A snapshot sized for this exchange, for a reader to copy into. */
    public LoopSnapshot newSnapshot() {
        LoopSnapshot shape = slots[0];
        return new LoopSnapshot(shape.bodyCount, shape.nodeCount, shape.contactCapacity);
    }

    /** Loop thread only. Never blocks, never allocates. */
    public void publish(LoopSnapshot source) {
        long v = (long) VERSION.getOpaque(this);
        VERSION.setOpaque(this, v + 1);
        VarHandle.storeStoreFence();
        slots[slot((v >>> 1) + 1)].copyFrom(source);
        VERSION.setRelease(this, v + 2);
    }

    /**
     * Copies the newest published snapshot into {@code dest}.
     *
     * @return the version read (even, increasing by 2 per publish), or 0 when nothing was published yet
     */
    public long read(LoopSnapshot dest) {
        while (true) {
            long newest = published();
            if (newest == 0) {
                return 0;
            }
            if (read(newest, dest)) {
                return 2 * newest;
            }
            Thread.onSpinWait();
        }
    }

    /**
     * Copies publish number {@code publish} (counted from 1, as {@link #published()} counts) into {@code dest}, if it
     * is still kept: one of the newest {@link #HISTORY} - 1, or the newest while the next is not begun.
     *
     * @return false, {@code dest} then undefined, when that publish has not happened yet or its slot has been (or was,
     *     during the copy) taken for a later one
     */
    public boolean read(long publish, LoopSnapshot dest) {
        // The slot of publish p is rewritten by publish p + HISTORY, which begins at version 2 (p + HISTORY) - 1.
        long reusedAt = 2 * (publish + HISTORY) - 1;
        long before = (long) VERSION.getAcquire(this);
        if (publish <= 0 || before < 2 * publish || before >= reusedAt) {
            return false;
        }
        dest.copyFrom(slots[slot(publish)]);
        VarHandle.loadLoadFence();
        return (long) VERSION.getOpaque(this) < reusedAt;
    }

    private static int slot(long publish) {
        return (int) (publish % HISTORY);
    }
}
