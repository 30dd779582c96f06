package org.hapticsd.physics.dynamics.contact;

import org.joml.Matrix3d;
import org.joml.Matrix3dc;
import org.joml.Vector3d;
import org.joml.Vector3dc;

/**
 * One single-point collision of source 000 §2–3, played one waveform sample at a time on two bodies' velocities: the
 * collision frame and matrix frozen at the onset, the waveform, the friction rules and the exact Poisson totals.
 * It knows two bodies' mass properties and velocities, not a world: {@link ImpulseWaveformModel} plays it on the
 * engine's bodies, and the calibration ({@code hapticsd calibrate}) replays measured collisions with it, so the
 * model that is fitted is the model that runs.
 *
 * <h2>A collision</h2>
 * {@link #begin} freezes, at the collision point, the collision matrix
 * {@code K = (1/m₁ + 1/m₂)·I − r̃₁J₁⁻¹r̃₁ − r̃₂J₂⁻¹r̃₂} (the source's (3) prints a difference of masses and of the
 * rotational terms, a sign slip: B receives −op), a body that does not move counting as an infinite mass, and
 * sizes the waveform ({@link ImpulseWaveform}) for the impulse {@code IP_z = α·(1 + e)·a/K_nn} of a frictionless
 * collision at approach speed {@code a}. Each {@link #play} is one sample {@code op}, an impulse on A at the
 * collision point (B gets −op): its normal part from the waveform, its tangential part by the source's friction
 * rules on the relative contact velocity {@code u}:
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
 * <p>The restitution also ends where its normal work reaches {@code e²} times the compression's (Stronge), if that
 * comes before Poisson's total: when the bodies turn during the pulse or friction couples into the normal,
 * Poisson's total can return more energy than the compression took. The two coincide in the cases above.
 *
 * <p>Allocation-free: {@link #begin} and {@link #play} write into this object's fields.
 */
public final class ImpulseCollision {

    private static final int COMPRESSION = 0;
    private static final int RESTITUTION = 1;
    private static final int DONE = 2;
    private static final double SLIDING_DIRECTION_MIN_MPS = 1e-9;
    /** 512 samples: a pulse of 0.5 s at 1 kHz, far beyond any collision of Table 2's fits above 1 mN·s. */
    static final int CACHED_SAMPLES = 512;

    private boolean movesA;
    private boolean movesB;
    private double inverseMassA;
    private double inverseMassB;
    /** Collision point minus each body's centre of mass at the onset, m. */
    private final Vector3d rA = new Vector3d();
    private final Vector3d rB = new Vector3d();
    /** Collision frame: {@code n} from B toward A, {@code t1} the sliding direction at the onset, {@code t2 = n × t1}. */
    private final Vector3d n = new Vector3d();
    private final Vector3d t1 = new Vector3d();
    private final Vector3d t2 = new Vector3d();
    /** The bodies' inverse inertia at the onset (zero for a body that does not move). */
    private final Matrix3d inverseInertiaA = new Matrix3d();
    private final Matrix3d inverseInertiaB = new Matrix3d();
    /** {@code K} in the frame (t1, t2, n): {@code Δu = K·op}. Symmetric. */
    private double k11;
    private double k12;
    private double k13;
    private double k22;
    private double k23;
    private double k33;

    private double elasticity;
    private double staticFriction;
    private double dynamicFriction;
    /** The impulse correlation ratio {@code α_j} of the pair (source 000 §4.2). */
    private double correlationRatio;

    /** The impulse the waveform was sized for, {@code IP_z}, N·s, its height {@code H}, N, and duration, s. */
    private double impulseNs;
    private double heightN;
    private double durationS;
    private double exponent;
    private double totalArea;
    private double dtS;
    private int samples;
    /** The largest sample of the waveform, N·s: the rate an unfinished collision continues at. */
    private double peakSampleNs;

    private int phase = DONE;
    private int sample;
    /** The waveform's own samples delivered so far, N·s (what scales the rest after the compression). */
    private double nominalDeliveredNs;
    /** The normal impulse of the compression, once it has ended, and the total the collision delivers, N·s. */
    private double compressionNs;
    private double targetNs;
    private double restitutionScale;
    /** The internal impulse {@code IP} on A, in the frame (t1, t2, n), N·s. */
    private double ipT1;
    private double ipT2;
    private double ipN;
    /** The last sample's impulse on A, frame (t1, t2, n), N·s. */
    private double opT1;
    private double opT2;
    private double opN;

    /**
     * The normal work of the samples so far, J (the kinetic energy they put in along {@code n}): of the compression
     * (≤ 0) and of the restitution (≥ 0). The restitution ends once its work reaches {@code e²} times what the
     * compression took (Stronge's energetic restitution), if Poisson's total has not ended it first.
     */
    private double compressionWorkJ;
    private double restitutionWorkJ;
    /** The inverse inertias this sample is applied with: the bodies' current ones, or the onset's. */
    private Matrix3dc sampleInverseInertiaA;
    private Matrix3dc sampleInverseInertiaB;

    private final Vector3d relativeVelocityMps = new Vector3d();
    private final Vector3d scratchA = new Vector3d();
    private final Vector3d scratchB = new Vector3d();
    private final Vector3d impulse = new Vector3d();
    private final Vector3d response = new Vector3d();
    private final double[] line = new double[4];
    /**
     * The waveform's unnormalised sample areas, computed once in {@link #begin} (each is a 17-point Simpson sum of
     * {@code sin^κ}) for the first {@link #CACHED_SAMPLES}; a longer pulse computes the rest as it plays.
     */
    private final double[] sampleAreas = new double[CACHED_SAMPLES];

    /**
     * Body A of the next collision: its inverse mass, 1/kg, and world inverse inertia, 1/(kg·m²) (both ignored when
     * it does not move), and the collision point minus its centre of mass, m.
     */
    public ImpulseCollision bodyA(boolean moves, double inverseMassPerKg, Matrix3dc inverseInertia, Vector3dc rM) {
        movesA = moves;
        inverseMassA = moves ? inverseMassPerKg : 0.0;
        if (moves) {
            inverseInertiaA.set(inverseInertia);
        } else {
            inverseInertiaA.zero();
        }
        rA.set(rM);
        return this;
    }

    /** Body B of the next collision, as {@link #bodyA}. */
    public ImpulseCollision bodyB(boolean moves, double inverseMassPerKg, Matrix3dc inverseInertia, Vector3dc rM) {
        movesB = moves;
        inverseMassB = moves ? inverseMassPerKg : 0.0;
        if (moves) {
            inverseInertiaB.set(inverseInertia);
        } else {
            inverseInertiaB.zero();
        }
        rB.set(rM);
        return this;
    }

    /**
     * Begins a collision of the bodies set by {@link #bodyA} and {@link #bodyB}.
     *
     * @param normal unit normal from B toward A
     * @param relativeVelocityMps {@code u = v_A − v_B} at the collision point at the onset, approaching
     *                            ({@code u·n < 0})
     * @param alpha the pair's correlation ratio {@code α_j}, in (0, 1]
     */
    public void begin(Vector3dc normal, Vector3dc relativeVelocityMps, double elasticity, double staticFriction,
                      double dynamicFriction, double alpha, ImpulseWaveformSettings settings, double dtS) {
        n.set(normal);
        double approachMps = -relativeVelocityMps.dot(n);
        Vector3d vt = relativeVelocityMps.fma(approachMps, n, scratchA);
        double slidingMps = vt.length();
        if (slidingMps > SLIDING_DIRECTION_MIN_MPS) {
            t1.set(vt).div(slidingMps);
        } else {
            LcpContactModel.anyPerpendicular(n, t1);
        }
        n.cross(t1, t2);
        k11 = entry(t1, t1);
        k12 = entry(t1, t2);
        k13 = entry(t1, n);
        k22 = entry(t2, t2);
        k23 = entry(t2, n);
        k33 = entry(n, n);
        this.elasticity = elasticity;
        this.staticFriction = staticFriction;
        this.dynamicFriction = dynamicFriction;
        this.correlationRatio = alpha;
        impulseNs = alpha * (1.0 + elasticity) * approachMps / k33;
        heightN = ImpulseWaveform.heightN(settings, impulseNs);
        durationS = ImpulseWaveform.durationS(settings, impulseNs);
        exponent = ImpulseWaveform.exponentFor(impulseNs / (heightN * durationS));
        this.dtS = dtS;
        samples = ImpulseWaveform.sampleCount(durationS, dtS);
        // The same sum as ImpulseWaveform.totalArea, in the same order, each sample computed once.
        double total = 0.0;
        double peak = 0.0;
        for (int k = 0; k < samples; k++) {
            double area = ImpulseWaveform.sampleArea(exponent, durationS, dtS, k);
            if (k < CACHED_SAMPLES) {
                sampleAreas[k] = area;
            }
            total += area;
            peak = Math.max(peak, area);
        }
        totalArea = total;
        peakSampleNs = impulseNs * peak / totalArea;
        phase = COMPRESSION;
        sample = 0;
        nominalDeliveredNs = 0.0;
        compressionNs = 0.0;
        targetNs = 0.0;
        restitutionScale = 0.0;
        ipT1 = 0.0;
        ipT2 = 0.0;
        ipN = 0.0;
        opT1 = 0.0;
        opT2 = 0.0;
        opN = 0.0;
        compressionWorkJ = 0.0;
        restitutionWorkJ = 0.0;
    }

    /**
     * Plays one sample on the bodies' velocities (of their centres of mass, m/s and rad/s; those of a body that does
     * not move are read, never written). {@code rBNow} is B's lever arm to the collision point now: A's onset lever
     * arm held from its current centre (a sphere's stays on the line of centres whatever it spins), so each sample
     * acts equally and oppositely at one point and conserves angular momentum as well as linear. {@code K} stays the
     * onset's (source 000: constant during the collision).
     */
    public void play(Vector3d velocityAMps, Vector3d angularVelocityARadps, Vector3d velocityBMps,
                     Vector3d angularVelocityBRadps, Vector3dc rBNow) {
        play(velocityAMps, angularVelocityARadps, velocityBMps, angularVelocityBRadps, rBNow, inverseInertiaA,
            inverseInertiaB);
    }

    /**
     * As {@link #play(Vector3d, Vector3d, Vector3d, Vector3d, Vector3dc)}, applying the sample with the bodies'
     * current world inverse inertias (those of a body that does not move are ignored). A body turns during a pulse
     * of several milliseconds; an angular impulse applied with the onset's inertia would change its angular momentum
     * by other than {@code r × op} and its energy by other than the sample's work.
     */
    public void play(Vector3d velocityAMps, Vector3d angularVelocityARadps, Vector3d velocityBMps,
                     Vector3d angularVelocityBRadps, Vector3dc rBNow, Matrix3dc inverseInertiaANow,
                     Matrix3dc inverseInertiaBNow) {
        sampleInverseInertiaA = movesA ? inverseInertiaANow : inverseInertiaA;
        sampleInverseInertiaB = movesB ? inverseInertiaBNow : inverseInertiaB;
        angularVelocityARadps.cross(rA, relativeVelocityMps).add(velocityAMps);
        angularVelocityBRadps.cross(rBNow, scratchA).add(velocityBMps);
        relativeVelocityMps.sub(scratchA);
        double u1 = relativeVelocityMps.dot(t1);
        double u2 = relativeVelocityMps.dot(t2);
        double approachMps = -relativeVelocityMps.dot(n);
        double nominal = sample < samples ? impulseNs * sampleArea(sample) / totalArea : peakSampleNs;
        double sampleN;
        double[] s;
        boolean wasCompressing = phase == COMPRESSION;
        if (phase == COMPRESSION) {
            // Under the friction rule this sample takes, op_t = (s0, s1) + (s2, s3)·op_z, so the approach after it,
            // a' = a − K_n·op, is affine in op_z: the compression ends where a' = 0.
            s = frictionLine(u1, u2, sticks(u1, u2, nominal));
            double constant = k13 * s[0] + k23 * s[1];
            double slope = k13 * s[2] + k23 * s[3] + k33;
            double endsAtNs = slope > 0.0 ? Math.max(0.0, (approachMps - constant) / slope) : Double.POSITIVE_INFINITY;
            nominalDeliveredNs += nominal;
            if (nominal < endsAtNs) {
                sampleN = nominal;
            } else {
                compressionNs = ipN + endsAtNs;
                targetNs = correlationRatio * (1.0 + elasticity) * compressionNs;
                sampleN = Math.max(0.0, Math.min(nominal, targetNs - ipN));
                double restNs = targetNs - (ipN + sampleN);
                double nominalLeftNs = impulseNs - nominalDeliveredNs;
                restitutionScale = nominalLeftNs > 0.0 ? restNs / nominalLeftNs : 0.0;
                phase = restNs > 0.0 ? RESTITUTION : DONE;
            }
        } else {
            double restNs = targetNs - ipN;
            if (sample < samples - 1 && restitutionScale > 0.0) {
                sampleN = Math.min(nominal * restitutionScale, restNs);
            } else if (sample == samples - 1) {
                // The waveform's last sample carries what remains, so the total is exact.
                sampleN = restNs;
            } else {
                // Past the waveform (the compression ended late): on at its peak rate.
                sampleN = Math.min(peakSampleNs, restNs);
            }
            if (sampleN >= restNs) {
                sampleN = restNs;
                phase = DONE;
            }
            s = frictionLine(u1, u2, sticks(u1, u2, sampleN));
        }
        sampleN = capByEnergy(wasCompressing, sampleN, -approachMps, s, rBNow);
        double op1 = s[0] + s[2] * sampleN;
        double op2 = s[1] + s[3] * sampleN;
        apply(velocityAMps, angularVelocityARadps, velocityBMps, angularVelocityBRadps, rBNow, op1, op2, sampleN);
        ipT1 += op1;
        ipT2 += op2;
        ipN += sampleN;
        opT1 = op1;
        opT2 = op2;
        opN = sampleN;
        sample++;
    }

    /**
     * Books the sample's normal work and ends the restitution where its work reaches {@code e²} times the
     * compression's (Stronge). The normal velocity is affine in the sample's normal impulse {@code x}, so its work
     * {@code w(x) = x·u_n + x·(b + a·x)/2} is exact ({@code a}, {@code b}: the normal response to the sample's line,
     * with the inertias it is applied with). With a constant collision matrix and no friction coupling into the
     * normal, Poisson's total and this bound end the collision together; when the bodies turn during a long pulse,
     * or friction couples into the normal, Poisson's total alone could return more energy than the compression took
     * (a tester: a tumbling box with e = 1 gained 50 % in five bounces), and this bound ends it first.
     *
     * @return the sample's normal impulse, cut where the bound is reached (the phase is then DONE)
     */
    private double capByEnergy(boolean wasCompressing, double sampleN, double normalMps, double[] s,
                               Vector3dc rBNow) {
        double b = normalResponse(s[0], s[1], 0.0, rBNow);
        double a = normalResponse(s[2], s[3], 1.0, rBNow);
        // Where the normal velocity passes zero within the sample: the compression's part of it.
        double zeroAtNs = a > 0.0 ? -(normalMps + b) / a : Double.POSITIVE_INFINITY;
        double compressionPartNs;
        if (!wasCompressing) {
            compressionPartNs = 0.0;
        } else if (phase == COMPRESSION) {
            compressionPartNs = sampleN;
        } else {
            compressionPartNs = Math.max(0.0, Math.min(sampleN, zeroAtNs));
        }
        double compressionWork = work(compressionPartNs, normalMps, a, b);
        compressionWorkJ += compressionWork;
        if (phase == COMPRESSION) {
            return sampleN;
        }
        double allowedJ = elasticity * elasticity * -compressionWorkJ - restitutionWorkJ;
        double restitutionWork = work(sampleN, normalMps, a, b) - compressionWork;
        // Within round-off of the bound is within it: where Poisson's total and the bound coincide (no coupling, no
        // turning), the last sample reaches both, and cutting it by an ulp would only add noise.
        if (restitutionWork <= allowedJ + 1e-9 * -compressionWorkJ) {
            restitutionWorkJ += restitutionWork;
            return sampleN;
        }
        // w(x) = compressionWork + allowedJ, on the rising side (the normal velocity is ≥ 0 beyond zeroAtNs).
        double target = compressionWork + Math.max(0.0, allowedJ);
        double beta = normalMps + 0.5 * b;
        double x = (-beta + Math.sqrt(Math.max(0.0, beta * beta + 2.0 * a * target))) / a;
        restitutionWorkJ += Math.max(0.0, allowedJ);
        phase = DONE;
        return Math.max(compressionPartNs, Math.min(sampleN, x));
    }

    /** The normal work of a sample of normal impulse {@code x}: {@code x·u_n + x·(b + a·x)/2}, J. */
    private static double work(double x, double normalMps, double a, double b) {
        return x * normalMps + 0.5 * x * (b + a * x);
    }

    /**
     * {@code n·Δu} for the impulse {@code t1·c1 + t2·c2 + n·cn} on A at {@code r_A} and its opposite on B at
     * {@code rBNow}, with the inertias the sample is applied with.
     */
    private double normalResponse(double c1, double c2, double cn, Vector3dc rBNow) {
        Vector3d op = impulse.set(t1).mul(c1).fma(c2, t2).fma(cn, n);
        response.set(op).mul(inverseMassA + inverseMassB);
        if (movesA) {
            sampleInverseInertiaA.transform(rA.cross(op, scratchA)).cross(rA, scratchB);
            response.add(scratchB);
        }
        if (movesB) {
            sampleInverseInertiaB.transform(rBNow.cross(op, scratchA)).cross(rBNow, scratchB);
            response.add(scratchB);
        }
        return response.dot(n);
    }

    // ---- What the collision is and has done ------------------------------------------------------------------

    /** Whether the collision has delivered its total (or was never begun). */
    public boolean done() {
        return phase == DONE;
    }

    /** Whether the compression has ended. */
    public boolean compressionEnded() {
        return phase != COMPRESSION;
    }

    public boolean movesA() {
        return movesA;
    }

    public boolean movesB() {
        return movesB;
    }

    /** A's lever arm to the collision point, m (the onset's). */
    public Vector3dc leverArmAM() {
        return rA;
    }

    /** {@code IP_z}, the impulse the waveform was sized for, N·s. */
    public double impulseNs() {
        return impulseNs;
    }

    /** {@code H}, N. */
    public double heightN() {
        return heightN;
    }

    /** {@code W}, s. */
    public double durationS() {
        return durationS;
    }

    public double elasticity() {
        return elasticity;
    }

    /** Samples played so far. */
    public int samplesPlayed() {
        return sample;
    }

    /** The normal impulse of the compression, N·s (0 until it has ended). */
    public double compressionImpulseNs() {
        return compressionNs;
    }

    /** The normal part of the internal impulse, {@code IP_z}, delivered so far, N·s. */
    public double deliveredNormalNs() {
        return ipN;
    }

    /** The last sample's impulse on A, world frame, N·s, into {@code dest}. */
    public Vector3d lastSampleNs(Vector3d dest) {
        return dest.set(t1).mul(opT1).fma(opT2, t2).fma(opN, n);
    }

    /** The last sample's normal part, N·s. */
    public double lastNormalSampleNs() {
        return opN;
    }

    /** The internal impulse on A so far, world frame, N·s, into {@code dest}. */
    public Vector3d internalImpulseNs(Vector3d dest) {
        return dest.set(t1).mul(ipT1).fma(ipT2, t2).fma(ipN, n);
    }

    // ---- The pieces ------------------------------------------------------------------------------------------

    private double sampleArea(int k) {
        return k < CACHED_SAMPLES ? sampleAreas[k] : ImpulseWaveform.sampleArea(exponent, durationS, dtS, k);
    }

    /** {@code d_i·K·d_j = (1/m_A + 1/m_B)·d_i·d_j + (r_A × d_i)·I_A⁻¹·(r_A × d_j) + (r_B × d_i)·I_B⁻¹·(r_B × d_j)}. */
    private double entry(Vector3d di, Vector3d dj) {
        double linear = (inverseMassA + inverseMassB) * di.dot(dj);
        rA.cross(di, scratchA);
        inverseInertiaA.transform(rA.cross(dj, scratchB));
        double angularA = scratchA.dot(scratchB);
        rB.cross(di, scratchA);
        inverseInertiaB.transform(rB.cross(dj, scratchB));
        double angularB = scratchA.dot(scratchB);
        return linear + angularA + angularB;
    }

    /**
     * The tangential impulse of a sample as {@code op_t = (s0, s1) + (s2, s3)·op_z}: sticking, the impulse that stops
     * the slip, {@code K_tt⁻¹·(−u_t − K_tn·op_z)}; sliding, {@code −μ_d·op_z·û_t} (or against the impulse that would
     * stop it, when there is no slip to follow).
     */
    private double[] frictionLine(double u1, double u2, boolean stick) {
        double det = k11 * k22 - k12 * k12;
        // K_tt⁻¹ = [k22, −k12; −k12, k11]/det
        double c1 = (k22 * -u1 - k12 * -u2) / det;
        double c2 = (-k12 * -u1 + k11 * -u2) / det;
        double d1 = (k22 * -k13 - k12 * -k23) / det;
        double d2 = (-k12 * -k13 + k11 * -k23) / det;
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
        line[2] = -dynamicFriction * dir1;
        line[3] = -dynamicFriction * dir2;
        return line;
    }

    /** (5): the sample sticks if the impulse that stops the slip keeps {@code IP} inside the static cone. */
    private boolean sticks(double u1, double u2, double sampleN) {
        double[] s = frictionLine(u1, u2, true);
        double t1 = ipT1 + s[0] + s[2] * sampleN;
        double t2 = ipT2 + s[1] + s[3] * sampleN;
        double limit = staticFriction * Math.abs(ipN + sampleN);
        return t1 * t1 + t2 * t2 < limit * limit;
    }

    /** {@code op} on A at {@code r_A}, {@code −op} on B at the same point, with the sample's inertias. */
    private void apply(Vector3d velocityAMps, Vector3d angularVelocityARadps, Vector3d velocityBMps,
                       Vector3d angularVelocityBRadps, Vector3dc rBNow, double op1, double op2, double sampleN) {
        Vector3d op = impulse.set(t1).mul(op1).fma(op2, t2).fma(sampleN, n);
        if (movesA) {
            velocityAMps.fma(inverseMassA, op);
            sampleInverseInertiaA.transform(rA.cross(op, scratchA));
            angularVelocityARadps.add(scratchA);
        }
        if (movesB) {
            velocityBMps.fma(-inverseMassB, op);
            sampleInverseInertiaB.transform(rBNow.cross(op, scratchB));
            angularVelocityBRadps.sub(scratchB);
        }
    }
}
