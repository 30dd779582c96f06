package org.hapticsd.server.loop;

import org.hapticsd.device.DeviceFault;
import org.hapticsd.server.safety.SafetyFault;
import org.hapticsd.server.safety.SafetyState;

/**
 * Everything the loop publishes after a tick. Preallocated for a fixed number of bodies and overwritten in
 * place; the loop fills its own copy during the tick and {@link SnapshotExchange} hands it to readers.
 *
 * <p>Frames: device quantities in the device frame, tool and bodies in the scene frame. SI units.
 */
public final class LoopSnapshot {
    /** Values per body in {@link #bodyPose}: px, py, pz, qw, qx, qy, qz. */
    public static final int POSE_STRIDE = 7;
    /** Values per body in {@link #bodyVelocity}: vx, vy, vz. */
    public static final int VELOCITY_STRIDE = 3;
    /**
     * Contacts a snapshot can carry, at most: a STATE's limit (docs/stream-protocol.md, 2.3). Each snapshot holds
     * {@link #contactCapacity} of them, sized for its scene; {@link #contactCount} still counts them all.
     */
    public static final int MAX_CONTACTS = 4096;
    /** The capacity of a snapshot made without a scene's contact budget (tests, tools). */
    public static final int DEFAULT_CONTACT_CAPACITY = 64;
    /** Impulse collisions reported per tick, at most (a pile of IMPULSE bodies landing may start more). */
    public static final int MAX_IMPULSE_COLLISIONS = 16;

    public long tick;
    /** Loop time since the first tick. */
    public long timeNs;
    /**
     * Simulated time: one period for each tick that stepped the physics since the scene started (paused ticks do not
     * step, so it stands still), ns. The stream's {@code simTimeNs}.
     */
    public long simTimeNs;
    public final double[] devicePositionM = new double[3];
    public final double[] deviceVelocityMps = new double[3];
    public long deviceSequence;
    public boolean deviceFresh;
    /**
     * Force the device reports applying when this tick's state was sampled, after its own clamp and watchdog
     * (device frame). It is the answer to an earlier command: for the simulated stylus exactly the previous tick's
     * {@link #commandedForceN} after the device's clamp; for a real link whatever reached the motors.
     */
    public final double[] deliveredForceN = new double[3];
    /** The device's status word of this tick's state ({@code org.hapticsd.protocol.StatusFlags}); 0 if it has none. */
    public int deviceStatusFlags;
    /** Whether the device reported itself connected this tick. */
    public boolean deviceConnected;
    /** The fault the device reported about itself this tick. */
    public DeviceFault deviceFault = DeviceFault.NONE;
    public final double[] toolPositionM = new double[3];
    /** Force the scene pushes on the device's hand, before safety (device frame). */
    public final double[] renderedForceN = new double[3];
    /** Force actually commanded to the device, after safety (device frame). */
    public final double[] commandedForceN = new double[3];
    public SafetyState safety = SafetyState.GATED;
    public SafetyFault fault = SafetyFault.NONE;
    public int contactCount;
    /**
     * Contacts in the arrays below: min({@link #contactCount}, {@link #contactCapacity}), in the engine's order (by
     * pair), deepest not preferred.
     */
    public int publishedContacts;
    /** How many contacts the arrays below hold: the scene's contact budget, at most {@link #MAX_CONTACTS}. */
    public final int contactCapacity;
    /** Body indices (world indices) of each contact, A then B (A is the tool when the tool is involved). */
    public final int[] contactBodies;
    /** Contact point on B's surface, scene frame, m: x, y, z per contact. */
    public final double[] contactPointM;
    /** Unit normal, scene frame, from B toward A: x, y, z per contact. */
    public final double[] contactNormal;
    /** Force of B on A, scene frame, N: x, y, z per contact (normal part plus friction). */
    public final double[] contactForceN;
    /** Penetration depth, m, per contact. */
    public final double[] contactDepthM;
    public double maxPenetrationM;
    /** |this tick's start − previous tick's start − period|, ns; 0 on the first tick. */
    public long periodErrorNs;
    /** Largest impulse change in the LCP solver's last sweep (N·s): 0 at an exact solution. */
    public double lcpResidualNs;
    /** Constraint rows the LCP solver handled in the last step. */
    public int lcpRows;
    public final int bodyCount;
    public final double[] bodyPose;
    public final double[] bodyVelocity;
    /** Deformable nodes in all (every deformable body's, in the world's order). */
    public final int nodeCount;
    /** Their positions, scene frame, m: x, y, z per node, body after body. */
    public final double[] nodePositionM;
    public long overruns;
    /** The simulation is paused: bodies frozen, rendered force zero. */
    public boolean paused;
    /** The safety layer's motor heat, as a fraction of the continuous force's ({@code SafetyLayer#heatFraction}). */
    public double motorHeat;
    /** The thermal limit scaled this tick's force down ({@code SafetyLayer#thermalLimited}). */
    public boolean thermalLimited;
    /** The physics step ran over its budget in the last finished window ({@link PhysicsBudget}). */
    public boolean physicsOverBudget;
    /** The last finished window's 99th-percentile physics step time, ns; 0 before the first window ends. */
    public long physicsStepP99Ns;
    /** The physics step's budget, ns: {@link PhysicsBudget#BUDGET_FRACTION} of the tick period. */
    public long physicsBudgetNs;
    /** {@link #physicsStepP99Ns} as a percentage of the tick period, 0..255. */
    public int physicsLoadPercent;
    /** Ticks since the loop started whose snapshot said {@link #physicsOverBudget}, for the end of a run. */
    public long physicsOverBudgetTicks;
    /** The largest {@link #physicsStepP99Ns} of those ticks, ns; 0 when there were none. */
    public long physicsWorstStepP99Ns;
    /**
     * Ticks since the loop started whose physics step stopped its solver's sweeps at the tick's deadline
     * ({@code HapticLoop#setSolverDeadline}), for the end of a run.
     */
    public long solverDeadlineTicks;
    /**
     * Ticks since the loop started whose physics step was dropped because the machine ran it too slow to end before
     * the next deadline, for the end of a run; the tick itself carries {@link LoopEvents#PHYSICS_STEP_DROPPED}.
     */
    public long droppedSteps;
    /** Candidate pairs and contact points this tick's step dropped to stay within the contact budget. */
    public int droppedPairs;
    public int droppedPoints;
    /** The same, summed over every tick since the loop started. */
    public long droppedPairsTotal;
    public long droppedPointsTotal;
    /**
     * The impact transient added to the rendered force this tick, device frame, N (zero when none plays): part of
     * what the safety layer was given, beside {@link #renderedForceN}.
     */
    public final double[] transientForceN = new double[3];
    /** The impulse collisions that began this tick: the tool's impact transient and IMPULSE-mode collisions. */
    public int impulseCollisions;
    /** Per collision: the two bodies (−1 for the tool), in the world's numbering. */
    public final int[] impulseBodies = new int[2 * MAX_IMPULSE_COLLISIONS];
    /** Per collision: {@code IP_z} N·s, {@code H} N, {@code W} s, {@code e}. */
    public final double[] impulseImpulseNs = new double[MAX_IMPULSE_COLLISIONS];
    public final double[] impulseHeightN = new double[MAX_IMPULSE_COLLISIONS];
    public final double[] impulseDurationS = new double[MAX_IMPULSE_COLLISIONS];
    public final double[] impulseElasticity = new double[MAX_IMPULSE_COLLISIONS];
    /**
     * Per collision: the pair's contact mode (a {@link org.hapticsd.physics.ContactMode} ordinal): IMPULSE for an
     * engine collision, the tool pair's own mode for an impact transient.
     */
    public final int[] impulseMode = new int[MAX_IMPULSE_COLLISIONS];
    /** What happened this tick: bits of {@link LoopEvents}. */
    public int events;
    public long lastTickNs;
    public final long[] stageNs = new long[LoopStage.ALL.length];

    public LoopSnapshot(int bodyCount) {
        this(bodyCount, 0);
    }

    /** Sized for a scene of {@code bodyCount} rigid bodies and {@code nodeCount} deformable nodes in all. */
    public LoopSnapshot(int bodyCount, int nodeCount) {
        this(bodyCount, nodeCount, DEFAULT_CONTACT_CAPACITY);
    }

    /** The same, carrying up to {@code contactCapacity} contacts (1..{@link #MAX_CONTACTS}). */
    public LoopSnapshot(int bodyCount, int nodeCount, int contactCapacity) {
        if (contactCapacity < 1 || contactCapacity > MAX_CONTACTS) {
            throw new IllegalArgumentException(
                "contactCapacity must be 1.." + MAX_CONTACTS + ", got " + contactCapacity);
        }
        this.contactCapacity = contactCapacity;
        this.contactBodies = new int[2 * contactCapacity];
        this.contactPointM = new double[3 * contactCapacity];
        this.contactNormal = new double[3 * contactCapacity];
        this.contactForceN = new double[3 * contactCapacity];
        this.contactDepthM = new double[contactCapacity];
        this.bodyCount = bodyCount;
        this.nodeCount = nodeCount;
        this.bodyPose = new double[bodyCount * POSE_STRIDE];
        this.bodyVelocity = new double[bodyCount * VELOCITY_STRIDE];
        this.nodePositionM = new double[3 * nodeCount];
    }

    /** Copies every field; both snapshots must be sized for the same scene. */
    public void copyFrom(LoopSnapshot other) {
        if (other.bodyCount != bodyCount || other.nodeCount != nodeCount || other.contactCapacity != contactCapacity) {
            throw new IllegalArgumentException("snapshot sized for " + bodyCount + " bodies, " + nodeCount
                + " nodes and " + contactCapacity + " contacts, source has " + other.bodyCount + ", "
                + other.nodeCount + " and " + other.contactCapacity);
        }
        System.arraycopy(other.nodePositionM, 0, nodePositionM, 0, nodePositionM.length);
        tick = other.tick;
        timeNs = other.timeNs;
        simTimeNs = other.simTimeNs;
        System.arraycopy(other.devicePositionM, 0, devicePositionM, 0, 3);
        System.arraycopy(other.deviceVelocityMps, 0, deviceVelocityMps, 0, 3);
        deviceSequence = other.deviceSequence;
        deviceFresh = other.deviceFresh;
        System.arraycopy(other.deliveredForceN, 0, deliveredForceN, 0, 3);
        deviceStatusFlags = other.deviceStatusFlags;
        deviceConnected = other.deviceConnected;
        deviceFault = other.deviceFault;
        System.arraycopy(other.toolPositionM, 0, toolPositionM, 0, 3);
        System.arraycopy(other.renderedForceN, 0, renderedForceN, 0, 3);
        System.arraycopy(other.commandedForceN, 0, commandedForceN, 0, 3);
        safety = other.safety;
        fault = other.fault;
        contactCount = other.contactCount;
        int n = other.publishedContacts;
        publishedContacts = n;
        System.arraycopy(other.contactBodies, 0, contactBodies, 0, 2 * n);
        System.arraycopy(other.contactPointM, 0, contactPointM, 0, 3 * n);
        System.arraycopy(other.contactNormal, 0, contactNormal, 0, 3 * n);
        System.arraycopy(other.contactForceN, 0, contactForceN, 0, 3 * n);
        System.arraycopy(other.contactDepthM, 0, contactDepthM, 0, n);
        maxPenetrationM = other.maxPenetrationM;
        periodErrorNs = other.periodErrorNs;
        lcpResidualNs = other.lcpResidualNs;
        lcpRows = other.lcpRows;
        System.arraycopy(other.bodyPose, 0, bodyPose, 0, bodyPose.length);
        System.arraycopy(other.bodyVelocity, 0, bodyVelocity, 0, bodyVelocity.length);
        overruns = other.overruns;
        paused = other.paused;
        motorHeat = other.motorHeat;
        thermalLimited = other.thermalLimited;
        physicsOverBudget = other.physicsOverBudget;
        physicsStepP99Ns = other.physicsStepP99Ns;
        physicsBudgetNs = other.physicsBudgetNs;
        physicsLoadPercent = other.physicsLoadPercent;
        physicsOverBudgetTicks = other.physicsOverBudgetTicks;
        physicsWorstStepP99Ns = other.physicsWorstStepP99Ns;
        solverDeadlineTicks = other.solverDeadlineTicks;
        droppedSteps = other.droppedSteps;
        droppedPairs = other.droppedPairs;
        droppedPoints = other.droppedPoints;
        droppedPairsTotal = other.droppedPairsTotal;
        droppedPointsTotal = other.droppedPointsTotal;
        System.arraycopy(other.transientForceN, 0, transientForceN, 0, 3);
        int c = other.impulseCollisions;
        impulseCollisions = c;
        System.arraycopy(other.impulseBodies, 0, impulseBodies, 0, 2 * c);
        System.arraycopy(other.impulseImpulseNs, 0, impulseImpulseNs, 0, c);
        System.arraycopy(other.impulseHeightN, 0, impulseHeightN, 0, c);
        System.arraycopy(other.impulseDurationS, 0, impulseDurationS, 0, c);
        System.arraycopy(other.impulseElasticity, 0, impulseElasticity, 0, c);
        System.arraycopy(other.impulseMode, 0, impulseMode, 0, c);
        events = other.events;
        lastTickNs = other.lastTickNs;
        System.arraycopy(other.stageNs, 0, stageNs, 0, stageNs.length);
    }

    public double commandedForceMagnitudeN() {
        double x = commandedForceN[0];
        double y = commandedForceN[1];
        double z = commandedForceN[2];
        return Math.sqrt(x * x + y * y + z * z);
    }
}
