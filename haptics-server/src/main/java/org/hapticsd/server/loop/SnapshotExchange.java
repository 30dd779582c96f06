package org.hapticsd.server.loop;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Latest-value handoff from the loop to any number of reader threads: a sequence lock.
 *
 * <p>The writer never waits: it makes the version odd, copies, and makes it even again. A reader copies the
 * snapshot and keeps the copy only if the version was even and unchanged around it; otherwise it tries again.
 * At 1 kHz with a copy of well under a microsecond, a retry is rare and the loop is never blocked, which is
 * the property that matters (a lock would let a slow reader stall the tick; a queue would make slow readers
 * see stale backlog instead of the newest state). Fences follow the Java seqlock pattern of
 * {@link java.util.concurrent.locks.StampedLock#tryOptimisticRead()}.
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

    private final LoopSnapshot shared;
    @SuppressWarnings("unused") // accessed through VERSION
    private long version;

    public SnapshotExchange(int bodyCount) {
        this(bodyCount, 0);
    }

    public SnapshotExchange(int bodyCount, int nodeCount) {
        this.shared = new LoopSnapshot(bodyCount, nodeCount);
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
        this.shared = new LoopSnapshot(bodyCount, nodeCount, contactCapacity);
    }

    /**
     * The version of the newest complete publish (even, 2 per publish; 0 before the first): cheap enough to poll for
     * "the loop has published again" without copying a snapshot.
     */
    public long version() {
        return ((long) VERSION.getAcquire(this)) & ~1L;
    }

    /** A snapshot sized for this exchange, for a reader to copy into. */
    public LoopSnapshot newSnapshot() {
        return new LoopSnapshot(shared.bodyCount, shared.nodeCount, shared.contactCapacity);
    }

    /** Loop thread only. Never blocks, never allocates. */
    public void publish(LoopSnapshot source) {
        long v = (long) VERSION.getOpaque(this);
        VERSION.setOpaque(this, v + 1);
        VarHandle.storeStoreFence();
        shared.copyFrom(source);
        VERSION.setRelease(this, v + 2);
    }

    /**
     * Copies the newest published snapshot into {@code dest}.
     *
     * @return the version read (even, increasing by 2 per publish), or 0 when nothing was published yet
     */
    public long read(LoopSnapshot dest) {
        while (true) {
            long before = (long) VERSION.getAcquire(this);
            if ((before & 1) == 0) {
                if (before == 0) {
                    return 0;
                }
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
