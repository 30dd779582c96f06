package org.hapticsd.server.calibrate;

import java.util.List;
import org.hapticsd.physics.dynamics.contact.ImpulseCollision;
import org.hapticsd.physics.dynamics.contact.ImpulseWaveformSettings;
import org.hapticsd.physics.dynamics.GyroscopicStep;
import org.hapticsd.physics.dynamics.RigidBodyIntegrator;
import org.joml.Matrix3d;
import org.joml.Quaterniond;
import org.joml.Vector3d;

/**
 * Replays one measured event with given parameters: the engine's own {@link ImpulseCollision}, sequenced as
 * {@code ImpulseWaveformModel} sequences them (source 000 §4.1), on the event's bodies frozen at their onset poses.
 *
 * <p>Each step: every contact whose bodies no collision held at the start of the step, and which approaches faster
 * than the impact threshold, begins a collision; every collision plays one sample; finished ones end. A body in a
 * collision holds its other contacts, so in a row of balls the waveform is passed down the chain; contacts that
 * begin in the same step run at once. A contact that approaches no faster than the threshold, between bodies no
 * collision holds, rests: the engine gives it to its resting rows (the Springhead static model, inelastic, with
 * Coulomb friction), which the replay solves the same way, by projected Gauss–Seidel to convergence, after the
 * samples of the step. The event ends when no collision is in progress and no contact approaches.
 * Positions are not advanced: a collision lasts milliseconds, the source models it at its onset configuration, and
 * the engine keeps {@code K} and the lever arms of the onset too. Orientations are: between samples a body that
 * rotates turns freely, its angular momentum kept and its inertia turning with it (the engine's gyroscopic step and
 * orientation update, {@code RigidBodyIntegrator}), which moves {@code ω} by a few percent over a collision of a
 * spinning box.
 *
 * <p>Reused across evaluations of the objective: allocates only when built.
 */
final class CollisionReplay {

    private final CollisionData.Event event;
    private final double dtS;
    private final double thresholdMps;
    private final int maxSteps;
    /** Sweeps of the resting rows at most, and the change in impulse, N·s, below which they have converged. */
    private static final int RESTING_SWEEPS = 200;
    /** Relative to the event's momentum scale: 1e-10 of it, far below any measurement's noise. */
    private static final double RESTING_CONVERGED = 1e-10;
    /** An approach slower than this is not one (round-off), m/s. */
    private static final double RESTING_SPEED_MPS = 1e-9;

    private final int bodyCount;
    private final Vector3d[] velocity;
    private final Vector3d[] angularVelocity;
    private final boolean[] moves;
    private final double[] inverseMass;
    private final Matrix3d[] inverseInertia;
    /** The inverse inertia now: the onset's turned with the body, as the engine applies each sample with it. */
    private final Matrix3d[] inverseInertiaNow;
    private final Matrix3d rotation = new Matrix3d();
    private final Matrix3d rotationTransposed = new Matrix3d();
    /** The collisions in progress, in the order they began: the engine's pool order. */
    private int[] playOrder = new int[0];
    private int playCount;
    private final boolean[] held;
    /** Rotating bodies: orientation since the onset, and the inertia at the onset (the body frame here). */
    private final boolean[] rotates;
    private final Quaterniond[] turn;
    private final Matrix3d[] inertia;
    private final Vector3d omegaBody = new Vector3d();
    /** Resting rows: this step's frame and accumulated impulses, per contact. */
    private final boolean[] resting;
    private final double[] restingNormalNs;
    private final double[] restingTangent1Ns;
    private final double[] restingTangent2Ns;
    private final double[] restingFriction;
    /** Per resting contact: the inverse of K along n, t1 and t2 (the rows' effective masses), kg. */
    private final double[] restingMass;
    private final double convergedNs;
    private final Vector3d[] tangent1;
    private final Vector3d[] tangent2;
    private final double frictionThresholdMps;
    private final Vector3d impulse = new Vector3d();
    private final Vector3d scratchB = new Vector3d();
    private final Vector3d entryX = new Vector3d();
    private final Vector3d entryY = new Vector3d();

    private final int contactCount;
    private final int[] bodyA;
    private final int[] bodyB;
    private final Vector3d[] rA;
    private final Vector3d[] rB;
    private final ImpulseCollision[] collision;
    private final boolean[] active;
    private final String[] pairKeys;
    private final double[] alpha;
    private final int[] onsetStep;
    private final int[] collisions;
    /**
     * Per contact with measured forces: the replayed normal force on a each step from the first onset (the
     * collision's sample and the resting row's impulse, over the step), N.
     */
    private final double[][] forceN;
    private final int[] forceCount;
    private boolean settled;
    private final Vector3d relative = new Vector3d();
    private final Vector3d scratch = new Vector3d();

    /**
     * @param thresholdMps the impact threshold {@code V_th}: faster approaches collide, slower ones rest
     * @param frictionThresholdMps the slip below which a resting contact uses the static friction coefficient
     */
    CollisionReplay(CollisionData.Event event, double dtS, double thresholdMps, double frictionThresholdMps,
                    double maxDurationS) {
        this.event = event;
        this.frictionThresholdMps = frictionThresholdMps;
        this.dtS = dtS;
        this.thresholdMps = thresholdMps;
        this.maxSteps = (int) Math.ceil(maxDurationS / dtS);
        List<CollisionData.Body> bodies = event.bodies();
        bodyCount = bodies.size();
        velocity = new Vector3d[bodyCount];
        angularVelocity = new Vector3d[bodyCount];
        moves = new boolean[bodyCount];
        inverseMass = new double[bodyCount];
        inverseInertia = new Matrix3d[bodyCount];
        inverseInertiaNow = new Matrix3d[bodyCount];
        held = new boolean[bodyCount];
        rotates = new boolean[bodyCount];
        turn = new Quaterniond[bodyCount];
        inertia = new Matrix3d[bodyCount];
        for (int i = 0; i < bodyCount; i++) {
            CollisionData.Body body = bodies.get(i);
            // A body with an isotropic inertia (a ball) turns without changing ω or its world inertia: skip it.
            rotates[i] = body.rotates() && !isotropic(body.inertiaKgM2());
            turn[i] = new Quaterniond();
            inertia[i] = rotates[i] ? new Matrix3d(body.inertiaKgM2()) : new Matrix3d();
            velocity[i] = new Vector3d();
            angularVelocity[i] = new Vector3d();
            moves[i] = body.moves();
            inverseMass[i] = body.inverseMassPerKg();
            inverseInertia[i] = body.inverseInertia(new Matrix3d());
            inverseInertiaNow[i] = new Matrix3d(inverseInertia[i]);
        }
        List<CollisionData.Contact> contacts = event.contacts();
        contactCount = contacts.size();
        bodyA = new int[contactCount];
        bodyB = new int[contactCount];
        rA = new Vector3d[contactCount];
        rB = new Vector3d[contactCount];
        collision = new ImpulseCollision[contactCount];
        playOrder = new int[contactCount];
        active = new boolean[contactCount];
        pairKeys = new String[contactCount];
        alpha = new double[contactCount];
        onsetStep = new int[contactCount];
        collisions = new int[contactCount];
        forceN = new double[contactCount][];
        forceCount = new int[contactCount];
        resting = new boolean[contactCount];
        restingNormalNs = new double[contactCount];
        restingTangent1Ns = new double[contactCount];
        restingTangent2Ns = new double[contactCount];
        restingFriction = new double[contactCount];
        restingMass = new double[3 * contactCount];
        double momentumScale = 0.0;
        for (CollisionData.Body body : bodies) {
            if (body.moves()) {
                momentumScale = Math.max(momentumScale, body.massKg() * Math.max(body.velocityBeforeMps().length(),
                    body.velocityAfterMps().length()));
            }
        }
        convergedNs = RESTING_CONVERGED * Math.max(momentumScale, 1e-12);
        tangent1 = new Vector3d[contactCount];
        tangent2 = new Vector3d[contactCount];
        for (int c = 0; c < contactCount; c++) {
            tangent1[c] = new Vector3d();
            tangent2[c] = new Vector3d();
            CollisionData.Contact contact = contacts.get(c);
            bodyA[c] = contact.a();
            bodyB[c] = contact.b();
            rA[c] = contact.pointM().sub(bodies.get(contact.a()).positionM(), new Vector3d());
            rB[c] = contact.pointM().sub(bodies.get(contact.b()).positionM(), new Vector3d());
            collision[c] = new ImpulseCollision();
            pairKeys[c] = CollisionData.Contact.pairKey(bodies.get(contact.a()).name(), bodies.get(contact.b()).name());
            if (contact.hasForceSamples()) {
                double lastS = (contact.forceN().length - 1) * contact.forceDtS();
                forceN[c] = new double[(int) Math.floor(lastS / dtS + 1e-9) + 1];
            }
        }
    }

    CollisionData.Event event() {
        return event;
    }

    /** Replays the event with these parameters; the results stay here until the next run. */
    void run(ImpulseParameters parameters) {
        ImpulseWaveformSettings waveform = parameters.waveform();
        for (int c = 0; c < contactCount; c++) {
            alpha[c] = parameters.correlationRatio(pairKeys[c]);
            active[c] = false;
            onsetStep[c] = -1;
            collisions[c] = 0;
            forceCount[c] = 0;
        }
        List<CollisionData.Body> bodies = event.bodies();
        for (int i = 0; i < bodyCount; i++) {
            velocity[i].set(bodies.get(i).velocityBeforeMps());
            angularVelocity[i].set(bodies.get(i).angularVelocityBeforeRadps());
            turn[i].identity();
        }
        settled = false;
        playCount = 0;
        for (int step = 0; step < maxSteps; step++) {
            java.util.Arrays.fill(held, false);
            for (int c = 0; c < contactCount; c++) {
                if (active[c]) {
                    held[bodyA[c]] |= moves[bodyA[c]];
                    held[bodyB[c]] |= moves[bodyB[c]];
                }
            }
            boolean any = false;
            for (int c = 0; c < contactCount; c++) {
                if (!active[c] && !held[bodyA[c]] && !held[bodyB[c]]) {
                    begin(c, parameters, waveform, step);
                }
                any |= active[c];
            }
            // What rests: contacts outside collisions whose bodies no collision holds, now counting this step's.
            for (int c = 0; c < contactCount; c++) {
                if (active[c]) {
                    held[bodyA[c]] |= moves[bodyA[c]];
                    held[bodyB[c]] |= moves[bodyB[c]];
                }
            }
            boolean approaching = false;
            for (int c = 0; c < contactCount; c++) {
                resting[c] = !active[c] && !held[bodyA[c]] && !held[bodyB[c]];
                if (resting[c]) {
                    approaching |= prepareResting(c, parameters) < -RESTING_SPEED_MPS;
                }
            }
            if (!any && !approaching) {
                settled = true;
                break;
            }
            turnFreely(true);
            // In the engine's order: its pool holds collisions in the order they began (a sample's size depends on
            // the velocities the samples before it in the step left, since the restitution's energy bound).
            for (int k = 0; k < playCount; k++) {
                int c = playOrder[k];
                int a = bodyA[c];
                int b = bodyB[c];
                collision[c].play(velocity[a], angularVelocity[a], velocity[b], angularVelocity[b], rB[c],
                    inverseInertiaNow[a], inverseInertiaNow[b]);
            }
            solveResting();
            for (int c = 0; c < contactCount; c++) {
                recordForce(c, step);
                if (active[c] && collision[c].done()) {
                    active[c] = false;
                }
            }
            int kept = 0;
            for (int k = 0; k < playCount; k++) {
                if (active[playOrder[k]]) {
                    playOrder[kept++] = playOrder[k];
                }
            }
            playCount = kept;
            turnFreely(false);
        }
    }

    /**
     * The engine's free rotation, in its order within a step: the gyroscopic step on {@code ω} (Euler's equation in
     * the body frame, where the inertia is constant) before the samples, the orientation update after them.
     */
    private void turnFreely(boolean gyroscopic) {
        for (int i = 0; i < bodyCount; i++) {
            if (!rotates[i]) {
                continue;
            }
            if (gyroscopic) {
                turn[i].transformInverse(angularVelocity[i], omegaBody);
                GyroscopicStep.implicitMidpoint(inertia[i], dtS, omegaBody);
                turn[i].transform(omegaBody, angularVelocity[i]);
                // R·I₀⁻¹·Rᵀ: the inverse inertia the samples of this step are applied with.
                turn[i].get(rotation);
                rotation.transpose(rotationTransposed);
                rotation.mul(inverseInertia[i], inverseInertiaNow[i]).mul(rotationTransposed, inverseInertiaNow[i]);
            } else {
                RigidBodyIntegrator.integrateOrientation(turn[i], angularVelocity[i], dtS);
            }
        }
    }

    private void begin(int c, ImpulseParameters parameters, ImpulseWaveformSettings waveform, int step) {
        int a = bodyA[c];
        int b = bodyB[c];
        // u = (v_A + ω_A × r_A) − (v_B + ω_B × r_B)
        angularVelocity[a].cross(rA[c], relative).add(velocity[a]);
        angularVelocity[b].cross(rB[c], scratch).add(velocity[b]);
        relative.sub(scratch);
        Vector3d normal = scratch.set(event.contacts().get(c).normal());
        if (-relative.dot(normal) <= thresholdMps) {
            return;
        }
        collision[c].bodyA(moves[a], inverseMass[a], inverseInertia[a], rA[c])
            .bodyB(moves[b], inverseMass[b], inverseInertia[b], rB[c])
            .begin(normal, relative, parameters.elasticity(), parameters.staticFriction(),
                parameters.dynamicFriction(), alpha[c], waveform, dtS);
        active[c] = true;
        playOrder[playCount++] = c;
        collisions[c]++;
        if (onsetStep[c] < 0) {
            onsetStep[c] = step;
        }
    }

    private static boolean isotropic(org.joml.Matrix3dc inertia) {
        double scale = Math.abs(inertia.m00()) + Math.abs(inertia.m11()) + Math.abs(inertia.m22());
        double tolerance = 1e-12 * scale;
        return Math.abs(inertia.m00() - inertia.m11()) <= tolerance && Math.abs(inertia.m11() - inertia.m22()) <= tolerance
            && Math.abs(inertia.m01()) <= tolerance && Math.abs(inertia.m02()) <= tolerance
            && Math.abs(inertia.m12()) <= tolerance;
    }

    /** Sets up contact {@code c}'s resting rows for this step; returns its normal relative velocity, m/s. */
    private double prepareResting(int c, ImpulseParameters parameters) {
        relativeVelocity(c, relative);
        Vector3d n = scratch.set(event.contacts().get(c).normal());
        double normalMps = relative.dot(n);
        Vector3d slip = relative.fma(-normalMps, n);
        double slipMps = slip.length();
        if (slipMps > 1e-9) {
            tangent1[c].set(slip).div(slipMps);
        } else {
            tangent1[c].set(Math.abs(n.x) < 0.577 ? 1 : 0, Math.abs(n.x) < 0.577 ? 0 : 1, 0).cross(n).normalize();
        }
        n.cross(tangent1[c], tangent2[c]);
        restingFriction[c] = slipMps <= frictionThresholdMps ? parameters.staticFriction()
            : parameters.dynamicFriction();
        restingMass[3 * c] = 1.0 / entry(c, n, n);
        restingMass[3 * c + 1] = 1.0 / entry(c, tangent1[c], tangent1[c]);
        restingMass[3 * c + 2] = 1.0 / entry(c, tangent2[c], tangent2[c]);
        restingNormalNs[c] = 0.0;
        restingTangent1Ns[c] = 0.0;
        restingTangent2Ns[c] = 0.0;
        return normalMps;
    }

    /**
     * The resting rows by projected Gauss–Seidel to convergence: the normal impulse drives the approach to zero
     * (inelastic, accumulated {@code >= 0}), the friction the slip, inside the Coulomb disc.
     */
    private void solveResting() {
        for (int sweep = 0; sweep < RESTING_SWEEPS; sweep++) {
            double change = 0.0;
            for (int c = 0; c < contactCount; c++) {
                if (!resting[c]) {
                    continue;
                }
                Vector3d n = event.contacts().get(c).normal().get(scratchB);
                relativeVelocity(c, relative);
                double before = restingNormalNs[c];
                restingNormalNs[c] = Math.max(0.0, before - relative.dot(n) * restingMass[3 * c]);
                double dn = restingNormalNs[c] - before;
                applyResting(c, impulse.set(n).mul(dn));
                relativeVelocity(c, relative);
                double limit = restingFriction[c] * restingNormalNs[c];
                double t1 = restingTangent1Ns[c] - relative.dot(tangent1[c]) * restingMass[3 * c + 1];
                double t2 = restingTangent2Ns[c] - relative.dot(tangent2[c]) * restingMass[3 * c + 2];
                double length = Math.sqrt(t1 * t1 + t2 * t2);
                if (length > limit) {
                    t1 *= limit / length;
                    t2 *= limit / length;
                }
                double d1 = t1 - restingTangent1Ns[c];
                double d2 = t2 - restingTangent2Ns[c];
                restingTangent1Ns[c] = t1;
                restingTangent2Ns[c] = t2;
                applyResting(c, impulse.set(tangent1[c]).mul(d1).fma(d2, tangent2[c]));
                change = Math.max(change, Math.abs(dn) + Math.abs(d1) + Math.abs(d2));
            }
            if (change < convergedNs) {
                return;
            }
        }
    }

    /** {@code u = (v_A + ω_A × r_A) − (v_B + ω_B × r_B)} of contact {@code c} into {@code dest}. */
    private Vector3d relativeVelocity(int c, Vector3d dest) {
        int a = bodyA[c];
        int b = bodyB[c];
        angularVelocity[a].cross(rA[c], dest).add(velocity[a]);
        angularVelocity[b].cross(rB[c], omegaBody).add(velocity[b]);
        return dest.sub(omegaBody);
    }

    /** {@code d_i·K·d_j} of contact {@code c} (the collision matrix of source 000 (3), corrected). */
    private double entry(int c, Vector3d di, Vector3d dj) {
        int a = bodyA[c];
        int b = bodyB[c];
        double value = (inverseMass[a] + inverseMass[b]) * di.dot(dj);
        Vector3d x = entryX;
        Vector3d y = entryY;
        value += rA[c].cross(di, x).dot(inverseInertia[a].transform(rA[c].cross(dj, y)));
        value += rB[c].cross(di, x).dot(inverseInertia[b].transform(rB[c].cross(dj, y)));
        return value;
    }

    /** An impulse on A at contact {@code c}, its opposite on B. */
    private void applyResting(int c, Vector3d impulseNs) {
        int a = bodyA[c];
        int b = bodyB[c];
        Vector3d x = entryX;
        if (moves[a]) {
            velocity[a].fma(inverseMass[a], impulseNs);
            angularVelocity[a].add(inverseInertia[a].transform(rA[c].cross(impulseNs, x)));
        }
        if (moves[b]) {
            velocity[b].fma(-inverseMass[b], impulseNs);
            angularVelocity[b].sub(inverseInertia[b].transform(rB[c].cross(impulseNs, x)));
        }
    }

    private void recordForce(int c, int step) {
        double[] samples = forceN[c];
        if (samples == null || onsetStep[c] < 0) {
            return;
        }
        int k = step - onsetStep[c];
        if (k < samples.length) {
            double sampleNs = active[c] ? collision[c].lastNormalSampleNs() : 0.0;
            samples[k] = (sampleNs + (resting[c] ? restingNormalNs[c] : 0.0)) / dtS;
            forceCount[c] = k + 1;
        }
    }

    // ---- Results of the last run -----------------------------------------------------------------------------

    Vector3d velocityAfter(int body) {
        return velocity[body];
    }

    Vector3d angularVelocityAfter(int body) {
        return angularVelocity[body];
    }

    /** Collisions contact {@code c} went through. */
    int collisions(int c) {
        return collisions[c];
    }

    /** Whether every collision ended within the time allowed. */
    boolean settled() {
        return settled;
    }

    /** The replayed normal force on a at time {@code tS} after the contact's first onset, N (0 outside). */
    double forceAt(int c, double tS) {
        if (forceN[c] == null || onsetStep[c] < 0) {
            return 0.0;
        }
        int k = (int) Math.floor(tS / dtS + 1e-9);
        return k >= 0 && k < forceCount[c] ? forceN[c][k] : 0.0;
    }

    String pairKey(int c) {
        return pairKeys[c];
    }
}
