package org.hapticsd.physics.dynamics.contact;

import java.util.Arrays;
import java.util.Objects;

import org.hapticsd.physics.ContactMode;
import org.hapticsd.physics.StepContext;
import org.hapticsd.physics.dynamics.ContactPoints;
import org.hapticsd.physics.dynamics.RigidBodies;
import org.joml.Vector3d;

/**
 * {@link ContactMode#IMPULSE} contacts: source 000's single-point collision with an artificial impulse waveform,
 * played as a sequence of single-point collisions where several bodies touch at once (§4.1), each scaled by its
 * pair's impulse correlation ratio (§4.2).
 *
 * <h2>A collision (source 000 §2–3)</h2>
 * A pair whose normal approach speed at the start of a step exceeds the impact threshold {@code V_th} begins an
 * {@link ImpulseCollision} at the centroid of its contact points, with the normal of the first: the collision matrix
 * frozen there, a waveform sized for {@code α·(1 + e)} times the frictionless impulse, friction by the source's
 * rules (4)(5) and the exact Poisson totals (see that class). One sample is played per step from the warm-start
 * stage, before the LCP rows of the step are solved, so that resting contacts carry its push on.
 *
 * <h2>Several contacts at once (source 000 §4)</h2>
 * Contacts that touch at rest carry no relative velocity, so no waveform can start there (a Newton's cradle). While
 * a movable body is in a collision, its other contacts wait: the waveform is passed down the chain as a sequence of
 * single-point collisions (§4.1), each beginning when the one before has ended and the next pair approaches. Pairs
 * that begin their collisions in the same step run at once, each with its own waveform. {@link #setCorrelationRatio}
 * sets a pair's {@code α_j} (§4.2, default 1): its collisions deliver {@code α_j} times their single-point impulse,
 * with the momentum balance (10)(11) exact by construction.
 *
 * <h2>Resting contact</h2>
 * The source describes collisions; a pair that touches without approaching faster than {@code V_th}, and waits for
 * no collision, rests on this model's own projected Gauss–Seidel rows ({@link LcpContactModel}, the same
 * Springhead static model as LCP mode), which also remove what a collision left in penetration.
 *
 * <p>Allocation-free once reserved; the pool holds {@link #MAX_PULSES_PER_BODY} collisions per body.
 */
public final class ImpulseWaveformModel implements ContactModel {

    /** Pulses the pool holds per body of the scene: a body in more collisions at once than this waits. */
    static final int MAX_PULSES_PER_BODY = 4;

    private ImpulseWaveformSettings settings = ImpulseWaveformSettings.TABLE_2_SINGLE_POINT;

    /** Resting points go to these rows; their own index list and continuity (see prepare). */
    private final LcpContactModel resting = new LcpContactModel();
    private final PointIndices restingPoints = new PointIndices();
    private int[] restingPrevious = new int[0];
    /** By the last step's slot: whether the point rested on the rows (so their carried impulses are its). */
    private boolean[] wasResting = new boolean[0];
    private boolean[] isResting = new boolean[0];

    /** Pairs' correlation ratios, sorted by pair key. */
    private long[] ratioKeys = new long[0];
    private double[] ratios = new double[0];

    private ImpulsePulse[] pool = new ImpulsePulse[0];
    /** Active collisions: pool[0 .. active − 1]. */
    private int active;
    /** Per body: active collisions it takes part in (only movable bodies hold their other contacts). */
    private int[] pulsesOnBody = new int[0];

    /** This step's pairs: first and end index into {@code mine}, and the collision each belongs to (or −1). */
    private int[] segmentFrom = new int[0];
    private int[] segmentTo = new int[0];
    private int segments;
    private PointIndices mine;

    /** Collisions begun this step, by pool slot at the time they began: pair, IP_z, H, W, e. */
    private int started;
    private int[] startedBodyA = new int[0];
    private int[] startedBodyB = new int[0];
    private double[] startedImpulseNs = new double[0];
    private double[] startedHeightN = new double[0];
    private double[] startedDurationS = new double[0];
    private double[] startedElasticity = new double[0];
    private Vector3d[] startedPointM = new Vector3d[0];
    private Vector3d[] startedNormal = new Vector3d[0];

    private final Vector3d relativeVelocityMps = new Vector3d();
    private final Vector3d scratchA = new Vector3d();
    private final Vector3d impulseNs = new Vector3d();
    private final Vector3d centroidAM = new Vector3d();
    private final Vector3d centroidBM = new Vector3d();

    @Override
    public ContactMode mode() {
        return ContactMode.IMPULSE;
    }

    /** Resting points are warm-started as LCP points are. */
    @Override
    public double matchRadiusM() {
        return resting.matchRadiusM();
    }

    /** The waveform parameters ({@code S_h}, {@code S_w}, {@code W_min}); Table 2's single-point fit by default. */
    public ImpulseWaveformSettings settings() {
        return settings;
    }

    public void setSettings(ImpulseWaveformSettings value) {
        settings = Objects.requireNonNull(value, "settings");
    }

    /**
     * Sets the impulse correlation ratio {@code α_j} of the pair (source 000 §4.2), in {@code (0, 1]}: its collisions
     * deliver {@code α_j} times the impulse of a single-point collision. Allocates: scene set-up.
     */
    public void setCorrelationRatio(int bodyA, int bodyB, double alpha) {
        if (!(alpha > 0.0 && alpha <= 1.0)) {
            throw new IllegalArgumentException("correlation ratio must be in (0, 1], was " + alpha);
        }
        long key = key(bodyA, bodyB);
        int at = Arrays.binarySearch(ratioKeys, key);
        if (at >= 0) {
            ratios[at] = alpha;
            return;
        }
        int insert = -at - 1;
        long[] keys = new long[ratioKeys.length + 1];
        double[] values = new double[ratios.length + 1];
        System.arraycopy(ratioKeys, 0, keys, 0, insert);
        System.arraycopy(ratios, 0, values, 0, insert);
        keys[insert] = key;
        values[insert] = alpha;
        System.arraycopy(ratioKeys, insert, keys, insert + 1, ratioKeys.length - insert);
        System.arraycopy(ratios, insert, values, insert + 1, ratios.length - insert);
        ratioKeys = keys;
        ratios = values;
    }

    /** The pair's correlation ratio, 1 unless set. */
    public double correlationRatio(int bodyA, int bodyB) {
        int at = Arrays.binarySearch(ratioKeys, key(bodyA, bodyB));
        return at >= 0 ? ratios[at] : 1.0;
    }

    // ---- What happened this step, for events and effects -----------------------------------------------------

    /** Collisions that began in the last step. */
    public int startedCount() {
        return started;
    }

    public int startedBodyA(int k) {
        return startedBodyA[k];
    }

    public int startedBodyB(int k) {
        return startedBodyB[k];
    }

    /** {@code IP_z}, the impulse the waveform was sized for, N·s. */
    public double startedImpulseNs(int k) {
        return startedImpulseNs[k];
    }

    /** {@code H}, N. */
    public double startedHeightN(int k) {
        return startedHeightN[k];
    }

    /** {@code W}, s. */
    public double startedDurationS(int k) {
        return startedDurationS[k];
    }

    /** {@code e} of the pair. */
    public double startedElasticity(int k) {
        return startedElasticity[k];
    }

    /** The collision point at the onset, world frame, m, into {@code dest}. */
    public Vector3d startedPointM(int k, Vector3d dest) {
        return dest.set(startedPointM[k]);
    }

    /** The collision normal (from B toward A), into {@code dest}. */
    public Vector3d startedNormal(int k, Vector3d dest) {
        return dest.set(startedNormal[k]);
    }

    /** Collisions in progress. */
    public int activeCount() {
        return active;
    }

    // ---- Stages ----------------------------------------------------------------------------------------------

    @Override
    public void reserve(int points, int bodies) {
        resting.reserve(points, bodies);
        restingPoints.reserve(points);
        if (points > restingPrevious.length) {
            restingPrevious = Arrays.copyOf(restingPrevious, points);
            wasResting = Arrays.copyOf(wasResting, points);
            isResting = Arrays.copyOf(isResting, points);
            segmentFrom = Arrays.copyOf(segmentFrom, points);
            segmentTo = Arrays.copyOf(segmentTo, points);
        }
        int pulses = points == 0 ? 0 : Math.min(points, MAX_PULSES_PER_BODY * bodies);
        if (pulses > pool.length) {
            int old = pool.length;
            pool = Arrays.copyOf(pool, pulses);
            for (int i = old; i < pulses; i++) {
                pool[i] = new ImpulsePulse();
            }
            startedBodyA = Arrays.copyOf(startedBodyA, pulses);
            startedBodyB = Arrays.copyOf(startedBodyB, pulses);
            startedImpulseNs = Arrays.copyOf(startedImpulseNs, pulses);
            startedHeightN = Arrays.copyOf(startedHeightN, pulses);
            startedDurationS = Arrays.copyOf(startedDurationS, pulses);
            startedElasticity = Arrays.copyOf(startedElasticity, pulses);
            startedPointM = Arrays.copyOf(startedPointM, pulses);
            startedNormal = Arrays.copyOf(startedNormal, pulses);
            for (int i = old; i < pulses; i++) {
                startedPointM[i] = new Vector3d();
                startedNormal[i] = new Vector3d();
            }
        }
        if (bodies > pulsesOnBody.length) {
            pulsesOnBody = Arrays.copyOf(pulsesOnBody, bodies);
        }
    }

    /**
     * Groups this step's points by pair; attaches pairs to their collisions in progress; begins the collisions of
     * pairs approaching faster than {@code V_th} whose movable bodies are free; lets the pairs of bodies in a
     * collision wait; and gives every other pair to the resting rows.
     */
    @Override
    public void prepare(StepContext context, RigidBodies bodies, ContactPoints points, PointIndices mine,
                        int[] previous) {
        this.mine = mine;
        started = 0;
        for (int p = 0; p < active; p++) {
            pool[p].point = -1;
        }
        segments = 0;
        for (int k = 0; k < mine.count(); ) {
            int i = mine.get(k);
            int end = k + 1;
            while (end < mine.count() && points.bodyA[mine.get(end)] == points.bodyA[i]
                    && points.bodyB[mine.get(end)] == points.bodyB[i]) {
                end++;
            }
            segmentFrom[segments] = k;
            segmentTo[segments] = end;
            segments++;
            k = end;
        }
        double thresholdMps = context.settings().impactThresholdMps();
        int activeBefore = active;
        // First pass: collisions in progress, and new ones between bodies no earlier collision holds.
        for (int s = 0; s < segments; s++) {
            int i = mine.get(segmentFrom[s]);
            int a = points.bodyA[i];
            int b = points.bodyB[i];
            int pulse = find(a, b);
            if (pulse >= 0) {
                pool[pulse].point = i;
                continue;
            }
            if (heldBefore(a, activeBefore) || heldBefore(b, activeBefore)) {
                continue;
            }
            centroid(points, mine, segmentFrom[s], segmentTo[s]);
            relativeVelocity(bodies, a, b, centroidAM, centroidBM, relativeVelocityMps);
            double approachMps = -relativeVelocityMps.dot(points.normal[i]);
            if (approachMps > thresholdMps && active < pool.length) {
                begin(context, bodies, points, i, a, b);
            }
        }
        for (int p = activeBefore; p < active; p++) {
            hold(pool[p], 1);
        }
        // Second pass: what rests.
        restingPoints.clear();
        for (int k = 0; k < mine.count(); k++) {
            isResting[mine.get(k)] = false;
        }
        for (int s = 0; s < segments; s++) {
            int i = mine.get(segmentFrom[s]);
            int a = points.bodyA[i];
            int b = points.bodyB[i];
            if (find(a, b) >= 0 || pulsesOnBody[a] > 0 || pulsesOnBody[b] > 0) {
                continue;
            }
            for (int k = segmentFrom[s]; k < segmentTo[s]; k++) {
                int point = mine.get(k);
                restingPoints.add(point);
                isResting[point] = true;
                int last = previous[point];
                restingPrevious[point] = last >= 0 && wasResting[last] ? last : -1;
            }
        }
        resting.prepare(context, bodies, points, restingPoints, restingPrevious);
    }

    /** Plays one sample of every collision in progress, then warm-starts the resting rows. */
    @Override
    public void warmStart(StepContext context, RigidBodies bodies) {
        for (int p = 0; p < active; p++) {
            play(pool[p], bodies);
        }
        resting.warmStart(context, bodies);
    }

    @Override
    public void solveVelocities(StepContext context, RigidBodies bodies) {
        resting.solveVelocities(context, bodies);
    }

    @Override
    public void relax(StepContext context, RigidBodies bodies) {
        resting.relax(context, bodies);
    }

    /**
     * The resting rows' forces; a collision's sample over {@code Δt} on its pair's first point (the pair's other
     * points, and those of waiting pairs, carry none); finished collisions leave the pool.
     */
    @Override
    public void store(StepContext context, ContactPoints points) {
        resting.store(context, points);
        double inverseDt = context.inverseDtPerS();
        for (int k = 0; k < mine.count(); k++) {
            int i = mine.get(k);
            if (!isResting[i]) {
                points.normalForceN[i] = 0.0;
                points.frictionForceN[i].zero();
            }
        }
        for (int p = 0; p < active; p++) {
            ImpulsePulse pulse = pool[p];
            if (pulse.point >= 0) {
                int i = pulse.point;
                // The sample along this step's normal of the point, and the rest as friction: their sum is op.
                pulse.collision.lastSampleNs(impulseNs);
                double normalNs = impulseNs.dot(points.normal[i]);
                points.normalForceN[i] = normalNs * inverseDt;
                points.frictionForceN[i].set(impulseNs).fma(-normalNs, points.normal[i]).mul(inverseDt);
            }
        }
        int kept = 0;
        for (int p = 0; p < active; p++) {
            ImpulsePulse pulse = pool[p];
            if (pulse.collision.done()) {
                hold(pulse, -1);
                continue;
            }
            if (kept != p) {
                pool[p] = pool[kept];
                pool[kept] = pulse;
            }
            kept++;
        }
        active = kept;
        boolean[] swap = wasResting;
        wasResting = isResting;
        isResting = swap;
    }

    // ---- A collision -----------------------------------------------------------------------------------------

    private void begin(StepContext context, RigidBodies bodies, ContactPoints points, int i, int a, int b) {
        ImpulsePulse p = pool[active];
        p.bodyA = a;
        p.bodyB = b;
        ImpulseCollision c = p.collision;
        c.bodyA(bodies.dynamic[a], bodies.inverseMassPerKg[a], bodies.inverseInertiaWorld[a], centroidAM);
        c.bodyB(bodies.dynamic[b], bodies.inverseMassPerKg[b], bodies.inverseInertiaWorld[b], centroidBM);
        c.begin(points.normal[i], relativeVelocityMps, points.elasticity[i], points.staticFriction[i],
            points.dynamicFriction[i], correlationRatio(a, b), settings, context.dtS());
        p.point = i;
        startedBodyA[started] = a;
        startedBodyB[started] = b;
        startedImpulseNs[started] = c.impulseNs();
        startedHeightN[started] = c.heightN();
        startedDurationS[started] = c.durationS();
        startedElasticity[started] = c.elasticity();
        startedPointM[started].set(bodies.positionM[a]).add(centroidAM);
        startedNormal[started].set(points.normal[i]);
        started++;
        active++;
    }

    /** One sample of a collision, at A's onset lever arm from its current centre. */
    private void play(ImpulsePulse p, RigidBodies bodies) {
        p.pointM.set(bodies.positionM[p.bodyA]).add(p.collision.leverArmAM());
        p.rBNow.set(p.pointM).sub(bodies.positionM[p.bodyB]);
        p.collision.play(bodies.linearVelocityMps[p.bodyA], bodies.angularVelocityRadps[p.bodyA],
            bodies.linearVelocityMps[p.bodyB], bodies.angularVelocityRadps[p.bodyB], p.rBNow,
            bodies.inverseInertiaWorld[p.bodyA], bodies.inverseInertiaWorld[p.bodyB]);
    }

    // ---- Helpers ---------------------------------------------------------------------------------------------

    private int find(int a, int b) {
        for (int p = 0; p < active; p++) {
            if (pool[p].bodyA == a && pool[p].bodyB == b) {
                return p;
            }
        }
        return -1;
    }

    /** Whether a dynamic body takes part in a collision that began before this step. */
    private boolean heldBefore(int body, int activeBefore) {
        for (int p = 0; p < activeBefore; p++) {
            ImpulsePulse pulse = pool[p];
            if (pulse.bodyA == body && pulse.collision.movesA() || pulse.bodyB == body && pulse.collision.movesB()) {
                return true;
            }
        }
        return false;
    }

    /**
     * Counts a collision on its dynamic bodies ({@code delta} +1 when it begins, −1 when it ends): a static or
     * kinematic body is not moved by a collision, so it passes nothing on and holds none of its other contacts.
     */
    private void hold(ImpulsePulse p, int delta) {
        if (p.collision.movesA()) {
            pulsesOnBody[p.bodyA] += delta;
        }
        if (p.collision.movesB()) {
            pulsesOnBody[p.bodyB] += delta;
        }
    }

    /** The mean lever arms of points {@code from .. to − 1} of {@code mine}: the collision point. */
    private void centroid(ContactPoints points, PointIndices mine, int from, int to) {
        centroidAM.zero();
        centroidBM.zero();
        for (int k = from; k < to; k++) {
            centroidAM.add(points.leverArmAM[mine.get(k)]);
            centroidBM.add(points.leverArmBM[mine.get(k)]);
        }
        centroidAM.div(to - from);
        centroidBM.div(to - from);
    }

    /** {@code (v_A + ω_A × r_A) − (v_B + ω_B × r_B)} into {@code dest}. */
    private void relativeVelocity(RigidBodies bodies, int a, int b, Vector3d rA, Vector3d rB, Vector3d dest) {
        bodies.angularVelocityRadps[a].cross(rA, dest).add(bodies.linearVelocityMps[a]);
        bodies.angularVelocityRadps[b].cross(rB, scratchA).add(bodies.linearVelocityMps[b]);
        dest.sub(scratchA);
    }

    private static long key(int bodyA, int bodyB) {
        return ((long) Math.min(bodyA, bodyB) << 32) | (Math.max(bodyA, bodyB) & 0xffffffffL);
    }

    /** The resting rows (for tests and the solver profile of IMPULSE scenes). */
    LcpContactModel restingRows() {
        return resting;
    }
}
