package org.hapticsd.server.calibrate;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.hapticsd.physics.ContactSettings;
import org.hipparchus.analysis.MultivariateFunction;
import org.hipparchus.exception.MathIllegalStateException;
import org.hipparchus.optim.InitialGuess;
import org.hipparchus.optim.MaxEval;
import org.hipparchus.optim.SimpleBounds;
import org.hipparchus.optim.nonlinear.scalar.GoalType;
import org.hipparchus.optim.nonlinear.scalar.ObjectiveFunction;
import org.hipparchus.optim.nonlinear.scalar.noderiv.CMAESOptimizer;
import org.hipparchus.random.Well19937c;
import org.joml.Matrix3d;
import org.joml.Vector3d;

/**
 * Fits the impulse waveform model's parameters to measured collisions (source 000 §5): a stochastic search (CMA-ES,
 * Hipparchus) over {@code e}, {@code S_h}, {@code S_w}, {@code μ_s}, {@code μ_d} and, for the multi-point model, the
 * correlation ratio {@code α_j} of every pair of a multi-point event, minimising the error between the measured
 * momentum changes and those the replayed waveforms deliver.
 *
 * <h2>The objective</h2>
 * Each event is replayed ({@link CollisionReplay}); for every body that moves, the difference between the replayed
 * and measured change of linear momentum, {@code m·(v' − v₁)}, and, when angular velocities were measured, of
 * angular momentum over the body's lever arm, {@code |J·(ω' − ω₁)|/ℓ}, each relative to the event's momentum scale
 * {@code P} (the largest {@code m·|v|} of its bodies before or after). The mean over events of the sum of their
 * squares is the momentum term. Contacts with measured force samples add the mean square difference between the
 * replayed and the measured normal force, relative to the measured peak: the term that identifies {@code S_h} and
 * {@code S_w}. Momentum alone does not (the collision's totals are exact whatever the waveform, see
 * {@code ImpulseCollision}), so without force samples they stay at the model's Table 2 values and are reported as
 * not identified. The residual reported is the square root of the objective, an rms relative error.
 *
 * <h2>Which ratios</h2>
 * {@code α_j} scales a waveform generated inside a simultaneous multi-point collision. The multi-point model fits one
 * per pair that touches in a multi-point event (several contacts); a pair seen only in single-point events keeps 1,
 * and so pins {@code e}, which otherwise appears only in the products {@code α_j·(1 + e)}. The single-point model
 * (source 000 §4.1 alone) fits no ratio.
 *
 * <h2>The search</h2>
 * Variables scaled to [0, 1] over their ranges. With ratios to fit, three stages: the material ({@code e},
 * {@code S_h}, {@code S_w}, {@code μ_s}, {@code μ_d}) on the events no ratio acts in (40 % of the evaluations), the
 * ratios with the material held (30 %), then everything from there with a smaller step (30 %); without ratios, one
 * stage. Each stage is CMA-ES (Hipparchus) restarted with doubling population (IPOP), at least three runs, the first
 * from the stage's start point and the others from random points of the box, seeded from {@code seed}; the best point
 * seen is kept. The search minimises a robust (Cauchy) form of the objective, {@code c²·ln(1 + r²/c²)} per relative
 * error {@code r} with {@code c} = 3 %, so an outlier (a mis-measured event) pulls less than its square; the residual
 * reported is the plain rms. The objective has steps where a collision switches between sticking and sliding, which
 * an evolution strategy crosses and a gradient method would not.
 */
public final class Calibration {

    /** The two methods of the source's Tables 1 and 3. */
    public enum Model {
        /** Sequences of single-point collisions (§4.1): e, S_h, S_w, μ_s, μ_d. */
        SINGLE,
        /** With an impulse correlation ratio per pair (§4.2): and every α_j. */
        MULTI
    }

    private static final double INITIAL_STEP = 0.3;
    /** The step of the last stage, which refines the first two's result together. */
    private static final double REFINE_STEP = 0.1;
    /** Runs of CMA-ES per stage at least: the first from the stage's start, the others from random points. */
    private static final int RESTARTS = 3;
    /** {@code c²} of the Cauchy loss: errors beyond 3 % of an event's momentum (or a pulse's peak) count less. */
    private static final double ROBUST_SCALE_SQUARED = 0.03 * 0.03;
    /** e, S_h, S_w, μ_s, μ_d: the parameters before the ratios. */
    private static final int MATERIAL = 5;
    /** Replayed time an event may take before it is cut off (a run of e > 1 can go on), s. */
    static final double MAX_EVENT_S = 5.0;
    /** An event's momentum at or below this, kg·m/s, is no motion: nothing to take errors relative to. */
    private static final double MIN_MOMENTUM_SCALE = 1e-12;

    private final CollisionData data;
    private final Model model;
    private final CalibrationBounds bounds;
    private final long seed;
    private final int maxEvaluations;
    private final List<CollisionReplay> replays = new ArrayList<>();
    /** Each event's momentum scale ({@link #momentumScale}), in the order of the events. */
    private final double[] scales;
    private final List<Parameter> parameters = new ArrayList<>();
    private final List<String> ratioPairs = new ArrayList<>();
    private final ImpulseParameters start;
    private final boolean forces;
    private int evaluations;
    /** The events no correlation ratio acts in: what the first stage fits the material on. */
    private final List<Integer> materialEvents = new ArrayList<>();
    private final Vector3d scratch = new Vector3d();
    private final Vector3d scratchB = new Vector3d();
    private final Matrix3d inertia = new Matrix3d();

    /**
     * @param dtS the loop period the waveforms are sampled at
     * @param settings the engine's contact settings: the impact threshold (a contact approaching faster begins a
     *                collision, a slower one rests) and the friction threshold of resting contacts
     * @param maxEvaluations of the objective, over all runs
     */
    public Calibration(CollisionData data, Model model, CalibrationBounds bounds, long seed, double dtS,
                       ContactSettings settings, int maxEvaluations) {
        this.data = data;
        this.model = model;
        this.bounds = bounds;
        this.seed = seed;
        this.maxEvaluations = maxEvaluations;
        for (CollisionData.Event event : data.events()) {
            replays.add(new CollisionReplay(event, dtS, settings.impactThresholdMps(), settings.frictionThresholdMps(),
                MAX_EVENT_S));
        }
        scales = new double[data.events().size()];
        for (int i = 0; i < scales.length; i++) {
            scales[i] = momentumScale(data.events().get(i));
        }
        forces = data.hasForceSamples();
        start = model == Model.MULTI ? new ImpulseParameters(0.310, 187.150, 1.630, 0.970, 0.110, Map.of(), 7.5)
            : ImpulseParameters.TABLE_2_SINGLE_POINT;
        if (model == Model.MULTI) {
            Set<String> pairs = new LinkedHashSet<>();
            for (CollisionData.Event event : data.events()) {
                if (event.multiPoint()) {
                    for (CollisionData.Contact contact : event.contacts()) {
                        pairs.add(CollisionData.Contact.pairKey(event.bodies().get(contact.a()).name(),
                            event.bodies().get(contact.b()).name()));
                    }
                }
            }
            ratioPairs.addAll(pairs);
        }
        for (String pair : bounds.pairCorrelationRatios().keySet()) {
            if (!ratioPairs.contains(pair)) {
                // A range for a pair the fit has no ratio for would be ignored without a word (a typo in a name).
                throw new IllegalArgumentException("bounds: alphas: " + pair + " is not a pair that touches in a "
                    + "multi-point event of " + data.source() + (model == Model.MULTI ? " (those are: "
                    + (ratioPairs.isEmpty() ? "none" : String.join(", ", ratioPairs)) + ")" : " (--model single "
                    + "fits no correlation ratio)"));
            }
        }
        requireInformation(settings.impactThresholdMps());
        parameters.add(new Parameter("e", bounds.elasticity(), start.elasticity(), true));
        parameters.add(new Parameter("S_h", bounds.heightFactorPerS(), start.heightFactorPerS(), forces));
        parameters.add(new Parameter("S_w", bounds.durationFactorMsNs(), start.durationFactorMsNs(), forces));
        parameters.add(new Parameter("mu_s", bounds.staticFriction(), start.staticFriction(), true));
        parameters.add(new Parameter("mu_d", bounds.dynamicFriction(), start.dynamicFriction(), true));
        for (String pair : ratioPairs) {
            parameters.add(new Parameter("alpha " + pair, bounds.correlationRatio(pair), 1.0, true));
        }
        if (!frictionMatters()) {
            parameters.set(3, new Parameter("mu_s", bounds.staticFriction(), start.staticFriction(), false));
            parameters.set(4, new Parameter("mu_d", bounds.dynamicFriction(), start.dynamicFriction(), false));
        }
        for (int i = 0; i < replays.size(); i++) {
            boolean touchesRatio = false;
            for (int c = 0; c < replays.get(i).event().contacts().size(); c++) {
                touchesRatio |= ratioPairs.contains(replays.get(i).pairKey(c));
            }
            if (!touchesRatio) {
                materialEvents.add(i);
            }
        }
    }

    /**
     * Refuses data a fit would only print noise from: an event in which no body moves (its errors are relative to
     * its momentum, which is zero), or data in which no contact approaches faster than the impact threshold (no event
     * is a collision, so no parameter of the impulse model acts). Each names where and why.
     */
    private void requireInformation(double impactThresholdMps) {
        for (int i = 0; i < scales.length; i++) {
            CollisionData.Event event = data.events().get(i);
            if (scales[i] <= MIN_MOMENTUM_SCALE) {
                throw new IllegalArgumentException(data.source() + ":" + event.line() + ": event " + event.id()
                    + ": no body moves before or after (every velocity is zero): its errors, relative to its "
                    + "momentum, mean nothing");
            }
        }
        for (CollisionReplay replay : replays) {
            replay.run(start);
            for (int c = 0; c < replay.event().contacts().size(); c++) {
                if (replay.collisions(c) > 0) {
                    return;
                }
            }
        }
        throw new IllegalArgumentException(data.source() + ": no event is a collision at an impact threshold of "
            + impactThresholdMps + " m/s (no contact approaches faster), so nothing in the impulse model acts: "
            + "lower --impact-threshold, or give collisions");
    }

    /**
     * Whether the data can tell the friction coefficients: the objective at the model's start values with both
     * coefficients at the low end of their ranges differs from that with both at the high end. It does not when no
     * contact slides or could (taps straight along the normal of a particle, whose collision matrix does not couple
     * the normal into the tangent): every μ then fits as well, and a value from the search would be noise.
     */
    private boolean frictionMatters() {
        CalibrationBounds.Range ms = bounds.staticFriction();
        CalibrationBounds.Range md = bounds.dynamicFriction();
        if (ms.fixed() && md.fixed()) {
            return true;
        }
        List<Integer> every = new ArrayList<>();
        for (int i = 0; i < replays.size(); i++) {
            every.add(i);
        }
        double[] low = new double[parameters.size()];
        double[] high = new double[parameters.size()];
        for (int i = 0; i < low.length; i++) {
            Parameter p = parameters.get(i);
            double held = p.range().fixed() ? 0.0
                : (p.fixedValue() - p.range().low()) / (p.range().high() - p.range().low());
            low[i] = i == 3 || i == 4 ? 0.0 : held;
            high[i] = i == 3 || i == 4 ? 1.0 : held;
        }
        double a = evaluate(low, every, false);
        double b = evaluate(high, every, false);
        evaluations = 0;
        return Math.abs(a - b) > 1e-12 * Math.max(1e-12, Math.max(a, b));
    }

    /** One unknown: its range, and whether the data can identify it (else it is held at {@code held}). */
    private record Parameter(String name, CalibrationBounds.Range range, double held, boolean identifiable) {
        boolean searched() {
            return identifiable && !range.fixed();
        }

        double value(double unit) {
            return range.low() + unit * (range.high() - range.low());
        }

        double fixedValue() {
            return range.fixed() ? range.low() : Math.min(range.high(), Math.max(range.low(), held));
        }
    }

    /**
     * Runs the search: with correlation ratios to fit, in three stages (the material on the events no ratio acts in,
     * the ratios with the material held, then all together from there with a smaller step), else in one.
     */
    public CalibrationResult run() {
        evaluations = 0;
        double[] point = new double[parameters.size()];
        for (int i = 0; i < point.length; i++) {
            // The ratios start at the top of their range, 1 by default: no correlation, the single-point model,
            // which the search then moves away from. Below 1/(1 + e) a pair still approaches after its waveform and
            // collides or rests again, so a low ratio leaves little mark on the outcome: the objective is flat
            // there, and a search started in the flat would wander.
            point[i] = i < MATERIAL ? 0.5 : 1.0;
        }
        boolean[] all = new boolean[parameters.size()];
        boolean[] material = new boolean[parameters.size()];
        boolean[] ratios = new boolean[parameters.size()];
        for (int i = 0; i < all.length; i++) {
            all[i] = parameters.get(i).searched();
            material[i] = all[i] && i < MATERIAL;
            ratios[i] = all[i] && i >= MATERIAL;
        }
        List<Integer> every = new ArrayList<>();
        for (int i = 0; i < replays.size(); i++) {
            every.add(i);
        }
        if (ratioPairs.isEmpty()) {
            point = search(point, all, every, maxEvaluations, INITIAL_STEP, 0);
        } else {
            point = search(point, material, materialEvents.isEmpty() ? every : materialEvents,
                maxEvaluations * 2 / 5, INITIAL_STEP, 0);
            point = search(point, ratios, every, maxEvaluations * 3 / 10, INITIAL_STEP, 1);
            point = search(point, all, every, maxEvaluations * 3 / 10, REFINE_STEP, 2);
        }
        ImpulseParameters fitted = parametersAt(point);
        double objective = evaluate(point, every, false);
        return new CalibrationResult(data, model, fitted, Math.sqrt(objective), evaluations, describe(fitted),
            bodyErrors(fitted), forces);
    }

    /**
     * One stage: CMA-ES over the parameters marked {@code free} (the others held at {@code start}), on the events
     * listed, restarted with doubling population until {@code budget} evaluations are spent; returns the best
     * point seen.
     */
    private double[] search(double[] start, boolean[] free, List<Integer> events, int budget, double step,
                            int stage) {
        int dimension = 0;
        for (boolean f : free) {
            dimension += f ? 1 : 0;
        }
        double[] best = start.clone();
        if (dimension == 0) {
            return best;
        }
        int[] index = new int[dimension];
        for (int i = 0, k = 0; i < free.length; i++) {
            if (free[i]) {
                index[k++] = i;
            }
        }
        double[] bestValue = {evaluate(start, events)};
        double[] trial = start.clone();
        MultivariateFunction function = x -> {
            for (int k = 0; k < index.length; k++) {
                trial[index[k]] = Math.min(1.0, Math.max(0.0, x[k]));
            }
            double value = evaluate(trial, events);
            if (value < bestValue[0]) {
                bestValue[0] = value;
                System.arraycopy(trial, 0, best, 0, trial.length);
            }
            return value;
        };
        // IPOP: runs until the budget is spent, each with twice the population of the last, the first from the
        // stage's start and the others from random points of the box (the friction coefficients have more than one
        // basin: "slides with a large μ_d" can mimic "sticks early with a large μ_s"); a run ends when CMA-ES
        // converges or has used what is left.
        int population = 4 + (int) Math.floor(3.0 * Math.log(dimension));
        int end = evaluations + budget;
        Well19937c restarts = new Well19937c(seed + 104729L * stage);
        for (int run = 0; end - evaluations >= population; run++) {
            double[] guess = new double[dimension];
            double[] sigma = new double[dimension];
            double[] lower = new double[dimension];
            double[] upper = new double[dimension];
            for (int k = 0; k < dimension; k++) {
                guess[k] = run == 0 ? start[index[k]] : restarts.nextDouble();
                sigma[k] = step;
                upper[k] = 1.0;
            }
            // At least RESTARTS runs: each may use an even share of what is left.
            int left = (end - evaluations) / Math.max(1, RESTARTS - run);
            CMAESOptimizer optimizer = new CMAESOptimizer(left, 0.0, true, 0, 0,
                new Well19937c(seed + 7919L * run + 104729L * stage), false, null);
            try {
                optimizer.optimize(new MaxEval(left), new ObjectiveFunction(function), GoalType.MINIMIZE,
                    new InitialGuess(guess), new SimpleBounds(lower, upper), new CMAESOptimizer.Sigma(sigma),
                    new CMAESOptimizer.PopulationSize(population));
            } catch (MathIllegalStateException e) {
                // The run used what was left: the best point it reached is in best.
            }
            population *= 2;
        }
        return best;
    }

    /** The objective on the events listed, at a point of the unit box of all parameters. */
    private double evaluate(double[] unit, List<Integer> events) {
        return evaluate(unit, events, true);
    }

    /**
     * The mean over the events listed of each event's relative squared error, through the Cauchy loss when
     * {@code robust} (what the search minimises) or as it is (the residual reported).
     */
    private double evaluate(double[] unit, List<Integer> events, boolean robust) {
        evaluations++;
        ImpulseParameters p = parametersAt(unit);
        double momentum = 0.0;
        double force = 0.0;
        int forceContacts = 0;
        for (int e : events) {
            CollisionReplay replay = replays.get(e);
            replay.run(p);
            CollisionData.Event event = replay.event();
            double scale = scales[e];
            double sum = 0.0;
            for (int i = 0; i < event.bodies().size(); i++) {
                CollisionData.Body body = event.bodies().get(i);
                if (!body.moves()) {
                    continue;
                }
                Vector3d dv = replay.velocityAfter(i).sub(body.velocityAfterMps(), scratch);
                sum += body.massKg() * body.massKg() * dv.lengthSquared();
                if (body.angularMeasured()) {
                    double arm = leverArm(event, i);
                    Vector3d dw = replay.angularVelocityAfter(i).sub(body.angularVelocityAfterRadps(), scratch);
                    double dl = inertia.set(body.inertiaKgM2()).transform(dw, scratchB).length() / arm;
                    sum += dl * dl;
                }
            }
            momentum += loss(sum / (scale * scale), robust);
            for (int c = 0; c < event.contacts().size(); c++) {
                CollisionData.Contact contact = event.contacts().get(c);
                if (!contact.hasForceSamples()) {
                    continue;
                }
                double peak = 0.0;
                for (double f : contact.forceN()) {
                    peak = Math.max(peak, Math.abs(f));
                }
                double squares = 0.0;
                for (int j = 0; j < contact.forceN().length; j++) {
                    double d = replay.forceAt(c, j * contact.forceDtS()) - contact.forceN()[j];
                    squares += d * d;
                }
                force += loss(squares / (contact.forceN().length * Math.max(peak * peak, 1e-24)), robust);
                forceContacts++;
            }
        }
        double value = momentum / events.size();
        if (forceContacts > 0) {
            value += force / forceContacts;
        }
        return value;
    }

    /**
     * The Cauchy loss {@code c²·ln(1 + t/c²)} of a relative squared error {@code t}: {@code t} itself while small,
     * growing only logarithmically beyond {@code c²}. A measured event whose noise tips a collision from sticking into
     * sliding (the model's outcome jumps there) is off by far more than its noise whatever the parameters; squared,
     * a few such events would pull the friction coefficients away from what every other event says.
     */
    private static double loss(double t, boolean robust) {
        return robust ? ROBUST_SCALE_SQUARED * Math.log1p(t / ROBUST_SCALE_SQUARED) : t;
    }

    /** The objective on all events at given parameters, without the robust loss (for tests and reports). */
    double objectiveAt(ImpulseParameters p) {
        return objectiveAt(p, false);
    }

    /** The objective on all events at given parameters; with the robust loss, what the search minimises. */
    double objectiveAt(ImpulseParameters p, boolean robust) {
        double[] unit = new double[parameters.size()];
        for (int i = 0; i < parameters.size(); i++) {
            double value = switch (i) {
                case 0 -> p.elasticity();
                case 1 -> p.heightFactorPerS();
                case 2 -> p.durationFactorMsNs();
                case 3 -> p.staticFriction();
                case 4 -> p.dynamicFriction();
                default -> p.correlationRatio(ratioPairs.get(i - MATERIAL));
            };
            CalibrationBounds.Range r = parameters.get(i).range();
            unit[i] = r.fixed() ? 0.0 : (value - r.low()) / (r.high() - r.low());
        }
        List<Integer> every = new ArrayList<>();
        for (int i = 0; i < replays.size(); i++) {
            every.add(i);
        }
        return evaluate(unit, every, robust);
    }

    /** The parameters at a point of the unit box. */
    ImpulseParameters parametersAt(double[] unit) {
        double[] values = new double[parameters.size()];
        for (int i = 0; i < parameters.size(); i++) {
            Parameter p = parameters.get(i);
            values[i] = p.searched() ? p.value(Math.min(1.0, Math.max(0.0, unit[i]))) : p.fixedValue();
        }
        Map<String, Double> ratios = new LinkedHashMap<>();
        for (int j = 0; j < ratioPairs.size(); j++) {
            ratios.put(ratioPairs.get(j), values[5 + j]);
        }
        return new ImpulseParameters(values[0], values[1], values[2], values[3], values[4], ratios,
            start.minimumDurationMs());
    }

    /**
     * The largest momentum of the event's moving bodies, before or after, kg·m/s: {@code m·|v|}, and where the
     * angular velocity is measured {@code |J·ω|/ℓ} over the body's lever arm (the same measure as the angular error),
     * so an event of spinning bodies has a scale too.
     */
    private static double momentumScale(CollisionData.Event event) {
        double scale = 0.0;
        Matrix3d inertia = new Matrix3d();
        Vector3d spin = new Vector3d();
        for (int i = 0; i < event.bodies().size(); i++) {
            CollisionData.Body body = event.bodies().get(i);
            if (!body.moves()) {
                continue;
            }
            scale = Math.max(scale, body.massKg() * Math.max(body.velocityBeforeMps().length(),
                body.velocityAfterMps().length()));
            if (body.angularMeasured()) {
                inertia.set(body.inertiaKgM2());
                double arm = leverArm(event, i);
                scale = Math.max(scale, inertia.transform(body.angularVelocityBeforeRadps(), spin).length() / arm);
                scale = Math.max(scale, inertia.transform(body.angularVelocityAfterRadps(), spin).length() / arm);
            }
        }
        return Math.max(scale, MIN_MOMENTUM_SCALE);
    }

    /** The largest distance from the body's centre to one of its contacts in the event, m. */
    private static double leverArm(CollisionData.Event event, int body) {
        double arm = 0.0;
        for (CollisionData.Contact contact : event.contacts()) {
            if (contact.a() == body || contact.b() == body) {
                arm = Math.max(arm, contact.pointM().distance(event.bodies().get(body).positionM()));
            }
        }
        return Math.max(arm, 1e-6);
    }

    private List<CalibrationResult.Fitted> describe(ImpulseParameters fitted) {
        List<CalibrationResult.Fitted> list = new ArrayList<>();
        double[] values = {fitted.elasticity(), fitted.heightFactorPerS(), fitted.durationFactorMsNs(),
            fitted.staticFriction(), fitted.dynamicFriction()};
        for (int i = 0; i < parameters.size(); i++) {
            Parameter p = parameters.get(i);
            double value = i < 5 ? values[i] : fitted.correlationRatio(ratioPairs.get(i - 5));
            CalibrationResult.Status status = p.range().fixed() ? CalibrationResult.Status.FIXED
                : p.identifiable() ? CalibrationResult.Status.FITTED : CalibrationResult.Status.NOT_IDENTIFIED;
            String why = status != CalibrationResult.Status.NOT_IDENTIFIED ? ""
                : i == 1 || i == 2 ? "no force samples" : "no contact slides or could";
            boolean atBound = status == CalibrationResult.Status.FITTED
                && (value - p.range().low() < 1e-3 * (p.range().high() - p.range().low())
                    || p.range().high() - value < 1e-3 * (p.range().high() - p.range().low()));
            list.add(new CalibrationResult.Fitted(p.name(), value, p.range(), status, atBound, why));
        }
        return list;
    }

    /** Per body name: mean errors of the replay with the fitted parameters (the form of Tables 1 and 3). */
    private List<CalibrationResult.BodyError> bodyErrors(ImpulseParameters fitted) {
        Map<String, double[]> sums = new LinkedHashMap<>();
        for (int e = 0; e < replays.size(); e++) {
            CollisionReplay replay = replays.get(e);
            replay.run(fitted);
            CollisionData.Event event = replay.event();
            double scale = scales[e];
            double speedScale = 0.0;
            for (CollisionData.Body body : event.bodies()) {
                if (body.moves()) {
                    speedScale = Math.max(speedScale, Math.max(body.velocityBeforeMps().length(),
                        body.velocityAfterMps().length()));
                }
            }
            for (int i = 0; i < event.bodies().size(); i++) {
                CollisionData.Body body = event.bodies().get(i);
                if (!body.moves()) {
                    continue;
                }
                double[] s = sums.computeIfAbsent(body.name(), key -> new double[7]);
                Vector3d replayed = replay.velocityAfter(i);
                Vector3d measured = new Vector3d(body.velocityAfterMps());
                double velocityError = replayed.distance(measured);
                s[0]++;
                // Relative to the event's speeds, where it has any: an event of bodies that only spin has none.
                if (speedScale > 1e-9) {
                    s[2] += velocityError / speedScale;
                    s[6]++;
                }
                // The impulse error relative to the body's own measured impulse, where it had one (5 % of the
                // event's momentum): m·|v' − v₁| / m·|v₁ − v₀|.
                double impulse = body.massKg() * measured.distance(body.velocityBeforeMps());
                if (impulse > 0.05 * scale) {
                    s[1] += body.massKg() * velocityError / impulse;
                    s[5]++;
                }
                // The direction only where both velocities are clearly not zero (5 % of the event's speeds).
                if (replayed.length() > 0.05 * speedScale && measured.length() > 0.05 * speedScale) {
                    s[3] += Math.toDegrees(replayed.angle(measured));
                    s[4]++;
                }
            }
        }
        List<CalibrationResult.BodyError> errors = new ArrayList<>();
        for (Map.Entry<String, double[]> entry : sums.entrySet()) {
            double[] s = entry.getValue();
            errors.add(new CalibrationResult.BodyError(entry.getKey(), (int) s[0],
                s[5] > 0 ? 100.0 * s[1] / s[5] : Double.NaN, s[6] > 0 ? 100.0 * s[2] / s[6] : Double.NaN,
                s[4] > 0 ? s[3] / s[4] : Double.NaN));
        }
        return errors;
    }
}
