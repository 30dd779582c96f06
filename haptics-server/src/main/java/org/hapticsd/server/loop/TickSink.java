package org.hapticsd.server.loop;

/**
 * Receives every tick's snapshot on the loop thread, at the end of the publish stage, and also the snapshot of a
 * tick whose stage threw (marked {@link LoopEvents#STAGE_ERROR}). Implementations must not block, allocate or
 * throw: the recorder hands the data to its own thread through a preallocated ring.
 */
@FunctionalInterface
public interface TickSink {

    void onTick(LoopSnapshot snapshot);

    /** Both sinks, {@code first} then {@code second}; the pair is built once, so it allocates nothing per tick. */
    static TickSink tee(TickSink first, TickSink second) {
        return snapshot -> {
            first.onTick(snapshot);
            second.onTick(snapshot);
        };
    }

    /** A sink that does nothing: the loop's default. */
    TickSink NONE = snapshot -> {
    };
}
