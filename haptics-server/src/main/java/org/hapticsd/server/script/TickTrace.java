package org.hapticsd.server.script;

import org.hapticsd.server.loop.LoopSnapshot;
import org.hapticsd.server.loop.TickSink;

/** What a test script's assertions look at, one entry per tick, in arrays sized before the run (no allocation). */
final class TickTrace implements TickSink {
    /**
     * The most ticks a script's run may trace: an hour at 1 kHz, about 277 MB at {@link #BYTES_PER_TICK}, within the
     * launcher's 512 MB heap. The assertions read any tick of their window and a window may span the whole run, so
     * the trace is not thinned to fit; a longer script is refused before it runs (a soak is several scripts).
     */
    static final long MAX_TICKS = 3_600_000L;
    /** What one traced tick costs in the arrays below. */
    static final int BYTES_PER_TICK = 8 + 6 * 8 + 3 * 4 + 1 + 1 + 4 + 1 + 1 + 1;
    /** What each body a {@code bodyPosition} assertion names adds to a traced tick: its centre in floats. */
    static final int BYTES_PER_BODY = 3 * 4;
    /** The memory the trace may take: {@link #MAX_TICKS} ticks of a script that names no body. */
    static final long MAX_BYTES = MAX_TICKS * BYTES_PER_TICK;

    final long[] timeNs;
    final double[] forceX;
    final double[] forceY;
    final double[] forceZ;
    final double[] deliveredX;
    final double[] deliveredY;
    final double[] deliveredZ;
    /** The tool's centre (the proxy's, for a scene rendered by proxy), scene frame, in floats: 0.1 µm at 1 m. */
    final float[] toolX;
    final float[] toolY;
    final float[] toolZ;
    final byte[] safety;
    final byte[] fault;
    final int[] contacts;
    final boolean[] connected;
    /** Whether the tick read a new device state (what the loop's watchdog counts). */
    final boolean[] fresh;
    /** The tick in which a script's {@code stall} parked the loop (its gap to the next tick is not the host's). */
    final boolean[] injectedStall;
    /** The world indices of the bodies the {@code bodyPosition} assertions name, and their centres, scene frame. */
    final int[] bodies;
    final String[] bodyNames;
    final float[][] bodyX;
    final float[][] bodyY;
    final float[][] bodyZ;
    int count;
    long overruns;
    /** Contacts the physics dropped over its budget, to the last tick traced (the snapshot's running totals). */
    long droppedPairs;
    long droppedPoints;
    /** Ticks whose last finished window judged the physics step over budget, and the longest p99 such a window had. */
    long overBudgetTicks;
    long worstStepP99Ns;
    long budgetNs;
    private boolean stallInThisTick;

    TickTrace(int capacity) {
        this(capacity, new int[0], new String[0]);
    }

    /** @param bodies world indices of the bodies whose centres are traced, named by {@code names} */
    TickTrace(int capacity, int[] bodies, String[] names) {
        timeNs = new long[capacity];
        forceX = new double[capacity];
        forceY = new double[capacity];
        forceZ = new double[capacity];
        deliveredX = new double[capacity];
        deliveredY = new double[capacity];
        deliveredZ = new double[capacity];
        toolX = new float[capacity];
        toolY = new float[capacity];
        toolZ = new float[capacity];
        safety = new byte[capacity];
        fault = new byte[capacity];
        contacts = new int[capacity];
        connected = new boolean[capacity];
        fresh = new boolean[capacity];
        injectedStall = new boolean[capacity];
        this.bodies = bodies.clone();
        this.bodyNames = names.clone();
        bodyX = new float[bodies.length][capacity];
        bodyY = new float[bodies.length][capacity];
        bodyZ = new float[bodies.length][capacity];
    }

    /** The most ticks a script tracing {@code bodies} bodies may run: the same memory, {@link #MAX_BYTES}. */
    static long maxTicks(int bodies) {
        return MAX_BYTES / bytesPerTick(bodies);
    }

    static int bytesPerTick(int bodies) {
        return BYTES_PER_TICK + bodies * BYTES_PER_BODY;
    }

    /** The ticks a run of that length at that rate traces: its own, and a second's worth for a late end. */
    static long capacity(double durationS, int rateHz) {
        double ticks = Math.ceil(durationS * rateHz) + rateHz;
        return ticks >= Long.MAX_VALUE ? Long.MAX_VALUE : (long) ticks;
    }

    /** Loop thread, inside a tick: the script's stall runs in this tick. */
    void markInjectedStall() {
        stallInThisTick = true;
    }

    @Override
    public void onTick(LoopSnapshot s) {
        if (count == timeNs.length) {
            return;
        }
        int i = count;
        timeNs[i] = s.timeNs;
        forceX[i] = s.commandedForceN[0];
        forceY[i] = s.commandedForceN[1];
        forceZ[i] = s.commandedForceN[2];
        deliveredX[i] = s.deliveredForceN[0];
        deliveredY[i] = s.deliveredForceN[1];
        deliveredZ[i] = s.deliveredForceN[2];
        toolX[i] = (float) s.toolPositionM[0];
        toolY[i] = (float) s.toolPositionM[1];
        toolZ[i] = (float) s.toolPositionM[2];
        safety[i] = (byte) s.safety.ordinal();
        fault[i] = (byte) s.fault.ordinal();
        contacts[i] = s.contactCount;
        connected[i] = s.deviceConnected;
        fresh[i] = s.deviceFresh;
        for (int k = 0; k < bodies.length; k++) {
            int p = bodies[k] * LoopSnapshot.POSE_STRIDE;
            bodyX[k][i] = (float) s.bodyPose[p];
            bodyY[k][i] = (float) s.bodyPose[p + 1];
            bodyZ[k][i] = (float) s.bodyPose[p + 2];
        }
        injectedStall[i] = stallInThisTick;
        stallInThisTick = false;
        overruns = s.overruns;
        droppedPairs = s.droppedPairsTotal;
        droppedPoints = s.droppedPointsTotal;
        if (s.physicsOverBudget) {
            overBudgetTicks++;
            worstStepP99Ns = Math.max(worstStepP99Ns, s.physicsStepP99Ns);
            budgetNs = s.physicsBudgetNs;
        }
        count = i + 1;
    }
}
