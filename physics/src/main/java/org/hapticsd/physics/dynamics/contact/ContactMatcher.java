package org.hapticsd.physics.dynamics.contact;

import java.util.Arrays;

import org.hapticsd.physics.ContactMode;
import org.hapticsd.physics.collision.ContactManifold;
import org.hapticsd.physics.dynamics.ContactPoints;
import org.joml.Vector3d;

/**
 * Which point of the last step each point of this step continues: {@code previous[i]}, the last step's slot, or −1
 * for a new contact. The contact models carry their own state by it (an LCP model its impulses, the warm start of
 * sequential impulses, Catto 2005; a penalty model its stick point), and a point with −1 is a contact onset. Points
 * are keyed by (lower body index, higher body index, feature id), and, for models that ask for it, also by position.
 *
 * <p>Matching without hashing: the broadphase lists pairs sorted by (lower, higher) index and the narrowphase keeps
 * that order, so the points of both steps are sorted by pair. {@link #matchPair} walks a cursor forward through
 * the stored points as the narrowphase walks forward through the new ones (a merge), then matches the few points
 * (at most {@code ContactManifold.MAX_POINTS}) of the pair. A stored point of another mode (the pair's mode
 * changed) is never continued: what a model carries means nothing to another. Deterministic, O(points), and nothing
 * to clear. A point with feature id 0 has no stable identity and is matched by position only.
 *
 * <p>Why position too: a feature id names how the narrowphase made a point, and for faces whose edges lie on one
 * another (equal boxes in a column) that changes with the sign of sub-micrometre offsets while the point stays
 * where it was: the same corner is an incident vertex in one step, a cut of an incident edge by a side plane in
 * the next. Matched by id alone, such a corner restarts from zero impulse, the solve of a stack does not converge
 * in its sweeps, and the unconverged remainder tips the boxes (measured on {@code scenes/stack.yaml}: in the first
 * second 485 points of 122 steps restarted from zero, the top box moved 1.3 mm sideways, and the column stayed
 * bent and rocking, 91 % of the 10 000 steps using all 20 sweeps). So a point whose id finds nothing takes the
 * nearest unclaimed stored point of its pair within {@link #WARM_START_RADIUS_M} whose normal agrees to
 * {@link #SAME_NORMAL_COS}, as Jolt Physics matches all its points (by position in both bodies' frames, within
 * 1 cm: {@code PhysicsSettings::mContactPointPreserveLambdaMaxDistSq}) and Bullet its persistent manifold points.
 * Ids are matched first and each stored point is taken at most once, so two new points never share one impulse.
 * The rejected alternative, ids that do not depend on how the clip went, has no answer for a corner that is an
 * incident vertex, a reference vertex and an edge crossing at once.
 */
public final class ContactMatcher {

    /**
     * How far a point may be from a stored one, relative to the lower body's centre and along world axes, and still
     * continue it when its id changed: 0.1 mm. A renamed corner of a resting stack moves by the faces' offset
     * (measured under 10 µm in {@code scenes/stack.yaml}; 10 µm to 1 mm gave the same run), while Jolt's 1 cm would
     * span whole faces of the centimetre shapes a haptic scene holds.
     */
    public static final double WARM_START_RADIUS_M = 1e-4;

    /** Normals within 5° (Jolt's {@code mContactNormalCosMaxDeltaRotation}) push the same way. */
    static final double SAME_NORMAL_COS = 0.9961946980917455;

    private int count;
    private long[] pairKey = new long[0];
    private int[] featureId = new int[0];
    private ContactMode[] mode = new ContactMode[0];
    /** x, y, z per point: the application point minus the lower body's centre, m. */
    private double[] anchorM = new double[0];
    /** x, y, z per point: the unit normal. */
    private double[] normal = new double[0];
    /** Per stored point: already taken by a point of this step. */
    private boolean[] claimed = new boolean[0];
    /** Per new point of the pair being matched (a manifold's worth): matched by id. */
    private final boolean[] matchedById = new boolean[ContactManifold.MAX_POINTS];
    private int cursor;

    /** Forgets the stored points: every point of the next step is new (its models' carried state does not apply). */
    public void forget() {
        count = 0;
    }

    /** Rewinds the cursor; call before the first {@link #matchPair} of a step. */
    public void beginLookup() {
        cursor = 0;
    }

    /**
     * Writes into {@code previous[from .. to − 1]}, for points {@code from .. to − 1} of {@code contacts}, all of one
     * pair, of mode {@code pointMode} and at most {@link ContactManifold#MAX_POINTS}, the slot of the last step's
     * point each continues: by feature id, then, for points that found none, by position within {@code radiusM}
     * (0 turns that off); −1 for a point that continues none. Successive calls within a step must come in increasing
     * pair order.
     */
    public void matchPair(ContactPoints contacts, int from, int to, double radiusM, ContactMode pointMode,
                          int[] previous) {
        if (from >= to) {
            return;
        }
        int low = Math.min(contacts.bodyA[from], contacts.bodyB[from]);
        long key = key(low, Math.max(contacts.bodyA[from], contacts.bodyB[from]));
        while (cursor < count && pairKey[cursor] < key) {
            cursor++;
        }
        int end = cursor;
        while (end < count && pairKey[end] == key) {
            claimed[end] = false;
            end++;
        }
        if (end > cursor && mode[cursor] != pointMode) {
            // The pair changed mode: a whole pair always has one mode, so none of its stored points is this mode's.
            Arrays.fill(previous, from, to, -1);
            return;
        }
        for (int i = from; i < to; i++) {
            int stored = byFeature(contacts.featureId[i], end);
            matchedById[i - from] = stored >= 0;
            previous[i] = stored;
            if (stored >= 0) {
                claimed[stored] = true;
            }
        }
        for (int i = from; i < to; i++) {
            if (matchedById[i - from]) {
                continue;
            }
            int stored = radiusM > 0.0 ? nearest(contacts, i, low, end, radiusM) : -1;
            previous[i] = stored;
            if (stored >= 0) {
                claimed[stored] = true;
            }
        }
    }

    /** The unclaimed stored point of the current pair with this feature id, or -1; id 0 never matches. */
    private int byFeature(int feature, int end) {
        if (feature == 0) {
            return -1;
        }
        for (int k = cursor; k < end; k++) {
            if (!claimed[k] && featureId[k] == feature) {
                return k;
            }
        }
        return -1;
    }

    /** The unclaimed stored point of the current pair nearest to new point i, within the radius, same normal. */
    private int nearest(ContactPoints contacts, int i, int low, int end, double radiusM) {
        Vector3d anchor = anchor(contacts, i, low);
        Vector3d n = contacts.normal[i];
        int best = -1;
        double bestSquaredM2 = radiusM * radiusM;
        for (int k = cursor; k < end; k++) {
            int j = 3 * k;
            if (claimed[k] || n.x * normal[j] + n.y * normal[j + 1] + n.z * normal[j + 2] < SAME_NORMAL_COS) {
                continue;
            }
            double dx = anchor.x - anchorM[j];
            double dy = anchor.y - anchorM[j + 1];
            double dz = anchor.z - anchorM[j + 2];
            double squaredM2 = dx * dx + dy * dy + dz * dz;
            if (squaredM2 <= bestSquaredM2) {
                bestSquaredM2 = squaredM2;
                best = k;
            }
        }
        return best;
    }

    /** The lever arm of point i about the lower body of its pair (the pair's A or B). */
    private static Vector3d anchor(ContactPoints contacts, int i, int low) {
        return contacts.bodyA[i] == low ? contacts.leverArmAM[i] : contacts.leverArmBM[i];
    }

    /** Makes room for {@code points} stored points. Allocates only when growing. */
    public void reserve(int points) {
        if (points > featureId.length) {
            pairKey = Arrays.copyOf(pairKey, points);
            featureId = Arrays.copyOf(featureId, points);
            mode = Arrays.copyOf(mode, points);
            anchorM = Arrays.copyOf(anchorM, 3 * points);
            normal = Arrays.copyOf(normal, 3 * points);
            claimed = Arrays.copyOf(claimed, points);
        }
    }

    /**
     * Replaces the stored points with those of {@code contacts}: their slots are what the next step's
     * {@link #matchPair} returns. Allocates only when it holds more than ever.
     */
    public void record(ContactPoints contacts) {
        int n = contacts.count;
        if (n > featureId.length) {
            reserve(Math.max(n, 2 * featureId.length));
        }
        for (int i = 0; i < n; i++) {
            int a = contacts.bodyA[i];
            int b = contacts.bodyB[i];
            pairKey[i] = key(Math.min(a, b), Math.max(a, b));
            featureId[i] = contacts.featureId[i];
            mode[i] = contacts.mode[i];
            int k = 3 * i;
            Vector3d anchor = anchor(contacts, i, Math.min(a, b));
            anchorM[k] = anchor.x;
            anchorM[k + 1] = anchor.y;
            anchorM[k + 2] = anchor.z;
            normal[k] = contacts.normal[i].x;
            normal[k + 1] = contacts.normal[i].y;
            normal[k + 2] = contacts.normal[i].z;
        }
        count = n;
    }

    private static long key(int lowBody, int highBody) {
        return ((long) lowBody << 32) | (highBody & 0xffffffffL);
    }
}
