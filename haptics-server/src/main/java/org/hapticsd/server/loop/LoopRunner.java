package org.hapticsd.server.loop;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.LockSupport;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;
import org.hapticsd.device.ThreadPolicy;
import org.hapticsd.device.Uninterruptibly;

/**
 * Owns the loop thread: waits for each absolute deadline with the chosen {@link WaitStrategy}, reads the clock
 * once, runs the tick, and moves to the next deadline: after a tick that overran, at once to the deadline it ran past
 * when that passed less than half a period ago, else skipping the missed deadlines ({@link TickSchedule}).
 * On stop the loop commands zero force and closes the device on its own thread, so the device handle never
 * changes threads.
 *
 * <p>With a real-time priority ({@link #LoopRunner(HapticLoop, int, WaitStrategy, NanoClock, int)}) the thread
 * puts itself under Linux's FIFO policy before its first tick, so no time-sharing thread of any process can keep it
 * from its deadline: measured with three CPU hogs on the 2-vCPU machine, the 200-sphere pile skipped 1,355–2,107
 * deadlines in 15 s at normal priority and 5–33 under FIFO (docs/performance.md). Where the policy is not permitted
 * (no CAP_SYS_NICE, {@code ulimit -r} 0) the loop runs as before and {@link #policy()} says why.
 * A guard thread watches the loop thread's CPU time: a loop that keeps a core busy for a whole second (a scene over
 * its budget) is put back under the normal policy before the kernel's real-time throttle would stop it for 50 ms.
 *
 * <p>Asked to keep its CPU awake ({@link #keepCpuAwake}), a loop whose wait parks runs on one CPU only, the last it
 * may use, with an idle-policy thread spinning on the same CPU ({@link KeepAwake}), so that the CPU never halts
 * between ticks.
 */
public final class LoopRunner implements AutoCloseable {
    public static final String THREAD_NAME = "hapticsd-loop";
    /** The real-time priority {@code run}, {@code test} and the benchmarks ask for unless told otherwise. */
    public static final int DEFAULT_RT_PRIORITY = 10;
    /** The highest priority accepted: 99 is the kernel's own (watchdog and migration threads). */
    public static final int MAX_RT_PRIORITY = ThreadPolicy.MAX_FIFO_PRIORITY;
    /** CPU share of the loop thread over {@link #SATURATION_WINDOW_NS} at which it leaves the real-time policy. */
    static final double SATURATED_SHARE = 0.85;
    static final long SATURATION_WINDOW_NS = 1_000_000_000L;
    private static final long GUARD_PERIOD_NS = 100_000_000L;

    private final HapticLoop loop;
    /**
     * A field, not a local of {@link #run()}: C2 would scalar-replace a local schedule, and the first overrun
     * (a branch never taken before) would deoptimise the loop and re-materialise it on the heap, an
     * allocation on the loop thread in the middle of a run.
     */
    private final TickSchedule schedule;
    private final WaitStrategy waitStrategy;
    private final NanoClock clock;
    private final Thread thread;
    private volatile boolean running = true;
    private volatile Throwable fatal;
    private volatile long skippedDeadlines;
    private volatile long lateStarts;
    /** Why the ticks that overran did, classified by the loop thread ({@link OverrunCauses}). */
    private final OverrunCauses overrunCauses = new OverrunCauses();
    /**
     * The loop thread's CPU clock, on the wall clock where the JVM can read it (else null), or a test's
     * ({@link #cpuClockForTest}, set before the thread starts); the loop thread's once it runs.
     */
    private NanoClock cpuClock;
    /**
     * A decaying peak of the tick time, for the wait strategy ({@link WaitStrategies}: hybrid parks less after
     * heavy ticks). It falls by 1/64 per tick, so a spike is remembered for about a hundred ticks.
     */
    private long recentTickNs;
    /** 0: the normal policy; otherwise the FIFO priority asked for. */
    private final int rtPriority;
    /** How to wait under the FIFO policy; null when {@link #waitStrategy} must not run there. */
    private final WaitStrategy realTimeWait;
    /** Whether the loop thread runs under the FIFO policy now: read once per tick to choose the wait. */
    private volatile boolean realTime;
    private volatile String policy = "normal";
    private boolean keepCpuAwake;
    /** The CPU the loop thread was pinned to for {@link #keepCpuAwake}, or -1. */
    private volatile int loopCpu = -1;
    private volatile String awakeRefused;
    /** The loop thread's kernel id and the CPUs it could use before it was pinned, to undo the pin. */
    private volatile long pinnedTid = -1;
    private volatile int[] cpusBeforePin;
    private volatile KeepAwake awake;
    /** Counted down once the loop thread has set its policy and fixed its first deadline. */
    private final CountDownLatch threadReady = new CountDownLatch(1);
    private volatile long firstDeadlineNs;
    private volatile long endDeadlineNs;
    private volatile long threadTid = -1;

    /** A loop thread under the normal time-sharing policy. */
    public LoopRunner(HapticLoop loop, int rateHz, WaitStrategy waitStrategy, NanoClock clock) {
        this(loop, rateHz, waitStrategy, clock, 0);
    }

    /**
     * @param rtPriority the real-time FIFO priority the loop thread asks for, 1..{@link #MAX_RT_PRIORITY}, or 0 for
     *                   the normal time-sharing policy
     */
    public LoopRunner(HapticLoop loop, int rateHz, WaitStrategy waitStrategy, NanoClock clock, int rtPriority) {
        this.loop = loop;
        this.schedule = new TickSchedule(rateHz, 0);
        this.waitStrategy = waitStrategy;
        this.clock = clock;
        this.rtPriority = ThreadPolicy.checkedPriority(rtPriority);
        this.realTimeWait = waitStrategy.underRealTimePolicy();
        this.thread = new Thread(this::run, THREAD_NAME);
        this.thread.setPriority(Thread.MAX_PRIORITY);
    }

    private volatile boolean started;

    /**
     * Before {@link #start()}: whether to keep the loop's CPU from going idle between ticks ({@link KeepAwake}; off by
     * default). Only a wait that parks needs it ({@link WaitStrategy#parks()}); a spinning wait keeps the CPU busy by
     * itself, and then this does nothing.
     *
     * @return this runner
     */
    public LoopRunner keepCpuAwake(boolean on) {
        if (started) {
            throw new IllegalStateException("keepCpuAwake is set before start()");
        }
        this.keepCpuAwake = on;
        return this;
    }

    /**
     * Starts the loop thread; returns once it has set its scheduling policy ({@link #policy()}) and fixed its first
     * deadline ({@link #firstDeadlineNs()}).
     */
    public void start() {
        started = true;
        thread.start();
        Uninterruptibly.await(threadReady);
        if (loopCpu >= 0) {
            // Here for the same reason as the guard: the companion must start time-sharing, then lower itself.
            KeepAwake companion = new KeepAwake(loopCpu);
            if (companion.refused() == null) {
                awake = companion;
            } else {
                // A pinned loop without the companion gains nothing (docs/performance.md) and cannot move away
                // from a busy CPU: it gets its CPUs back.
                awakeRefused = companion.refused();
                ThreadPolicy.pinToCpus(pinnedTid, cpusBeforePin);
                loopCpu = -1;
            }
        }
        if (realTime) {
            // Started here, not on the loop thread: a thread inherits its creator's policy, and the guard (and the
            // JDK's process reaper its chrt call creates) must stay time-sharing (a tester found both at FIFO 10).
            Thread guard = new Thread(this::guardPolicy, THREAD_NAME + "-guard");
            guard.setDaemon(true);
            guard.start();
        }
    }

    /**
     * The loop thread's scheduling as a phrase ("real-time FIFO priority 10", "normal", "normal: real-time refused
     * (...)", "normal since 3.2 s: ..."); final once {@link #start()} returns, except for the guard's demotion.
     */
    public String policy() {
        return policy;
    }

    /**
     * Where the loop thread runs, once {@link #start()} has returned: "any CPU", "CPU N, kept awake" ({@link
     * #keepCpuAwake}) or "any CPU: not kept awake (why)".
     */
    public String placement() {
        if (awakeRefused != null) {
            return "any CPU: not kept awake (" + awakeRefused + ")";
        }
        if (loopCpu < 0) {
            return "any CPU";
        }
        return "CPU " + loopCpu + ", kept awake by an idle-priority thread";
    }

    /** The CPU the loop thread is pinned to, or -1 when it may run on any. */
    public int loopCpu() {
        return loopCpu;
    }

    /** The companion that keeps the loop's CPU awake, while the loop runs with one; else null. */
    KeepAwake keepAwake() {
        return awake;
    }

    /** The loop thread's kernel thread id once it runs under the real-time policy, else -1. */
    long threadTid() {
        return threadTid;
    }

    /** Whether the loop thread runs under the real-time FIFO policy now. */
    public boolean isRealTime() {
        return realTime;
    }

    /**
     * The loop clock's time of the deadline after the last tick, once the loop has stopped ({@link #close()}): the
     * run spanned {@code endDeadlineNs() - firstDeadlineNs()} of loop time, one period for each tick and each
     * skipped deadline.
     */
    public long endDeadlineNs() {
        return endDeadlineNs;
    }

    /**
     * The loop clock's time of the first tick's deadline, where the run's statistics start (a status line a second
     * after it counts a second of ticks); valid once {@link #start()} has returned.
     */
    public long firstDeadlineNs() {
        return firstDeadlineNs;
    }

    /**
     * Before the first tick, on the loop thread: its CPU and its own policy (subprocesses, so never inside the loop).
     * The CPU first, while the thread is still time-sharing: the helper thread that runs taskset inherits it.
     */
    private void applyPolicy() {
        if (keepCpuAwake && waitStrategy.parks()) {
            pinToLastCpu();
        }
        if (rtPriority == 0) {
            return;
        }
        if (realTimeWait == null) {
            policy = "normal: --wait " + waitStrategy.name() + " never sleeps, and the kernel stops a real-time "
                + "thread that never sleeps, for 50 ms of every second; use hybrid or sleep for real time";
            return;
        }
        long tid = ThreadPolicy.currentThreadTid();
        if (tid < 0) {
            policy = "normal: real-time scheduling is set on Linux only (no /proc/thread-self here)";
            return;
        }
        String refused = ThreadPolicy.setFifo(tid, rtPriority);
        if (refused != null) {
            policy = ThreadPolicy.refusal(refused, rtPriority);
            return;
        }
        threadTid = tid;
        realTime = true;
        policy = "real-time FIFO priority " + rtPriority;
    }

    private void pinToLastCpu() {
        long tid = ThreadPolicy.currentThreadTid();
        if (tid < 0) {
            awakeRefused = "Linux only (no /proc/thread-self here)";
            return;
        }
        int[] cpus = ThreadPolicy.allowedCpus(tid);
        if (cpus.length == 0) {
            awakeRefused = "the thread's CPUs could not be read";
            return;
        }
        int cpu = cpus[cpus.length - 1];
        String refused = ThreadPolicy.pinToCpus(tid, cpu);
        if (refused != null) {
            awakeRefused = refused;
            return;
        }
        pinnedTid = tid;
        cpusBeforePin = cpus;
        loopCpu = cpu;
    }

    /**
     * Samples the loop thread's CPU time ten times a second; once it has kept {@link #SATURATED_SHARE} of a core
     * over {@link #SATURATION_WINDOW_NS}, puts it back under the normal policy, once, and stops.
     */
    private void guardPolicy() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long loopId = thread.getId();
        long startNs = System.nanoTime();
        SaturationGuard guard = new SaturationGuard(SATURATION_WINDOW_NS, SATURATED_SHARE,
            (int) (SATURATION_WINDOW_NS / GUARD_PERIOD_NS));
        while (running && thread.isAlive()) {
            long cpuNs = threads.getThreadCpuTime(loopId);
            long nowNs = System.nanoTime();
            if (cpuNs >= 0 && guard.sample(nowNs, cpuNs)) {
                String refused = ThreadPolicy.setNormal(threadTid);
                String share = String.format(Locale.ROOT, "%.0f %%", 100 * guard.lastShare());
                if (refused == null) {
                    realTime = false;
                    policy = String.format(Locale.ROOT, "normal since %.1f s: the loop kept %s of a core busy for "
                        + "a second, and the kernel throttles a real-time thread above 95 %% (a 50 ms stall)",
                        (nowNs - startNs) * 1e-9, share);
                } else {
                    policy = "real-time FIFO priority " + rtPriority + ", at " + share + " of a core; could not "
                        + "return it to normal (" + refused + ")";
                }
                return;
            }
            LockSupport.parkNanos(GUARD_PERIOD_NS);
        }
    }

    private void run() {
        try {
            try {
                applyPolicy();
                // The thread's CPU time only on the wall clock: on a simulated one the overruns have no host.
                if (cpuClock == null && clock instanceof SystemNanoClock) {
                    cpuClock = ThreadCpuClock.ifSupported();
                }
                schedule.restart(clock.nanoTime());
                firstDeadlineNs = schedule.deadlineNs();
            } finally {
                threadReady.countDown();
            }
            while (running) {
                long deadlineNs = schedule.deadlineNs();
                boolean startsLate = schedule.nextStartsLate();
                (realTime ? realTimeWait : waitStrategy).waitUntil(deadlineNs, recentTickNs, clock);
                long startNs = clock.nanoTime();
                long cpuStartNs = cpuClock != null ? cpuClock.nanoTime() : 0L;
                loop.tick(startNs, deadlineNs);
                long endNs = clock.nanoTime();
                recentTickNs = Math.max(endNs - startNs, recentTickNs - (recentTickNs >> 6));
                if (schedule.advance(endNs)) {
                    // Deadlines are skipped only after an overrun: the field still holds the total before this one.
                    overrunCauses.record(startNs - deadlineNs, endNs - startNs,
                        cpuClock != null ? cpuClock.nanoTime() - cpuStartNs : -1L, loop.lastStepCpuNs(),
                        loop.stepUsualNs(), startsLate, schedule.skippedDeadlines() - skippedDeadlines);
                    loop.afterTick(true);
                    skippedDeadlines = schedule.skippedDeadlines();
                    lateStarts = schedule.lateStarts();
                } else {
                    loop.afterTick(false);
                }
            }
        } catch (Throwable t) {
            fatal = t;
        } finally {
            endDeadlineNs = schedule.deadlineNs();
            loop.shutdown();
        }
    }

    /**
     * Before {@link #start()}: the loop thread's CPU time read from {@code cpu} instead of the thread's CPU clock, so
     * that a test on a simulated wall clock can say how much of each tick was on the CPU ({@link OverrunCauses}).
     */
    LoopRunner cpuClockForTest(NanoClock cpu) {
        this.cpuClock = cpu;
        return this;
    }

    /**
     * Why the ticks that overran did: read once the loop has stopped ({@link #close()} joins the loop thread); while
     * it runs, the loop thread writes it.
     */
    public OverrunCauses overrunCauses() {
        return overrunCauses;
    }

    /** Deadlines skipped because ticks overran; any thread. */
    public long skippedDeadlines() {
        return skippedDeadlines;
    }

    /**
     * Ticks started at once, late, for a deadline the tick before them ran past by less than half a period (instead
     * of skipping it); any thread.
     */
    public long lateStarts() {
        return lateStarts;
    }

    /** Id of the loop thread, for reading its allocation counter from another thread. */
    public long threadId() {
        return thread.getId();
    }

    public boolean isRunning() {
        return thread.isAlive();
    }

    /** An error that escaped the tick's own handling and stopped the loop, or null. */
    public Throwable fatalError() {
        return fatal;
    }

    /**
     * Stops after the current tick; the device is left at zero force and closed. Waits for the thread, then stops the
     * companion that kept its CPU awake.
     */
    @Override
    public void close() {
        running = false;
        if (!started) {
            // No loop thread ever owned the device: release it here, once.
            started = true;
            loop.shutdown();
            return;
        }
        Uninterruptibly.join(thread);
        if (awake != null) {
            awake.close();
        }
    }
}
