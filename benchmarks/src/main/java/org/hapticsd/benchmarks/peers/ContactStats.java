package org.hapticsd.benchmarks.peers;

/**
 * Penetration over a run of steps: every contact point an engine reports is counted; the mean and max are over the
 * points that penetrate (depth {@code > 0}), so the engines' different habits for touching or separating points
 * (Bullet keeps points up to 2 cm apart in its manifolds) do not dilute the mean. Where the engine says how many
 * solver sweeps it ran (ours stops early at a tolerance; the peers run a fixed count), those are kept too.
 */
public final class ContactStats {
    private long steps;
    private long points;
    private long penetrating;
    private double depthSumM;
    private double depthMaxM;
    private long solverSteps;
    private long velocitySweeps;
    private long positionSweeps;
    private long dropped;
    private long stepsAtSweepLimit;
    private long stepsAtBudget;
    private double fullSweepsOfWork;

    /** Starts a step's worth of points. */
    public void step() {
        steps++;
    }

    /** One contact point of the current step, its depth along the normal, m, positive when overlapping. */
    public void point(double depthM) {
        points++;
        if (depthM > 0.0) {
            penetrating++;
            depthSumM += depthM;
            depthMaxM = Math.max(depthMaxM, depthM);
        }
    }

    /**
     * The sweeps the current step's solver ran (of {@code velocitySweepLimit} at most), whether its work budget
     * stopped them, the work they did in full sweeps (point visits over points), and the pairs and points it dropped
     * for want of storage.
     */
    public void solver(int velocitySweepCount, int velocitySweepLimit, boolean budgetReached, double fullSweeps,
                       int positionSweepCount, int droppedCount) {
        solverSteps++;
        if (velocitySweepCount >= velocitySweepLimit) {
            stepsAtSweepLimit++;
        }
        if (budgetReached) {
            stepsAtBudget++;
        }
        fullSweepsOfWork += fullSweeps;
        velocitySweeps += velocitySweepCount;
        positionSweeps += positionSweepCount;
        dropped += droppedCount;
    }

    public long steps() {
        return steps;
    }

    /** Mean contact points per step, penetrating or not. */
    public double pointsPerStep() {
        return steps == 0 ? 0.0 : (double) points / steps;
    }

    /** Mean penetrating points per step. */
    public double penetratingPerStep() {
        return steps == 0 ? 0.0 : (double) penetrating / steps;
    }

    /** Mean depth of the penetrating points, m; 0 if none. */
    public double meanDepthM() {
        return penetrating == 0 ? 0.0 : depthSumM / penetrating;
    }

    /** Deepest point seen, m; 0 if none. */
    public double maxDepthM() {
        return depthMaxM;
    }

    /** Whether the engine reported its sweeps ({@link #solver}). */
    public boolean hasSolverCounts() {
        return solverSteps > 0;
    }

    /** Mean velocity sweeps per step. */
    public double velocitySweepsPerStep() {
        return solverSteps == 0 ? 0.0 : (double) velocitySweeps / solverSteps;
    }

    /** Mean position sweeps per step. */
    public double positionSweepsPerStep() {
        return solverSteps == 0 ? 0.0 : (double) positionSweeps / solverSteps;
    }

    /** Share of the steps whose velocity solve ran to the sweep limit, not stopped by its tolerance, 0..1. */
    public double atSweepLimit() {
        return solverSteps == 0 ? 0.0 : (double) stepsAtSweepLimit / solverSteps;
    }

    /** Share of the steps whose velocity solve its work budget stopped before the tolerance, 0..1. */
    public double atBudget() {
        return solverSteps == 0 ? 0.0 : (double) stepsAtBudget / solverSteps;
    }

    /** Mean work of the velocity sweeps per step, in full sweeps over the step's points. */
    public double fullSweepsPerStep() {
        return solverSteps == 0 ? 0.0 : fullSweepsOfWork / solverSteps;
    }

    /** Pairs and points dropped over the budget, summed over the steps: 0 unless the storage was too small. */
    public long dropped() {
        return dropped;
    }
}
