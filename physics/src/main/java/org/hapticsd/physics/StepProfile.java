package org.hapticsd.physics;

/**
 * Wall time of each stage of the last {@link PhysicsWorld#step}, measured with {@link System#nanoTime()}.
 *
 * <p>Owned and overwritten by the world on the loop thread; read it on that thread after a step, for example to
 * copy into a snapshot for monitoring. Reading never allocates. Before the first step every value is 0.
 *
 * <p>One clock read separates consecutive stages (the end of one is the start of the next), so the stage times
 * add up to {@link #lastTotalNs()} with nothing lost between them.
 */
public final class StepProfile {

    private final long[] lastNsByStage = new long[StepStage.count()];

    StepProfile() {
    }

    /** Wall time of {@code stage} in the last step, nanoseconds, {@code >= 0}. */
    public long lastNs(StepStage stage) {
        return lastNsByStage[stage.ordinal()];
    }

    /** Sum of the stage times of the last step, nanoseconds. */
    public long lastTotalNs() {
        long totalNs = 0;
        for (int i = 0; i < lastNsByStage.length; i++) {
            totalNs += lastNsByStage[i];
        }
        return totalNs;
    }

    void record(StepStage stage, long elapsedNs) {
        // System.nanoTime() is monotonic on the platforms we run on, but its contract does not forbid equal
        // reads; a clamp keeps the documented ">= 0" true even on a clock that steps back by a tick.
        lastNsByStage[stage.ordinal()] = Math.max(0L, elapsedNs);
    }
}
