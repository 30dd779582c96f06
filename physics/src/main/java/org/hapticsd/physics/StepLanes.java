package org.hapticsd.physics;

import java.lang.ref.WeakReference;
import java.util.Arrays;
import java.util.concurrent.locks.LockSupport;

import org.hapticsd.physics.collision.ContactManifold;
import org.hapticsd.physics.dynamics.RigidBodies;
import org.hapticsd.physics.dynamics.RigidBodyIntegrator;
import org.hapticsd.physics.dynamics.contact.ContactModel;
import org.hapticsd.physics.dynamics.contact.ContactOnsets;
import org.hapticsd.physics.dynamics.contact.LcpContactModel;
import org.hapticsd.physics.dynamics.contact.SweepMarks;
import org.hapticsd.physics.geometry.Aabb;
import org.joml.Matrix3d;
import org.joml.Vector3d;

/**
 * One step on two threads ("lanes"), split by region: the world's dynamic bodies are cut by a plane into two
 * halves, each lane owns one half's bodies and the contact pairs within it (with the static and kinematic bodies
 * they touch), and the pairs across the cut form a third group that the calling lane (lane 0) solves between the
 * two halves' sweeps: block Gauss–Seidel. Each lane keeps its own point pool, warm-start memory and rows, so the
 * halves share no cache lines but the boundary's; see docs/region-split-plan.md for the reading of the step this
 * follows and the measurements behind it.
 *
 * <h2>What changes against one lane</h2>
 * The answer is deterministic (the same scene gives the same bits on every run and machine) but not the one-lane step's
 * bits: the rows are visited in another order, and a sum over a body's points comes in another order. Each sweep visits
 * the lane-0 and lane-1 rows (in parallel, their bodies are disjoint), then the boundary rows; the backward sweep
 * mirrors it. Every row is visited in every sweep (see {@link #solveVelocities}); the position sweeps share the
 * per-body pseudo-motion marks. {@link PhysicsWorld#contact(int)} lists lane 0's points, then lane 1's, then the
 * boundary's, each by pair.
 *
 * <h2>What falls back to one lane</h2>
 * A step with a sweep deadline or that may be dropped (the real-time loop's), deformable bodies, held bodies,
 * sleeping on, a narrowphase other than the default, fewer than {@link #MIN_DYNAMIC_BODIES} dynamic bodies; for that
 * step only, more points than the budget or a broadphase that dropped a pair (so that the budget's rules for what to
 * drop stay exact), and a body that crossed the cut's band (see {@link #tree0}; the next step cuts again).
 * Switching between one lane and two forgets the warm start once, and so does a pair that changes group at a cut.
 *
 * <h2>Threads</h2>
 * Lane 1 is a daemon thread that spins between the phases of a step, yields between steps and parks when no step
 * comes for a while ({@link Handshake}). It holds its lanes weakly, so a world that is dropped (without
 * {@code setStepLanes(1)}, which ends it at once) takes its thread with it within about a second of a collection.
 */
final class StepLanes {

    /** Below this many dynamic bodies a step stays on one lane: the handshakes would cost more than they give. */
    static final int MIN_DYNAMIC_BODIES = 64;
    /** Steps between two cuts of the bodies (a scene change cuts at once). */
    private static final int STEPS_PER_CUT = 500;
    /**
     * Lane 0's share of the dynamic bodies. It also runs the boundary, lane 1 its own tree over its bodies and the
     * shared ones: measured on {@code pile-800} (best of three runs of 2,000 steps after 10,000), 0.5 / 0.55 / 0.6
     * gave 432 / 440 / 485 µs a step; 0.45 was no better (+13 µs, steps alternating between the two in one run).
     */
    private static final double LANE_0_SHARE = 0.5;
    /**
     * How far past the farthest lane-0 body lane 0's band of lane-1 bodies reaches, in the largest body extent along
     * the cut's axis. A wider band costs lane 0's broadphase (with two extents its tree held 649 bodies to lane 1's
     * 405 on {@code pile-800}, and lane 1 waited for it); a narrower one gives up a step to one lane, and cuts again,
     * as soon as a body moves that far toward the cut. Measured with steps alternating between 2.0 and 0.5 in blocks
     * of 200 within one run (the paired median of the blocks): 0.5 saves 16 µs of 550 on {@code pile-800}, 5.4 of
     * 190 on {@code pile-400}, 2.4 of 89 on {@code pile-200}; 0 would save 5 µs more on {@code pile-800} but leaves
     * no room for a settled pile's jitter.
     */
    private static final double BAND_EXTENTS = 0.5;

    private static final int FRONT = 1;
    /** The group of a pair across the cut, of a tool, or of a mode other than LCP. */
    private static final int BOUNDARY = 2;
    private static final int VELOCITY_SWEEP = 4;
    private static final int POSITIONS = 5;
    private static final int POSITION_SWEEP = 6;
    private static final int FINISH = 7;

    private final PhysicsWorld world;
    private final Handshake handshake = new Handshake();
    private final Thread helper;

    /** Lane 0's pairs, lane 1's, and the boundary's (and every pair not LCP), each in pair order. */
    private final ContactGroup lane0;
    private final ContactGroup lane1;
    private final ContactGroup boundary;
    private final SweepMarks marks = new SweepMarks();

    /** Per body: its lane (0, 1) at the last cut, or -1 for a body that was not dynamic then. */
    private int[] laneOf = new int[0];
    /** Per body: not dynamic at the last cut, so both lanes' points may touch it (summed apart, then added). */
    private boolean[] shared = new boolean[0];
    /** Lane 0's bodies: its dynamic ones, then every body not dynamic at the cut; lane 1's dynamic ones. */
    private int[] lane0Bodies = new int[0];
    private int lane0Count;
    private int[] lane1Bodies = new int[0];
    private int lane1Count;
    private int[] sharedBodies = new int[0];
    private int sharedCount;
    private double[] cutScratch = new double[0];
    private int stepsSinceCut;
    private boolean cutStale = true;
    /** Whether the last step the world took was split: otherwise the groups' warm-start memory is stale. */
    private boolean lastStepSplit;
    private int stepSerial;

    // Lane 1's own scratch: nothing of it is touched by lane 0 during a step.
    private final Matrix3d rotation1 = new Matrix3d();
    private final Matrix3d rotationTransposed1 = new Matrix3d();
    private final Vector3d centre1 = new Vector3d();
    private final Vector3d velocityA1 = new Vector3d();
    private final Vector3d velocityB1 = new Vector3d();
    private final Vector3d force1 = new Vector3d();
    private final Vector3d torque1 = new Vector3d();
    private final RigidBodyIntegrator integrator1 = new RigidBodyIntegrator();
    private final ShapePairTest narrowphase1 = new MeshAwarePairTest();
    private final ContactManifold manifold1 = new ContactManifold();
    private final int[] importance1 = new int[PhysicsWorld.IMPORTANCE_BINS];
    /** Lane 1's broadphase: its bodies and the shared ones but the tools. */
    private final LaneTree tree1;
    private int lane1Dropped;
    /**
     * Lane 0's broadphase: its bodies, the shared ones (tools too) and the "band", lane 1's bodies that were near
     * the cut when it was made: every pair across the cut has a band body as long as no lane-0 body reaches as far
     * as a lane-1 body outside the band (checked every step).
     */
    private final LaneTree tree0;
    /** Per body: a lane-1 body in lane 0's tree (see {@link #tree0}). */
    private boolean[] inBand = new boolean[0];
    /** The cut's axis: 0 for x, 1 for y (an index into a body's bounds). */
    private int cutAxis;
    /** This step: the farthest lane 0's dynamic bodies reach across the cut, the nearest lane 1's outside the band. */
    private double lane0Reach;
    private double lane1Reach;
    private Vector3d[] elsewhereForce1 = new Vector3d[0];
    private Vector3d[] elsewhereTorque1 = new Vector3d[0];
    private final Matrix3d rotation0 = new Matrix3d();
    private final Matrix3d rotationTransposed0 = new Matrix3d();
    private final Vector3d centre0 = new Vector3d();
    private final int[] importance0 = new int[PhysicsWorld.IMPORTANCE_BINS];

    // What lane 0 asks of a phase, and what lane 1 answers (published by the handshake's volatile fields).
    private boolean sweepBackward;
    private long laneBudgetVisits;
    /** Whether the last split step's velocity sweeps stopped at the shared budget. */
    private boolean budgetReached;
    private double laneResidualNs;
    private double laneLargestNs;
    private double laneMoveMps;
    private boolean laneStopped;
    private boolean laneAnyTarget;
    private boolean laneFinite;
    private int base1;

    StepLanes(PhysicsWorld world, ContactGroup main) {
        this.world = world;
        lane0 = new ContactGroup(main);
        lane1 = new ContactGroup(main);
        boundary = new ContactGroup(main);
        lane0.lcp.shareMarks(marks);
        lane1.lcp.shareMarks(marks);
        boundary.lcp.shareMarks(marks);
        tree0 = new LaneTree(world);
        tree1 = new LaneTree(world);
        helper = new Thread(new Lane1(handshake, new WeakReference<>(this)), "physics-lane-1");
        helper.setDaemon(true);
        helper.start();
    }

    /** Stops lane 1's thread; the world steps on one lane from here on. */
    void close() {
        handshake.post(Handshake.STOP);
    }

    /** Sizes every lane's buffers as the world's (the contact budget's points and pairs). Allocates. */
    void reserve(int maxPoints, int maxPairs, int bodyCapacity) {
        for (ContactGroup g : new ContactGroup[] {lane0, lane1, boundary}) {
            g.reservePoints(maxPoints, maxPairs);
            g.lcp.reserve(maxPoints, bodyCapacity);
        }
        marks.reserve(bodyCapacity);
        tree0.candidates.allocate(maxPairs);
        tree1.candidates.allocate(maxPairs);
        if (laneOf.length < bodyCapacity) {
            tree0.reserve(bodyCapacity);
            tree1.reserve(bodyCapacity);
            inBand = new boolean[bodyCapacity];
            laneOf = new int[bodyCapacity];
            shared = new boolean[bodyCapacity];
            lane0Bodies = new int[bodyCapacity];
            lane1Bodies = new int[bodyCapacity];
            sharedBodies = new int[bodyCapacity];
            cutScratch = new double[bodyCapacity];
            int old = elsewhereForce1.length;
            elsewhereForce1 = Arrays.copyOf(elsewhereForce1, bodyCapacity);
            elsewhereTorque1 = Arrays.copyOf(elsewhereTorque1, bodyCapacity);
            for (int b = old; b < bodyCapacity; b++) {
                elsewhereForce1[b] = new Vector3d();
                elsewhereTorque1[b] = new Vector3d();
            }
        }
        for (int b = 0; b < world.bodies.count; b++) {
            narrowphase1.prepare(world.shapes[b]);
        }
        cutStale = true;
        lastStepSplit = false;
    }

    /** The world stepped on one lane: the lanes' warm-start memory no longer follows the bodies. */
    void steppedOnOneLane() {
        lastStepSplit = false;
    }

    /** Whether the last step ran split. */
    boolean lastStepSplit() {
        return lastStepSplit;
    }

    /** Cuts the bodies again before the next step (one was taken out). */
    void cutAgain() {
        cutStale = true;
    }

    /**
     * Runs one step on both lanes, or nothing and returns false when the step must run on one lane (more points
     * than the budget: nothing has changed yet then).
     */
    boolean step(double dtS) {
        try {
            return split(dtS);
        } catch (RuntimeException | Error e) {
            // Lane 0 failed mid-step: let lane 1 end its phase (at its go, if it waits there) before it is told more.
            handshake.flag(Handshake.GO, -stepSerial);
            handshake.await();
            throw e;
        }
    }

    private boolean split(double dtS) {
        PhysicsWorld w = world;
        RigidBodies bodies = w.bodies;
        StepContext context = w.context;
        if (!lastStepSplit) {
            lane0.matcher.forget();
            lane1.matcher.forget();
            boundary.matcher.forget();
        }
        if (cutStale || ++stepsSinceCut >= STEPS_PER_CUT) {
            cut(bodies);
        }
        long stepStartNs = w.nanoTime();
        long stageStartNs = stepStartNs;
        stepSerial++;

        // BROADPHASE: each lane refreshes its bodies' poses and bounds. Lane 1 then finds its own pairs in its own
        // tree and goes on to their contacts and rows; lane 0 finds every pair in the world's tree (it needs lane 1's
        // bounds for that) and keeps the boundary's and its own.
        handshake.post(FRONT);
        for (int k = 0; k < lane0Count; k++) {
            w.refreshMovingBody(lane0Bodies[k], rotation0, rotationTransposed0, centre0);
        }
        double reach = Double.NEGATIVE_INFINITY;
        double[] worldBounds = w.boundsM;
        for (int k = 0; k < lane0Count; k++) {
            int body = lane0Bodies[k];
            if (laneOf[body] == 0) {
                reach = Math.max(reach, worldBounds[body * Aabb.STRIDE + 3 + cutAxis]);
            }
        }
        lane0Reach = reach;
        handshake.awaitFlag(Handshake.REFRESHED, stepSerial);
        rethrowIfLane1Ended();
        if (!(lane0Reach < lane1Reach)) {
            // A lane-0 body reaches as far as a lane-1 body outside the band: lane 0's tree could miss their pair.
            // This step runs on one lane, the next cuts again.
            cutStale = true;
            handshake.flag(Handshake.GO, -stepSerial);
            awaitLane1();
            lastStepSplit = false;
            return false;
        }
        tree0.findPairs(worldBounds);
        // Lane 1's pairs found here (two band bodies, or one with a shared body) are left to its own tree.
        deal(bodies, tree0.candidates, tree0.local, lane0, null, boundary);
        stageStartNs = w.endStage(StepStage.BROADPHASE, stageStartNs);

        // NARROWPHASE: lane 0 the boundary's pairs and its own, and their onsets.
        Arrays.fill(importance0, 0);
        boundary.found = w.collectContacts(boundary, boundary.pairA, boundary.pairB, boundary.pairMode, null,
                boundary.pairCount, w.narrowphase, w.manifold, -1, 0, importance0, w.pointCapacity);
        boundary.findOnsets(bodies, boundary.onsets, w.velocityAMps, w.velocityBMps);
        lane0.found = w.collectContacts(lane0, lane0.pairA, lane0.pairB, lane0.pairMode, null, lane0.pairCount,
                w.narrowphase, w.manifold, -1, 0, importance0, w.pointCapacity);
        lane0.findOnsets(bodies, lane0.onsets, w.velocityAMps, w.velocityBMps);
        handshake.awaitFlag(Handshake.COLLECTED, stepSerial);
        rethrowIfLane1Ended();
        if (lane0.found + lane1.found + boundary.found > w.pointCapacity || tree0.candidates.dropped > 0
                || lane1Dropped > 0) {
            // The budget's rule (the most important points, then pair order) needs the whole list: one lane.
            // Nothing has changed yet: lane 1 stops before its forces.
            handshake.flag(Handshake.GO, -stepSerial);
            awaitLane1();
            lastStepSplit = false;
            return false;
        }
        stageStartNs = w.endStage(StepStage.NARROWPHASE, stageStartNs);
        stageStartNs = w.endStage(StepStage.DEFORMABLE_CONTACTS, stageStartNs);

        // PREPARE_CONTACTS to WARM_START: the boundary's rows first (they read both lanes' start-of-step velocities,
        // and its penalty points add forces to lane 1's bodies), then lane 1 may apply its forces; each lane its own
        // rows, forces and warm start; the boundary's warm start after both.
        boundary.prepare(context, bodies);
        handshake.flag(Handshake.GO, stepSerial);
        lane0.lcp.prepare(context, bodies, lane0.points, lane0.byMode[ContactMode.LCP.ordinal()], lane0.previous);
        stageStartNs = w.endStage(StepStage.PREPARE_CONTACTS, stageStartNs);
        w.integrator.applyForces(context, bodies, lane0Bodies, lane0Count);
        stageStartNs = w.endStage(StepStage.INTEGRATE_VELOCITIES, stageStartNs);
        lane0.lcp.warmStart(context, bodies);
        awaitLane1();
        for (ContactModel model : boundary.models) {
            model.warmStart(context, bodies);
        }
        stageStartNs = w.endStage(StepStage.WARM_START, stageStartNs);

        // SOLVE: block Gauss–Seidel, the lanes in parallel then the boundary, mirrored on the way back.
        solveVelocities(context, bodies);
        for (ContactModel model : boundary.models) {
            if (model != boundary.lcp) {
                model.solveVelocities(context, bodies);
            }
        }
        stageStartNs = w.endStage(StepStage.SOLVE, stageStartNs);

        // INTEGRATE and CORRECT_POSITIONS.
        handshake.post(POSITIONS);
        w.integrator.integratePositions(context, bodies, lane0Bodies, lane0Count);
        stageStartNs = w.endStage(StepStage.INTEGRATE, stageStartNs);
        stageStartNs = w.endStage(StepStage.DEFORMABLE_INTEGRATE, stageStartNs);
        w.integrator.clearPseudoVelocities(bodies, lane0Bodies, lane0Count);
        lane0.lcp.markPseudoMoving(bodies, lane0Bodies, lane0Count);
        boolean anyTarget = lane0.lcp.beginRelax(context, bodies);
        awaitLane1();
        anyTarget |= boundary.lcp.beginRelax(context, bodies) | laneAnyTarget;
        relax(context, bodies, anyTarget);
        for (ContactModel model : boundary.models) {
            if (model != boundary.lcp) {
                model.relax(context, bodies);
            }
        }
        stageStartNs = w.endStage(StepStage.CORRECT_POSITIONS, stageStartNs);
        for (ContactModel model : boundary.models) {
            model.restitution(context, bodies);
        }
        stageStartNs = w.endStage(StepStage.RESTITUTION, stageStartNs);

        // STORE_IMPULSES: each lane its own, the boundary's after both (it sums onto lane 1's bodies too).
        base1 = lane0.points.count;
        handshake.post(FINISH);
        w.integrator.applyPseudoVelocities(context, bodies, lane0Bodies, lane0Count);
        lane0.lcp.store(context, lane0.points);
        lane0.matcher.record(lane0.points);
        boundary.store(context);
        ContactReport report = w.report;
        report.zero(lane0Bodies, lane0Count);
        report.add(lane0.points, 0, w.spheres, null, null, null);
        boolean finite = w.statesFinite(lane0Bodies, lane0Count);
        awaitLane1();
        int boundaryBase = base1 + lane1.points.count;
        report.add(boundary.points, boundaryBase, w.spheres, null, null, null);
        for (int k = 0; k < sharedCount; k++) {
            int body = sharedBodies[k];
            report.addWrench(body, elsewhereForce1[body], elsewhereTorque1[body]);
        }
        report.viewCount(boundaryBase + boundary.points.count);
        mergeOnsets(w.onsets);
        w.lanesFinite = finite && laneFinite;
        w.endStage(StepStage.STORE_IMPULSES, stageStartNs);
        lastStepSplit = true;
        return true;
    }

    /**
     * The velocity sweeps of {@link LcpContactModel#solveVelocities} over the three groups, block by block: every
     * row in every sweep, with the one-lane step's early stop (no row changed by more than the tolerance of the
     * largest normal impulse) and one visit budget for all the rows. Not its skip test (a row whose bodies did not
     * move is not visited again): measured on {@code pile-800} with the test working across the lanes by stamps per
     * phase, 91 % of the steps from 3 s needed position sweeps (none on one lane, none without the skip) and the
     * mean penetration was 0.067 mm against one lane's 0.047. Skipping on the lanes' rows only, the boundary's all
     * visited, still needed them in 99 % of the steps from 10 s. The cause was not found (docs/performance.md,
     * "Thirty-sixth session"). Nor would the skip save work here: settled, these sweeps end after 1.45 a step, about
     * the visits one lane's skip leaves (1.42 full sweeps), and with the skip they ran 2.95 ("Thirty-seventh").
     */
    private void solveVelocities(StepContext context, RigidBodies bodies) {
        int iterations = context.lcpIterations();
        double tolerance = context.lcpTolerance();
        lane0.lcp.beginSweeps(context, false);
        boundary.lcp.beginSweeps(context, false);
        // Lane 1 began its sweeps at the end of its front phase and answered its largest normal impulse.
        double thresholdNs = tolerance * Math.max(laneLargestNs,
                Math.max(lane0.lcp.largestNormalImpulse(), boundary.lcp.largestNormalImpulse()));
        int sweeps = 0;
        double residualNs = 0.0;
        // One budget for all the rows, as on one lane: checked between sweeps, and within one each group may use
        // what is left (so a sweep can pass it by at most twice what was left).
        long budgetVisits = LcpContactModel.budgetVisits(context.lcpSweepBudget(),
                lane0.lcp.rowCount() + lane1.lcp.rowCount() + boundary.lcp.rowCount());
        budgetReached = false;
        while (sweeps < iterations) {
            long used = (long) lane0.lcp.sweepVisits() + lane1.lcp.sweepVisits() + boundary.lcp.sweepVisits();
            if (used >= budgetVisits) {
                budgetReached = true;
                break;
            }
            long left = budgetVisits - used;
            lane0.lcp.sweepBudget(lane0.lcp.sweepVisits() + left);
            boundary.lcp.sweepBudget(boundary.lcp.sweepVisits() + left);
            laneBudgetVisits = lane1.lcp.sweepVisits() + left;
            boolean backward = (sweeps & 1) == 1;
            sweepBackward = backward;
            double residual0;
            double residualB;
            if (!backward) {
                handshake.post(VELOCITY_SWEEP);
                residual0 = lane0.lcp.sweep(context, bodies, false, true, false, false, 0);
                awaitLane1();
                residualB = boundary.lcp.sweep(context, bodies, false, true, false, false, 0);
            } else {
                residualB = boundary.lcp.sweep(context, bodies, true, true, false, false, 0);
                handshake.post(VELOCITY_SWEEP);
                residual0 = lane0.lcp.sweep(context, bodies, true, true, false, false, 0);
                awaitLane1();
            }
            sweeps++;
            residualNs = Math.max(laneResidualNs, Math.max(residual0, residualB));
            if (laneStopped || lane0.lcp.sweepStopped() || boundary.lcp.sweepStopped()) {
                budgetReached = true;
                break;
            }
            thresholdNs = tolerance * Math.max(laneLargestNs,
                    Math.max(lane0.lcp.largestNormalImpulse(), boundary.lcp.largestNormalImpulse()));
            if (residualNs <= thresholdNs) {
                break;
            }
        }
        lane0.lcp.endSweeps(sweeps, residualNs);
        lane1.lcp.endSweeps(sweeps, residualNs);
        boundary.lcp.endSweeps(sweeps, residualNs);
    }

    /** The position sweeps of {@link LcpContactModel#relax} over the three groups, block by block. */
    private void relax(StepContext context, RigidBodies bodies, boolean anyTarget) {
        int iterations = anyTarget ? context.positionIterations() : 0;
        double stopMoveM = context.lcpTolerance() * context.settings().contactToleranceM();
        double dt = context.dtS();
        int sweeps = 0;
        while (sweeps < iterations) {
            boolean backward = (sweeps & 1) == 1;
            sweepBackward = backward;
            double move0;
            double moveB;
            if (!backward) {
                handshake.post(POSITION_SWEEP);
                move0 = lane0.lcp.relaxSweep(context, bodies, false, false);
                awaitLane1();
                moveB = boundary.lcp.relaxSweep(context, bodies, false, false);
            } else {
                moveB = boundary.lcp.relaxSweep(context, bodies, true, false);
                handshake.post(POSITION_SWEEP);
                move0 = lane0.lcp.relaxSweep(context, bodies, true, false);
                awaitLane1();
            }
            sweeps++;
            if (Math.max(laneMoveMps, Math.max(move0, moveB)) * dt <= stopMoveM) {
                break;
            }
        }
        lane0.lcp.endRelax(sweeps, false);
        lane1.lcp.endRelax(sweeps, false);
        boundary.lcp.endRelax(sweeps, false);
    }

    /** The solver figures of the step for the world's profile: rows, visits and flags summed, residuals the largest. */
    void recordSolver(StepProfile profile) {
        LcpContactModel a = lane0.lcp;
        LcpContactModel b = lane1.lcp;
        LcpContactModel c = boundary.lcp;
        profile.recordSolver(a.rowCount() + b.rowCount() + c.rowCount(),
                Math.max(a.lastResidualNs(), Math.max(b.lastResidualNs(), c.lastResidualNs())),
                Math.max(a.lastPositionResidualNs(), Math.max(b.lastPositionResidualNs(),
                        c.lastPositionResidualNs())),
                a.lastVelocitySweeps(), a.lastVelocityVisits() + b.lastVelocityVisits() + c.lastVelocityVisits(),
                budgetReached, a.lastPositionSweeps(),
                false);
    }

    /** Candidate pairs of the last split step: both lanes' trees, lane 1's pairs with lane 0's band counted twice. */
    int candidatePairs() {
        return tree0.candidates.count + tree1.candidates.count;
    }

    /** Rows of the last split step by group: lane 0, lane 1, boundary. */
    int rows(int group) {
        return (group == 0 ? lane0 : group == 1 ? lane1 : boundary).lcp.rowCount();
    }

    private void mergeOnsets(ContactOnsets out) {
        out.clear();
        appendOnsets(out, lane0.onsets, 0);
        appendOnsets(out, lane1.onsets, base1);
        appendOnsets(out, boundary.onsets, base1 + lane1.points.count);
    }

    private static void appendOnsets(ContactOnsets out, ContactOnsets from, int base) {
        for (int k = 0; k < from.count(); k++) {
            out.add(base + from.point(k), from.bodyA(k), from.bodyB(k), from.approachSpeedMps(k));
        }
    }

    /**
     * Deals the pairs a lane's tree found ({@code found}, in its numbering {@code local}) by {@link #laneOfPair} to
     * the groups given, dropping those of a group given as null, after the mode filter and with the A/B roles as the
     * world's broadphase gives them. Each group keeps the pair order.
     */
    private void deal(RigidBodies bodies, CandidatePairs found, int[] local, ContactGroup toLane0, ContactGroup toLane1,
                      ContactGroup toBoundary) {
        PhysicsWorld w = world;
        clearPairs(toLane0);
        clearPairs(toLane1);
        clearPairs(toBoundary);
        for (int k = 0; k < found.count; k++) {
            int a = local[found.first[k]];
            int b = local[found.second[k]];
            ContactMode mode = w.effectiveMode(a, b);
            if (mode == ContactMode.NONE) {
                continue;
            }
            int lane = laneOfPair(bodies, a, b, mode);
            ContactGroup group = lane == 0 ? toLane0 : lane == 1 ? toLane1 : toBoundary;
            if (group != null) {
                boolean swap = w.mobilityRank(b) < w.mobilityRank(a);
                group.addPair(swap ? b : a, swap ? a : b, mode);
            }
        }
    }

    private static void clearPairs(ContactGroup group) {
        if (group != null) {
            group.pairCount = 0;
        }
    }

    /**
     * Cuts the dynamic bodies in two by a plane across the wider of the horizontal axes of their spread, lane 0
     * taking {@link #LANE_0_SHARE} of them (ties on the plane by body index), and picks lane 0's band. Every body
     * not dynamic now is lane 0's to refresh and integrate, and shared for the report.
     */
    private void cut(RigidBodies bodies) {
        cutStale = false;
        stepsSinceCut = 0;
        int n = bodies.count;
        double minX = Double.POSITIVE_INFINITY;
        double maxX = Double.NEGATIVE_INFINITY;
        double minY = Double.POSITIVE_INFINITY;
        double maxY = Double.NEGATIVE_INFINITY;
        int dynamicCount = 0;
        for (int b = 0; b < n; b++) {
            if (bodies.dynamic[b]) {
                Vector3d p = bodies.positionM[b];
                minX = Math.min(minX, p.x);
                maxX = Math.max(maxX, p.x);
                minY = Math.min(minY, p.y);
                maxY = Math.max(maxY, p.y);
                dynamicCount++;
            }
        }
        boolean alongY = maxY - minY >= maxX - minX;
        int m = 0;
        for (int b = 0; b < n; b++) {
            if (bodies.dynamic[b]) {
                Vector3d p = bodies.positionM[b];
                cutScratch[m++] = alongY ? p.y : p.x;
            }
        }
        int quota0 = (int) Math.round(LANE_0_SHARE * dynamicCount);
        double plane = quota0 < m ? select(cutScratch, m, quota0) : Double.POSITIVE_INFINITY;
        int below = 0;
        for (int k = 0; k < m; k++) {
            if (cutScratch[k] < plane) {
                below++;
            }
        }
        int tiesToLane0 = quota0 - below;
        lane0Count = 0;
        lane1Count = 0;
        sharedCount = 0;
        for (int b = 0; b < n; b++) {
            if (!bodies.dynamic[b]) {
                laneOf[b] = -1;
                shared[b] = true;
                sharedBodies[sharedCount++] = b;
                continue;
            }
            shared[b] = false;
            double c = alongY ? bodies.positionM[b].y : bodies.positionM[b].x;
            boolean toLane0 = c < plane || c == plane && tiesToLane0-- > 0;
            laneOf[b] = toLane0 ? 0 : 1;
            if (toLane0) {
                lane0Bodies[lane0Count++] = b;
            } else {
                lane1Bodies[lane1Count++] = b;
            }
        }
        for (int k = 0; k < sharedCount; k++) {
            lane0Bodies[lane0Count++] = sharedBodies[k];
        }
        // The band: lane-1 bodies within BAND_EXTENTS body extents of the farthest lane-0 body, by the last bounds.
        cutAxis = alongY ? 1 : 0;
        double[] boundsM = world.boundsM;
        double reach0 = Double.NEGATIVE_INFINITY;
        double extent = 0.0;
        for (int b = 0; b < n; b++) {
            if (laneOf[b] >= 0) {
                int i = b * Aabb.STRIDE + cutAxis;
                extent = Math.max(extent, boundsM[i + 3] - boundsM[i]);
                if (laneOf[b] == 0) {
                    reach0 = Math.max(reach0, boundsM[i + 3]);
                }
            }
        }
        double bandEnd = reach0 + BAND_EXTENTS * extent;
        tree0.clear();
        for (int b = 0; b < n; b++) {
            inBand[b] = laneOf[b] == 1 && boundsM[b * Aabb.STRIDE + cutAxis] <= bandEnd;
            if (laneOf[b] != 1 || inBand[b]) {
                tree0.add(b);
            }
        }
        tree1.clear();
        for (int b = 0; b < n; b++) {
            if (laneOf[b] == 1 || shared[b] && !world.tools[b]) {
                tree1.add(b);
            }
        }
    }

    /** The k-th smallest of {@code values[0 .. n − 1]} (0-based), reordering them: Hoare's selection. */
    static double select(double[] values, int n, int k) {
        int lo = 0;
        int hi = n - 1;
        while (lo < hi) {
            double pivot = values[(lo + hi) >>> 1];
            int i = lo;
            int j = hi;
            while (i <= j) {
                while (values[i] < pivot) {
                    i++;
                }
                while (values[j] > pivot) {
                    j--;
                }
                if (i <= j) {
                    double t = values[i];
                    values[i] = values[j];
                    values[j] = t;
                    i++;
                    j--;
                }
            }
            if (k <= j) {
                hi = j;
            } else if (k >= i) {
                lo = i;
            } else {
                return values[k];
            }
        }
        return values[k];
    }

    /** After a mid-phase flag: lane 1 ended its phase without raising it only when it failed. */
    private void rethrowIfLane1Ended() {
        if (handshake.ended()) {
            awaitLane1();
        }
    }

    private void awaitLane1() {
        Throwable failure = handshake.await();
        if (failure != null) {
            throw new IllegalStateException("physics lane 1 failed: " + failure, failure);
        }
    }

    /**
     * Lane 1's part of a phase; runs on its thread, between lane 0's post and await.
     *
     * @return whether the step goes on (another phase will come within microseconds): false after its last phase
     *     and after a front phase that lane 0 ended early
     */
    private boolean runPhase(int phase) {
        PhysicsWorld w = world;
        RigidBodies bodies = w.bodies;
        StepContext context = w.context;
        switch (phase) {
            case FRONT:
                return front(w, bodies, context);
            case VELOCITY_SWEEP:
                lane1.lcp.sweepBudget(laneBudgetVisits);
                laneResidualNs = lane1.lcp.sweep(context, bodies, sweepBackward, true, false, false, 0);
                laneLargestNs = lane1.lcp.largestNormalImpulse();
                laneStopped = lane1.lcp.sweepStopped();
                break;
            case POSITIONS:
                integrator1.integratePositions(context, bodies, lane1Bodies, lane1Count);
                integrator1.clearPseudoVelocities(bodies, lane1Bodies, lane1Count);
                lane1.lcp.markPseudoMoving(bodies, lane1Bodies, lane1Count);
                laneAnyTarget = lane1.lcp.beginRelax(context, bodies);
                break;
            case POSITION_SWEEP:
                laneMoveMps = lane1.lcp.relaxSweep(context, bodies, sweepBackward, false);
                break;
            case FINISH:
                integrator1.applyPseudoVelocities(context, bodies, lane1Bodies, lane1Count);
                lane1.lcp.store(context, lane1.points);
                lane1.matcher.record(lane1.points);
                ContactReport report = w.report;
                report.zero(lane1Bodies, lane1Count);
                for (int k = 0; k < sharedCount; k++) {
                    elsewhereForce1[sharedBodies[k]].zero();
                    elsewhereTorque1[sharedBodies[k]].zero();
                }
                report.add(lane1.points, base1, w.spheres, shared, elsewhereForce1, elsewhereTorque1, force1, torque1);
                laneFinite = w.statesFinite(lane1Bodies, lane1Count);
                return false;
            default:
                throw new IllegalStateException("unknown phase " + phase);
        }
        return true;
    }

    /**
     * Lane 1 from the start of a step to its sweeps: its bodies' poses and bounds (then lane 0 may read them), its
     * own pairs from its own tree, their contacts and rows (then lane 0 decides whether the step splits), its forces
     * once the boundary's rows are ready, its warm start.
     */
    private boolean front(PhysicsWorld w, RigidBodies bodies, StepContext context) {
        double[] worldBounds = w.boundsM;
        double reach = Double.POSITIVE_INFINITY;
        for (int k = 0; k < lane1Count; k++) {
            int body = lane1Bodies[k];
            w.refreshMovingBody(body, rotation1, rotationTransposed1, centre1);
            if (!inBand[body]) {
                reach = Math.min(reach, worldBounds[body * Aabb.STRIDE + cutAxis]);
            }
        }
        lane1Reach = reach;
        handshake.flag(Handshake.REFRESHED, stepSerial);
        tree1.findPairs(worldBounds);
        // Lane 1's own pairs only: its tree's pairs with a band body are lane 0's too, but across the cut.
        deal(bodies, tree1.candidates, tree1.local, null, lane1, null);
        lane1Dropped = tree1.candidates.dropped;
        Arrays.fill(importance1, 0);
        lane1.found = w.collectContacts(lane1, lane1.pairA, lane1.pairB, lane1.pairMode, null, lane1.pairCount,
                narrowphase1, manifold1, -1, 0, importance1, w.pointCapacity);
        lane1.findOnsets(bodies, lane1.onsets, velocityA1, velocityB1);
        handshake.flag(Handshake.COLLECTED, stepSerial);
        lane1.lcp.prepare(context, bodies, lane1.points, lane1.byMode[ContactMode.LCP.ordinal()], lane1.previous);
        // The boundary's rows read this lane's start-of-step velocities: wait for them before the forces.
        if (handshake.awaitGo(stepSerial) < 0) {
            return false;
        }
        integrator1.applyForces(context, bodies, lane1Bodies, lane1Count);
        lane1.lcp.warmStart(context, bodies);
        lane1.lcp.beginSweeps(context, false);
        laneLargestNs = lane1.lcp.largestNormalImpulse();
        return true;
    }

    /**
     * The group of a pair: 0 or 1 for an LCP pair whose dynamic bodies are all of that lane and that has no tool
     * (lane 1's tree leaves the tools out: their pairs are the device's force, and the world's tree puts them
     * first), {@link #BOUNDARY} otherwise.
     */
    private int laneOfPair(RigidBodies bodies, int a, int b, ContactMode mode) {
        boolean[] tools = world.tools;
        if (mode != ContactMode.LCP || tools[a] || tools[b]) {
            return BOUNDARY;
        }
        int la = bodies.dynamic[a] ? laneOf[a] : -1;
        int lb = bodies.dynamic[b] ? laneOf[b] : -1;
        int lane = la < 0 ? lb : lb < 0 || lb == la ? la : BOUNDARY;
        return lane < 0 ? BOUNDARY : lane;
    }

    /**
     * One lane's broadphase: its own {@link DynamicTreePairFinder} over the bodies given it at a cut, renumbered
     * 0.. in the world's order (so its pairs come out sorted by the world's key), with their bounds copied each step.
     */
    private static final class LaneTree {
        final DynamicTreePairFinder finder = new DynamicTreePairFinder();
        final CandidatePairs candidates = new CandidatePairs();
        private final PhysicsWorld world;
        /** The tree's bodies, by world index. */
        int[] local = new int[0];
        private int count;
        private double[] bounds = new double[0];
        private boolean[] movable = new boolean[0];
        private boolean[] priority = new boolean[0];

        LaneTree(PhysicsWorld world) {
            this.world = world;
            finder.setPairFilter((i, j) -> world.everTested(local[i], local[j]));
        }

        /** Room for {@code bodyCapacity} bodies. Allocates. */
        void reserve(int bodyCapacity) {
            local = new int[bodyCapacity];
            bounds = new double[bodyCapacity * Aabb.STRIDE];
            movable = new boolean[bodyCapacity];
            priority = new boolean[bodyCapacity];
        }

        /** Empties the tree (a new cut): the next {@link #findPairs} registers its bodies again. */
        void clear() {
            count = 0;
            finder.forget();
        }

        void add(int body) {
            local[count++] = body;
        }

        /** This step's candidate pairs of the tree's bodies from the world's bounds, the tools as priority bodies. */
        void findPairs(double[] worldBounds) {
            for (int i = 0; i < count; i++) {
                System.arraycopy(worldBounds, local[i] * Aabb.STRIDE, bounds, i * Aabb.STRIDE, Aabb.STRIDE);
                movable[i] = world.movable[local[i]];
                priority[i] = world.tools[local[i]];
            }
            finder.findPairs(bounds, movable, priority, count, candidates);
        }
    }

    /**
     * The two lanes' meeting points: lane 0 posts a phase (a sequence number, written after the phase's inputs), lane 1
     * runs it and answers (its sequence number, written after its outputs). Within a step both spin: lane 0 for the
     * answers ({@link #pause}), lane 1 for the next phase ({@link #SPINS_FOR_PHASE} turns, a hundred microseconds or
     * so: waiting as between steps, it began a forward sweep of {@code pile-800} 25–30 µs after its post on average,
     * against 5–9 µs spinning; spinning as long as lane 0 does, a cold 2 s {@code simulate --lanes 2} of
     * {@code pile-200} had a p99 step of 15.3–15.6 ms against 10.6–11.9, as the compilers waited for a vCPU);
     * between steps lane 1 spins, then yields ({@link #idle}), then parks after {@link #SPINS_BEFORE_PARK} turns
     * (milliseconds without a step), and lane 0 unparks it. Volatile reads and writes order the data both ways.
     */
    static final class Handshake {
        static final int STOP = -1;
        private static final int SPINS_BEFORE_YIELD = 1 << 10;
        private static final int SPINS_IN_STEP = 1 << 14;
        private static final int SPINS_FOR_PHASE = 1 << 12;
        private static final int SPINS_BEFORE_PARK = 1 << 14;

        private volatile int phase;
        private volatile int posted;
        private volatile int answered;
        private volatile boolean parked;
        private volatile Throwable failure;
        private volatile Thread lane1;
        /** Mid-phase flags, by step serial: lane 1 refreshed its bounds, collected its contacts; lane 0's go. */
        static final int REFRESHED = 0;
        static final int COLLECTED = 1;
        static final int GO = 2;
        private volatile int refreshed;
        private volatile int collected;
        private volatile int go;

        void post(int value) {
            phase = value;
            posted = posted + 1;
            if (parked) {
                LockSupport.unpark(lane1);
            }
        }

        Throwable await() {
            int expected = posted;
            for (int spins = 0; answered != expected; spins++) {
                pause(spins);
            }
            Throwable f = failure;
            failure = null;
            return f;
        }

        boolean ended() {
            return answered == posted && failure != null;
        }

        void flag(int which, int serial) {
            if (which == REFRESHED) {
                refreshed = serial;
            } else if (which == COLLECTED) {
                collected = serial;
            } else {
                go = serial;
            }
        }

        /** Lane 0 waits for lane 1's flag, or for lane 1 to have ended its phase without it (it failed). */
        void awaitFlag(int which, int serial) {
            for (int spins = 0; (which == REFRESHED ? refreshed : collected) != serial && answered != posted; spins++) {
                pause(spins);
            }
        }

        /** Lane 1 waits for lane 0's go: {@code serial} to go on, {@code -serial} to stop the step there. */
        int awaitGo(int serial) {
            int value;
            for (int spins = 0; (value = go) != serial && value != -serial; spins++) {
                pause(spins);
            }
            return value;
        }

        /**
         * One turn of a wait within a step: a spin for the first {@link #SPINS_IN_STEP} turns (about half a
         * millisecond, more than a phase of the other lane takes once the code is compiled), then a yield. A yield
         * after a thousand spins lost the vCPU to any other runnable thread for a scheduler slice in the steady state:
         * {@code pile-800}'s p99/p50 went to 2.09 in {@code StepProbe}. Spinning a million turns before yielding
         * kept the compilers from the vCPU while they still worked: a cold {@code simulate --lanes 2} of
         * {@code pile-200} for 2 s had its slowest steps at 31–67 ms, against 10–12 ms with this bound.
         */
        static void pause(int spins) {
            if (spins < SPINS_IN_STEP) {
                Thread.onSpinWait();
            } else {
                Thread.yield();
            }
        }

        /**
         * One turn of lane 1's wait between steps: a spin for the first {@link #SPINS_BEFORE_YIELD} (a few
         * microseconds: the caller's work between two steps), then a yield, which lets the compilers, the collector
         * or the caller's own threads have the vCPU. Spinning alone starved them: {@code simulate --lanes 2} of
         * {@code pile-200}, whose loop writes a CSV row between steps, took 6.0 s against 3.7 s on one lane, its
         * slowest steps 21 ms, while the JIT waited for a core.
         */
        static void idle(int spins) {
            if (spins < SPINS_BEFORE_YIELD) {
                Thread.onSpinWait();
            } else {
                Thread.yield();
            }
        }
    }

    /** Lane 1's thread: waits for a phase, runs it on the lanes if they are still there, answers. */
    private static final class Lane1 implements Runnable {
        private final Handshake handshake;
        private final WeakReference<StepLanes> lanes;

        Lane1(Handshake handshake, WeakReference<StepLanes> lanes) {
            this.handshake = handshake;
            this.lanes = lanes;
        }

        @Override
        public void run() {
            Handshake h = handshake;
            h.lane1 = Thread.currentThread();
            // Posts count from 0: one made before this thread ran is still seen.
            int seen = 0;
            boolean stepOpen = false;
            while (true) {
                int spins = 0;
                // Within a step lane 0 posts the next phase within microseconds: spin for it, as lane 0 spins for
                // the answers ({@link Handshake#pause}), and only then wait as between steps.
                int stepSpins = stepOpen ? Handshake.SPINS_FOR_PHASE : 0;
                while (h.posted == seen) {
                    if (stepSpins > 0) {
                        stepSpins--;
                        Thread.onSpinWait();
                        continue;
                    }
                    if (++spins < Handshake.SPINS_BEFORE_PARK) {
                        Handshake.idle(spins);
                        continue;
                    }
                    h.parked = true;
                    if (h.posted == seen) {
                        LockSupport.parkNanos(this, 1_000_000_000L);
                    }
                    h.parked = false;
                    spins = 0;
                    if (h.posted == seen && lanes.get() == null) {
                        return;
                    }
                }
                seen = h.posted;
                int phase = h.phase;
                if (phase == Handshake.STOP) {
                    h.answered = seen;
                    return;
                }
                StepLanes owner = lanes.get();
                if (owner == null) {
                    return;
                }
                try {
                    stepOpen = owner.runPhase(phase);
                } catch (Throwable t) {
                    stepOpen = false;
                    h.failure = t;
                }
                owner = null;
                h.answered = seen;
            }
        }
    }
}
