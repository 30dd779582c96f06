package org.hapticsd.physics.dynamics.contact;

import java.util.Arrays;

import org.hapticsd.physics.ContactMode;
import org.hapticsd.physics.ContactSettings;
import org.hapticsd.physics.StepContext;
import org.hapticsd.physics.dynamics.ContactPoints;
import org.hapticsd.physics.dynamics.RigidBodies;
import org.joml.Matrix3d;
import org.joml.Vector3d;

/**
 * {@link ContactMode#LCP} contacts: the constraint method of source 003 solved by projected Gauss–Seidel in the
 * form of sequential impulses (Catto, "Iterative Dynamics with Temporal Coherence", GDC 2005), with Springhead's
 * contact model (users' manual §7.7, seed 002) choosing each row's target.
 *
 * <h2>From source 003 to impulses</h2>
 * Source 003 writes the contact-frame velocity after the step as {@code V_C[n+1] = b + A·F_C} with
 * {@code A = J·M⁻¹·Jᵀ·Δt} and {@code b = J·(V + M⁻¹·F_E·Δt)}, the velocity the contacts would see without
 * contact forces. Solving for the impulse {@code λ = F_C·Δt} instead of the force removes the {@code Δt}:
 * {@code V_C[n+1] = b + J·M⁻¹·Jᵀ·λ}. One Gauss–Seidel update of row {@code i} is then
 * {@code λ_i ← proj(λ_i − (v_i − target_i)/(J·M⁻¹·Jᵀ)_ii)}, with {@code v_i} the row's current velocity, and it
 * is applied to the bodies at once ({@code v += M⁻¹·J_iᵀ·Δλ_i}), so {@code b} is never formed: the velocities
 * are the iterate. The projection is the LCP's complementarity of source 003: {@code λ_n >= 0} (the normal force
 * only pushes) and the friction impulse within the Coulomb cone {@code |(λ_t1, λ_t2)| <= μ·λ_n}, taken with the
 * normal impulse of the same sweep. Rows are solved per point, normal first, then the two friction directions
 * jointly (both computed from the same velocity, then clamped to the cone as a 2-vector). Rejected: the friction
 * box {@code |λ_t1|, |λ_t2| <= μ·λ_n}, which lets friction reach {@code √2·μ·λ_n} diagonally and so depends on
 * how the tangent frame happens to turn.
 *
 * <h2>Sweep order</h2>
 * Sweeps alternate direction, forward over the points then backward (symmetric Gauss–Seidel). A sweep in one
 * fixed order carries load through a chain of contacts one contact per sweep against that order: in a stack listed
 * bottom-up, the top box's weight reaches the floor only after as many sweeps as there are boxes, the solve stops
 * short, and the error comes back every step. Measured on ten 10 cm boxes stacked with 2 mm offsets at
 * 20 iterations: the top box wandered 2 mm in 10 s with one-way sweeps (the residual stayed near 1e-4 N·s and
 * corners kept losing contact), and 0.06 mm with alternating sweeps (residual down to 1e-10 N·s). Normal-first
 * against friction-first made no measurable difference either way.
 *
 * <h2>Springhead's models as row targets</h2>
 * With {@code v^x} the normal relative velocity at the start of the step (negative approaching):
 * <ul>
 *   <li>{@code v^x < −V_th}: collision model (eq. 7.1), target {@code −e·v^x}, {@code e} the mean elasticity;</li>
 *   <li>otherwise: static contact model, target 0; its penetration decay (eq. 7.2) is done by
 *       {@link #relax} on pseudo-velocities rather than by a velocity bias, so that pushing bodies out
 *       of each other never turns into kinetic energy (Baumgarte's bias does: a box settling into the floor would
 *       hop, and a haptic tool would feel the correction as force);</li>
 *   <li>a point reported with negative depth (a gap within the narrowphase margin) is speculative: target
 *       {@code d/Δt}, the bodies may approach by the gap in this step but not more;</li>
 *   <li>friction bound {@code μ0} if the sliding speed at the start of the step is at most {@code V_f}, else
 *       {@code μ} (Springhead's static/dynamic switch), both means of the two materials.</li>
 * </ul>
 *
 * <h2>Warm start</h2>
 * The impulses of the last step for the same (body pair, feature id), or failing the id for the nearest point of
 * the pair with the same normal, matched by {@link ContactMatcher} and carried by this model, are applied before the first sweep. The friction
 * impulse is kept as a world vector and projected on this step's tangents, since the Springhead frame turns with
 * the sliding direction.
 *
 * <h2>Residual</h2>
 * {@link #lastResidualNs()}: the largest {@code |Δλ|} any row received in the final sweep (after projection), over
 * the points that sweep visited (see {@link #solveVelocities} for the ones it skips). With a tolerance of 0 every
 * point is visited, and zero means the iterate is a fixed point of projected Gauss–Seidel, which is exactly a
 * solution of the LCP.
 *
 * <p>Kinematic and static bodies enter with zero inverse mass and inertia: their velocities drive the relative
 * velocity (a haptic tool pushing a box) but no impulse changes them. Allocation-free once the row pool has grown
 * to the scene's largest contact set.
 */
public final class LcpContactModel implements ContactModel {

    /**
     * The velocity sweeps' budget never cuts a step below this many point visits: about 20 µs of sweeps on the
     * 2-core build machine (35–45 ns a visit), 2 % of a 1 kHz tick. Measured: with the budget alone, a sliding
     * block, a tool pushing a box and a box on a mesh floor (4 to 8 points) stopped short in their impact steps and
     * lost the exact symmetry of their answers by 1e-8 m; none of them comes near this floor at 20 sweeps.
     */
    static final int MIN_BUDGET_VISITS = 512;

    /**
     * Within a sweep after the first, the step's deadline ({@link StepContext#pastSweepDeadline()}) is read once
     * every this many point visits (a mask): about 5–10 µs of sweeping between reads, for a clock read of 20–30 ns.
     */
    private static final int DEADLINE_CHECK_MASK = 127;

    /** Below this sliding speed the sliding direction is rounding noise and a fixed tangent basis is used, m/s. */
    private static final double SLIDING_DIRECTION_MIN_MPS = 1e-9;

    private ContactConstraint[] rows = new ContactConstraint[0];
    private int rowCount;
    private double lastResidualNs;
    private double lastPositionResidualNs;
    private int lastVelocitySweeps;
    private int lastPositionSweeps;
    /** Per body: moved-at stamps, unmarked changes, pseudo-motion (see {@link #solveVelocities}); maybe shared. */
    private SweepMarks marks = new SweepMarks();
    /** Per row, flat copies for the sweeps' skip test: its bodies and the visit that last solved it. */
    private int[] rowBodyA = new int[0];
    private int[] rowBodyB = new int[0];
    private int[] rowSolvedAt = new int[0];
    /** Per row, its normal impulse, kept beside the row for {@link #largestNormalImpulse}'s scan each sweep. */
    private double[] rowNormalImpulse = new double[0];
    private int lastVelocityVisits;
    /** The velocity sweeps under way: visits so far, their budget, the tolerance of the skip test, why they stopped. */
    private int sweepVisits;
    private long sweepBudgetVisits;
    private double sweepThresholdNs;
    private boolean sweepBudgetReached;
    private boolean sweepDeadlineReached;
    /** The position sweeps under way: the residual of the last, whether one stopped at the deadline. */
    private double relaxResidualNs;
    private boolean relaxDeadlineReached;
    private boolean lastBudgetReached;
    private boolean lastDeadlineReached;

    /**
     * What the last step's points carry, by the last step's point slot: λ_n, and the friction impulse as a world
     * vector (x, y, z per slot), since the Springhead frame turns with the sliding direction.
     */
    private double[] carriedNormalNs = new double[0];
    private double[] carriedFrictionNs = new double[0];
    /** The same for this step's points, by this step's slot: the carried arrays of the next step. */
    private double[] nextNormalNs = new double[0];
    private double[] nextFrictionNs = new double[0];

    private final Vector3d relativeVelocityMps = new Vector3d();
    private final Vector3d scratch = new Vector3d();
    private final Vector3d frictionImpulseNs = new Vector3d();

    @Override
    public ContactMode mode() {
        return ContactMode.LCP;
    }

    /** Position as well as feature id: see {@link ContactMatcher} for why a stack needs it. */
    @Override
    public double matchRadiusM() {
        return ContactMatcher.WARM_START_RADIUS_M;
    }

    /** Number of LCP points in the current step. */
    public int rowCount() {
        return rowCount;
    }

    /** Largest {@code |Δλ|} of the final velocity sweep of the last step, N·s; 0 without LCP contacts. */
    public double lastResidualNs() {
        return lastResidualNs;
    }

    /** Largest {@code |Δλ|} of the final position-correction sweep of the last step, N·s. */
    public double lastPositionResidualNs() {
        return lastPositionResidualNs;
    }

    /** Velocity sweeps the last step ran (at most the configured iterations; fewer once converged). */
    public int lastVelocitySweeps() {
        return lastVelocitySweeps;
    }

    /** Point visits of the last step's velocity sweeps: every point in the first sweep, then those whose bodies moved. */
    public int lastVelocityVisits() {
        return lastVelocityVisits;
    }

    /**
     * Whether the last step's velocity sweeps stopped at {@link StepContext#lcpSweepBudget()} rather than at the
     * tolerance or the sweep limit.
     */
    public boolean lastBudgetReached() {
        return lastBudgetReached;
    }

    /**
     * Whether the last step's velocity or position sweeps stopped at the step's deadline
     * ({@link StepContext#pastSweepDeadline()}) before their tolerance, sweep limit or budget ended them.
     */
    public boolean lastDeadlineReached() {
        return lastDeadlineReached;
    }

    /** Position-correction sweeps the last step ran; 0 when no point needed correcting. */
    public int lastPositionSweeps() {
        return lastPositionSweeps;
    }

    @Override
    public void prepare(StepContext context, RigidBodies bodies, ContactPoints contacts, PointIndices mine,
                        int[] previous) {
        ContactSettings settings = context.settings();
        double impactThresholdMps = settings.impactThresholdMps();
        double frictionThresholdMps = settings.frictionThresholdMps();
        double inverseDt = context.inverseDtPerS();
        rowCount = 0;
        lastResidualNs = 0.0;
        lastPositionResidualNs = 0.0;
        lastVelocitySweeps = 0;
        lastVelocityVisits = 0;
        lastBudgetReached = false;
        lastDeadlineReached = false;
        lastPositionSweeps = 0;
        for (int k = 0; k < mine.count(); k++) {
            int i = mine.get(k);
            ContactConstraint c = nextRow();
            int a = contacts.bodyA[i];
            int b = contacts.bodyB[i];
            c.point = i;
            c.bodyA = a;
            c.bodyB = b;
            c.dynamicA = bodies.dynamic[a];
            c.dynamicB = bodies.dynamic[b];
            c.inverseMassA = bodies.inverseMassPerKg[a];
            c.inverseMassB = bodies.inverseMassPerKg[b];
            c.depthM = contacts.depthM[i];
            Vector3d n = c.n.set(contacts.normal[i]);

            Vector3d rA = contacts.leverArmAM[i];
            Vector3d rB = contacts.leverArmBM[i];

            // v^x and the sliding velocity at the start of the step, before gravity reaches the velocities.
            relativeVelocity(bodies, a, b, rA, rB, relativeVelocityMps);
            double vx = relativeVelocityMps.dot(n);
            contacts.normalSpeedMps[i] = -vx;
            Vector3d vt = relativeVelocityMps.fma(-vx, n);
            double slidingSpeedMps = vt.length();
            if (slidingSpeedMps > SLIDING_DIRECTION_MIN_MPS) {
                c.t1.set(vt).div(slidingSpeedMps);
            } else {
                anyPerpendicular(n, c.t1);
            }
            n.cross(c.t1, c.t2);

            Matrix3d iA = bodies.inverseInertiaWorld[a];
            Matrix3d iB = bodies.inverseInertiaWorld[b];
            c.normalMass = rowMass(c, rA, rB, n, iA, iB, c.rAxN, c.rBxN, c.iArAxN, c.iBrBxN);
            c.tangentMass1 = rowMass(c, rA, rB, c.t1, iA, iB, c.rAxT1, c.rBxT1, c.iArAxT1, c.iBrBxT1);
            c.tangentMass2 = rowMass(c, rA, rB, c.t2, iA, iB, c.rAxT2, c.rBxT2, c.iArAxT2, c.iBrBxT2);

            if (c.depthM < 0.0) {
                c.targetNormalSpeedMps = c.depthM * inverseDt;
            } else if (vx < -impactThresholdMps) {
                c.targetNormalSpeedMps = -contacts.elasticity[i] * vx;
            } else {
                c.targetNormalSpeedMps = 0.0;
            }
            c.friction = slidingSpeedMps <= frictionThresholdMps
                    ? contacts.staticFriction[i] : contacts.dynamicFriction[i];

            int last = previous[i];
            Vector3d frictionImpulse = frictionImpulseNs;
            if (last >= 0) {
                c.normalImpulse = carriedNormalNs[last];
                frictionImpulse.set(carriedFrictionNs[3 * last], carriedFrictionNs[3 * last + 1],
                        carriedFrictionNs[3 * last + 2]);
            } else {
                c.normalImpulse = 0.0;
                frictionImpulse.zero();
            }
            c.tangentImpulse1 = frictionImpulse.dot(c.t1);
            c.tangentImpulse2 = frictionImpulse.dot(c.t2);
        }
    }

    @Override
    public void warmStart(StepContext context, RigidBodies bodies) {
        for (int r = 0; r < rowCount; r++) {
            ContactConstraint c = rows[r];
            applyImpulse(bodies, c, c.normalImpulse, c.n, c.iArAxN, c.iBrBxN);
            applyImpulse(bodies, c, c.tangentImpulse1, c.t1, c.iArAxT1, c.iBrBxT1);
            applyImpulse(bodies, c, c.tangentImpulse2, c.t2, c.iArAxT2, c.iBrBxT2);
        }
    }

    /**
     * Up to {@link StepContext#lcpIterations()} sweeps, fewer when one changes no impulse by more than
     * {@link StepContext#lcpTolerance()} of the largest normal impulse: a warm-started resting contact set is solved
     * by its first sweep or two (measured on the 200-sphere pile: 97 % of steps stopped after one sweep at a relative
     * tolerance of 1e-5, with the same penetration as 20 sweeps), while an impact still gets every sweep it needs.
     *
     * <h2>Only the points whose bodies moved</h2>
     * After the first sweep, a point is visited again only if the impulses applied to one of its two bodies since the
     * start of its last visit add up to more than that tolerance, its own visit's included. A visit reads nothing but
     * the point's own impulses and its two bodies' velocities, so a point whose bodies have not moved would get a
     * change below the tolerance, which the early stop already counts as converged. Its own visit counts because the
     * friction rows, solved after the normal row, move the velocity that row was solved for: skipping such a point
     * left a box that landed on an edge with the warm-started impulse of one corner only, and pushed it sideways
     * and into a yaw (a tester: 0.04 m/s and 17° from a drop that is its own mirror image). Each body keeps the sum of the small changes it received since it was
     * last marked, and is marked when the sum passes the tolerance, so small changes cannot add up unseen. With a
     * tolerance of 0 every sweep visits every point (plain projected Gauss–Seidel, the reference the golden hashes
     * keep).
     *
     * <p>Measured on the sphere piles (3 s settled, 3000 steps): the steps that do not converge visit 8 full sweeps'
     * worth of points on average instead of 20, and at N = 200 the steps that reach 20 sweeps fall from 3.9 % to
     * 1.3 %, as rows that had converged stop being pushed around by round-off.
     *
     * <h2>The step's deadline</h2>
     * A step given a deadline ({@link StepContext#pastSweepDeadline()}: the real-time loop's, a share of its tick)
     * stops its sweeps there, after the first: what is left unsolved is carried by the warm start into the next step,
     * as when the budget ends them. A loaded machine then costs the contacts some convergence for a step instead of
     * costing the device its tick.
     */
    @Override
    public void solveVelocities(StepContext context, RigidBodies bodies) {
        int iterations = context.lcpIterations();
        double tolerance = context.lcpTolerance();
        // Tolerance 0 asks for plain projected Gauss–Seidel, every sweep over every point: nothing is skipped.
        boolean skipUnmoved = tolerance > 0.0;
        beginSweeps(context, true);
        sweepThresholdNs = tolerance * largestNormalImpulse();
        double residualNs = 0.0;
        int sweeps = 0;
        while (sweeps < iterations) {
            if (sweepVisits >= sweepBudgetVisits) {
                sweepBudgetReached = true;
                break;
            }
            // The first sweep always runs whole: every point gets its visit, whatever the clock says.
            if (sweeps > 0 && context.pastSweepDeadline()) {
                sweepDeadlineReached = true;
                break;
            }
            residualNs = sweep(context, bodies, (sweeps & 1) == 1, sweeps == 0 || !skipUnmoved, true, sweeps > 0,
                    sweepVisits);
            sweeps++;
            if (sweepBudgetReached || sweepDeadlineReached) {
                break;
            }
            sweepThresholdNs = tolerance * largestNormalImpulse();
            if (residualNs <= sweepThresholdNs) {
                break;
            }
        }
        endSweeps(sweeps, residualNs);
    }

    /**
     * Starts a step's velocity sweeps done one at a time ({@link #sweep}): the rows' flat copies are filled, their
     * bodies unmarked, the visit count and the budget's flags reset.
     *
     * @param unmarkEveryBody whether to unmark the static and kinematic bodies of the rows too (the one-lane step
     *     does, and its exact answers keep it); a lane whose marks are shared with another must leave those alone,
     *     since both lanes' rows touch them
     */
    public void beginSweeps(StepContext context, boolean unmarkEveryBody) {
        clearChangeMarks(unmarkEveryBody);
        sweepBudgetVisits = budgetVisits(context.lcpSweepBudget(), rowCount);
        sweepBudgetReached = false;
        sweepDeadlineReached = false;
        sweepVisits = 0;
    }

    /** Point visits of the velocity sweeps so far in this step. */
    public int sweepVisits() {
        return sweepVisits;
    }

    /**
     * Caps the visits of this step's velocity sweeps at {@code visits} in all (from {@link #beginSweeps}: the
     * budget of {@link #budgetVisits} for this model's rows). A split step shares one budget among its lanes.
     */
    public void sweepBudget(long visits) {
        sweepBudgetVisits = visits;
    }

    /** Whether {@link #sweep} stopped at the visit budget or at the step's deadline. */
    public boolean sweepStopped() {
        return sweepBudgetReached || sweepDeadlineReached;
    }

    /**
     * One velocity sweep over the rows, forward or backward, see {@link #solveVelocities}. A visit is stamped
     * {@code firstStamp + 1}, {@code + 2}, …: the visits so far in the step (its stamps only matter with
     * {@code markMoves}, for the skip test of a later sweep).
     *
     * @param visitAll       visit every row (the first sweep, or no tolerance)
     * @param markMoves      mark the bodies each visit moves, for the skip test of the sweeps that follow
     * @param checkDeadline  read the step's deadline every {@code 128} visits
     * @return the largest {@code |Δλ|} of the rows visited, N·s
     */
    public double sweep(StepContext context, RigidBodies bodies, boolean backward, boolean visitAll,
                        boolean markMoves, boolean checkDeadline, int firstStamp) {
        double thresholdNs = sweepThresholdNs;
        double residualNs = 0.0;
        int stamp = firstStamp;
        int visit = sweepVisits;
        for (int k = 0; k < rowCount; k++) {
            int r = backward ? rowCount - 1 - k : k;
            // The skip test reads flat arrays, not the row object: a sweep that visits a few points still scans
            // them all, and at N = 800 the scan through the objects cost a fifth of a budget-limited step.
            int solvedAt = rowSolvedAt[r];
            // Strictly before: a visit whose own change passed the tolerance is not converged, since the
            // point's friction rows, solved after its normal row, move the velocity that row was solved for.
            if (!visitAll && marks.changedAtVisit[rowBodyA[r]] < solvedAt
                    && marks.changedAtVisit[rowBodyB[r]] < solvedAt) {
                continue;
            }
            if (visit >= sweepBudgetVisits) {
                // The budget ends the sweep where it is; the residual so far is this partial sweep's.
                sweepBudgetReached = true;
                break;
            }
            if (checkDeadline && (visit & DEADLINE_CHECK_MASK) == 0 && context.pastSweepDeadline()) {
                // So does the deadline.
                sweepDeadlineReached = true;
                break;
            }
            ContactConstraint c = rows[r];
            double changeNs = solvePoint(c, bodies);
            rowNormalImpulse[r] = c.normalImpulse;
            visit++;
            stamp++;
            rowSolvedAt[r] = stamp;
            if (markMoves) {
                if (c.dynamicA) {
                    accumulateChange(c.bodyA, changeNs, thresholdNs, stamp);
                }
                if (c.dynamicB) {
                    accumulateChange(c.bodyB, changeNs, thresholdNs, stamp);
                }
            }
            residualNs = Math.max(residualNs, changeNs);
        }
        sweepVisits = visit;
        return residualNs;
    }

    /** Ends a step's velocity sweeps: what {@link #lastVelocitySweeps()} and the others report. */
    public void endSweeps(int sweeps, double residualNs) {
        lastVelocitySweeps = sweeps;
        lastResidualNs = residualNs;
        lastVelocityVisits = sweepVisits;
        lastBudgetReached = sweepBudgetReached;
        lastDeadlineReached = sweepDeadlineReached;
    }

    /**
     * The point visits the velocity sweeps of a step may make: {@code budget} full sweeps, but never fewer than
     * {@link #MIN_BUDGET_VISITS} (a scene of a few bodies keeps every sweep its tolerance asks for: the budget is
     * there for the tick, and such a scene's 20 sweeps cost microseconds) nor than one full sweep.
     */
    public static long budgetVisits(double budget, int points) {
        return Math.max(Math.max(points, MIN_BUDGET_VISITS), (long) Math.ceil(budget * points));
    }

    /**
     * Every body of a point starts the sweeps unmarked, with nothing accumulated; the rows' flat copies of their
     * bodies and warm-started normal impulses are filled.
     */
    private void clearChangeMarks(boolean unmarkEveryBody) {
        int[] changedAtVisit = marks.changedAtVisit;
        double[] unmarkedChangeNs = marks.unmarkedChangeNs;
        for (int r = 0; r < rowCount; r++) {
            ContactConstraint c = rows[r];
            rowBodyA[r] = c.bodyA;
            rowBodyB[r] = c.bodyB;
            rowSolvedAt[r] = 0;
            rowNormalImpulse[r] = c.normalImpulse;
            if (unmarkEveryBody || c.dynamicA) {
                changedAtVisit[c.bodyA] = 0;
                unmarkedChangeNs[c.bodyA] = 0.0;
            }
            if (unmarkEveryBody || c.dynamicB) {
                changedAtVisit[c.bodyB] = 0;
                unmarkedChangeNs[c.bodyB] = 0.0;
            }
        }
    }

    /** Adds a visit's change to the body's sum and marks the body as moved at that visit once the sum passes. */
    private void accumulateChange(int body, double changeNs, double thresholdNs, int visit) {
        double sumNs = marks.unmarkedChangeNs[body] + changeNs;
        if (sumNs > thresholdNs) {
            marks.changedAtVisit[body] = visit;
            marks.unmarkedChangeNs[body] = 0.0;
        } else {
            marks.unmarkedChangeNs[body] = sumNs;
        }
    }

    /** The largest normal impulse of the rows, N·s: what the sweeps' tolerance is relative to. */
    public double largestNormalImpulse() {
        double largest = 0.0;
        for (int r = 0; r < rowCount; r++) {
            largest = Math.max(largest, rowNormalImpulse[r]);
        }
        return largest;
    }

    /**
     * One Gauss–Seidel visit of a point: its normal row, then its two friction rows. The two bodies' velocities
     * are copied into locals, updated there and written back once (Box2D v3's body-state pattern), which halves
     * the time of a sweep against updating the shared vectors row by row.
     *
     * @return the largest {@code |Δλ|} of the three rows, N·s
     */
    private static double solvePoint(ContactConstraint c, RigidBodies bodies) {
        Vector3d linearA = bodies.linearVelocityMps[c.bodyA];
        Vector3d angularA = bodies.angularVelocityRadps[c.bodyA];
        Vector3d linearB = bodies.linearVelocityMps[c.bodyB];
        Vector3d angularB = bodies.angularVelocityRadps[c.bodyB];
        double vAx = linearA.x;
        double vAy = linearA.y;
        double vAz = linearA.z;
        double wAx = angularA.x;
        double wAy = angularA.y;
        double wAz = angularA.z;
        double vBx = linearB.x;
        double vBy = linearB.y;
        double vBz = linearB.z;
        double wBx = angularB.x;
        double wBy = angularB.y;
        double wBz = angularB.z;
        // Only dynamic bodies move: a zero factor keeps kinematic and static velocities exactly as they are.
        double mA = c.dynamicA ? c.inverseMassA : 0.0;
        double mB = c.dynamicB ? c.inverseMassB : 0.0;
        double sA = c.dynamicA ? 1.0 : 0.0;
        double sB = c.dynamicB ? 1.0 : 0.0;

        // Normal row: λ_n ← max(0, λ_n − m_n·(v_n − target)).
        Vector3d n = c.n;
        Vector3d rAxN = c.rAxN;
        Vector3d rBxN = c.rBxN;
        double vn = n.x * (vAx - vBx) + n.y * (vAy - vBy) + n.z * (vAz - vBz)
                + rAxN.x * wAx + rAxN.y * wAy + rAxN.z * wAz - (rBxN.x * wBx + rBxN.y * wBy + rBxN.z * wBz);
        double newNormal = Math.max(0.0, c.normalImpulse - c.normalMass * (vn - c.targetNormalSpeedMps));
        double dn = newNormal - c.normalImpulse;
        c.normalImpulse = newNormal;
        double pA = mA * dn;
        double pB = mB * dn;
        double qA = sA * dn;
        double qB = sB * dn;
        vAx += pA * n.x;
        vAy += pA * n.y;
        vAz += pA * n.z;
        wAx += qA * c.iArAxN.x;
        wAy += qA * c.iArAxN.y;
        wAz += qA * c.iArAxN.z;
        vBx -= pB * n.x;
        vBy -= pB * n.y;
        vBz -= pB * n.z;
        wBx -= qB * c.iBrBxN.x;
        wBy -= qB * c.iBrBxN.y;
        wBz -= qB * c.iBrBxN.z;

        // Friction rows, target 0, from the same velocity, then clamped jointly to the cone of radius μ·λ_n.
        Vector3d t1 = c.t1;
        Vector3d t2 = c.t2;
        double dvx = vAx - vBx;
        double dvy = vAy - vBy;
        double dvz = vAz - vBz;
        double vt1 = t1.x * dvx + t1.y * dvy + t1.z * dvz
                + c.rAxT1.x * wAx + c.rAxT1.y * wAy + c.rAxT1.z * wAz
                - (c.rBxT1.x * wBx + c.rBxT1.y * wBy + c.rBxT1.z * wBz);
        double vt2 = t2.x * dvx + t2.y * dvy + t2.z * dvz
                + c.rAxT2.x * wAx + c.rAxT2.y * wAy + c.rAxT2.z * wAz
                - (c.rBxT2.x * wBx + c.rBxT2.y * wBy + c.rBxT2.z * wBz);
        double new1 = c.tangentImpulse1 - c.tangentMass1 * vt1;
        double new2 = c.tangentImpulse2 - c.tangentMass2 * vt2;
        double limit = c.friction * newNormal;
        double magnitudeSquared = new1 * new1 + new2 * new2;
        // Compared squared: a sticking point (the common case at rest) needs no square root.
        if (magnitudeSquared > limit * limit) {
            double scale = limit / Math.sqrt(magnitudeSquared);
            new1 *= scale;
            new2 *= scale;
        }
        double d1 = new1 - c.tangentImpulse1;
        double d2 = new2 - c.tangentImpulse2;
        c.tangentImpulse1 = new1;
        c.tangentImpulse2 = new2;
        // P = d1·t1 + d2·t2 on A at r_A, −P on B at r_B.
        double px = d1 * t1.x + d2 * t2.x;
        double py = d1 * t1.y + d2 * t2.y;
        double pz = d1 * t1.z + d2 * t2.z;
        vAx += mA * px;
        vAy += mA * py;
        vAz += mA * pz;
        wAx += sA * (d1 * c.iArAxT1.x + d2 * c.iArAxT2.x);
        wAy += sA * (d1 * c.iArAxT1.y + d2 * c.iArAxT2.y);
        wAz += sA * (d1 * c.iArAxT1.z + d2 * c.iArAxT2.z);
        vBx -= mB * px;
        vBy -= mB * py;
        vBz -= mB * pz;
        wBx -= sB * (d1 * c.iBrBxT1.x + d2 * c.iBrBxT2.x);
        wBy -= sB * (d1 * c.iBrBxT1.y + d2 * c.iBrBxT2.y);
        wBz -= sB * (d1 * c.iBrBxT1.z + d2 * c.iBrBxT2.z);

        if (c.dynamicA) {
            linearA.set(vAx, vAy, vAz);
            angularA.set(wAx, wAy, wAz);
        }
        if (c.dynamicB) {
            linearB.set(vBx, vBy, vBz);
            angularB.set(wBx, wBy, wBz);
        }
        return Math.max(Math.abs(dn), Math.max(Math.abs(d1), Math.abs(d2)));
    }

    /**
     * Springhead's static contact model, eq. 7.2, {@code d' = d − γ·max(d − d_tol, 0)}, as a split impulse
     * (Catto's pseudo-velocities; Box2D v2.1's and Bullet's "split impulse"): the depth each point will have after
     * this step's motion is estimated as {@code d − Δt·v_n} from the solved normal velocity, each row asks for the
     * pseudo normal velocity {@code γ·max(d − Δt·v_n − d_tol, 0)/Δt}, Gauss–Seidel solves these rows with
     * {@code λ >= 0} on the bodies' pseudo-velocities, and the integrator then moves the bodies by
     * {@code Δt}·pseudo-velocity and forgets it. The rows reuse the normal Jacobian and effective mass of the step
     * (linearised at the start-of-step pose). Applied to every LCP point, collision model included, so a deep
     * impact with {@code e = 0} does not wait a step to be pushed out.
     *
     * <p>The sweeps stop early once one moves no point by more than {@link StepContext#lcpTolerance()} of the contact
     * tolerance: in a settled pile the points hover at the tolerance, their targets are picometres per step, and
     * all ten sweeps were spent pushing the whole pile by nothing (measured on the 200-sphere pile: 86 µs of the
     * step's 258 µs; with the stop, 8 µs, penetration unchanged).
     */
    @Override
    public void relax(StepContext context, RigidBodies bodies) {
        // With no positive target, λ = 0 solves every row (the pseudo-velocities start at 0): skip the sweeps.
        int iterations = beginRelax(context, bodies) ? context.positionIterations() : 0;
        if (iterations > 0) {
            markPseudoMoving(bodies);
        }
        // A sweep that moves no point by more than this ends the correction (see ContactSettings.lcpTolerance).
        double stopMoveM = context.lcpTolerance() * context.settings().contactToleranceM();
        double dt = context.dtS();
        int sweeps = 0;
        boolean deadlineReached = false;
        while (sweeps < iterations) {
            // As in the velocity sweeps: the first runs whole, later ones stop at the step's deadline.
            if (sweeps > 0 && context.pastSweepDeadline()) {
                deadlineReached = true;
                break;
            }
            double largestMoveMps = relaxSweep(context, bodies, (sweeps & 1) == 1, sweeps > 0);
            sweeps++;
            if (relaxDeadlineReached || largestMoveMps * dt <= stopMoveM) {
                break;
            }
        }
        endRelax(sweeps, deadlineReached);
    }

    /**
     * Starts the position correction done one sweep at a time ({@link #relaxSweep}): each row's pseudo target from
     * the solved velocity, its pseudo impulse zeroed.
     *
     * @return whether any row has a positive target (without one, no sweep would change anything)
     */
    public boolean beginRelax(StepContext context, RigidBodies bodies) {
        ContactSettings settings = context.settings();
        double dt = context.dtS();
        double inverseDt = context.inverseDtPerS();
        double rate = settings.errorCorrectionRate();
        double toleranceM = settings.contactToleranceM();
        for (int r = 0; r < rowCount; r++) {
            ContactConstraint c = rows[r];
            double vn = rowVelocity(c.n, c.rAxN, c.rBxN, bodies.linearVelocityMps[c.bodyA],
                    bodies.angularVelocityRadps[c.bodyA], bodies.linearVelocityMps[c.bodyB],
                    bodies.angularVelocityRadps[c.bodyB]);
            double depthAfterM = c.depthM - dt * vn;
            c.pseudoTargetMps = rate * Math.max(depthAfterM - toleranceM, 0.0) * inverseDt;
            c.pseudoImpulse = 0.0;
        }
        relaxResidualNs = 0.0;
        relaxDeadlineReached = false;
        return anyPseudoTarget();
    }

    /**
     * One position sweep, forward or backward.
     *
     * @return the largest pseudo-velocity change of a row's normal, m/s
     */
    public double relaxSweep(StepContext context, RigidBodies bodies, boolean backward, boolean checkDeadline) {
        double residualNs = 0.0;
        double largestMoveMps = 0.0;
        boolean[] pseudoMoving = marks.pseudoMoving;
        for (int k = 0; k < rowCount; k++) {
            if (checkDeadline && (k & DEADLINE_CHECK_MASK) == DEADLINE_CHECK_MASK && context.pastSweepDeadline()) {
                relaxDeadlineReached = true;
                break;
            }
            ContactConstraint c = rows[backward ? rowCount - 1 - k : k];
            // A row with no target, no impulse yet and both bodies still at rest in pseudo-velocity would get
            // λ = max(0, 0 − m·(0 − 0)) = 0 and change nothing: skipping it is exact, and in a resting pile
            // most rows are such until a correction spreads to them.
            if (c.pseudoImpulse == 0.0 && c.pseudoTargetMps == 0.0 && !pseudoMoving[c.bodyA]
                    && !pseudoMoving[c.bodyB]) {
                continue;
            }
            Vector3d vA = bodies.pseudoLinearVelocityMps[c.bodyA];
            Vector3d wA = bodies.pseudoAngularVelocityRadps[c.bodyA];
            Vector3d vB = bodies.pseudoLinearVelocityMps[c.bodyB];
            Vector3d wB = bodies.pseudoAngularVelocityRadps[c.bodyB];
            double vn = rowVelocity(c.n, c.rAxN, c.rBxN, vA, wA, vB, wB);
            double newImpulse = Math.max(0.0, c.pseudoImpulse - c.normalMass * (vn - c.pseudoTargetMps));
            double dImpulse = newImpulse - c.pseudoImpulse;
            c.pseudoImpulse = newImpulse;
            if (c.dynamicA) {
                vA.fma(c.inverseMassA * dImpulse, c.n);
                wA.fma(dImpulse, c.iArAxN);
                pseudoMoving[c.bodyA] |= dImpulse != 0.0;
            }
            if (c.dynamicB) {
                vB.fma(-c.inverseMassB * dImpulse, c.n);
                wB.fma(-dImpulse, c.iBrBxN);
                pseudoMoving[c.bodyB] |= dImpulse != 0.0;
            }
            residualNs = Math.max(residualNs, Math.abs(dImpulse));
            largestMoveMps = Math.max(largestMoveMps, Math.abs(dImpulse) / c.normalMass);
        }
        relaxResidualNs = residualNs;
        return largestMoveMps;
    }

    /** Whether the last {@link #relaxSweep} stopped at the step's deadline. */
    public boolean relaxStopped() {
        return relaxDeadlineReached;
    }

    /** Ends the position correction: what {@link #lastPositionSweeps()} and the others report. */
    public void endRelax(int sweeps, boolean deadlineReached) {
        lastPositionSweeps = sweeps;
        lastDeadlineReached |= deadlineReached || relaxDeadlineReached;
        lastPositionResidualNs = relaxResidualNs;
    }

    /** Which bodies start the sweeps with a pseudo-velocity (another solver may have given them one). */
    private void markPseudoMoving(RigidBodies bodies) {
        for (int body = 0; body < bodies.count; body++) {
            markPseudoMoving(bodies, body);
        }
    }

    /** {@link #markPseudoMoving(RigidBodies)} for the bodies {@code list[0 .. count − 1]}: a lane's own. */
    public void markPseudoMoving(RigidBodies bodies, int[] list, int count) {
        for (int k = 0; k < count; k++) {
            markPseudoMoving(bodies, list[k]);
        }
    }

    private void markPseudoMoving(RigidBodies bodies, int body) {
        Vector3d v = bodies.pseudoLinearVelocityMps[body];
        Vector3d w = bodies.pseudoAngularVelocityRadps[body];
        marks.pseudoMoving[body] = v.x != 0.0 || v.y != 0.0 || v.z != 0.0 || w.x != 0.0 || w.y != 0.0 || w.z != 0.0;
    }

    /** Shares per-body marks with other models (the lanes of a split step); the default is this model's own. */
    public void shareMarks(SweepMarks shared) {
        marks = shared;
    }

    private boolean anyPseudoTarget() {
        for (int r = 0; r < rowCount; r++) {
            if (rows[r].pseudoTargetMps > 0.0) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void store(StepContext context, ContactPoints contacts) {
        double inverseDt = context.inverseDtPerS();
        for (int r = 0; r < rowCount; r++) {
            ContactConstraint c = rows[r];
            int i = c.point;
            Vector3d frictionImpulse = frictionImpulseNs.set(c.t1).mul(c.tangentImpulse1).fma(c.tangentImpulse2, c.t2);
            nextNormalNs[i] = c.normalImpulse;
            nextFrictionNs[3 * i] = frictionImpulse.x;
            nextFrictionNs[3 * i + 1] = frictionImpulse.y;
            nextFrictionNs[3 * i + 2] = frictionImpulse.z;
            // The mean force over the step that delivers the impulse: F = λ/Δt.
            contacts.normalForceN[i] = c.normalImpulse * inverseDt;
            contacts.frictionForceN[i].set(frictionImpulse).mul(inverseDt);
        }
        // This step's impulses are the next step's carried ones; the old carried arrays take the step after.
        double[] normal = carriedNormalNs;
        carriedNormalNs = nextNormalNs;
        nextNormalNs = normal;
        double[] friction = carriedFrictionNs;
        carriedFrictionNs = nextFrictionNs;
        nextFrictionNs = friction;
    }

    @Override
    public void reserve(int points, int bodies) {
        reserveRows(points);
        marks.reserve(bodies);
        if (points > carriedNormalNs.length) {
            // The carried impulses stay: bodies are only ever appended, so the slots the matcher keeps still mean
            // the same points.
            carriedNormalNs = Arrays.copyOf(carriedNormalNs, points);
            carriedFrictionNs = Arrays.copyOf(carriedFrictionNs, 3 * points);
            nextNormalNs = Arrays.copyOf(nextNormalNs, points);
            nextFrictionNs = Arrays.copyOf(nextFrictionNs, 3 * points);
        }
    }

    /** Makes room for {@code points} LCP rows without growing during a step. Allocates. */
    private void reserveRows(int points) {
        if (points > rows.length) {
            int oldLength = rows.length;
            rows = Arrays.copyOf(rows, points);
            rowBodyA = Arrays.copyOf(rowBodyA, points);
            rowBodyB = Arrays.copyOf(rowBodyB, points);
            rowSolvedAt = Arrays.copyOf(rowSolvedAt, points);
            rowNormalImpulse = Arrays.copyOf(rowNormalImpulse, points);
            for (int i = oldLength; i < points; i++) {
                rows[i] = new ContactConstraint();
            }
        }
    }

    // ---- Rows ------------------------------------------------------------------------------------------------

    private ContactConstraint nextRow() {
        if (rowCount == rows.length) {
            reserveRows(Math.max(16, 2 * rows.length));
        }
        return rows[rowCount++];
    }

    /**
     * Fills the angular Jacobian terms of direction {@code d} and returns {@code 1/(J·M⁻¹·Jᵀ)} of that row. At
     * least one body is dynamic (the world never gives this solver a pair without one), so the sum is positive.
     */
    private static double rowMass(ContactConstraint c, Vector3d rA, Vector3d rB, Vector3d d, Matrix3d iA,
                                  Matrix3d iB, Vector3d rAxD, Vector3d rBxD, Vector3d iArAxD, Vector3d iBrBxD) {
        rA.cross(d, rAxD);
        rB.cross(d, rBxD);
        iA.transform(rAxD, iArAxD);
        iB.transform(rBxD, iBrBxD);
        double k = c.inverseMassA + c.inverseMassB + rAxD.dot(iArAxD) + rBxD.dot(iBrBxD);
        return 1.0 / k;
    }

    /** {@code d·(v_A − v_B) + (r_A × d)·ω_A − (r_B × d)·ω_B}: the row's relative velocity. */
    private static double rowVelocity(Vector3d d, Vector3d rAxD, Vector3d rBxD, Vector3d vA, Vector3d wA,
                                      Vector3d vB, Vector3d wB) {
        return d.x * (vA.x - vB.x) + d.y * (vA.y - vB.y) + d.z * (vA.z - vB.z)
                + rAxD.x * wA.x + rAxD.y * wA.y + rAxD.z * wA.z
                - (rBxD.x * wB.x + rBxD.y * wB.y + rBxD.z * wB.z);
    }

    /** {@code v += M⁻¹·J_dᵀ·λ}: A gets {@code +λ·d} at {@code r_A}, B the opposite; only dynamic bodies move. */
    private static void applyImpulse(RigidBodies bodies, ContactConstraint c, double impulse, Vector3d d,
                                     Vector3d iArAxD, Vector3d iBrBxD) {
        if (c.dynamicA) {
            bodies.linearVelocityMps[c.bodyA].fma(c.inverseMassA * impulse, d);
            bodies.angularVelocityRadps[c.bodyA].fma(impulse, iArAxD);
        }
        if (c.dynamicB) {
            bodies.linearVelocityMps[c.bodyB].fma(-c.inverseMassB * impulse, d);
            bodies.angularVelocityRadps[c.bodyB].fma(-impulse, iBrBxD);
        }
    }

    /** {@code (v_A + ω_A × r_A) − (v_B + ω_B × r_B)} into {@code dest}. */
    private void relativeVelocity(RigidBodies bodies, int a, int b, Vector3d rA, Vector3d rB, Vector3d dest) {
        bodies.angularVelocityRadps[a].cross(rA, dest).add(bodies.linearVelocityMps[a]);
        bodies.angularVelocityRadps[b].cross(rB, scratch).add(bodies.linearVelocityMps[b]);
        dest.sub(scratch);
    }

    /**
     * A unit vector perpendicular to the unit {@code n}, chosen from n alone so that it is deterministic: cross n
     * with the world axis it is least aligned with (Erin Catto, "Computing a Basis", 2014, the branch form).
     */
    static Vector3d anyPerpendicular(Vector3d n, Vector3d dest) {
        if (Math.abs(n.x) >= 0.57735026918962576) {
            dest.set(n.y, -n.x, 0.0);
        } else {
            dest.set(0.0, n.z, -n.y);
        }
        return dest.normalize();
    }
}
