package org.hapticsd.physics.deformable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.hipparchus.linear.Array2DRowRealMatrix;
import org.hipparchus.linear.ArrayRealVector;
import org.hipparchus.optim.nonlinear.vector.leastsquares.LeastSquaresBuilder;
import org.hipparchus.optim.nonlinear.vector.leastsquares.LeastSquaresOptimizer;
import org.hipparchus.optim.nonlinear.vector.leastsquares.LeastSquaresProblem;
import org.hipparchus.optim.nonlinear.vector.leastsquares.LevenbergMarquardtOptimizer;
import org.hipparchus.optim.nonlinear.vector.leastsquares.MultivariateJacobianFunction;
import org.hipparchus.util.Pair;
import org.junit.jupiter.api.Test;

/**
 * Source 001's string: its objective E(aᵏ⁺²) = ∫h² ds, minimised by the source with a multiplier method and a
 * simplex search, is quadratic in the new coefficients, and the direct least-squares solve finds the same minimiser
 * (on the source's example, L = 100, ρ = 0.15, R = 0.03, f = 300, T = 0.001, its basis, read in SI units); and the
 * step against beam theory, the elastica, Euler's loads, energy, a driven end, gravity and the source's example.
 */
class ElasticStringTest {
    private static final double L = 100;
    private static final double DT = 0.001;

    /** θ = c·sin(2πs/L): an arch in the source's basis with both ends on the x axis; its end at x = L·J₀(c). */
    private static double[] arch(ElasticString string, double endX) {
        double lo = 0;
        double hi = 2.4;
        double[] c = new double[6];
        double[] xz = new double[2 * (string.samples() + 1)];
        for (int i = 0; i < 100; i++) {
            double mid = 0.5 * (lo + hi);
            c[2] = mid;
            string.setCoefficients(c, c);
            double x = string.positions(xz)[2 * string.samples()];
            if (x > endX) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        c[2] = 0.5 * (lo + hi);
        return c.clone();
    }

    @Test
    void shouldFindTheMinimiserOfTheSourcesObjectiveDirectly() {
        ElasticString string = new ElasticString(L, 0.15, 0.03, 300, ElasticString.Basis.SOURCE, 6, 400);
        // The example's start: the right end at x = 97.7 at k = 0 and at 90.0 at k = 1, on the x axis.
        double[] a0 = arch(string, 97.7);
        double[] a1 = arch(string, 90.0);
        double[] xz = new double[2 * (string.samples() + 1)];
        string.setCoefficients(a1, a1);
        assertEquals(90.0, string.positions(xz)[2 * string.samples()], 1e-9, "the arch's end");
        assertEquals(0.0, string.positions(xz)[2 * string.samples() + 1], 1e-9, "on the x axis");

        double[] direct = new double[6];
        string.accelerationAt(a0, a1, DT, direct);

        // The reference: Levenberg–Marquardt (Hipparchus) on the same E, as the sum of the squared weighted
        // residuals √wⱼ·h(sⱼ), from zero, with a Jacobian by central differences; iterative, and blind to the normal
        // equations the direct solve writes down. (A search on E's values alone, as the source's simplex, cannot
        // resolve 1e-9 here: E at the minimum is dominated by the residual at the free end, which no θ̈ can change,
        // and double precision in E then bounds the coefficients to about 1e-6.)
        int m = string.samples() + 1;
        double[] work = new double[6];
        MultivariateJacobianFunction model = point -> {
            double[] y = point.toArray();
            double[] value = string.residuals(a0, a1, DT, y, new double[m]);
            double[][] jacobian = new double[m][6];
            for (int i = 0; i < 6; i++) {
                double step = 1e-3 * Math.max(1.0, Math.abs(y[i]));
                System.arraycopy(y, 0, work, 0, 6);
                work[i] = y[i] + step;
                double[] plus = string.residuals(a0, a1, DT, work, new double[m]);
                work[i] = y[i] - step;
                double[] minus = string.residuals(a0, a1, DT, work, new double[m]);
                for (int j = 0; j < m; j++) {
                    jacobian[j][i] = (plus[j] - minus[j]) / (2 * step);
                }
            }
            return new Pair<>(new ArrayRealVector(value), new Array2DRowRealMatrix(jacobian));
        };
        LeastSquaresProblem problem = new LeastSquaresBuilder().model(model).target(new double[m])
            .start(new double[6]).maxEvaluations(10_000).maxIterations(10_000)
            .checker((iteration, previous, current) -> iteration > 1 && previous.getCost() - current.getCost()
                <= 1e-15 * current.getCost())
            .build();
        LeastSquaresOptimizer.Optimum reference = new LevenbergMarquardtOptimizer().optimize(problem);
        double scale = 0;
        for (double v : direct) {
            scale = Math.max(scale, Math.abs(v));
        }
        double[] found = reference.getPoint().toArray();
        for (int i = 0; i < 6; i++) {
            assertEquals(direct[i], found[i], 1e-9 * scale, "coefficient " + i);
        }
        double eDirect = string.objective(a0, a1, DT, direct);
        double eReference = string.objective(a0, a1, DT, found);
        assertTrue(eDirect <= eReference * (1 + 1e-12), "the direct solve is the minimum: " + eDirect + " against "
            + eReference);
        // How much faster, once both are compiled (printed, not asserted: tests do not time this machine).
        for (int k = 0; k < 2000; k++) {
            string.accelerationAt(a0, a1, DT, direct);
        }
        long t2 = System.nanoTime();
        for (int k = 0; k < 2000; k++) {
            string.accelerationAt(a0, a1, DT, direct);
        }
        double directUs = (System.nanoTime() - t2) / 2000 / 1e3;
        for (int k = 0; k < 5; k++) {
            new LevenbergMarquardtOptimizer().optimize(problem);
        }
        long t3 = System.nanoTime();
        for (int k = 0; k < 20; k++) {
            new LevenbergMarquardtOptimizer().optimize(problem);
        }
        double referenceUs = (System.nanoTime() - t3) / 20 / 1e3;
        System.out.printf("string step on the source's example (401 samples): direct %.1f us, Levenberg-Marquardt "
            + "%.1f us (%.0fx)%n", directUs, referenceUs, referenceUs / directUs);
    }

    private static ElasticString cantilever(double forceN) {
        ElasticString string = new ElasticString(1.0, 0.15, 0.03, forceN, ElasticString.Basis.CLAMPED_FREE, 4, 200);
        string.setProjection(ElasticString.Projection.GALERKIN);
        string.setScheme(ElasticString.Scheme.CENTRED);
        return string;
    }

    /** A clamped–free string with no end force (Galerkin, centred steps, 200 samples), straight and at rest. */
    private static ElasticString straightAtRest(double lengthM, double densityKgpm, double stiffnessNm2, int terms) {
        ElasticString string = new ElasticString(lengthM, densityKgpm, stiffnessNm2, 0.0,
            ElasticString.Basis.CLAMPED_FREE, terms, 200);
        string.setProjection(ElasticString.Projection.GALERKIN);
        string.setScheme(ElasticString.Scheme.CENTRED);
        double[] zero = new double[terms];
        string.setCoefficients(zero, zero);
        return string;
    }

    /** The largest |a₀| over {@code seconds} at 1 ms, from a₀ = {@code start} at rest. */
    private static double largestSwing(ElasticString string, double start, double seconds) {
        double[] a = {start, 0, 0, 0};
        string.setCoefficients(a, a);
        double largest = 0;
        for (int k = 0; k < Math.round(seconds / 1e-3); k++) {
            string.step(1e-3);
            largest = Math.max(largest, Math.abs(string.coefficients(a)[0]));
        }
        return largest;
    }

    /**
     * Small oscillations of a clamped–free string are an Euler–Bernoulli cantilever's: the first mode's angular
     * frequency is (β₁L)²·√(R/(ρL⁴)) with β₁L = 1.8751. Four terms (Galerkin, centred steps of 1 ms), 0.01 rad at the
     * start, zero crossings over 10 s: within 1 % (0.8 % low: four sines are not the beam's modes).
     */
    @Test
    void shouldSwingAtTheCantileversFirstFrequency() {
        ElasticString string = cantilever(0.0);
        double[] c = {0.01, 0, 0, 0};
        string.setCoefficients(c, c);
        double previous = 0.01;
        double firstCrossing = Double.NaN;
        double lastCrossing = Double.NaN;
        int crossings = 0;
        for (int k = 1; k <= 10_000; k++) {
            string.step(1e-3);
            double now = string.coefficients(c)[0];
            if ((previous > 0) != (now > 0)) {
                double t = (k - 1 + previous / (previous - now)) * 1e-3;
                if (crossings == 0) {
                    firstCrossing = t;
                }
                lastCrossing = t;
                crossings++;
            }
            previous = now;
        }
        double period = 2 * (lastCrossing - firstCrossing) / (crossings - 1);
        double expected = 1.8751 * 1.8751 * Math.sqrt(0.03 / 0.15);
        assertTrue(crossings >= 4, "it swings: " + crossings + " crossings");
        assertEquals(expected, 2 * Math.PI / period, 0.01 * expected, "first mode, rad/s");
    }

    /**
     * The centred step is explicit: stable while the highest kept mode has ω·T < 2. {@link
     * ElasticString#highestModeRadps} finds that ω; a step 5 % inside the bound keeps a small disturbance of every
     * term bounded (within 10× over 2,000 steps), one 5 % beyond it grows it a thousandfold (the root of
     * λ² + (ω²T² − 2)·λ + 1 = 0 at ωT = 2.1 is −1.88: a thousandfold in 11 steps). With one term, that ω is the
     * sine's Rayleigh quotient in closed form (4.2 % above the beam's first mode), to 0.1 % (the trapezoid over 200
     * intervals and the differences are far finer).
     */
    @Test
    void shouldFindTheHighestModeThatBoundsTheCentredStep() {
        double omega = cantilever(0.0).highestModeRadps(1e-3);
        assertTrue(omega > 54.1, "above the beam's fourth mode, (10.996)²·√0.2 = 54.07 rad/s (Galerkin bounds it "
            + "from above): " + omega);
        assertTrue(largestGrowth(2.1 / omega) > 1e3, "beyond the bound, it diverges");
        assertTrue(largestGrowth(1.9 / omega) < 10, "inside the bound, it stays");

        ElasticString one = new ElasticString(1.0, 0.15, 0.03, 0.0, ElasticString.Basis.CLAMPED_FREE, 1, 200);
        one.setProjection(ElasticString.Projection.GALERKIN);
        // θ = sin(πs/2L), z = ∫θ: K = R·(π/2L)²·L/2, M = ρ·(2L/π)²·L·(3/2 − 4/π), the Rayleigh quotient of one sine.
        double rayleigh = Math.sqrt((Math.PI * Math.PI / 8) / (4 / (Math.PI * Math.PI) * (1.5 - 4 / Math.PI))
            * 0.03 / 0.15);
        assertEquals(rayleigh, one.highestModeRadps(1e-3), 1e-3 * rayleigh, "one term: its Rayleigh quotient, rad/s");
    }

    /** The largest |aᵢ| over 2,000 centred steps of {@code dtS}, over its start of 1e-6 rad in every term. */
    private static double largestGrowth(double dtS) {
        ElasticString string = cantilever(0.0);
        double[] a = {1e-6, 1e-6, 1e-6, 1e-6};
        string.setCoefficients(a, a);
        double largest = 0;
        for (int k = 0; k < 2_000 && Double.isFinite(largest); k++) {
            string.step(dtS);
            for (double ai : string.coefficients(a)) {
                largest = Math.max(largest, Math.abs(ai) / 1e-6);
            }
        }
        return Double.isFinite(largest) ? largest : Double.POSITIVE_INFINITY;
    }

    /** With f = 0 and a bend of 0.5 rad, T + U stays within 2 % over 10 s at T = 1 ms (measured ±0.16 %). */
    @Test
    void shouldKeepItsEnergyOverTenSeconds() {
        ElasticString string = cantilever(0.0);
        double[] a = {0.5, 0, 0, 0};
        string.setCoefficients(a, a);
        double start = string.energyJ(1e-3);
        double low = start;
        double high = start;
        for (int k = 0; k < 10_000; k++) {
            string.step(1e-3);
            double e = string.energyJ(1e-3);
            low = Math.min(low, e);
            high = Math.max(high, e);
        }
        assertTrue(low > 0.98 * start && high < 1.02 * start, "energy in [" + low / start + ", " + high / start
            + "] of its start");
    }

    /**
     * Source 001's own differences (12)(13) equate the second difference, centred on k + 1, to the forces at k: on a
     * mode of frequency ω the step's roots have |λ| = √(1 + (ωT)²), so the motion grows as e^{ω²Tt/2} at any step.
     * The same string at 1 ms with the source's scheme gains energy without bound, where the centred one keeps it.
     */
    @Test
    void shouldShowTheSourcesDifferencesAreUnstable() {
        ElasticString source = cantilever(0.0);
        source.setScheme(ElasticString.Scheme.SOURCE);
        double[] a = {0.01, 0, 0, 0};
        source.setCoefficients(a, a);
        double start = source.energyJ(1e-3);
        boolean grew = false;
        for (int k = 0; k < 10_000 && !grew; k++) {
            source.step(1e-3);
            double e = source.energyJ(1e-3);
            grew = !Double.isFinite(e) || e > 10 * start;
        }
        assertTrue(grew, "the source's scheme at 1 ms grows tenfold within 10 s");
    }

    /**
     * The clamped–free column (Euler's first case): below f_cr = π²R/(4L²) a slightly bent string swings about
     * straight, above it the bend grows (it buckles dynamically); statically, the post-buckling end shortening
     * matches the elastica's closed form, Δ/L = 2·(1 − E(k)/K(k)) with L·√(f/R) = K(k), within 2 %.
     */
    @Test
    void shouldBuckleAboveEulersLoadAsTheElasticaDoes() {
        double fcr = Math.PI * Math.PI * 0.03 / 4.0;
        assertTrue(largestSwing(cantilever(0.5 * fcr), 0.01, 10) < 0.02, "below f_cr it stays straight");
        assertTrue(largestSwing(cantilever(2.0 * fcr), 0.01, 10) > 0.3, "above f_cr it buckles");

        for (double ratio : new double[] {1.1, 1.5, 2.0}) {
            ElasticString string = cantilever(ratio * fcr);
            string.staticShape(new double[] {1.0, 0, 0, 0});
            double[] xz = string.positions(new double[2 * (string.samples() + 1)]);
            double shortening = 1.0 - xz[2 * string.samples()];
            double expected = elasticaShortening(1.0, 0.03, ratio * fcr);
            System.out.printf("elastica f/f_cr %.1f: end shortening %.5f m, closed form %.5f m (%+.2f %%)%n", ratio,
                shortening, expected, 100 * (shortening / expected - 1));
            assertEquals(expected, shortening, 0.02 * expected, "end shortening at f = " + ratio + " f_cr");
        }
    }

    /** Δ = 2L·(1 − E(k)/K(k)), k from K(k) = L·√(f/R) (bisection), by the arithmetic–geometric mean. */
    private static double elasticaShortening(double length, double r, double f) {
        double target = length * Math.sqrt(f / r);
        double lo = 0;
        double hi = 1 - 1e-15;
        for (int i = 0; i < 200; i++) {
            double mid = 0.5 * (lo + hi);
            if (ellipticK(mid) < target) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        double k = 0.5 * (lo + hi);
        return 2 * length * (1 - ellipticE(k) / ellipticK(k));
    }

    private static double ellipticK(double k) {
        double a = 1;
        double b = Math.sqrt(1 - k * k);
        for (int i = 0; i < 60; i++) {
            double an = 0.5 * (a + b);
            b = Math.sqrt(a * b);
            a = an;
        }
        return Math.PI / (2 * a);
    }

    /** E(k) by the AGM with the sum Σ 2^{n−1}·cₙ² (Abramowitz and Stegun 17.6). */
    private static double ellipticE(double k) {
        double a = 1;
        double b = Math.sqrt(1 - k * k);
        double c = k;
        double sum = 0.5 * c * c;
        double power = 0.5;
        for (int i = 0; i < 60; i++) {
            double an = 0.5 * (a + b);
            c = 0.5 * (a - b);
            b = Math.sqrt(a * b);
            a = an;
            power *= 2;
            sum += power * c * c;
        }
        return ellipticK(k) * (1 - sum);
    }

    /**
     * A force at the free end enters as generalised forces (virtual work): a cantilever loaded by F at its tip swings
     * about the beam's static deflection F·L³/(3R), so its mean over 40 s (from rest) is that, within 2 %.
     */
    @Test
    void shouldSagUnderATipLoadAsABeamDoes() {
        ElasticString string = straightAtRest(1.0, 0.15, 0.03, 6);
        double force = 0.002;
        double[] xz = new double[2 * (string.samples() + 1)];
        double sum = 0;
        int steps = 40_000;
        for (int k = 0; k < steps; k++) {
            string.applyForce(string.samples(), 0.0, force);
            string.step(1e-3);
            sum += string.positions(xz)[2 * string.samples() + 1];
        }
        double expected = force / (3 * 0.03);
        assertEquals(expected, sum / steps, 0.02 * expected, "mean tip deflection, m");
    }

    /**
     * A grasp yanking the free end from far away whips the string faster than a 1 ms step can follow: the
     * string-cantilever scene with the stylus at (0, 0, 0.3), 0.42 m from the end it holds at 50 N/m (21 N on 15 g),
     * went non-finite 58 ticks in. Its steps are now taken again in substeps where they would turn it by more than
     * {@link ElasticString#MAX_TURN_PER_STEP_RAD}: it stays finite for 2 s, and the energy of string and grasp
     * never exceeds its start by more than 5 % (measured 1.7 %; the grasp is a force held over each step).
     */
    @Test
    void shouldFollowAWhipInSubsteps() {
        ElasticString string = straightAtRest(0.3, 0.05, 0.02, 4);
        int end = string.samples();
        double[] xz = new double[2 * (end + 1)];
        double[] a = new double[4];
        double k = 50.0;
        double start = grasp(k, string.positions(xz), end);
        double highest = start;
        int subdivided = 0;
        int most = 1;
        for (int step = 0; step < 2_000; step++) {
            string.positions(xz);
            string.applyForce(end, k * (0.0 - xz[2 * end]), k * (0.3 - xz[2 * end + 1]));
            string.step(1e-3);
            for (double ai : string.coefficients(a)) {
                assertTrue(Double.isFinite(ai), "finite at step " + step);
            }
            subdivided += string.substepsOfLastStep() > 1 ? 1 : 0;
            most = Math.max(most, string.substepsOfLastStep());
            highest = Math.max(highest, string.energyJ(1e-3) + grasp(k, string.positions(xz), end));
        }
        System.out.println("whip: " + subdivided + " steps subdivided, up to " + most + " substeps; energy "
            + start + " J at the start, at most " + highest + " J");
        assertTrue(subdivided > 0, "the whip needs substeps");
        assertTrue(highest < 1.05 * start, "energy at most " + highest + " J against " + start + " J at the start");
    }

    /**
     * The tool's grasp (50 N/m, 0.05 N·s/m, as string-cantilever.yaml's) holding the free end from 84 points around
     * it, 0.4–2.0 m away in 12 directions, the tool still: one step a tick lost the string from 64 of them, substeps
     * with the grasp's first force held over them from 9, and the grasp evaluated again at each substep
     * ({@link ElasticString#grasp}) loses it from 4, all 1.3 m or more away and behind the clamp. Within 1.0 m none.
     */
    @Test
    void shouldKeepTheStringWhereverTheToolHoldsItFrom() {
        int lostWithin1m = 0;
        int lostBeyond = 0;
        for (double distanceM : new double[] {0.4, 0.6, 0.8, 1.0, 1.3, 1.6, 2.0}) {
            for (int direction = 0; direction < 12; direction++) {
                double angle = direction * Math.PI / 6;
                if (!staysFinite(0.3 + distanceM * Math.cos(angle), distanceM * Math.sin(angle))) {
                    if (distanceM <= 1.0) {
                        lostWithin1m++;
                    } else {
                        lostBeyond++;
                    }
                }
            }
        }
        assertEquals(0, lostWithin1m, "strings lost to a grasp from within 1.0 m (48 points)");
        assertTrue(lostBeyond <= 4, "strings lost to a grasp from 1.3–2.0 m (36 points): " + lostBeyond);
    }

    /** Whether the cantilever held at its end by the grasp from (px, pz), the tool still, stays finite for 2 s. */
    private static boolean staysFinite(double px, double pz) {
        ElasticString string = straightAtRest(0.3, 0.05, 0.02, 4);
        int end = string.samples();
        double[] xz = new double[2 * (end + 1)];
        double[] previous = string.positions(new double[xz.length]);
        double[] a = new double[4];
        double k = 50.0;
        double b = 0.05;
        for (int step = 0; step < 2_000; step++) {
            string.positions(xz);
            // As the world does: the end's velocity is its change over the last step.
            double vx = (xz[2 * end] - previous[2 * end]) / 1e-3;
            double vz = (xz[2 * end + 1] - previous[2 * end + 1]) / 1e-3;
            System.arraycopy(xz, 0, previous, 0, xz.length);
            string.applyForce(end, k * (px - xz[2 * end]) - b * vx, k * (pz - xz[2 * end + 1]) - b * vz);
            string.grasp(end, px, pz, 0.0, 0.0, k, b);
            string.step(1e-3);
            for (double ai : string.coefficients(a)) {
                if (!Double.isFinite(ai)) {
                    return false;
                }
            }
        }
        return true;
    }

    /** The grasp's spring energy, ½k·|p − r(L)|² with the stylus at p = (0, 0.3), J. */
    private static double grasp(double k, double[] xz, int end) {
        double dx = 0.0 - xz[2 * end];
        double dz = 0.3 - xz[2 * end + 1];
        return 0.5 * k * (dx * dx + dz * dz);
    }

    /**
     * The right end held on the x axis (the source's example's boundary condition, a multiplier per step) with the
     * left one clamped: a clamped–pinned column, whose Euler load is 2.046·π²R/L². Below it a slightly bent string
     * swings about straight for 10 s with its end on the axis to the bend's own first-order offset; above it, under
     * the dead load, it buckles within 1.2 s (then, undamped and pushed on, it folds past its clamp and the four
     * terms give out: not asserted), its end within 0.1 mm of the axis.
     */
    @Test
    void shouldHoldItsEndOnTheAxisAndBuckleAsAClampedPinnedColumn() {
        double fcr = 2.046 * Math.PI * Math.PI * 0.03;
        for (double ratio : new double[] {0.8, 1.3}) {
            ElasticString string = cantilever(ratio * fcr);
            string.setEndOnAxis(true);
            // A small bend that keeps the end on the axis to first order: z(L) ≈ Σ aᵢ·∫φᵢ = (2L/π)·(a₁ + a₂/3) = 0.
            double[] a = {0.01, -0.03, 0, 0};
            double[] xz = new double[2 * (string.samples() + 1)];
            string.setCoefficients(a, a);
            double offAxis = Math.abs(string.positions(xz)[2 * string.samples() + 1]);
            double largest = 0;
            double worstOffAxis = 0;
            int steps = ratio < 1 ? 10_000 : 1_200;
            for (int k = 0; k < steps; k++) {
                string.step(1e-3);
                string.positions(xz);
                worstOffAxis = Math.max(worstOffAxis, Math.abs(xz[2 * string.samples() + 1]));
                for (int j = 0; j <= string.samples(); j++) {
                    largest = Math.max(largest, Math.abs(xz[2 * j + 1]));
                }
            }
            assertTrue(worstOffAxis < (ratio < 1 ? 2 * offAxis : 1e-4), "the end stays on the axis: " + worstOffAxis);
            if (ratio < 1) {
                assertTrue(largest < 0.02, "below the load it stays nearly straight: " + largest + " m");
            } else {
                assertTrue(largest > 0.1, "above the load it buckles: " + largest + " m");
            }
        }
    }

    /**
     * A position-driven end: the right end of the clamped string pulled in slowly along the axis by 1 % of L and held,
     * a clamped–pinned column squeezed past buckling. The support's force on the end, averaged while held, is the
     * column's Euler load 2.046·π²R/L² (the elastica's post-buckling rise at 1 % shortening is under 1 %), within 2 %;
     * the end follows the path to 0.1 mm.
     */
    @Test
    void shouldPushBackWithEulersLoadWhenTheEndIsDrivenIn() {
        double fcr = 2.046 * Math.PI * Math.PI * 0.03;
        ElasticString string = cantilever(0.0);
        double[] a = {0.01, -0.03, 0, 0};
        double[] xz = new double[2 * (string.samples() + 1)];
        string.setCoefficients(a, a);
        string.positions(xz);
        int end = 2 * string.samples();
        EndPath path = new EndPath(new double[] {0, 20, 40}, new double[] {xz[end], 0.99, 0.99},
            new double[] {xz[end + 1], 0, 0}, false);
        double[] target = new double[4];
        double[] reaction = new double[2];
        double sum = 0;
        int held = 0;
        double worstTracking = 0;
        for (int k = 0; k < 40_000; k++) {
            double t = k * 1e-3;
            path.sample(t, target);
            string.driveEnd(target[0], target[1], target[2], target[3]);
            string.step(1e-3);
            string.positions(xz);
            path.sample(t + 1e-3, target);
            worstTracking = Math.max(worstTracking, Math.hypot(xz[end] - target[0], xz[end + 1] - target[1]));
            if (t >= 25) {
                sum += string.endReactionN(reaction)[0];
                held++;
            }
        }
        assertTrue(worstTracking < 1e-4, "the end follows its path: " + worstTracking + " m");
        assertEquals(-fcr, sum / held, 0.02 * fcr, "the support's mean force on the end along x, N");
    }

    /** The source example's starting shapes: circular arcs with the end on the axis at 97.7 and 90.0. */
    @Test
    void shouldStartFromArcsWithTheEndOnTheAxis() {
        ElasticString string = new ElasticString(L, 0.15, 0.03, 300, ElasticString.Basis.SOURCE, 6, 400);
        double[] xz = new double[2 * (string.samples() + 1)];
        for (double endX : new double[] {97.7, 90.0}) {
            double[] arc = string.arcWithEndAt(endX);
            string.setCoefficients(arc, arc);
            string.positions(xz);
            assertEquals(endX, xz[2 * string.samples()], 1e-9, "the arc's end x, m");
            assertEquals(0.0, xz[2 * string.samples() + 1], 1e-9, "the arc's end z, m");
        }
    }

    /**
     * Source 001's example as scenes/string-buckling.yaml runs it (SI; the arcs through 97.7 and 90.0 taken 1 s
     * apart; Galerkin, centred steps, the end on the axis): in the first second 300 N fold the string until its end
     * is past 45 m; over two, as the end passes the left one, T + U − f·Δx stays within 0.5 % of the work f·L the
     * load could do (measured 0.24 %).
     */
    @Test
    void shouldKeepTheSourceExamplesEnergyWhileItBuckles() {
        ElasticString string = new ElasticString(L, 0.15, 0.03, 300, ElasticString.Basis.SOURCE, 6, 400);
        string.setProjection(ElasticString.Projection.GALERKIN);
        string.setScheme(ElasticString.Scheme.CENTRED);
        string.setEndOnAxis(true);
        double[] first = string.arcWithEndAt(97.7);
        double[] second = string.arcWithEndAt(90.0);
        double[] rate = new double[6];
        for (int i = 0; i < 6; i++) {
            rate[i] = second[i] - first[i];
        }
        string.setMotion(first, rate);
        string.step(DT);
        double start = string.energyJ(DT);
        double worst = 0;
        double[] xz = new double[2 * (string.samples() + 1)];
        double endAtOneSecond = Double.NaN;
        for (int k = 1; k < 2000; k++) {
            string.step(DT);
            worst = Math.max(worst, Math.abs(string.energyJ(DT) - start));
            if (k == 999) {
                endAtOneSecond = string.positions(xz)[2 * string.samples()];
            }
        }
        System.out.printf("source example: energy drift %.1f J (%.3f %% of f*L) over 2 s; end at %.2f m at 1 s%n",
            worst, 100 * worst / (300 * L), endAtOneSecond);
        assertTrue(worst < 0.005 * 300 * L, "energy drift " + worst + " J");
        assertTrue(endAtOneSecond < 45, "it has buckled: the end at " + endAtOneSecond + " m after 1 s");
    }

    /**
     * Gravity: a cantilever released straight under its own weight w = ρ·g swings about the beam's static deflection
     * w·L⁴/(8R); its mean tip deflection over 40 s is within 2 % of it (g chosen so it is 2 % of L, where the
     * small-deflection formula holds), and T + U + the weight's potential stays within 1 % of the weight's work
     * w·L·δ over the run.
     */
    @Test
    void shouldSagUnderItsOwnWeightAsABeamDoes() {
        double g = 0.032;
        ElasticString string = straightAtRest(1.0, 0.15, 0.03, 6);
        string.setGravity(0.0, -g);
        double[] xz = new double[2 * (string.samples() + 1)];
        double expected = -0.15 * g / (8 * 0.03);
        double sum = 0;
        int steps = 40_000;
        string.step(1e-3);
        double start = string.energyJ(1e-3);
        double worst = 0;
        for (int k = 1; k < steps; k++) {
            string.step(1e-3);
            sum += string.positions(xz)[2 * string.samples() + 1];
            worst = Math.max(worst, Math.abs(string.energyJ(1e-3) - start));
        }
        assertEquals(expected, sum / (steps - 1), 0.02 * Math.abs(expected), "mean tip deflection, m");
        double work = 0.15 * g * Math.abs(expected);
        assertTrue(worst < 0.01 * work, "energy drift " + worst + " J against the weight's work " + work + " J");
    }
}
