package org.hapticsd.physics.collision;

import org.joml.Vector3d;
import org.joml.Vector3dc;

/**
 * The contact between two shapes A and B after one narrowphase test: one normal and up to {@link #MAX_POINTS}
 * points. Preallocated and overwritten in place.
 *
 * <p>Conventions (world frame, SI), shared by every collision routine and by the solver:
 * <ul>
 *   <li>{@link #normal} is a unit vector from B toward A: the direction that pushes A out of B.</li>
 *   <li>each point lies on the surface of B; A's deepest point is {@code point − normal · depth}.</li>
 *   <li>{@code depth > 0} is penetration; a routine may report points with small negative depth (a gap) within
 *       its contact margin, which the solver treats as speculative.</li>
 *   <li>for face contact there is one point at each vertex of the polygon where the shapes intersect
 *       (Springhead manual §7.7, seed 002): a box resting on a plane has four.</li>
 *   <li>{@code featureId} identifies the pair of features that made a point (e.g. a box vertex index), stable from
 *       one step to the next while the contact persists, so the solver can warm-start the point's impulse. 0 means
 *       "no stable identity".</li>
 * </ul>
 */
public final class ContactManifold {
    /** A clipped box–box face contact gives at most 8 polygon vertices. */
    public static final int MAX_POINTS = 8;

    public final Vector3d normal = new Vector3d();
    private final Vector3d[] pointsM = new Vector3d[MAX_POINTS];
    private final double[] depthsM = new double[MAX_POINTS];
    private final int[] featureIds = new int[MAX_POINTS];
    private int pointCount;

    public ContactManifold() {
        for (int i = 0; i < MAX_POINTS; i++) {
            pointsM[i] = new Vector3d();
        }
    }

    public void clear() {
        pointCount = 0;
    }

    /**
     * Adds a point; when the manifold is full the shallowest point is replaced if the new one is deeper, so the
     * deepest {@link #MAX_POINTS} survive.
     */
    public void addPoint(double xM, double yM, double zM, double depthM, int featureId) {
        int slot = pointCount;
        if (pointCount == MAX_POINTS) {
            slot = 0;
            for (int i = 1; i < MAX_POINTS; i++) {
                if (depthsM[i] < depthsM[slot]) {
                    slot = i;
                }
            }
            if (depthsM[slot] >= depthM) {
                return;
            }
        } else {
            pointCount++;
        }
        pointsM[slot].set(xM, yM, zM);
        depthsM[slot] = depthM;
        featureIds[slot] = featureId;
    }

    public void addPoint(Vector3dc pointM, double depthM, int featureId) {
        addPoint(pointM.x(), pointM.y(), pointM.z(), depthM, featureId);
    }

    public int pointCount() {
        return pointCount;
    }

    public Vector3dc point(int i) {
        return pointsM[i];
    }

    public double depth(int i) {
        return depthsM[i];
    }

    public int featureId(int i) {
        return featureIds[i];
    }

    /**
     * Swaps the roles of A and B: the normal is negated and every point moves to the other surface
     * ({@code p − n·d}, with the old normal), so a routine written for (B, A) can answer for (A, B).
     */
    public void flip() {
        for (int i = 0; i < pointCount; i++) {
            Vector3d p = pointsM[i];
            double d = depthsM[i];
            p.set(p.x - normal.x * d, p.y - normal.y * d, p.z - normal.z * d);
        }
        normal.negate();
    }

    /** The deepest depth, or {@code -Infinity} when empty. */
    public double maxDepthM() {
        double max = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < pointCount; i++) {
            max = Math.max(max, depthsM[i]);
        }
        return max;
    }
}
