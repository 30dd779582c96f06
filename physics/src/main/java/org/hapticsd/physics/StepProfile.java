package org.hapticsd.physics;

/**
 * Wall time of each stage of the last {@link PhysicsWorld#step}, measured on the world's clock
 * ({@link PhysicsWorld#nanoTime()}: {@link System#nanoTime()} unless a test set another), and the convergence of its
 * contact solver.
 *
 * <p>Owned and overwritten by the world on the loop thread; read it on that thread after a step, for example to
 * copy into a snapshot for monitoring. Reading never allocates. Before the first step every value is 0.
 *
 * <p>One clock read separates consecutive stages (the end of one is the start of the next), so the stage times
 * add up to {@link #lastTotalNs()} with nothing lost between them.
 */
public final class StepProfile {

    private final long[] lastNsByStage = new long[StepStage.count()];
    private double lastLcpResidualNs;
    private double lastPositionResidualNs;
    private int lastLcpRowCount;
    private int lastVelocitySweeps;
    private int lastVelocityVisits;
    private boolean lastVelocityBudgetReached;
    private boolean lastSweepDeadlineReached;
    private int lastPositionSweeps;
    private int lastCandidatePairCount;
    private int lastDroppedPairs;
    private int lastDroppedPoints;
    private boolean lastStepDropped;

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

    /**
     * Residual of the LCP solve of the last step, N·s: the largest change {@code |Δλ|} that any row (normal or
     * friction, after projection onto its bound) received in the final projected Gauss–Seidel sweep, over the points
     * that sweep visited (after the first sweep, a point whose bodies have not moved by more than the tolerance since
     * its last visit is skipped; see {@link ContactSettings#lcpTolerance()}). With {@code lcpTolerance} 0 every point
     * is visited, and 0 means the iterate is a fixed point of projected Gauss–Seidel and so solves the LCP; divide by
     * {@code Δt} for the force error it stands for. 0 when there was no LCP contact.
     */
    public double lastLcpResidualNs() {
        return lastLcpResidualNs;
    }

    /** As {@link #lastLcpResidualNs()}, for the pseudo-impulses of the position correction, N·s. */
    public double lastPositionResidualNs() {
        return lastPositionResidualNs;
    }

    /** Velocity sweeps the LCP solve of the last step ran (the configured iterations at most). */
    public int lastVelocitySweeps() {
        return lastVelocitySweeps;
    }

    /**
     * LCP point visits of the last step's velocity sweeps: every point in the first sweep, then only those whose
     * bodies moved since their last visit, so {@code visits / lcpRowCount} is the number of full sweeps the work
     * amounted to.
     */
    public int lastVelocityVisits() {
        return lastVelocityVisits;
    }

    /**
     * Whether the last step's velocity sweeps were stopped by {@link ContactSettings#lcpSweepBudget()} before they
     * met {@link ContactSettings#lcpTolerance()} (the next step's warm start carries on from there).
     */
    public boolean lastVelocityBudgetReached() {
        return lastVelocityBudgetReached;
    }

    /**
     * Whether the last step's velocity or position sweeps stopped at the deadline it was given
     * ({@link PhysicsWorld#step(double, long)}) before they converged; always false for a step without one.
     */
    public boolean lastSweepDeadlineReached() {
        return lastSweepDeadlineReached;
    }

    /** Position-correction sweeps of the last step (0 when no point needed correcting). */
    public int lastPositionSweeps() {
        return lastPositionSweeps;
    }

    /** Candidate pairs (overlapping bounds) the last step stored, at most the budget's {@code maxPairs}. */
    public int lastCandidatePairCount() {
        return lastCandidatePairCount;
    }

    /**
     * Candidate pairs the last step found beyond the {@link ContactBudget} and dropped (never a tool's while the
     * tools' reserve holds them); 0 within the budget.
     */
    public int lastDroppedPairs() {
        return lastDroppedPairs;
    }

    /**
     * Contact points the last step found beyond the {@link ContactBudget} and dropped, the shallowest first and a
     * tool's last; 0 within the budget.
     */
    public int lastDroppedPoints() {
        return lastDroppedPoints;
    }

    /**
     * Whether the last step was dropped at a checkpoint, before it changed anything
     * ({@link PhysicsWorld#step(double, long, long)}): then the stage times are the dropped step's (0 for the stages it
     * did not reach) and every other figure here is still the last whole step's.
     */
    public boolean lastStepDropped() {
        return lastStepDropped;
    }

    /** Number of LCP contact points (each a normal and two friction rows) of the last step. */
    public int lastLcpRowCount() {
        return lastLcpRowCount;
    }

    void record(StepStage stage, long elapsedNs) {
        // System.nanoTime() is monotonic on HotSpot/Linux, but its contract only promises meaningful differences,
        // not non-negative ones on every platform; the clamp keeps the documented ">= 0" true regardless.
        lastNsByStage[stage.ordinal()] = Math.max(0L, elapsedNs);
    }

    void recordSolver(int lcpRowCount, double lcpResidualNs, double positionResidualNs, int velocitySweeps,
                      int velocityVisits, boolean velocityBudgetReached, int positionSweeps,
                      boolean sweepDeadlineReached) {
        this.lastVelocityBudgetReached = velocityBudgetReached;
        this.lastSweepDeadlineReached = sweepDeadlineReached;
        this.lastLcpRowCount = lcpRowCount;
        this.lastVelocitySweeps = velocitySweeps;
        this.lastVelocityVisits = velocityVisits;
        this.lastPositionSweeps = positionSweeps;
        this.lastLcpResidualNs = lcpResidualNs;
        this.lastPositionResidualNs = positionResidualNs;
    }

    void recordDropped(boolean dropped) {
        this.lastStepDropped = dropped;
    }

    void recordContacts(int candidatePairCount, int droppedPairs, int droppedPoints) {
        this.lastCandidatePairCount = candidatePairCount;
        this.lastDroppedPairs = droppedPairs;
        this.lastDroppedPoints = droppedPoints;
    }
}
