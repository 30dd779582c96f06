package org.hapticsd.server;

import static org.hapticsd.server.loop.TickSchedule.periodNsFor;

import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;
import org.hapticsd.device.DeviceFault;
import org.hapticsd.device.DeviceHealth;
import org.hapticsd.device.DeviceInfo;
import org.hapticsd.device.DeviceState;
import org.hapticsd.device.HapticDevice;
import org.hapticsd.device.sim.SimulatedDevice;
import org.hapticsd.protocol.StatusFlags;
import org.hapticsd.server.loop.HapticLoop;
import org.hapticsd.server.loop.LoopRunner;
import org.hapticsd.server.loop.TickSchedule;
import org.hapticsd.server.loop.TickSink;
import org.hapticsd.server.loop.WaitStrategies;
import org.hapticsd.server.net.EventLog;
import org.hapticsd.server.scene.BuiltScene;

/**
 * Runs a throwaway copy of the scene before the real-time loop starts, so that the tick's code is compiled by
 * C2, with every branch it will meet already profiled, before it has to meet deadlines.
 *
 * <p>Without it the first 10–20 s of a 1 kHz run execute partly interpreted or C1-compiled code (C2 compiles
 * after roughly 10,000 invocations) while compiler threads compete for the cores. And a branch never taken
 * while profiling (the first overrun, the first phase flip of a statistics recorder) costs a deoptimisation
 * in the middle of the run, which on HotSpot also charges a few dozen bytes to the loop thread.
 *
 * <p>Two phases, both on a throwaway world and simulated stylus so nothing leaks into the real scene or device:
 * ticks driven directly on simulated time (the scene's hand path with contacts, the safety gate and ramp, and the
 * device faults of a link: stale states, disconnection, the device's own watchdog), by {@value #DIRECT_SESSIONS}
 * fresh loops in turn so that a loop's first ticks are profiled too, then
 * a {@link LoopRunner} on a simulated clock that makes some ticks overrun while this thread samples the
 * statistics, as the status printer does.
 */
public final class JitWarmUp {
    /** Simulated ticks driven directly: enough for C2 (Tier4 thresholds are 5,000–15,000 invocations). */
    public static final int DEFAULT_TICKS = 40_000;
    /** The direct ticks are run by this many fresh loops in turn, each its share (see {@code freshLoop}). */
    static final int DIRECT_SESSIONS = 8;
    /** Ticks run through a runner on a simulated clock. */
    public static final int RUNNER_TICKS = 20_000;
    /**
     * Wall-time bound of the direct phase. A heavy scene reaches it first: 40,000 ticks of an 800-sphere pile
     * (2 ms a step) took 50 s of silence before the loop started. Its physics loops are compiled within the first
     * hundreds of ticks anyway (back-edge counters); what is given up is profiling of rare branches of the tick.
     */
    public static final long MAX_DIRECT_NS = 5_000_000_000L;
    /** Wall-time bound of the runner phase, for the same reason. */
    public static final long MAX_RUNNER_NS = 2_000_000_000L;
    private static final int TICKS_PER_SAMPLE = 500;
    private static final int TICKS_PER_CLOCK_CHECK = 100;

    private JitWarmUp() {
    }

    /**
     * Whether the heap can hold a throwaway copy of the scene just loaded: {@code null} when it can, else why not.
     * The copy needs about what is in use now (the scene, its contact budget, the JVM's own), with room to spare;
     * a tester's 10,000-sphere pile fit a 40 MB heap once, and building the copy then spent minutes in back-to-back
     * full collections, the server silent. Collects once to measure (at start-up, before any deadline).
     */
    public static String noRoomForACopy() {
        Runtime runtime = Runtime.getRuntime();
        System.gc();
        return noRoomForACopy(runtime.totalMemory() - runtime.freeMemory(), runtime.maxMemory());
    }

    /** The rule of {@link #noRoomForACopy()}: free heap for what is in use and half as much again, plus 16 MB. */
    static String noRoomForACopy(long usedBytes, long maxBytes) {
        long freeBytes = maxBytes - usedBytes;
        if (freeBytes >= usedBytes + usedBytes / 2 + (16L << 20)) {
            return null;
        }
        return String.format(java.util.Locale.ROOT, "the heap cannot hold a throwaway copy of the scene (%d MB in use"
            + " of %d MB)", usedBytes >> 20, maxBytes >> 20);
    }

    /**
     * @param throwawayScene a freshly built scene that nothing else uses (its world is consumed)
     * @param streamEvents   whether the real loop will publish stream events ({@link EventLog}, what {@code run}
     *                       and {@code bench stream} do): the throwaway loop then publishes into a throwaway log, so
     *                       that its code is compiled too. Without it the first contacts of a run were turned into
     *                       events by the interpreter: 200 spheres landing cost two ticks of 1.1–1.9 ms, 0.1 s in
     *                       (the step itself 0.15–0.3 ms of them)
     */
    public static void run(BuiltScene throwawayScene, int rateHz, int ticks, boolean streamEvents) {
        run(throwawayScene, rateHz, ticks, streamEvents, MAX_DIRECT_NS, MAX_RUNNER_NS);
    }

    /**
     * As {@link #run(BuiltScene, int, int, boolean)}, each phase also stopped after the given wall time.
     *
     * @return the ticks run, both phases together
     */
    public static long run(BuiltScene throwawayScene, int rateHz, int ticks, boolean streamEvents, long maxDirectNs,
                           long maxRunnerNs) {
        // Nobody reads the log: its broadcast rings overwrite their oldest records, as for a client that never reads.
        TickSink sink = streamEvents ? new EventLog(TickSchedule.periodNsFor(rateHz)) : TickSink.NONE;
        return run(throwawayScene, rateHz, ticks, sink, maxDirectNs, maxRunnerNs);
    }

    /** As the public form, the throwaway loop publishing into {@code sink}. */
    static long run(BuiltScene throwawayScene, int rateHz, int ticks, TickSink sink, long maxDirectNs,
                    long maxRunnerNs) {
        long directStartNs = System.nanoTime();
        long ticksRun = 0;
        int perSession = Math.max(1, (ticks + DIRECT_SESSIONS - 1) / DIRECT_SESSIONS);
        for (int session = 0; session < DIRECT_SESSIONS && ticksRun < ticks; session++) {
            // The sessions take turns at three device classes: the fault-injecting wrapper, the bare simulated stylus
            // (what a run without a link drives) and a plain relay. With two classes C2 compiled the loop's calls
            // into the device for exactly those two, and a real device of a third class (a link driver) met a trap
            // on its first call that threw the compiled runStages and afterTick away as the run started
            // (-XX:+PrintCompilation, `run --device emulator --scene scenes/pile-200.yaml`; recompiled 0.1 s into
            // the run). Three classes make those calls ordinary virtual calls, whatever the real device's class.
            // Every fourth session times its stages on a clock that makes each step look a period long, so the
            // physics budget's verdict turns to "over" (and its event is published) once: no warm-up step of a
            // pile came near the budget, C2 compiled that branch out, and a pile whose landing pushed the real
            // run over budget threw away the compiled runStages there (JFR: jdk.Deoptimization, unstable_if at
            // the budget's verdict, 2–3 s into the run). The verdict needs a window of a second of loop time, which
            // a session within its share of the wall-time bound reaches while a step takes under about 0.6 ms; a
            // heavier scene is over budget from its first second anyway.
            NanoClock stageTimer = session % 4 == 3
                ? new SlowStageTimer(periodNsFor(rateHz)) : SystemNanoClock.INSTANCE;
            HapticLoop loop = freshLoop(throwawayScene, rateHz, sink, WarmUpDevice.values()[session % 3], stageTimer)
                .loop();
            // Every fourth session from the second gives the solver no time after its first sweeps, so that the cut
            // at the tick's deadline (HapticLoop.setSolverDeadline) is compiled in: a real run meets it only when the
            // machine is slow, which is the worst moment for the loop to run interpreted.
            if (session % 4 == 1) {
                loop.setSolverDeadlineShare(0.0);
            }
            long periodNs = loop.periodNs();
            // Each session its share of the wall-time bound, so that a heavy scene still gets every session.
            long sessionEndNs = (session + 1) * (maxDirectNs / DIRECT_SESSIONS);
            for (int k = 0; k < perSession && ticksRun < ticks; k++) {
                loop.tick(k * periodNs);
                loop.afterTick(false);
                ticksRun++;
                if (k % TICKS_PER_CLOCK_CHECK == 0 && System.nanoTime() - directStartNs > sessionEndNs) {
                    break;
                }
            }
            loop.shutdown();
        }
        LoopAssembly assembly = freshLoop(throwawayScene, rateHz, sink, WarmUpDevice.FAULTY, SystemNanoClock.INSTANCE);
        HapticLoop loop = assembly.loop();
        LoopRunner runner = new LoopRunner(loop, rateHz, WaitStrategies.SPIN, new OverrunningClock(loop.periodNs()));
        long runnerStartNs = System.nanoTime();
        runner.start();
        long target = RUNNER_TICKS;
        long sampledAt = 0;
        while (runner.isRunning() && assembly.stats().ticks() < target
            && System.nanoTime() - runnerStartNs <= maxRunnerNs) {
            long ticksNow = assembly.stats().ticks();
            if (ticksNow - sampledAt >= TICKS_PER_SAMPLE) {
                assembly.stats().sample();
                sampledAt = ticksNow;
            }
            Thread.onSpinWait();
        }
        runner.close();
        return ticksRun + assembly.stats().ticks();
    }

    /**
     * A new loop, device, safety layer and statistics around the throwaway scene (whose world carries on). What a
     * real loop does once, on its first ticks (the safety ramp from a fresh state, the first longest tick, the
     * device's first read), a single throwaway loop does only before the JIT has started profiling: C2 then
     * compiled those branches out, and the real loop's first tick deoptimised the whole tick
     * ({@code -XX:+PrintCompilation}: {@code HapticLoop::tick}, {@code SafetyLayer::update},
     * {@code LoopStats::recordTick} and {@code SimulatedDevice::advance} "made not entrant" as it started), so it
     * ran interpreted for its first milliseconds. A fresh loop per session makes them ordinary.
     */
    private static LoopAssembly freshLoop(BuiltScene throwawayScene, int rateHz, TickSink sink, WarmUpDevice kind,
                                          NanoClock stageTimer) {
        SimulatedDevice stylus = openedSimulatedDevice(throwawayScene);
        HapticDevice device = switch (kind) {
            case FAULTY -> new FaultyDevice(stylus);
            case BARE -> stylus;
            case RELAY -> new RelayDevice(stylus);
        };
        LoopAssembly assembly = new LoopAssembly(throwawayScene, device, rateHz, stageTimer);
        assembly.loop().setTickSink(sink);
        return assembly;
    }

    private static SimulatedDevice openedSimulatedDevice(BuiltScene scene) {
        SimulatedDevice device = scene.newSimulatedDevice();
        device.open();
        return device;
    }

    /**
     * The simulated stylus with the faults a device on a link shows now and then, so their branches (the safety
     * layer's watchdog and device faults, the loop's device events) are compiled before the run rather than
     * deoptimised in it: every {@link #CYCLE_TICKS} ticks, 10 ticks without a fresh state, then 60 ticks
     * disconnected, then 60 ticks with the device's own watchdog tripped and its status word changed.
     */
    private static final class FaultyDevice extends RelayDevice {
        private static final int CYCLE_TICKS = 2_000;
        private long reads;

        FaultyDevice(SimulatedDevice device) {
            super(device);
        }

        private int phase() {
            return (int) (reads % CYCLE_TICKS);
        }

        @Override
        public boolean readState(long nowNs, DeviceState dest) {
            reads++;
            boolean fresh = super.readState(nowNs, dest);
            int phase = phase();
            dest.statusFlags = phase >= 1_200 && phase < 1_260 ? StatusFlags.WATCHDOG_TRIPPED | StatusFlags.FAULT
                : StatusFlags.OUTPUT_ENABLED;
            return fresh && !(phase >= 1_000 && phase < 1_010);
        }

        @Override
        public void health(long nowNs, DeviceHealth dest) {
            super.health(nowNs, dest);
            int phase = phase();
            if (phase >= 1_100 && phase < 1_160) {
                dest.connected = false;
                dest.fault = DeviceFault.LINK_LOST;
            } else if (phase >= 1_200 && phase < 1_260) {
                dest.fault = DeviceFault.WATCHDOG;
            }
        }
    }

    /** The device classes the warm-up's loops drive, in turn (see {@code run}). */
    private enum WarmUpDevice { FAULTY, BARE, RELAY }

    /**
     * The simulated stylus behind a class of its own, for the third class at the loop's device call sites; also the
     * base of {@link FaultyDevice}, whose objects are of a class of their own all the same.
     */
    private static class RelayDevice implements HapticDevice {
        private final SimulatedDevice device;

        RelayDevice(SimulatedDevice device) {
            this.device = device;
        }

        @Override
        public void open() {
            device.open();
        }

        @Override
        public DeviceInfo info() {
            return device.info();
        }

        @Override
        public boolean readState(long nowNs, DeviceState dest) {
            return device.readState(nowNs, dest);
        }

        @Override
        public void commandForce(double forceXN, double forceYN, double forceZN,
                                 double torqueXNm, double torqueYNm, double torqueZNm) {
            device.commandForce(forceXN, forceYN, forceZN, torqueXNm, torqueYNm, torqueZNm);
        }

        @Override
        public void endOfTick() {
            device.endOfTick();
        }

        @Override
        public void health(long nowNs, DeviceHealth dest) {
            device.health(nowNs, dest);
        }

        @Override
        public void close() {
            device.close();
        }
    }

    /**
     * A stage timer that moves a period per read: every stage, the physics step included, measures a period, over the
     * physics budget ({@link org.hapticsd.server.loop.PhysicsBudget#BUDGET_FRACTION} of it). A loop given a clock
     * other than the system's judges the step by it rather than by the thread's CPU time.
     */
    private static final class SlowStageTimer implements NanoClock {
        private final long periodNs;
        private long nowNs;

        SlowStageTimer(long periodNs) {
            this.periodNs = periodNs;
        }

        @Override
        public long nanoTime() {
            nowNs += periodNs;
            return nowNs;
        }
    }

    /** Moves a third of a period per read, and every 97th read jumps three periods: ticks overrun now and then. */
    private static final class OverrunningClock implements NanoClock {
        private final long periodNs;
        private long nowNs;
        private long reads;

        OverrunningClock(long periodNs) {
            this.periodNs = periodNs;
        }

        @Override
        public long nanoTime() {
            nowNs += ++reads % 97 == 0 ? 3 * periodNs : periodNs / 3;
            return nowNs;
        }
    }
}
