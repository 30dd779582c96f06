package org.hapticsd.benchmarks.peers;

/**
 * Penetration over a run of steps: every contact point an engine reports is counted; the mean and max are over the
 * points that penetrate (depth {@code > 0}), so the engines' different habits for touching or separating points
 * (Bullet keeps points up to 2 cm apart in its manifolds) do not dilute the mean.
 */
public final class ContactStats {
    private long steps;
    private long points;
    private long penetrating;
    private double depthSumM;
    private double depthMaxM;

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
}
