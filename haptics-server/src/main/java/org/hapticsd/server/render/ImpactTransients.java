package org.hapticsd.server.render;

import java.util.Objects;
import org.hapticsd.physics.BodyType;
import org.hapticsd.physics.Contact;
import org.hapticsd.physics.PhysicsWorld;
import org.hapticsd.physics.dynamics.contact.ContactOnsets;
import org.hapticsd.physics.dynamics.contact.ImpulseWaveform;
import org.hapticsd.physics.dynamics.contact.ImpulseWaveformSettings;
import org.hapticsd.server.safety.TransientBudget;
import org.joml.Matrix3d;
import org.joml.Quaterniond;
import org.joml.Vector3d;
import org.joml.Vector3dc;

/**
 * Event-based contact transients (Kuchenbecker, Fiene and Niemeyer, "Improving contact realism through event-based
 * haptic feedback", IEEE TVCG 2006): when the tool strikes a surface, the device plays a short force pulse on top
 * of the contact spring, the high-frequency part of an impact that a spring sampled at 1 kHz cannot render, and that
 * makes a stiff surface feel hard. The pulse is source 000's impulse waveform ({@link ImpulseWaveform}): the
 * impulse of the strike, {@code IP_z = (1 + e)·m_eff·v} at approach speed {@code v}, played as height
 * {@code H = S_h·IP_z} over {@code W = S_w/IP_z + W_min}, one sample per tick, with its area exactly {@code IP_z}.
 *
 * <ul>
 *   <li>{@code m_eff}: against a static or kinematic body the tool's effective mass is the device's (the scene's
 *       {@code device.massKg}, or {@code device.effectiveMassKg} to override: a link device's INFO carries no mass
 *       in protocol version 2); against a dynamic body the reduced mass of the two, {@code 1/(1/m_d + K_nn)} with
 *       the body's collision matrix at the point, and the body receives the equal and opposite of every sample
 *       ({@link PhysicsWorld#applyForce}, in the next step).</li>
 *   <li>{@code e}: the mean of the tool's and the body's elasticity, as for every contact; the body's material
 *       turns transients on or off and scales them ({@code transientGain}).</li>
 *   <li>The budget ({@link TransientBudget}): the impulse at most {@code maxImpulseNs} and
 *       {@code √(2·m_eff·maxEnergyJ)}, at most {@code maxPerS} pulses a second, and the pulse scaled down whole when
 *       its peak would pass the force limit.</li>
 * </ul>
 * A strike is a tool contact that begins ({@link PhysicsWorld#contactOnsets}) faster than the scene's impact
 * threshold. One pulse plays at a time; a strike while one plays is not played (counted in
 * {@link #skippedPulses()}). The force returned is the tool's, scene frame; the loop maps it to the device and
 * hands it to the safety layer beside the rendered force. Loop thread only; allocation-free after construction.
 */
public final class ImpactTransients {

    private final ImpulseWaveformSettings waveform;
    private final double deviceMassKg;
    private final double thresholdMps;
    private final TransientBudget budget;
    private final double forceLimitN;
    private final double toolElasticity;
    /** Per body of the world: transients on, their gain, the material's elasticity. */
    private final boolean[] enabled;
    private final double[] gain;
    private final double[] elasticity;

    private boolean playing;
    private int partner;
    private boolean partnerDynamic;
    private final Vector3d directionOnTool = new Vector3d();
    private final Vector3d pointM = new Vector3d();
    private double exponent;
    private double durationS;
    private double dtS;
    private int samples;
    private int sample;
    private double totalArea;
    /** Newtons per unit of sample area: the impulse over the total area and the step, times gain and fit. */
    private double forcePerAreaN;
    private long ticksSinceStart = Long.MAX_VALUE / 2;
    private long skipped;
    private long played;

    private boolean startedThisTick;
    private int lastBodyA;
    private int lastBodyB;
    private double lastImpulseNs;
    private double lastHeightN;
    private double lastDurationS;
    private double lastElasticity;

    private final Vector3d forceN = new Vector3d();
    private final Vector3d scratch = new Vector3d();
    private final Vector3d position = new Vector3d();
    private int proxyStrikeBody = -1;
    private double proxyStrikeSpeedMps;
    private final Vector3d proxyStrikeDirection = new Vector3d();
    private final Vector3d proxyStrikePointM = new Vector3d();
    private final Quaterniond orientation = new Quaterniond();
    private final Matrix3d inertia = new Matrix3d();

    /**
     * @param forceLimitN the safety layer's force limit: the pulse is scaled down whole to fit under it
     * @param enabled     per world body: whether striking it plays a transient
     * @param gain        per world body: the factor on the force of its transients
     * @param elasticity  per world body: its material's elasticity
     */
    public ImpactTransients(ImpulseWaveformSettings waveform, double deviceMassKg, double thresholdMps,
                            TransientBudget budget, double forceLimitN, double toolElasticity, boolean[] enabled,
                            double[] gain, double[] elasticity) {
        this.waveform = Objects.requireNonNull(waveform, "waveform");
        if (!(deviceMassKg > 0.0) || !(forceLimitN > 0.0)) {
            throw new IllegalArgumentException("device mass and force limit must be > 0, got " + deviceMassKg + " kg, "
                + forceLimitN + " N");
        }
        this.deviceMassKg = deviceMassKg;
        this.thresholdMps = thresholdMps;
        this.budget = Objects.requireNonNull(budget, "budget");
        this.forceLimitN = forceLimitN;
        this.toolElasticity = toolElasticity;
        this.enabled = enabled.clone();
        this.gain = gain.clone();
        this.elasticity = elasticity.clone();
    }

    /**
     * One tick after the physics step: starts a pulse on a strike of the tool, and writes this tick's transient
     * force on the tool, scene frame, into {@code destN} (zero when none plays). Pushes a dynamic partner back.
     */
    public Vector3d update(PhysicsWorld world, int tool, double stepS, Vector3d destN) {
        startedThisTick = false;
        ticksSinceStart++;
        ContactOnsets onsets = world.contactOnsets();
        for (int k = 0; k < onsets.count(); k++) {
            int a = onsets.bodyA(k);
            int b = onsets.bodyB(k);
            if (a != tool && b != tool) {
                continue;
            }
            int other = a == tool ? b : a;
            double speedMps = onsets.approachSpeedMps(k);
            if (!(speedMps > thresholdMps) || other >= enabled.length || !enabled[other]) {
                continue;
            }
            if (playing || ticksSinceStart * stepS < 1.0 / budget.maxPerS()) {
                skipped++;
                continue;
            }
            Contact contact = world.contact(onsets.point(k));
            // The normal runs from B toward A: the tool is pushed along it when it is A, against it when it is B.
            directionOnTool.set(contact.normal());
            if (a != tool) {
                directionOnTool.negate();
            }
            start(world, contact.point(), a == tool, other, speedMps, stepS);
        }
        if (proxyStrikeBody >= 0) {
            int other = proxyStrikeBody;
            proxyStrikeBody = -1;
            if (proxyStrikeSpeedMps > thresholdMps && other < enabled.length && enabled[other]) {
                if (playing || ticksSinceStart * stepS < 1.0 / budget.maxPerS()) {
                    skipped++;
                } else {
                    directionOnTool.set(proxyStrikeDirection);
                    start(world, proxyStrikePointM, true, other, proxyStrikeSpeedMps, stepS);
                }
            }
        }
        if (!playing) {
            return destN.zero();
        }
        double force = forcePerAreaN * ImpulseWaveform.sampleArea(exponent, durationS, dtS, sample);
        destN.set(directionOnTool).mul(force);
        if (partnerDynamic) {
            world.applyForce(partner, scratch.set(destN).negate(), pointM);
        }
        sample++;
        if (sample >= samples) {
            playing = false;
        }
        return destN;
    }

    /** Starts a pulse along {@link #directionOnTool}, already set, struck at {@code strikePointM}. */
    private void start(PhysicsWorld world, Vector3dc strikePointM, boolean toolIsA, int other, double speedMps,
                       double stepS) {
        pointM.set(strikePointM);
        partner = other;
        partnerDynamic = world.bodyType(other) == BodyType.DYNAMIC;
        double massKg = partnerDynamic ? 1.0 / (1.0 / deviceMassKg + inverseMassAlong(world, other)) : deviceMassKg;
        double e = 0.5 * (toolElasticity + elasticity[other]);
        double impulseNs = Math.min((1.0 + e) * massKg * speedMps, budget.allowedImpulseNs(massKg));
        double heightN = ImpulseWaveform.heightN(waveform, impulseNs);
        durationS = ImpulseWaveform.durationS(waveform, impulseNs);
        exponent = ImpulseWaveform.exponentFor(impulseNs / (heightN * durationS));
        dtS = stepS;
        samples = ImpulseWaveform.sampleCount(durationS, dtS);
        totalArea = ImpulseWaveform.totalArea(exponent, durationS, dtS);
        double peakArea = 0.0;
        for (int k = 0; k < samples; k++) {
            peakArea = Math.max(peakArea, ImpulseWaveform.sampleArea(exponent, durationS, dtS, k));
        }
        forcePerAreaN = impulseNs / (totalArea * dtS) * gain[other];
        double peakN = forcePerAreaN * peakArea;
        if (peakN > forceLimitN) {
            forcePerAreaN *= forceLimitN / peakN;
        }
        sample = 0;
        playing = true;
        ticksSinceStart = 0;
        startedThisTick = true;
        played++;
        lastBodyA = toolIsA ? -1 : other;
        lastBodyB = toolIsA ? other : -1;
        lastImpulseNs = forcePerAreaN * totalArea * dtS;
        lastHeightN = Math.min(heightN * gain[other], forceLimitN);
        lastDurationS = durationS;
        lastElasticity = e;
    }

    /** {@code 1/m + (r × n)·I⁻¹·(r × n)} of a dynamic body at the contact point along the contact normal. */
    private double inverseMassAlong(PhysicsWorld world, int body) {
        world.bodyPosition(body, position);
        world.bodyOrientation(body, orientation);
        world.bodyInertia(body, inertia).invert();
        Vector3d r = pointM.sub(position, scratch);
        Vector3d rxn = r.cross(directionOnTool, position);
        // I_world⁻¹ = R·I_body⁻¹·Rᵀ, applied as R·(I_body⁻¹·(Rᵀ·v)).
        Vector3d local = orientation.transformInverse(rxn, scratch);
        inertia.transform(local);
        orientation.transform(local);
        return 1.0 / world.bodyMassKg(body) + rxn.dot(local);
    }

    /**
     * A strike of the tool's proxy ({@link ProxyRenderer}) on {@code body}, which the world's contacts do not see
     * (the proxy never enters a surface): the next {@link #update} plays it as a contact onset of that speed, under
     * the same threshold, switches and budget.
     *
     * @param directionOnTool unit direction in which the surface pushes the tool
     * @param pointM          the point struck, scene frame
     */
    public void strikeByProxy(int body, double speedMps, Vector3dc directionOnTool, Vector3dc pointM) {
        proxyStrikeBody = body;
        proxyStrikeSpeedMps = speedMps;
        proxyStrikeDirection.set(directionOnTool);
        proxyStrikePointM.set(pointM);
    }

    /** Whether a pulse started in the last update. */
    public boolean startedThisTick() {
        return startedThisTick;
    }

    /** Whether a pulse is playing (this update's sample was not its last, or more follow). */
    public boolean playing() {
        return playing;
    }

    /** The last pulse's bodies (−1 for the tool), impulse, N·s, height, N, duration, s, and elasticity. */
    public int lastBodyA() {
        return lastBodyA;
    }

    public int lastBodyB() {
        return lastBodyB;
    }

    public double lastImpulseNs() {
        return lastImpulseNs;
    }

    public double lastHeightN() {
        return lastHeightN;
    }

    public double lastDurationS() {
        return lastDurationS;
    }

    public double lastElasticity() {
        return lastElasticity;
    }

    /** Pulses started since the scene was built. */
    public long pulses() {
        return played;
    }

    /** Strikes not played because a pulse was playing or the rate budget had not refilled. */
    public long skippedPulses() {
        return skipped;
    }
}
