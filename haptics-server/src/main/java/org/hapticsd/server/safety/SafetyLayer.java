package org.hapticsd.server.safety;

/**
 * The last stage between force rendering and the device; runs every tick on the loop thread.
 *
 * <p>Rules, in the order they apply:
 * <ol>
 *   <li>Emergency stop: zero from the tick after the command, latched until {@link #reset()}.</li>
 *   <li>Faults (watchdog, device, non-finite force, overruns, internal error): zero at once, state SAFE.
 *       Self-clearing faults go back through the start-up gate when their cause is gone; latched ones wait
 *       for {@link #reset()} and then go through the gate.</li>
 *   <li>Start-up gate: no output until the rendered force has stayed below the threshold for the configured
 *       number of consecutive ticks; then a linear ramp from 0 to full scale over the ramp time. The ramp scales the
 *       force once it is clamped to the limit, so the output rises from 0 to at most the limit over the whole ramp
 *       time. Scaling the rendered force instead reached the limit within milliseconds whenever the scene asked for
 *       far more than the device allows (a tester: 3 N at once, in the ramp's first frames, from a wall rendering
 *       1.5 kN); the slew limit alone then set the rise.</li>
 *   <li>Slew limit: the output vector moves by at most {@code maxForceStepN} per tick toward its target.</li>
 *   <li>An impact transient, if one is playing, is added after the slew limit (which would flatten it: a 5 N,
 *       10 ms pulse would rise by 0.5 N a tick and never reach its height); it has its own budget
 *       ({@link TransientBudget}, enforced where it is made) and passes the gate like the rest.</li>
 *   <li>Final clamp of the sum to min(device max force, configured max force), keeping the direction.</li>
 *   <li>Thermal limit: the output is scaled down, keeping its direction, whenever holding it for one more tick
 *       would take the motors' heat beyond what the device's continuous force gives (below).</li>
 * </ol>
 * Zeroing on a fault or stop bypasses the slew limit on purpose: the slew limit protects the user from
 * sudden force, and a sudden drop to zero is the safe direction.
 *
 * <p><b>Thermal limit.</b> A device's peak force ({@code maxForceN}) is only for short times; what it can hold
 * indefinitely is its continuous force F<sub>c</sub> ({@code maxContinuousForceN}), set by its motors' heating. The
 * layer keeps a first-order model of that heat, in N²: H relaxes toward the square of the output with the time
 * constant τ ({@link SafetyConfig#thermalTimeConstantS}), exactly for an output held between updates,
 * {@code H ← H + (F² − H)·(1 − e^(−Δt/τ))}. The output is allowed the peak while H is below {@link #DERATE_FROM}
 * of F<sub>c</sub>², then an allowance that falls with H, linearly in its square, to F<sub>c</sub> at
 * H = F<sub>c</sub>², never below F<sub>c</sub>, and never above {@code √(H + (F_c² − H)/(1 − e^(−T/τ)))} (T the last
 * interval between updates), which would end the next interval at H = F<sub>c</sub>². So H approaches
 * F<sub>c</sub>² without passing it, and a cold device gives its peak for a while (8 N for 6.2 s with 4 N continuous
 * and τ = 30 s), then lowers it over seconds to F<sub>c</sub> while the demand lasts, and regains its peak as it
 * cools. A stall longer than T can leave H a little above F<sub>c</sub>² (0.1 % for 10 ms at 8 N); it then relaxes
 * back at F<sub>c</sub>. The heat is the device's, so it persists through faults, stops, resets and scene
 * changes. OpenHaptics' driver keeps a motor temperature model for the same reason.
 *
 * <p>Not thread-safe: the loop owns it. Other threads reach it through loop commands.
 */
public final class SafetyLayer {
    /**
     * The thermal limit starts to lower the force at this fraction of the continuous force's heat, and reaches the
     * continuous force at the whole of it: a fold-back over seconds rather than a cliff (a tester felt 8 N fall to
     * 4 N in two ticks, a wall giving way).
     */
    public static final double DERATE_FROM = 0.75;

    private final SafetyConfig config;
    private final double limitN;
    /** The continuous force the thermal limit holds the output's mean square to, N: at most {@link #limitN}. */
    private final double continuousN;
    private final double thermalTimeConstantNs;

    /** The motors' heat, N²: the output's square, relaxed with the thermal time constant. */
    private double heatN2;
    /** The output's square since {@link #heatAtNs}, N². */
    private double heldN2;
    private long heatAtNs;
    private boolean heatStarted;
    /**
     * How far the heat relaxed toward the output's square over the last interval between updates,
     * {@code 1 − e^(−T/τ)}: also the share one more interval of that length would take; 0 before the first.
     */
    private double lastFraction;
    private boolean thermalLimited;
    private long thermalLimitedTicks;
    /** The time the output was held thermally limited, by the loop's clock (not ticks × period: a slow loop). */
    private long thermalLimitedNs;

    private SafetyState state = SafetyState.GATED;
    private SafetyFault fault = SafetyFault.NONE;
    private int quietTicks;
    private int staleTicks;
    private long rampStartNs;
    private long faultCount;
    /** {@link #faultCount} by fault, indexed by ordinal. */
    private final long[] tripsByFault = new long[SafetyFault.ALL.length];

    private double outX;
    private double outY;
    private double outZ;
    /** The slewed, clamped continuous part: what the slew limit moves from tick to tick. */
    private double slewX;
    private double slewY;
    private double slewZ;

    /**
     * @param deviceMaxForceN the device's own peak force; the layer never outputs more than the smaller of
     *                        this and {@link SafetyConfig#maxForceN()}
     */
    public SafetyLayer(SafetyConfig config, double deviceMaxForceN) {
        this(config, deviceMaxForceN, deviceMaxForceN);
    }

    /**
     * @param deviceMaxForceN           the device's own peak force; the layer never outputs more than the smaller of
     *                                  this and {@link SafetyConfig#maxForceN()}
     * @param deviceMaxContinuousForceN the force the device can hold indefinitely, {@code <= deviceMaxForceN}: the
     *                                  thermal limit holds the output's mean square to its square
     */
    public SafetyLayer(SafetyConfig config, double deviceMaxForceN, double deviceMaxContinuousForceN) {
        if (!(deviceMaxForceN > 0) || Double.isInfinite(deviceMaxForceN)) {
            throw new IllegalArgumentException("device max force must be > 0 and finite, got " + deviceMaxForceN);
        }
        if (!(deviceMaxContinuousForceN > 0) || deviceMaxContinuousForceN > deviceMaxForceN) {
            throw new IllegalArgumentException("device continuous force must be > 0 and <= its max force "
                + deviceMaxForceN + ", got " + deviceMaxContinuousForceN);
        }
        this.config = config;
        this.limitN = Math.min(config.maxForceN(), deviceMaxForceN);
        this.continuousN = Math.min(limitN, deviceMaxContinuousForceN);
        this.thermalTimeConstantNs = config.thermalTimeConstantS() * 1e9;
    }

    /**
     * Latches an emergency stop at once; the output of this layer is zero from now on, so the force written to
     * the device is zero from the next {@link #update} on.
     *
     * <p>Stop and reset act immediately rather than at the next update, so that a burst of commands drained in
     * one tick keeps its order: a stop that arrives after a reset stays latched.
     */
    public void emergencyStop() {
        state = SafetyState.ESTOP;
        zero();
    }

    /** Clears an emergency stop or a latched fault; output then re-enters the start-up gate. */
    public void reset() {
        if (state == SafetyState.ESTOP || (state == SafetyState.SAFE && fault.latched())) {
            enterGate();
        }
    }

    /**
     * Sends force that is flowing (ramping or active) back through the start-up gate, so it returns only once the
     * rendered force has been small for the gate's ticks and then ramps up: used when the scene under the user's
     * hand changes at once (pause, resume, scene replaced), where the old force would otherwise jump to a new one.
     * A stop or fault is left as it is: this never clears what only {@link #reset()} may clear.
     */
    public void regate() {
        if (state == SafetyState.RAMPING || state == SafetyState.ACTIVE) {
            enterGate();
        }
    }

    /**
     * Runs the rules for one tick. Read the result with {@link #outputX()} etc.
     *
     * @param nowNs               the tick's time
     * @param renderedX           rendered force, device frame, newtons
     * @param freshState          whether the device produced a new state this tick
     * @param deviceHealthy       whether the device reports itself connected and without fault
     * @param consecutiveOverruns overruns in a row up to and including the previous tick
     */
    public void update(long nowNs, double renderedX, double renderedY, double renderedZ,
                       boolean freshState, boolean deviceHealthy, int consecutiveOverruns) {
        update(nowNs, renderedX, renderedY, renderedZ, 0.0, 0.0, 0.0, freshState, deviceHealthy, consecutiveOverruns);
    }

    /**
     * As {@link #update(long, double, double, double, boolean, boolean, int)}, with an impact transient
     * ({@code transientX..Z}, device frame, newtons) added after the slew limit and clamped with the rest: a NaN in
     * either part trips NON_FINITE_FORCE, the gate scales both, and every fault zeroes both.
     */
    public void update(long nowNs, double renderedX, double renderedY, double renderedZ, double transientX,
                       double transientY, double transientZ, boolean freshState, boolean deviceHealthy,
                       int consecutiveOverruns) {
        heat(nowNs);
        updateOutput(nowNs, renderedX, renderedY, renderedZ, transientX, transientY, transientZ, freshState,
            deviceHealthy, consecutiveOverruns);
        limitHeat();
    }

    /** Advances the heat over the time since the last update, during which the last output was held. */
    private void heat(long nowNs) {
        if (heatStarted) {
            long intervalNs = nowNs - heatAtNs;
            if (intervalNs > 0) {
                lastFraction = -Math.expm1(-intervalNs / thermalTimeConstantNs);
                heatN2 += (heldN2 - heatN2) * lastFraction;
                if (thermalLimited) {
                    thermalLimitedNs += intervalNs;
                }
            }
        }
        heatStarted = true;
        heatAtNs = nowNs;
    }

    /**
     * Scales the output down to the thermal allowance: the peak up to {@link #DERATE_FROM} of the continuous force's
     * heat, then falling with the heat, linearly in its square, to the continuous force at that heat; never above what
     * one more interval can hold without passing it.
     */
    private void limitHeat() {
        double outputN2 = outX * outX + outY * outY + outZ * outZ;
        thermalLimited = false;
        if (continuousN < limitN) {
            double allowedN2 = allowedN2();
            if (outputN2 > allowedN2) {
                double s = Math.sqrt(allowedN2 / outputN2);
                outX *= s;
                outY *= s;
                outZ *= s;
                outputN2 = allowedN2;
                thermalLimited = true;
                thermalLimitedTicks++;
            }
        }
        heldN2 = outputN2;
    }

    private double allowedN2() {
        double continuousN2 = continuousN * continuousN;
        if (heatN2 >= continuousN2) {
            return continuousN2;
        }
        double kneeN2 = DERATE_FROM * continuousN2;
        double deratedN2 = heatN2 <= kneeN2 ? Double.POSITIVE_INFINITY
            : continuousN2 + (limitN * limitN - continuousN2) * (continuousN2 - heatN2) / (continuousN2 - kneeN2);
        double oneIntervalN2 = lastFraction > 0.0 ? heatN2 + (continuousN2 - heatN2) / lastFraction
            : Double.POSITIVE_INFINITY;
        return Math.max(continuousN2, Math.min(deratedN2, oneIntervalN2));
    }

    private void updateOutput(long nowNs, double renderedX, double renderedY, double renderedZ, double transientX,
                              double transientY, double transientZ, boolean freshState, boolean deviceHealthy,
                              int consecutiveOverruns) {
        staleTicks = freshState ? 0 : staleTicks + 1;
        if (state == SafetyState.ESTOP) {
            zero();
            return;
        }

        SafetyFault detected = detectFault(renderedX, renderedY, renderedZ, deviceHealthy, consecutiveOverruns);
        if (detected == SafetyFault.NONE && !(Double.isFinite(transientX) && Double.isFinite(transientY)
                && Double.isFinite(transientZ))) {
            detected = SafetyFault.NON_FINITE_FORCE;
        }
        if (detected != SafetyFault.NONE) {
            trip(detected);
            return;
        }
        if (state == SafetyState.SAFE) {
            if (fault.latched()) {
                zero();
                return;
            }
            enterGate();
        }

        double scale = gateScale(nowNs, renderedX, renderedY, renderedZ);
        double magnitude = magnitude(renderedX, renderedY, renderedZ);
        // Within the limit the force is scaled as rendered; beyond it, its direction at the limit's magnitude.
        double toLimit = magnitude > limitN ? limitN / magnitude : 1.0;
        slewAndClamp(scale * (toLimit * renderedX), scale * (toLimit * renderedY), scale * (toLimit * renderedZ));
        if (transientX != 0.0 || transientY != 0.0 || transientZ != 0.0) {
            addTransientAndClamp(scale * transientX, scale * transientY, scale * transientZ);
        }
    }

    /** The output becomes the slewed continuous part plus the transient, clamped to the limit as a whole. */
    private void addTransientAndClamp(double tx, double ty, double tz) {
        double x = slewX + tx;
        double y = slewY + ty;
        double z = slewZ + tz;
        double magnitude = magnitude(x, y, z);
        if (magnitude > limitN) {
            double s = limitN / magnitude;
            x *= s;
            y *= s;
            z *= s;
        }
        outX = x;
        outY = y;
        outZ = z;
    }

    /** Trips an internal-error fault; called by the loop when a stage threw. */
    public void internalError() {
        trip(SafetyFault.INTERNAL_ERROR);
    }

    private SafetyFault detectFault(double x, double y, double z, boolean deviceHealthy, int consecutiveOverruns) {
        if (!Double.isFinite(x) || !Double.isFinite(y) || !Double.isFinite(z)) {
            return SafetyFault.NON_FINITE_FORCE;
        }
        if (!deviceHealthy) {
            return SafetyFault.DEVICE;
        }
        if (staleTicks >= config.watchdogTicks()) {
            return SafetyFault.WATCHDOG;
        }
        if (consecutiveOverruns >= config.overrunLimit()) {
            return SafetyFault.OVERRUNS;
        }
        return SafetyFault.NONE;
    }

    private void trip(SafetyFault detected) {
        if (state == SafetyState.ESTOP) {
            // Already at zero and latched harder than any fault; the stop must stay what is reported.
            zero();
            return;
        }
        if (state != SafetyState.SAFE || fault != detected) {
            faultCount++;
            tripsByFault[detected.ordinal()]++;
        }
        // A latched fault is never replaced by a self-clearing one: that would let it clear by itself.
        if (state != SafetyState.SAFE || !fault.latched() || detected.latched()) {
            fault = detected;
        }
        state = SafetyState.SAFE;
        zero();
    }

    /** 0 while gated, the ramp fraction while ramping, 1 when active; advances the gate's state machine. */
    private double gateScale(long nowNs, double x, double y, double z) {
        if (state == SafetyState.GATED) {
            boolean quiet = magnitude(x, y, z) < config.gateThresholdN();
            quietTicks = quiet ? quietTicks + 1 : 0;
            if (quietTicks < config.gateTicks()) {
                return 0.0;
            }
            state = SafetyState.RAMPING;
            rampStartNs = nowNs;
        }
        if (state == SafetyState.RAMPING) {
            long elapsedNs = nowNs - rampStartNs;
            if (elapsedNs < config.rampNs()) {
                return (double) elapsedNs / config.rampNs();
            }
            state = SafetyState.ACTIVE;
        }
        return 1.0;
    }

    private void slewAndClamp(double targetX, double targetY, double targetZ) {
        double dx = targetX - slewX;
        double dy = targetY - slewY;
        double dz = targetZ - slewZ;
        double step = magnitude(dx, dy, dz);
        if (step > config.maxForceStepN()) {
            double s = config.maxForceStepN() / step;
            dx *= s;
            dy *= s;
            dz *= s;
        }
        double x = slewX + dx;
        double y = slewY + dy;
        double z = slewZ + dz;
        double magnitude = magnitude(x, y, z);
        if (magnitude > limitN) {
            double s = limitN / magnitude;
            x *= s;
            y *= s;
            z *= s;
        }
        slewX = x;
        slewY = y;
        slewZ = z;
        outX = x;
        outY = y;
        outZ = z;
    }

    /**
     * |(x, y, z)| without overflow: a finite but huge rendered force (1e200 N) squared is infinite, which would
     * turn the slew scale into 0 and freeze the output at its previous value. Scaling by the largest component
     * first keeps every finite input finite. Allocation-free.
     */
    static double magnitude(double x, double y, double z) {
        double m = Math.max(Math.abs(x), Math.max(Math.abs(y), Math.abs(z)));
        if (m == 0.0 || m < 1e150) {
            return Math.sqrt(x * x + y * y + z * z);
        }
        double sx = x / m;
        double sy = y / m;
        double sz = z / m;
        return m * Math.sqrt(sx * sx + sy * sy + sz * sz);
    }

    private void enterGate() {
        state = SafetyState.GATED;
        fault = SafetyFault.NONE;
        quietTicks = 0;
        zero();
    }

    private void zero() {
        outX = 0.0;
        outY = 0.0;
        outZ = 0.0;
        slewX = 0.0;
        slewY = 0.0;
        slewZ = 0.0;
    }

    public double outputX() {
        return outX;
    }

    public double outputY() {
        return outY;
    }

    public double outputZ() {
        return outZ;
    }

    public SafetyState state() {
        return state;
    }

    /**
     * The motors' heat as a fraction of what the continuous force gives: 0 cold, 1 at the continuous force's heat
     * (where the thermal limit holds the output to the continuous force).
     */
    public double heatFraction() {
        double continuousN2 = continuousN * continuousN;
        return continuousN2 > 0.0 ? heatN2 / continuousN2 : 0.0;
    }

    /** How many times this fault was raised (as {@link #faultCount()} counts), since this layer was made. */
    public long trips(SafetyFault kind) {
        return tripsByFault[kind.ordinal()];
    }

    /** Whether the thermal limit scaled this tick's output down. */
    public boolean thermalLimited() {
        return thermalLimited;
    }

    /** Ticks whose output the thermal limit scaled down, since this layer was made. */
    public long thermalLimitedTicks() {
        return thermalLimitedTicks;
    }

    /**
     * The end-of-run line for the thermal limit, or {@code null} when it never limited: how long the force was held
     * to the device's continuous force, so a run whose force was lower than rendered says why.
     */
    public String thermalSummary() {
        if (thermalLimitedTicks == 0) {
            return null;
        }
        return String.format(java.util.Locale.ROOT, "thermal limit: %d ticks (%.3f s) lowered toward the device's "
            + "continuous force %.2f N; motors at %.0f%% of its heat at the end", thermalLimitedTicks,
            thermalLimitedNs * 1e-9, continuousN, 100 * heatFraction());
    }

    /**
     * The end-of-run line for the faults raised, or {@code null} when none was: each kind and how many times, so a
     * run whose force kept dropping says why (a tester's link device cycled through the start-up gate for seconds,
     * its loop watchdog tripping, and nothing said so).
     */
    public String faultSummary() {
        StringBuilder b = new StringBuilder();
        for (SafetyFault kind : SafetyFault.ALL) {
            long trips = tripsByFault[kind.ordinal()];
            if (trips > 0) {
                b.append(b.length() == 0 ? "safety faults: " : ", ").append(kind).append(' ').append(trips);
            }
        }
        return b.length() == 0 ? null : b.append(" (each zeroed the force; see docs/scenes.md, safety)").toString();
    }

    /** The end-of-run lines of this layer: {@link #thermalSummary()} and {@link #faultSummary()}, those there are. */
    public java.util.List<String> endOfRunLines() {
        java.util.List<String> lines = new java.util.ArrayList<>(2);
        String thermal = thermalSummary();
        if (thermal != null) {
            lines.add(thermal);
        }
        String faults = faultSummary();
        if (faults != null) {
            lines.add(faults);
        }
        return lines;
    }

    /** The force the thermal limit holds the output to once the motors are hot, N. */
    public double continuousN() {
        return continuousN;
    }

    public SafetyFault fault() {
        return fault;
    }

    /** Number of times a fault was entered (a fault changing its cause counts again). */
    public long faultCount() {
        return faultCount;
    }

    /** The effective force ceiling: min(device max force, configured max force). */
    public double limitN() {
        return limitN;
    }

    public SafetyConfig config() {
        return config;
    }
}
