package org.hapticsd.server.loop;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.agrona.concurrent.NanoClock;
import org.hapticsd.device.DeviceFault;
import org.hapticsd.device.DeviceHealth;
import org.hapticsd.device.DeviceState;
import org.hapticsd.device.HapticDevice;
import org.hapticsd.physics.Contact;
import org.hapticsd.physics.ContactMode;
import org.hapticsd.physics.PhysicsWorld;
import org.hapticsd.physics.deformable.DeformableBody;
import org.hapticsd.physics.dynamics.contact.ImpulseWaveformModel;
import org.hapticsd.server.render.DeviceMapping;
import org.hapticsd.server.render.ForceRenderer;
import org.hapticsd.server.render.HapticEffect;
import org.hapticsd.server.render.HapticScene;
import org.hapticsd.server.render.ImpactTransients;
import org.hapticsd.server.render.PassivityController;
import org.hapticsd.server.render.ProxyRenderer;
import org.hapticsd.server.render.RenderContext;
import org.hapticsd.server.render.ToolGrasps;
import org.hapticsd.server.safety.SafetyFault;
import org.hapticsd.server.safety.SafetyLayer;
import org.hapticsd.server.safety.SafetyState;
import org.joml.Quaterniond;
import org.joml.Vector3d;
import org.joml.Vector3dc;

/**
 * The tick: read device → map into the scene → step physics → render force → safety → write device → publish.
 *
 * <p>An agent in the Agrona sense: it owns the scene, the device handle and the safety state, and does one
 * tick's work per {@link #tick(long)} call with the time passed in. Who calls it decides real time
 * ({@link LoopRunner}) or simulated time (the headless simulator and the tests, which drive it tick by tick on
 * a fake clock). Nothing here allocates after construction, blocks, or logs: a stage that throws is caught,
 * the device gets zero force, the safety layer latches an internal-error fault, and the error is left for
 * another thread to report ({@link #lastError()}).
 *
 * <p>Every tick, failed or not, is published and handed to the {@link TickSink} with the {@link LoopEvents} that
 * happened in it. The events are found by comparing this tick's values with the previous tick's, kept in plain
 * fields: a recording then says what changed without a reader having to diff records, and the loop neither
 * allocates nor keeps history to do it.
 */
public final class HapticLoop implements LoopControl {
    // The scene: replaced as a whole, on the loop thread, by replaceScene.
    private HapticScene scene;
    private PhysicsWorld world;
    private int toolBody;
    private DeviceMapping mapping;
    private ImpactTransients transients;
    private ToolGrasps grasps;
    /** How the tool's force is made. */
    private ForceRenderer renderer;
    /** The forces added to the renderer's: the passive ones before the passivity filter, the active ones after. */
    private HapticEffect[] effects;
    /** The passivity observer and controller on the rendered force, or null. */
    private PassivityController passivity;
    /** What the renderer and the effects read: the world, the tool body and this tick's hand. */
    private final RenderContext render = new RenderContext();
    private SnapshotExchange exchange;
    private LoopSnapshot snapshot;
    private final HapticDevice device;
    private final SafetyLayer safety;
    private final LoopStats stats;
    private final CommandQueue commands;
    private final NanoClock stageTimer;
    /**
     * What the physics budget times the step with: the loop thread's CPU time when the stages are timed by the system
     * clock ({@link ThreadCpuClock}: a host stall is not the scene's weight), else the stage timer (a test's).
     */
    private final NanoClock stepBudgetClock;
    private final long periodNs;
    private final double dtS;
    private final PhysicsBudget physicsBudget;
    /** Whether the step's wall-clock time is judged against the tick (not on simulated time: see the setter). */
    private boolean judgePhysicsBudget = true;
    /** Lanes each world steps on ({@link #setStepLanes}), and how many steps ran split. */
    private int stepLanes = 1;
    private long splitSteps;
    private long droppedPairsTotal;
    private long droppedPointsTotal;
    private long physicsOverBudgetTicks;
    private long physicsWorstStepP99Ns;
    /** Whether the step's solver sweeps end at {@link #SOLVER_DEADLINE_SHARE} of the tick (see the setter). */
    private boolean solverDeadline = true;
    private long solverDeadlineAfterNs;
    /**
     * The world's clock ({@link PhysicsWorld#nanoTime()}, the system's unless a test set another) at the start of the
     * tick under way, for the solver's deadline and the step's end.
     */
    private long tickWallStartNs;
    private long solverDeadlineTicks;
    /**
     * When, on the world's clock, the tick's step must end, or it may be dropped: the next deadline less
     * {@link #STEP_DROP_MARGIN_SHARE} of the period ({@link #tick(long, long)}).
     */
    private long tickStepEndByNs;
    private long droppedSteps;
    /** Whether this tick's physics step ran whole (not paused, not dropped). */
    private boolean stepped;
    /** The last step's CPU time, ns, when the loop judges the step by it (else 0): for {@link OverrunCauses}. */
    private long lastStepCpuNs;

    private final DeviceState deviceState = new DeviceState();
    private final DeviceHealth deviceHealth = new DeviceHealth();
    private final Vector3d toolPositionM = new Vector3d();
    private final Vector3d toolVelocityMps = new Vector3d();
    private final Vector3d sceneForceN = new Vector3d();
    private final Vector3d deviceForceN = new Vector3d();
    private final Vector3d transientSceneN = new Vector3d();
    private final Vector3d transientDeviceN = new Vector3d();
    private final Vector3d bodyPositionM = new Vector3d();
    private final Vector3d bodyVelocityMps = new Vector3d();
    private final Quaterniond bodyOrientation = new Quaterniond();
    private final Consumer<LoopCommand> applyCommand = this::apply;

    private final AtomicReference<Throwable> lastError = new AtomicReference<>();
    private final AtomicLong errorCount = new AtomicLong();
    private final AtomicLong commandErrors = new AtomicLong();

    private TickSink tickSink = TickSink.NONE;
    private long ticks;
    private long firstTickNs;
    private long previousTickNs;
    private long periodErrorNs;
    private int consecutiveOverruns;
    private boolean fresh;
    private boolean paused;
    private double forceScale = 1.0;
    /** A script's known force ({@link #setTestForce}), device frame, its frequency (0: constant) and start time. */
    private final Vector3d testForceN = new Vector3d();
    private double testFrequencyHz;
    private long testForceStartNs;
    private boolean testForceStartsNow;
    /** This tick's active forces, device frame: the test force and the active effects. */
    private final Vector3d effectsDeviceN = new Vector3d();
    private final Vector3d activeSceneN = new Vector3d();
    /** Periods stepped since the scene started: the snapshot's {@code simTimeNs}. */
    private long simTimeNs;

    // Events: the bits of the tick under way, those the runner reported for the next tick, and the values of the
    // previous tick that the change events compare against (the state before the first tick: LoopEvents).
    private int tickEvents;
    private int nextTickEvents;
    private SafetyState previousSafety;
    private SafetyFault previousSafetyFault;
    private boolean previousConnected;
    private DeviceFault previousDeviceFault = DeviceFault.NONE;
    private int previousStatusFlags;
    private int previousContactCount;
    private boolean previousThermalLimited;

    /**
     * The share of the tick after which the physics step's contact solver stops sweeping (after its first sweep),
     * counted from the tick's start: what follows it (integration, the first position sweep, storing the impulses,
     * the force, safety, the device and the snapshot) takes 10–20 % of a 1 kHz tick with a 200-sphere pile on a slow
     * host, so a step cut here still ends inside {@link PhysicsBudget#BUDGET_FRACTION} of the tick.
     */
    public static final double SOLVER_DEADLINE_SHARE = 0.6;

    /**
     * The share of the period kept, before the next deadline, for what follows the physics step (the force, safety,
     * the device, the snapshot) when the step may be dropped: a step that would end later than that is dropped.
     */
    public static final double STEP_DROP_MARGIN_SHARE = 0.1;

    /**
     * @param stageTimer clock used only to time stages (wall time, even when the loop runs on simulated time)
     */
    public HapticLoop(HapticScene scene, HapticDevice device, SafetyLayer safety, LoopStats stats,
                      CommandQueue commands, SnapshotExchange exchange, NanoClock stageTimer, long periodNs) {
        if (periodNs <= 0) {
            throw new IllegalArgumentException("periodNs must be > 0, got " + periodNs);
        }
        takeScene(scene);
        this.device = device;
        this.safety = safety;
        this.stats = stats;
        this.commands = commands;
        this.exchange = exchange;
        this.stageTimer = stageTimer;
        NanoClock cpu = stageTimer instanceof org.agrona.concurrent.SystemNanoClock ? ThreadCpuClock.ifSupported() : null;
        this.stepBudgetClock = cpu != null ? cpu : stageTimer;
        this.periodNs = periodNs;
        this.dtS = periodNs * 1e-9;
        this.physicsBudget = PhysicsBudget.perSecond(periodNs);
        this.solverDeadlineAfterNs = (long) (SOLVER_DEADLINE_SHARE * periodNs);
        this.snapshot = exchange.newSnapshot();
        if (snapshot.bodyCount != world.bodyCount() || snapshot.nodeCount != world.deformableNodeCount()) {
            throw new IllegalArgumentException("snapshot exchange sized for " + snapshot.bodyCount
                + " bodies and " + snapshot.nodeCount + " nodes, world has " + world.bodyCount() + " and "
                + world.deformableNodeCount());
        }
        this.previousSafety = safety.state();
        this.previousSafetyFault = safety.fault();
    }

    /** The physics step's CPU time in the last tick, ns; 0 when the loop does not judge the step by CPU time. */
    long lastStepCpuNs() {
        return lastStepCpuNs;
    }

    /**
     * The physics step's usual time lately ({@link PhysicsWorld#typicalStepNs()}), ns, when the loop judges the step
     * by CPU time (a loop on the wall clock); else 0. For {@link OverrunCauses}: a step twice its usual time was the
     * machine, not the scene.
     */
    long stepUsualNs() {
        return stepBudgetClock != stageTimer ? (long) world.typicalStepNs() : 0L;
    }

    /** Whether the physics budget judges the step by the loop thread's CPU time (else by the stage timer's time). */
    boolean judgesStepByCpuTime() {
        return stepBudgetClock != stageTimer;
    }

    /** Runs one tick at loop time {@code nowNs}, as one that started on its deadline. Loop thread only. */
    public void tick(long nowNs) {
        tick(nowNs, nowNs);
    }

    /**
     * Runs one tick at loop time {@code nowNs} whose deadline was {@code deadlineNs} on the same clock (a runner that
     * woke late has less of the period left). Loop thread only.
     */
    public void tick(long nowNs, long deadlineNs) {
        // Read only when the step will have the solver's deadline (a loop on the wall clock, the deadline on).
        tickWallStartNs = judgePhysicsBudget && solverDeadline ? world.nanoTime() : 0L;
        tickStepEndByNs = tickWallStartNs + (deadlineNs + periodNs - nowNs)
            - (long) (STEP_DROP_MARGIN_SHARE * periodNs);
        long startNs = stageTimer.nanoTime();
        if (ticks == 0) {
            firstTickNs = nowNs;
        } else {
            periodErrorNs = Math.abs(nowNs - previousTickNs - periodNs);
            stats.recordPeriodError(periodErrorNs);
        }
        previousTickNs = nowNs;
        tickEvents = nextTickEvents;
        nextTickEvents = 0;
        try {
            commands.drain(applyCommand);
            runStages(nowNs, startNs);
        } catch (Throwable error) {
            onStageError(error, nowNs);
        }
        ticks++;
        stats.recordTick(stageTimer.nanoTime() - startNs);
    }

    /**
     * Told by the runner after each tick whether it ended past the next deadline. An overrun is marked
     * ({@link LoopEvents#OVERRUN}) on the next tick: this one has already been published. The device is told the
     * tick is over ({@link HapticDevice#endOfTick}: a link driver wakes its writer thread here, after the tick's end
     * was taken, not between the force and the snapshot).
     */
    public void afterTick(boolean overran) {
        if (overran) {
            nextTickEvents |= LoopEvents.OVERRUN;
            consecutiveOverruns++;
            stats.recordOverrun();
        } else {
            consecutiveOverruns = 0;
        }
        device.endOfTick();
    }

    private void runStages(long nowNs, long startNs) {
        // Not fresh unless the read returns: a read that throws must not leave the previous tick's answer.
        fresh = false;
        fresh = device.readState(nowNs, deviceState);
        device.health(nowNs, deviceHealth);
        long t = mark(LoopStage.READ_DEVICE, startNs);

        mapping.deviceToScene(deviceState, toolPositionM, toolVelocityMps);
        render.setHand(toolPositionM, toolVelocityMps, deviceHealth.connected, dtS, simTimeNs * 1e-9);
        // A paused loop leaves the tool where it was: a proxy stays put, a kinematic tool body is not moved.
        if (!paused) {
            renderer.beforeStep(render);
        }
        renderer.toolState(render, toolPositionM, toolVelocityMps);
        if (!paused && grasps.update(world, toolBody, toolPositionM, deviceState.buttons)) {
            tickEvents |= LoopEvents.GRAB_CHANGED;
        }
        t = mark(LoopStage.MAP_TO_SCENE, t);

        // A paused loop does not step, so it has no step time to judge; nor does a loop on simulated time.
        boolean judge = !paused && judgePhysicsBudget;
        boolean onCpuTime = judge && stepBudgetClock != stageTimer;
        long cpuStartNs = onCpuTime ? stepBudgetClock.nanoTime() : 0L;
        stepped = false;
        if (!paused) {
            if (judge && solverDeadline) {
                stepped = stepOnTheWallClock();
            } else {
                world.step(dtS);
                stepped = true;
                if (world.lastStepSplit()) {
                    splitSteps++;
                }
            }
        }
        long cpuNs = onCpuTime ? stepBudgetClock.nanoTime() - cpuStartNs : 0L;
        // Drawn and recorded where the step left it (a coupled proxy moved in it).
        renderer.toolState(render, toolPositionM, toolVelocityMps);
        lastStepCpuNs = cpuNs;
        long stepStartNs = t;
        t = mark(LoopStage.STEP_PHYSICS, t);
        long stepBudgetNs = onCpuTime ? cpuNs : t - stepStartNs;
        // The window's second is the loop's (the tick's time), not the stage timer's.
        if (judge && physicsBudget.record(stepBudgetNs, nowNs)) {
            tickEvents |= LoopEvents.PHYSICS_BUDGET_CHANGED;
        }

        if (paused) {
            deviceForceN.zero();
            transientDeviceN.zero();
            effectsDeviceN.zero();
        } else {
            // A dropped step leaves the last whole step's contact forces: the force holds for the tick.
            renderer.afterStep(render, transients, sceneForceN);
            activeSceneN.zero();
            for (HapticEffect effect : effects) {
                effect.addTo(render, effect.active() ? activeSceneN : sceneForceN);
            }
            mapping.sceneForceToDevice(sceneForceN, deviceForceN).mul(forceScale);
            if (passivity != null) {
                passivity.filter(dtS, deviceState.velocityXMps, deviceState.velocityYMps,
                    deviceState.velocityZMps, deviceForceN);
            }
            // The active forces come after the passivity controller, which would damp them: they are meant.
            mapping.sceneForceToDevice(activeSceneN, effectsDeviceN).mul(forceScale);
            addTestForce(nowNs, effectsDeviceN);
            deviceForceN.add(effectsDeviceN);
            transients.update(world, toolBody, dtS, transientSceneN);
            mapping.sceneForceToDevice(transientSceneN, transientDeviceN).mul(forceScale);
        }
        t = mark(LoopStage.RENDER_FORCE, t);

        boolean healthy = deviceHealth.connected && deviceHealth.fault == DeviceFault.NONE;
        safety.update(nowNs, deviceForceN.x, deviceForceN.y, deviceForceN.z, transientDeviceN.x, transientDeviceN.y,
            transientDeviceN.z, fresh, healthy, consecutiveOverruns);
        if (passivity != null) {
            // The controller answers for the scene's passive force: the transients, the vibration and a script's test
            // force are not its.
            passivity.commanded(safety.outputX() - transientDeviceN.x - effectsDeviceN.x,
                safety.outputY() - transientDeviceN.y - effectsDeviceN.y,
                safety.outputZ() - transientDeviceN.z - effectsDeviceN.z);
        }
        t = mark(LoopStage.SAFETY, t);

        device.commandForce(safety.outputX(), safety.outputY(), safety.outputZ(), 0.0, 0.0, 0.0);
        t = mark(LoopStage.WRITE_DEVICE, t);

        fillSnapshot(nowNs);
        exchange.publish(snapshot);
        tickSink.onTick(snapshot);
        if (stepped) {
            // The snapshot carries the time at which this tick's step began: tick × period while never paused and
            // no step was dropped.
            simTimeNs += periodNs;
        }
        long endNs = stageTimer.nanoTime();
        stats.recordStage(LoopStage.PUBLISH, endNs - t);
        snapshot.stageNs[LoopStage.PUBLISH.ordinal()] = endNs - t;
    }

    /**
     * The step of a loop on the wall clock: its solver's sweeps end at {@link #SOLVER_DEADLINE_SHARE} of the tick,
     * and the step is dropped when the machine runs it so slow that it would end past {@link #tickStepEndByNs}
     * (the world's rule and its limits: {@link PhysicsWorld#step(double, long, long)}).
     *
     * @return whether the step ran whole
     */
    /** Adds this tick's test force to {@code destN}: the constant, or the sine at its phase now. */
    private void addTestForce(long nowNs, Vector3d destN) {
        if (testForceStartsNow) {
            testForceStartNs = nowNs;
            testForceStartsNow = false;
        }
        if (testFrequencyHz == 0.0) {
            destN.add(testForceN);
        } else {
            double phase = 2.0 * Math.PI * testFrequencyHz * ((nowNs - testForceStartNs) * 1e-9);
            destN.fma(Math.sin(phase), testForceN);
        }
    }

    private boolean stepOnTheWallClock() {
        if (!world.step(dtS, tickWallStartNs + solverDeadlineAfterNs, tickStepEndByNs)) {
            droppedSteps++;
            tickEvents |= LoopEvents.PHYSICS_STEP_DROPPED;
            return false;
        }
        if (world.profile().lastSweepDeadlineReached()) {
            solverDeadlineTicks++;
        }
        return true;
    }

    /** The tool's transient that began this tick, then the IMPULSE collisions of this step, up to the snapshot's room. */
    private void fillImpulseCollisions(LoopSnapshot s) {
        int n = 0;
        if (!paused && transients.startedThisTick()) {
            int a = transients.lastBodyA();
            int b = transients.lastBodyB();
            int struck = a < 0 ? b : a;
            n = putImpulse(s, n, a < 0 ? -1 : a, b < 0 ? -1 : b, world.contactMode(toolBody, struck),
                transients.lastImpulseNs(), transients.lastHeightN(), transients.lastDurationS(),
                transients.lastElasticity());
        }
        ImpulseWaveformModel impulse = (ImpulseWaveformModel) world.contactModel(ContactMode.IMPULSE);
        for (int k = 0; stepped && k < impulse.startedCount() && n < LoopSnapshot.MAX_IMPULSE_COLLISIONS; k++) {
            n = putImpulse(s, n, impulse.startedBodyA(k), impulse.startedBodyB(k), ContactMode.IMPULSE,
                impulse.startedImpulseNs(k), impulse.startedHeightN(k), impulse.startedDurationS(k),
                impulse.startedElasticity(k));
        }
        s.impulseCollisions = n;
        if (n > 0) {
            tickEvents |= LoopEvents.IMPULSE_COLLISION;
        }
    }

    private static int putImpulse(LoopSnapshot s, int n, int a, int b, ContactMode mode, double impulseNs,
                                  double heightN, double durationS, double elasticity) {
        s.impulseMode[n] = mode.ordinal();
        s.impulseBodies[2 * n] = a;
        s.impulseBodies[2 * n + 1] = b;
        s.impulseImpulseNs[n] = impulseNs;
        s.impulseHeightN[n] = heightN;
        s.impulseDurationS[n] = durationS;
        s.impulseElasticity[n] = elasticity;
        return n + 1;
    }

    private long mark(LoopStage stage, long sinceNs) {
        long nowNs = stageTimer.nanoTime();
        stats.recordStage(stage, nowNs - sinceNs);
        snapshot.stageNs[stage.ordinal()] = nowNs - sinceNs;
        return nowNs;
    }

    private void fillSnapshot(long nowNs) {
        LoopSnapshot s = snapshot;
        s.tick = ticks;
        s.timeNs = nowNs - firstTickNs;
        s.simTimeNs = simTimeNs;
        fillDevice(s);
        s.toolPositionM[0] = toolPositionM.x;
        s.toolPositionM[1] = toolPositionM.y;
        s.toolPositionM[2] = toolPositionM.z;
        s.renderedForceN[0] = deviceForceN.x;
        s.renderedForceN[1] = deviceForceN.y;
        s.renderedForceN[2] = deviceForceN.z;
        s.commandedForceN[0] = safety.outputX();
        s.commandedForceN[1] = safety.outputY();
        s.commandedForceN[2] = safety.outputZ();
        s.transientForceN[0] = transientDeviceN.x;
        s.transientForceN[1] = transientDeviceN.y;
        s.transientForceN[2] = transientDeviceN.z;
        if (transientDeviceN.x != 0.0 || transientDeviceN.y != 0.0 || transientDeviceN.z != 0.0) {
            tickEvents |= LoopEvents.IMPACT_TRANSIENT;
        }
        fillImpulseCollisions(s);
        s.safety = safety.state();
        s.fault = safety.fault();
        s.motorHeat = safety.heatFraction();
        s.thermalLimited = safety.thermalLimited();
        int contacts = world.contactCount();
        double deepestM = 0.0;
        int published = Math.min(contacts, s.contactCapacity);
        for (int i = 0; i < contacts; i++) {
            Contact c = world.contact(i);
            deepestM = Math.max(deepestM, c.depthM());
            if (i < published) {
                s.contactBodies[2 * i] = c.bodyA();
                s.contactBodies[2 * i + 1] = c.bodyB();
                putXyz(s.contactPointM, i, c.point());
                putXyz(s.contactNormal, i, c.normal());
                putXyz(s.contactForceN, i, c.forceN());
                s.contactDepthM[i] = c.depthM();
            }
        }
        ProxyRenderer proxy = renderer.proxy();
        if (proxy != null && proxy.touching()) {
            // The proxy's contact, which the world does not hold: the tool (A) on the surface it rests on (B), at
            // the surface point under the proxy, with the force it renders and the hand's depth behind the surface.
            if (published < s.contactCapacity) {
                int i = published++;
                s.contactBodies[2 * i] = toolBody;
                s.contactBodies[2 * i + 1] = proxy.touchedBody();
                putXyz(s.contactPointM, i, proxy.contactPointM());
                putXyz(s.contactNormal, i, proxy.normal());
                putXyz(s.contactForceN, i, proxy.forceN());
                s.contactDepthM[i] = proxy.depthM();
            }
            contacts++;
            deepestM = Math.max(deepestM, proxy.depthM());
        }
        s.contactCount = contacts;
        s.publishedContacts = published;
        s.periodErrorNs = periodErrorNs;
        s.maxPenetrationM = deepestM;
        s.lcpResidualNs = world.profile().lastLcpResidualNs();
        s.lcpRows = world.profile().lastLcpRowCount();
        for (int b = 0; b < s.bodyCount; b++) {
            world.bodyPosition(b, bodyPositionM);
            world.bodyOrientation(b, bodyOrientation);
            world.bodyLinearVelocity(b, bodyVelocityMps);
            int p = b * LoopSnapshot.POSE_STRIDE;
            s.bodyPose[p] = bodyPositionM.x;
            s.bodyPose[p + 1] = bodyPositionM.y;
            s.bodyPose[p + 2] = bodyPositionM.z;
            s.bodyPose[p + 3] = bodyOrientation.w;
            s.bodyPose[p + 4] = bodyOrientation.x;
            s.bodyPose[p + 5] = bodyOrientation.y;
            s.bodyPose[p + 6] = bodyOrientation.z;
            int v = b * LoopSnapshot.VELOCITY_STRIDE;
            s.bodyVelocity[v] = bodyVelocityMps.x;
            s.bodyVelocity[v + 1] = bodyVelocityMps.y;
            s.bodyVelocity[v + 2] = bodyVelocityMps.z;
        }
        for (int d = 0, i = 0; d < world.deformableCount(); d++) {
            DeformableBody body = world.deformable(d);
            for (int node = 0; node < body.nodeCount(); node++, i += 3) {
                body.nodePosition(node, bodyPositionM);
                s.nodePositionM[i] = bodyPositionM.x;
                s.nodePositionM[i + 1] = bodyPositionM.y;
                s.nodePositionM[i + 2] = bodyPositionM.z;
            }
        }
        s.overruns = stats.overruns();
        s.paused = paused;
        // Paused, nothing is stepped: the last window's verdict is not the present's (stream-protocol.md 4.3).
        s.physicsOverBudget = !paused && physicsBudget.overBudget();
        s.physicsStepP99Ns = paused ? 0 : physicsBudget.stepP99Ns();
        s.physicsBudgetNs = physicsBudget.budgetNs();
        s.physicsLoadPercent = paused ? 0 : physicsBudget.loadPercent();
        if (s.physicsOverBudget) {
            physicsOverBudgetTicks++;
            physicsWorstStepP99Ns = Math.max(physicsWorstStepP99Ns, s.physicsStepP99Ns);
        }
        s.physicsOverBudgetTicks = physicsOverBudgetTicks;
        s.physicsWorstStepP99Ns = physicsWorstStepP99Ns;
        s.solverDeadlineTicks = solverDeadlineTicks;
        s.droppedSteps = droppedSteps;
        s.droppedPairs = stepped ? world.profile().lastDroppedPairs() : 0;
        s.droppedPoints = stepped ? world.profile().lastDroppedPoints() : 0;
        droppedPairsTotal += s.droppedPairs;
        droppedPointsTotal += s.droppedPoints;
        s.droppedPairsTotal = droppedPairsTotal;
        s.droppedPointsTotal = droppedPointsTotal;
        if (s.droppedPairs > 0 || s.droppedPoints > 0) {
            tickEvents |= LoopEvents.CONTACTS_DROPPED;
        }
        tickEvents |= changeEvents(s);
        s.events = tickEvents;
    }

    /** Writes {@code v} as the {@code i}-th x, y, z triple of {@code dest}. */
    private static void putXyz(double[] dest, int i, Vector3dc v) {
        dest[3 * i] = v.x();
        dest[3 * i + 1] = v.y();
        dest[3 * i + 2] = v.z();
    }

    /** The device's side of the snapshot: this tick's state and health as the read stage left them. */
    private void fillDevice(LoopSnapshot s) {
        DeviceState d = deviceState;
        s.devicePositionM[0] = d.positionXM;
        s.devicePositionM[1] = d.positionYM;
        s.devicePositionM[2] = d.positionZM;
        s.deviceVelocityMps[0] = d.velocityXMps;
        s.deviceVelocityMps[1] = d.velocityYMps;
        s.deviceVelocityMps[2] = d.velocityZMps;
        s.deviceSequence = d.sequence;
        s.deviceFresh = fresh;
        s.deliveredForceN[0] = d.appliedForceXN;
        s.deliveredForceN[1] = d.appliedForceYN;
        s.deliveredForceN[2] = d.appliedForceZN;
        s.deviceStatusFlags = d.statusFlags;
        s.deviceConnected = deviceHealth.connected;
        s.deviceFault = deviceHealth.fault;
    }

    /**
     * The change events of this tick: {@code s} against the previous tick's values, which it then replaces. Called
     * again on a tick that fails after the snapshot was filled, it adds only what changed since, so no change is
     * reported twice.
     */
    private int changeEvents(LoopSnapshot s) {
        int events = 0;
        if (s.safety != previousSafety) {
            events |= LoopEvents.SAFETY_STATE_CHANGED;
        }
        if (s.fault != previousSafetyFault && s.fault != SafetyFault.NONE) {
            events |= LoopEvents.SAFETY_FAULT_RAISED;
        }
        if (s.deviceConnected != previousConnected) {
            events |= s.deviceConnected ? LoopEvents.DEVICE_CONNECTED : LoopEvents.DEVICE_DISCONNECTED;
        }
        if (s.deviceFault != previousDeviceFault) {
            events |= LoopEvents.DEVICE_FAULT_CHANGED;
        }
        if (s.deviceStatusFlags != previousStatusFlags) {
            events |= LoopEvents.DEVICE_STATUS_CHANGED;
        }
        if ((s.contactCount > 0) != (previousContactCount > 0)) {
            events |= s.contactCount > 0 ? LoopEvents.CONTACT_BEGAN : LoopEvents.CONTACT_ENDED;
        }
        if (s.thermalLimited != previousThermalLimited) {
            events |= LoopEvents.THERMAL_LIMIT_CHANGED;
        }
        previousSafety = s.safety;
        previousSafetyFault = s.fault;
        previousConnected = s.deviceConnected;
        previousDeviceFault = s.deviceFault;
        previousStatusFlags = s.deviceStatusFlags;
        previousContactCount = s.contactCount;
        previousThermalLimited = s.thermalLimited;
        return events;
    }

    /**
     * A command that throws is dropped and counted; it does not fault the loop. Commands come from clients,
     * and a malformed one must not take force away from a user who did nothing wrong.
     */
    private void apply(LoopCommand command) {
        try {
            command.applyTo(this);
            tickEvents |= LoopEvents.COMMAND_APPLIED;
        } catch (RuntimeException rejected) {
            tickEvents |= LoopEvents.COMMAND_REJECTED;
            commandErrors.lazySet(commandErrors.get() + 1);
            lastError.lazySet(rejected);
        }
    }

    /**
     * A stage threw: zero force first, then latch the fault, then publish and record the tick, then leave the error
     * for a reporter thread. The tick is recorded like any other, marked {@link LoopEvents#STAGE_ERROR}, so a
     * recording has no gap where the loop failed: its device fields are whatever the read stage got to, its scene
     * fields (tool, rendered force, contacts, bodies) are those of the last tick that filled them.
     */
    private void onStageError(Throwable error, long nowNs) {
        try {
            device.commandForce(0.0, 0.0, 0.0, 0.0, 0.0, 0.0);
        } catch (Throwable ignored) {
            // The device is already failing; the safety fault below keeps the output at zero.
        }
        safety.internalError();
        LoopSnapshot s = snapshot;
        s.tick = ticks;
        s.timeNs = nowNs - firstTickNs;
        s.simTimeNs = simTimeNs;
        fillDevice(s);
        s.safety = safety.state();
        s.fault = safety.fault();
        s.commandedForceN[0] = 0.0;
        s.commandedForceN[1] = 0.0;
        s.commandedForceN[2] = 0.0;
        tickEvents |= LoopEvents.STAGE_ERROR | changeEvents(s);
        s.events = tickEvents;
        exchange.publish(s);
        try {
            tickSink.onTick(s);
        } catch (Throwable ignored) {
            // The sink may be what threw in the first place; the tick must still end, and the error that is
            // reported below is the first one.
        }
        errorCount.lazySet(errorCount.get() + 1);
        lastError.lazySet(error);
    }

    @Override
    public void setPaused(boolean pause) {
        if (pause != paused) {
            paused = pause;
            safety.regate();
            tickEvents |= LoopEvents.PAUSE_CHANGED;
        }
    }

    /**
     * Whether to judge the physics step's wall-clock time against the tick period. A loop on simulated time (lockstep)
     * has no deadline a slow step could miss, and a verdict from the wall clock would make its record differ from run
     * to run; it says false. Before the first tick.
     */
    public void setJudgePhysicsBudget(boolean judge) {
        this.judgePhysicsBudget = judge;
    }

    /**
     * Whether a step on the wall clock (one the physics budget judges) stops its contact solver's sweeps at
     * {@link #SOLVER_DEADLINE_SHARE} of the tick ({@link PhysicsWorld#step(double, long)}), after the first sweep:
     * on a loaded machine the contacts then converge over more steps, through the warm start, instead of the tick
     * running past its deadline; and a step the machine runs too slow to end before the next deadline is dropped
     * ({@link #stepOnTheWallClock}). True by default; false steps every tick whole, to convergence or the sweep budget,
     * so that the answer does not depend on the machine's speed. A loop on simulated time never has the deadline.
     * Before the first tick.
     */
    public void setSolverDeadline(boolean on) {
        this.solverDeadline = on;
    }

    /**
     * The solver's deadline at {@code share} of the tick instead of {@link #SOLVER_DEADLINE_SHARE}: 0 stops every
     * step's sweeps after their first (the JIT warm-up's, so that the cut is compiled before a real run needs it).
     * Before the first tick.
     */
    public void setSolverDeadlineShare(double share) {
        if (!(share >= 0.0 && share <= 1.0)) {
            throw new IllegalArgumentException("solver deadline share must be 0..1, got " + share);
        }
        this.solverDeadlineAfterNs = (long) (share * periodNs);
    }

    /** Whether a step on the wall clock stops its solver at the tick's deadline ({@link #setSolverDeadline}). */
    public boolean solverDeadline() {
        return solverDeadline;
    }

    @Override
    public boolean paused() {
        return paused;
    }

    @Override
    public void setForceScale(double scale) {
        if (!(scale >= 0.0 && scale <= 1.0)) {
            throw new IllegalArgumentException("force scale must be in [0, 1], got " + scale);
        }
        forceScale = scale;
    }

    @Override
    public void setTestForce(double xN, double yN, double zN, double frequencyHz) {
        if (!(Double.isFinite(xN) && Double.isFinite(yN) && Double.isFinite(zN))) {
            throw new IllegalArgumentException("a test force must be finite, got (" + xN + ", " + yN + ", " + zN + ")");
        }
        if (!(frequencyHz >= 0.0 && Double.isFinite(frequencyHz))) {
            throw new IllegalArgumentException("a test force's frequency must be finite and >= 0, got " + frequencyHz);
        }
        testForceN.set(xN, yN, zN);
        testFrequencyHz = frequencyHz;
        testForceStartsNow = true;
    }

    @Override
    public DeviceMapping mapping() {
        return mapping;
    }

    @Override
    public void replaceScene(HapticScene scene, SnapshotExchange newExchange, LoopSnapshot newSnapshot) {
        if (newSnapshot.bodyCount != scene.world().bodyCount()
            || newSnapshot.nodeCount != scene.world().deformableNodeCount()) {
            throw new IllegalArgumentException("snapshot sized for " + newSnapshot.bodyCount + " bodies and "
                + newSnapshot.nodeCount + " nodes, the new world has " + scene.world().bodyCount() + " and "
                + scene.world().deformableNodeCount());
        }
        takeScene(scene);
        simTimeNs = 0;
        exchange = newExchange;
        snapshot = newSnapshot;
        // The contacts the change events compare against belonged to the old world.
        previousContactCount = 0;
        safety.regate();
        tickEvents |= LoopEvents.SCENE_CHANGED;
    }

    private void takeScene(HapticScene scene) {
        this.scene = scene;
        if (world != null && world != scene.world()) {
            // The old world's second lane, if it had one, ends with it.
            world.setStepLanes(1);
        }
        world = scene.world();
        world.setStepLanes(stepLanes);
        toolBody = scene.toolBody();
        mapping = scene.mapping();
        transients = scene.transients();
        grasps = scene.grasps();
        renderer = scene.renderer();
        effects = scene.effects();
        passivity = scene.passivity();
        render.bind(world, toolBody, renderer);
    }

    /**
     * The end-of-run line of the scene's passivity controller, or {@code null} (none, or it never damped). Read it
     * once the loop has stopped.
     */
    public String passivitySummary() {
        return passivity == null ? null : passivity.summary();
    }

    /** Sets who receives every tick (the recorder); call before the loop starts ticking. */
    public void setTickSink(TickSink sink) {
        this.tickSink = sink == null ? TickSink.NONE : sink;
    }

    /**
     * Steps each world of this loop, the current and any that replaces it, on {@code lanes} lanes
     * ({@link PhysicsWorld#setStepLanes}): 2 only for a loop on simulated time ({@code simulate}), whose steps have
     * no deadline; a wall-clock loop's steps always run on one. Call on the thread that drives the loop, before it
     * ticks.
     */
    public void setStepLanes(int lanes) {
        world.setStepLanes(lanes);
        stepLanes = lanes;
    }

    /** Steps so far that ran split over two lanes ({@link #setStepLanes}). */
    public long splitSteps() {
        return splitSteps;
    }

    /** Commands zero force and closes the device. Called once when the loop stops, on the loop thread. */
    public void shutdown() {
        world.setStepLanes(1);
        try {
            device.commandForce(0.0, 0.0, 0.0, 0.0, 0.0, 0.0);
        } catch (RuntimeException e) {
            // A device that fails now (a link that broke during the run) cannot take the zero either; closing it is
            // what is left (a link device's firmware zeroes its output when the host goes quiet). The run's own
            // error, if it had one, is the one to report.
            if (lastError.get() == null) {
                lastError.set(e);
            }
        } finally {
            device.close();
        }
    }

    /** The loop's own snapshot of the last tick. Only for the thread that drives {@link #tick} (simulator). */
    public LoopSnapshot lastSnapshot() {
        return snapshot;
    }

    /** Any thread: the most recent error thrown by a stage, or null. */
    public Throwable lastError() {
        return lastError.get();
    }

    /** Any thread: how many commands threw and were dropped. */
    public long commandErrors() {
        return commandErrors.get();
    }

    /** Any thread: how many ticks ended in a stage error. */
    public long errorCount() {
        return errorCount.get();
    }

    @Override
    public long currentTick() {
        return ticks;
    }

    public long ticks() {
        return ticks;
    }

    /** The loop clock's time of the first tick; meaningful once a tick ran. Loop thread, or after it stopped. */
    public long firstTickNs() {
        return firstTickNs;
    }

    public long periodNs() {
        return periodNs;
    }

    @Override
    public PhysicsWorld world() {
        return world;
    }

    /** The renderer of the scene the loop runs. */
    public ForceRenderer renderer() {
        return renderer;
    }

    /** The scene the loop runs. Loop thread, or after the loop stopped (a test between ticks). */
    public HapticScene scene() {
        return scene;
    }

    @Override
    public SafetyLayer safety() {
        return safety;
    }

    @Override
    public HapticDevice device() {
        return device;
    }
}
