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
        // System.nanoTime() is monotonic on HotSpot/Linux, but its contract only promises meaningful differences,
        // not non-negative ones on every platform; the clamp keeps the documented ">= 0" true regardless.
        lastNsByStage[stage.ordinal()] = Math.max(0L, elapsedNs);
    }
}
