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
 * A pair whose normal approach speed at the start of a step exceeds the impact threshold {@code V_th} begins a
 * collision at the centroid of its contact points, with the normal of the first. The collision matrix
 * {@code K = (1/m₁ + 1/m₂)·I − r̃₁J₁⁻¹r̃₁ − r̃₂J₂⁻¹r̃₂} (the source's (3) prints a difference of masses and of the
 * rotational terms, a sign slip: B receives −op) is frozen there, a static or kinematic partner counting as an
 * infinite mass. The waveform ({@link ImpulseWaveform}) is sized for the impulse {@code IP_z = α·(1 + e)·a/K_nn} of
 * a frictionless collision at approach speed {@code a}, and played one sample per step from the warm-start stage,
 * before the LCP rows of the step are solved, so that resting contacts carry its push on.
 *
 * <p>Each sample {@code op} is an impulse on A at the collision point (B gets −op): its normal part from the
 * waveform, its tangential part by the source's friction rules on the relative contact velocity {@code u}:
 * <ul>
 *   <li>sticking (5), when the tangential impulse that stops the slip within this sample,
 *       {@code op_t = K_tt⁻¹·(−u_t − K_tn·op_z)}, keeps the internal impulse inside the static cone,
 *       {@code |IP_t + op_t| < μ_s·|IP_z + op_z|};</li>
 *   <li>otherwise sliding (4): {@code op_t = −μ_d·op_z·u_t/|u_t|};</li>
 *   <li>and the internal impulse accumulates, {@code IP ← IP + op} (6)(7).</li>
 * </ul>
 *
 * <h2>Exact totals (Poisson's restitution)</h2>
 * The compression lasts until the normal relative velocity is zero: the sample that would overshoot is cut where
 * it reaches zero (the velocity is affine in the sample's normal impulse under either friction rule), which gives
 * the compression impulse {@code P_c} exactly. The collision then delivers in all {@code α·(1 + e)·P_c}: the rest of
 * the waveform is scaled to the restitution impulse that remains, and the last sample is that remainder. So
 * momentum is exchanged exactly (every sample acts equally and oppositely) and the restitution impulse is exactly
 * {@code e} times the compression impulse for any {@code S_h}, {@code S_w}; the waveform only shapes the profile,
 * and when {@code IP_z} was right (a frictionless collision, or one whose friction does not couple into the normal,
 * as a sphere's) the profile is the nominal one. A collision that is still compressing when its waveform ends goes
 * on at the waveform's peak rate.
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
    private static final double SLIDING_DIRECTION_MIN_MPS = 1e-9;

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

    private final Vector3d relativeVelocityMps = new Vector3d();
    private final Vector3d scratchA = new Vector3d();
    private final Vector3d scratchB = new Vector3d();
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
                begin(context, bodies, points, i, a, b, approachMps);
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
                impulseNs.set(pulse.t1).mul(pulse.opT1).fma(pulse.opT2, pulse.t2).fma(pulse.opN, pulse.n);
                double normalNs = impulseNs.dot(points.normal[i]);
                points.normalForceN[i] = normalNs * inverseDt;
                points.frictionForceN[i].set(impulseNs).fma(-normalNs, points.normal[i]).mul(inverseDt);
            }
        }
        int kept = 0;
        for (int p = 0; p < active; p++) {
            ImpulsePulse pulse = pool[p];
            if (pulse.phase == ImpulsePulse.DONE) {
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

    private void begin(StepContext context, RigidBodies bodies, ContactPoints points, int i, int a, int b,
                       double approachMps) {
        ImpulsePulse p = pool[active];
        p.bodyA = a;
        p.bodyB = b;
        p.dynamicA = bodies.dynamic[a];
        p.dynamicB = bodies.dynamic[b];
        p.inverseMassA = bodies.inverseMassPerKg[a];
        p.inverseMassB = bodies.inverseMassPerKg[b];
        p.rA.set(centroidAM);
        p.rB.set(centroidBM);
        Vector3d n = p.n.set(points.normal[i]);
        Vector3d vt = relativeVelocityMps.fma(approachMps, n);
        double slidingMps = vt.length();
        if (slidingMps > SLIDING_DIRECTION_MIN_MPS) {
            p.t1.set(vt).div(slidingMps);
        } else {
            LcpContactModel.anyPerpendicular(n, p.t1);
        }
        n.cross(p.t1, p.t2);
        p.inverseInertiaA.set(bodies.inverseInertiaWorld[a]);
        p.inverseInertiaB.set(bodies.inverseInertiaWorld[b]);
        p.k11 = entry(p, p.t1, p.t1);
        p.k12 = entry(p, p.t1, p.t2);
        p.k13 = entry(p, p.t1, n);
        p.k22 = entry(p, p.t2, p.t2);
        p.k23 = entry(p, p.t2, n);
        p.k33 = entry(p, n, n);
        p.elasticity = points.elasticity[i];
        p.staticFriction = points.staticFriction[i];
        p.dynamicFriction = points.dynamicFriction[i];
        p.correlationRatio = correlationRatio(a, b);
        p.impulseNs = p.correlationRatio * (1.0 + p.elasticity) * approachMps / p.k33;
        p.heightN = ImpulseWaveform.heightN(settings, p.impulseNs);
        p.durationS = ImpulseWaveform.durationS(settings, p.impulseNs);
        p.exponent = ImpulseWaveform.exponentFor(p.impulseNs / (p.heightN * p.durationS));
        p.dtS = context.dtS();
        p.samples = ImpulseWaveform.sampleCount(p.durationS, p.dtS);
        p.totalArea = ImpulseWaveform.totalArea(p.exponent, p.durationS, p.dtS);
        double peak = 0.0;
        for (int k = 0; k < p.samples; k++) {
            peak = Math.max(peak, ImpulseWaveform.sampleArea(p.exponent, p.durationS, p.dtS, k));
        }
        p.peakSampleNs = p.impulseNs * peak / p.totalArea;
        p.phase = ImpulsePulse.COMPRESSION;
        p.sample = 0;
        p.nominalDeliveredNs = 0.0;
        p.compressionNs = 0.0;
        p.targetNs = 0.0;
        p.restitutionScale = 0.0;
        p.ipT1 = 0.0;
        p.ipT2 = 0.0;
        p.ipN = 0.0;
        p.opT1 = 0.0;
        p.opT2 = 0.0;
        p.opN = 0.0;
        p.point = i;
        startedBodyA[started] = a;
        startedBodyB[started] = b;
        startedImpulseNs[started] = p.impulseNs;
        startedHeightN[started] = p.heightN;
        startedDurationS[started] = p.durationS;
        startedElasticity[started] = p.elasticity;
        started++;
        active++;
    }

    /** {@code d_i·K·d_j = (1/m_A + 1/m_B)·d_i·d_j + (r_A × d_i)·I_A⁻¹·(r_A × d_j) + (r_B × d_i)·I_B⁻¹·(r_B × d_j)}. */
    private double entry(ImpulsePulse p, Vector3d di, Vector3d dj) {
        double linear = (p.inverseMassA + p.inverseMassB) * di.dot(dj);
        p.rA.cross(di, scratchA);
        p.inverseInertiaA.transform(p.rA.cross(dj, scratchB));
        double angularA = scratchA.dot(scratchB);
        p.rB.cross(di, scratchA);
        p.inverseInertiaB.transform(p.rB.cross(dj, scratchB));
        double angularB = scratchA.dot(scratchB);
        return linear + angularA + angularB;
    }

    /** One sample of a collision: its normal impulse from the waveform and the phase, friction by (4)(5). */
    private void play(ImpulsePulse p, RigidBodies bodies) {
        // One point for both bodies: A's onset lever arm from its current centre (a sphere's stays on the line of
        // centres whatever it spins), so each sample acts equally and oppositely at one point and conserves
        // angular momentum as well as linear. K stays the onset's (source 000: constant during the collision).
        p.pointM.set(bodies.positionM[p.bodyA]).add(p.rA);
        p.rBNow.set(p.pointM).sub(bodies.positionM[p.bodyB]);
        relativeVelocity(bodies, p.bodyA, p.bodyB, p.rA, p.rBNow, relativeVelocityMps);
        double u1 = relativeVelocityMps.dot(p.t1);
        double u2 = relativeVelocityMps.dot(p.t2);
        double approachMps = -relativeVelocityMps.dot(p.n);
        double nominal = p.sample < p.samples
                ? p.impulseNs * ImpulseWaveform.sampleArea(p.exponent, p.durationS, p.dtS, p.sample) / p.totalArea
                : p.peakSampleNs;
        double opN;
        double[] s;
        if (p.phase == ImpulsePulse.COMPRESSION) {
            // Under the friction rule this sample takes, op_t = (s0, s1) + (s2, s3)·op_z, so the approach after it,
            // a' = a − K_n·op, is affine in op_z: the compression ends where a' = 0.
            s = frictionLine(p, u1, u2, sticks(p, u1, u2, nominal));
            double constant = p.k13 * s[0] + p.k23 * s[1];
            double slope = p.k13 * s[2] + p.k23 * s[3] + p.k33;
            double endsAtNs = slope > 0.0 ? Math.max(0.0, (approachMps - constant) / slope) : Double.POSITIVE_INFINITY;
            p.nominalDeliveredNs += nominal;
            if (nominal < endsAtNs) {
                opN = nominal;
            } else {
                p.compressionNs = p.ipN + endsAtNs;
                p.targetNs = p.correlationRatio * (1.0 + p.elasticity) * p.compressionNs;
                opN = Math.max(0.0, Math.min(nominal, p.targetNs - p.ipN));
                double restNs = p.targetNs - (p.ipN + opN);
                double nominalLeftNs = p.impulseNs - p.nominalDeliveredNs;
                p.restitutionScale = nominalLeftNs > 0.0 ? restNs / nominalLeftNs : 0.0;
                p.phase = restNs > 0.0 ? ImpulsePulse.RESTITUTION : ImpulsePulse.DONE;
            }
        } else {
            double restNs = p.targetNs - p.ipN;
            if (p.sample < p.samples - 1 && p.restitutionScale > 0.0) {
                opN = Math.min(nominal * p.restitutionScale, restNs);
            } else if (p.sample == p.samples - 1) {
                // The waveform's last sample carries what remains, so the total is exact.
                opN = restNs;
            } else {
                // Past the waveform (the compression ended late): on at its peak rate.
                opN = Math.min(p.peakSampleNs, restNs);
            }
            if (opN >= restNs) {
                opN = restNs;
                p.phase = ImpulsePulse.DONE;
            }
            s = frictionLine(p, u1, u2, sticks(p, u1, u2, opN));
        }
        double op1 = s[0] + s[2] * opN;
        double op2 = s[1] + s[3] * opN;
        apply(p, bodies, op1, op2, opN);
        p.ipT1 += op1;
        p.ipT2 += op2;
        p.ipN += opN;
        p.opT1 = op1;
        p.opT2 = op2;
        p.opN = opN;
        p.sample++;
    }

    private final double[] line = new double[4];

    /**
     * The tangential impulse of a sample as {@code op_t = (s0, s1) + (s2, s3)·op_z}: sticking, the impulse that stops
     * the slip, {@code K_tt⁻¹·(−u_t − K_tn·op_z)}; sliding, {@code −μ_d·op_z·û_t} (or against the impulse that would
     * stop it, when there is no slip to follow).
     */
    private double[] frictionLine(ImpulsePulse p, double u1, double u2, boolean stick) {
        double det = p.k11 * p.k22 - p.k12 * p.k12;
        // K_tt⁻¹ = [k22, −k12; −k12, k11]/det
        double c1 = (p.k22 * -u1 - p.k12 * -u2) / det;
        double c2 = (-p.k12 * -u1 + p.k11 * -u2) / det;
        double d1 = (p.k22 * -p.k13 - p.k12 * -p.k23) / det;
        double d2 = (-p.k12 * -p.k13 + p.k11 * -p.k23) / det;
        if (stick) {
            line[0] = c1;
            line[1] = c2;
            line[2] = d1;
            line[3] = d2;
            return line;
        }
        double slipMps = Math.sqrt(u1 * u1 + u2 * u2);
        double dir1;
        double dir2;
        if (slipMps > SLIDING_DIRECTION_MIN_MPS) {
            dir1 = u1 / slipMps;
            dir2 = u2 / slipMps;
        } else {
            double m = Math.sqrt(d1 * d1 + d2 * d2);
            dir1 = m > 0.0 ? -d1 / m : 0.0;
            dir2 = m > 0.0 ? -d2 / m : 0.0;
        }
        line[0] = 0.0;
        line[1] = 0.0;
        line[2] = -p.dynamicFriction * dir1;
        line[3] = -p.dynamicFriction * dir2;
        return line;
    }

    /** (5): the sample sticks if the impulse that stops the slip keeps {@code IP} inside the static cone. */
    private boolean sticks(ImpulsePulse p, double u1, double u2, double opN) {
        double[] s = frictionLine(p, u1, u2, true);
        double t1 = p.ipT1 + s[0] + s[2] * opN;
        double t2 = p.ipT2 + s[1] + s[3] * opN;
        double limit = p.staticFriction * Math.abs(p.ipN + opN);
        return t1 * t1 + t2 * t2 < limit * limit;
    }

    /** {@code op} on A at {@code r_A}, {@code −op} on B at the same point, with the onset's inertia. */
    private void apply(ImpulsePulse p, RigidBodies bodies, double op1, double op2, double opN) {
        Vector3d op = impulseNs.set(p.t1).mul(op1).fma(op2, p.t2).fma(opN, p.n);
        if (p.dynamicA) {
            bodies.linearVelocityMps[p.bodyA].fma(p.inverseMassA, op);
            p.inverseInertiaA.transform(p.rA.cross(op, scratchA));
            bodies.angularVelocityRadps[p.bodyA].add(scratchA);
        }
        if (p.dynamicB) {
            bodies.linearVelocityMps[p.bodyB].fma(-p.inverseMassB, op);
            p.inverseInertiaB.transform(p.rBNow.cross(op, scratchB));
            bodies.angularVelocityRadps[p.bodyB].sub(scratchB);
        }
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
            if (pulse.bodyA == body && pulse.dynamicA || pulse.bodyB == body && pulse.dynamicB) {
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
        if (p.dynamicA) {
            pulsesOnBody[p.bodyA] += delta;
        }
        if (p.dynamicB) {
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
