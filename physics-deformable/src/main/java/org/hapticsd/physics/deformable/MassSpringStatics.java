package org.hapticsd.physics.deformable;

import org.ejml.data.DMatrixRMaj;
import org.ejml.data.DMatrixSparseCSC;
import org.ejml.interfaces.linsol.LinearSolverSparse;

/**
 * The static equilibrium of a mass–spring body under gravity with its pinned nodes held: where a cloth hangs. Found
 * at load, for {@link ModalBasis#of(MassSpringSpec, double[])}: modes about it see the tension that holds the cloth
 * up, where a flat, unstressed rest state offers no stiffness across the springs at all.
 *
 * <p>Two stages. Dynamic relaxation with kinetic damping (Cundall; the form-finding method of cable nets and
 * membranes): explicit steps below the stability limit on the nodes' own masses, the velocities zeroed whenever the
 * kinetic energy stops growing, until the largest unbalanced force is small; a flat membrane, singular for Newton's
 * method, sags that way into a stretched shape. Then Newton's method on the tangent stiffness, now regular, to
 * round-off, with sparse solves ({@link SparseStiffness}); where its steps diverge, the relaxation goes on closer
 * and Newton's method starts again from there.
 */
public final class MassSpringStatics {
    private static final int MAX_RELAXATION_STEPS = 200_000;
    private static final int MAX_NEWTON_STEPS = 30;
    /**
     * The largest force, as a fraction of a node's weight, to which the relaxation brings the body before Newton's
     * steps: the second only when Newton's steps fail from the first.
     */
    private static final double[] RELAXED = {1e-4, 1e-6};
    /**
     * Newton's steps are given up once the largest force passes this many node weights: diverging. The 40 × 40 cloth's
     * passed 200 at its fifth step and wandered between 10² and 10⁵ N to its thirtieth; stopping at the fifth cut its
     * equilibrium from 11.3 to 9.3 s. Converging ones rose to at most 0.04 (32 × 32: 8.5e-4 N of a 0.0196 N weight).
     */
    private static final double DIVERGED = 100.0;
    /**
     * A node moved this many times the body's size ({@link #size}) from its rest is no equilibrium of a body of
     * linear springs worth finding: it is falling.
     */
    static final double SAG_LIMIT = 1000.0;

    private MassSpringStatics() {
    }

    /**
     * Positions (3 per node, pinned nodes at their rest positions) where every free node's forces balance, to
     * {@code 1e-9} of the body's weight per node.
     *
     * @throws IllegalStateException if no equilibrium is found (a body free to fall, a mechanism under load)
     */
    public static double[] equilibrium(MassSpringSpec spec) {
        int n = spec.nodeCount();
        double[] x = spec.restPositionM().clone();
        double[] f = new double[3 * n];
        double weight = 0.0;
        double[] g = spec.gravityMps2();
        double gNorm = Math.sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
        // Stability of the explicit steps: ω² ≤ max over nodes of 4·Σk/m (Gershgorin on m⁻¹·K, with the geometric
        // terms no larger than the axial ones); Δt = 1/ω_max is half the limit 2/ω_max. At 0.95 of the limit the
        // 40 × 40 cloth's equilibrium took 3.5 s instead of 10.7, but the 20 × 20 cloth came to rest up to 1.2 mm
        // away along its soft out-of-plane direction (both balanced to 1e-9 of the weight), a different start for
        // every cloth scene: not taken.
        double[] stiffnessAt = new double[n];
        for (int s = 0; s < spec.springCount(); s++) {
            stiffnessAt[spec.springNodes()[2 * s]] += spec.stiffnessNpm()[s];
            stiffnessAt[spec.springNodes()[2 * s + 1]] += spec.stiffnessNpm()[s];
        }
        double omegaMax = 0.0;
        for (int i = 0; i < n; i++) {
            omegaMax = Math.max(omegaMax, Math.sqrt(4.0 * stiffnessAt[i] / spec.massKg()[i]));
            weight = Math.max(weight, spec.massKg()[i] * gNorm);
        }
        if (weight == 0.0) {
            return x; // no load: the rest positions balance
        }
        double dt = 1.0 / Math.max(omegaMax, 1e-9);
        double tolerance = 1e-9 * weight;
        Relaxation relaxation = new Relaxation(spec, x, dt);
        boolean relaxedOnce = false;
        double relaxedResidual = Double.NaN;
        // Relaxed to 1e-4 of the weight, Newton's full steps reach the cloth's balance; a larger cloth's diverge from
        // there (40 × 40: 1.6e-6 N to 10⁵ N) and converge from a state relaxed 100 times closer, which the small
        // cloth does not need to pay for. So a second try relaxes on from the first's relaxed state.
        double newtonResidual = Double.NaN;
        double ranOutAt = Double.NaN;
        for (int attempt = 0; attempt < RELAXED.length; attempt++) {
            if (!relaxation.to(RELAXED[attempt] * weight)) {
                ranOutAt = forces(spec, x, f);
                break;
            }
            relaxedOnce = true;
            relaxedResidual = forces(spec, x, f);
            double[] relaxedX = x.clone();
            if (newton(spec, x, f, tolerance, DIVERGED * weight)) {
                return x;
            }
            newtonResidual = forces(spec, x, f);
            if (attempt + 1 < RELAXED.length) {
                System.arraycopy(relaxedX, 0, x, 0, x.length);
            }
        }
        if (!relaxedOnce) {
            relaxedResidual = forces(spec, x, f);
            newton(spec, x, f, tolerance, DIVERGED * weight);
        }
        double largest = forces(spec, x, f);
        if (!(largest <= tolerance)) {
            if (!relaxedOnce) {
                // Springs so stiff that the explicit relaxation's step (1/ω of the stiffest node) cannot follow the
                // body's slow sag within its steps: 10⁶ N/m under the cloth left 2.3e-3 N of 0.0196 N, 18 s, and
                // Newton's steps from there diverged. Saying "is every part held?" sent the user the wrong way.
                throw new IllegalStateException(String.format(java.util.Locale.ROOT, "no static equilibrium found: "
                    + "%d steps of relaxation left %.3g N of a node's %.3g N weight unbalanced, and Newton's method "
                    + "did not converge from there (%.3g N): are the springs far stiffer than the weight needs?",
                    MAX_RELAXATION_STEPS, relaxedResidual, weight, largest));
            }
            // Relaxed, then Newton's steps did not converge, from either relaxed state: a body with springs
            // compressed somewhere (a large or stiff cloth held at a few nodes wrinkles) whose balance they miss.
            // A body that falls or is partly held by nothing is caught by the relaxation's sag limit before this.
            throw new IllegalStateException(String.format(java.util.Locale.ROOT, "no static equilibrium found: "
                + "relaxed to %.3g N of a node's %.3g N weight, Newton's method did not converge from there "
                + "(%.3g N)%s: a body that wrinkles where its springs are compressed may have no balance it "
                + "finds; hold it at more nodes, or use softer springs", relaxedResidual, weight, newtonResidual,
                Double.isNaN(ranOutAt) ? "" : String.format(java.util.Locale.ROOT, ", and the relaxation's %d steps "
                    + "ran out at %.3g N before a closer start", MAX_RELAXATION_STEPS, ranOutAt)));
        }
        return x;
    }

    /**
     * Dynamic relaxation with kinetic damping, resumable: each {@link #to} runs explicit steps on the body's own
     * masses from where the last one stopped, all within one budget of {@value #MAX_RELAXATION_STEPS} steps.
     */
    private static final class Relaxation {
        private final MassSpringSpec spec;
        private final double[] x;
        private final double[] v;
        private final double[] f;
        private final double dt;
        private final double sizeM;
        private double previousKinetic;
        private int step;

        /** Relaxes {@code x} in place, with steps of {@code dt}. */
        Relaxation(MassSpringSpec spec, double[] x, double dt) {
            this.spec = spec;
            this.x = x;
            this.v = new double[x.length];
            this.f = new double[x.length];
            this.dt = dt;
            this.sizeM = size(spec);
        }

        /**
         * Steps until the largest force is below {@code boundN}: true; false when the budget runs out first.
         *
         * @throws IllegalStateException if the body falls instead (a node moves {@link #SAG_LIMIT} sizes)
         */
        boolean to(double boundN) {
            int n = spec.nodeCount();
            for (; step < MAX_RELAXATION_STEPS; step++) {
                double largest = forces(spec, x, f);
                if (largest < boundN) {
                    return true;
                }
                double sagM = largestMove(spec, x);
                if (!(sagM <= SAG_LIMIT * sizeM)) {
                    // It falls: nothing holds it, a part of it is held by nothing, or its springs are far too soft
                    // for the weight (10⁻³⁰⁰ N/m under the cloth fell through all 200,000 steps, 17–23 s, and then
                    // overflowed in Newton's, to report "a force of NaN N").
                    boolean anyPinned = false;
                    for (boolean pinned : spec.pinned()) {
                        anyPinned |= pinned;
                    }
                    throw new IllegalStateException(String.format(java.util.Locale.ROOT, "no static equilibrium "
                        + "found: under its weight a node sags %.3g m, more than %.0f times the body's size (%.3g m), "
                        + "after %d steps of relaxation (%s)", sagM, SAG_LIMIT, sizeM, step + 1, anyPinned
                            ? "is every part of the body held, and are its springs stiff enough for its weight?"
                            : "no node is pinned, so nothing holds it up"));
                }
                double kinetic = 0.0;
                for (int i = 0; i < n; i++) {
                    if (spec.pinned()[i]) {
                        continue;
                    }
                    for (int k = 0; k < 3; k++) {
                        int c = 3 * i + k;
                        v[c] += dt * f[c] / spec.massKg()[i];
                        kinetic += 0.5 * spec.massKg()[i] * v[c] * v[c];
                    }
                }
                if (kinetic < previousKinetic) {
                    // Past a peak of the kinetic energy: the body is as close to equilibrium as this swing gets.
                    java.util.Arrays.fill(v, 0.0);
                    kinetic = 0.0;
                }
                previousKinetic = kinetic;
                for (int c = 0; c < 3 * n; c++) {
                    x[c] += dt * v[c];
                }
            }
            return false;
        }
    }

    /**
     * Newton's steps from {@code x} (moved in place) until the largest force is within {@code tolerance}; false when
     * they do not get there, or as soon as the largest force passes {@code divergedN}.
     */
    private static boolean newton(MassSpringSpec spec, double[] x, double[] f, double tolerance, double divergedN) {
        // Newton on f(x) = 0 with K_t = −∂f/∂x: K_t·Δx = f, K_t sparse. The dense LU this replaced took n² memory
        // and n³ time: the whole solve took 6.2 s for a 24 × 24 cloth and 178 s for 32 × 32, against 0.8–1.4 s and
        // 4.2–4.8 s now, most of it the relaxation. Cholesky where K_t is positive definite, LU (partial pivoting)
        // where it is not: springs compressed, their geometric terms negative. Full steps: a backtracking line search
        // on ‖f‖ (each step halved until it lowers ‖f‖) stalled at 3.4e-6 N on the 28 × 28 cloth, whose full steps
        // rise and fall on their way to balance (32 × 32: 1.9e-6 N, 8.4e-3 N, …, 7e-13 N in 14 steps).
        int n = spec.nodeCount();
        SparseStiffness stiffness = new SparseStiffness(spec);
        int dofs = stiffness.dofs();
        DMatrixRMaj rhs = new DMatrixRMaj(dofs, 1);
        DMatrixRMaj dx = new DMatrixRMaj(dofs, 1);
        for (int iteration = 0; iteration < MAX_NEWTON_STEPS; iteration++) {
            double largest = forces(spec, x, f);
            if (largest <= tolerance) {
                return true;
            }
            if (!(largest <= divergedN)) {
                return false;
            }
            stiffness.assemble(x, 0.0);
            LinearSolverSparse<DMatrixSparseCSC, DMatrixRMaj> solver = stiffness.factorCholesky();
            if (solver == null) {
                solver = stiffness.factorLu();
            }
            if (solver == null) {
                break;
            }
            for (int c = 0; c < 3 * n; c++) {
                if (stiffness.row(c) >= 0) {
                    rhs.set(stiffness.row(c), 0, f[c]);
                }
            }
            solver.solve(rhs, dx);
            for (int c = 0; c < 3 * n; c++) {
                if (stiffness.row(c) >= 0) {
                    x[c] += dx.get(stiffness.row(c), 0);
                }
            }
        }
        return forces(spec, x, f) <= tolerance;
    }

    /** The largest distance of a node from its rest position, m. */
    private static double largestMove(MassSpringSpec spec, double[] x) {
        double[] rest = spec.restPositionM();
        double largest = 0.0;
        for (int c = 0; c < x.length; c += 3) {
            double dx = x[c] - rest[c];
            double dy = x[c + 1] - rest[c + 1];
            double dz = x[c + 2] - rest[c + 2];
            double d = Math.sqrt(dx * dx + dy * dy + dz * dz);
            if (Double.isNaN(d)) {
                return d;
            }
            largest = Math.max(largest, d);
        }
        return largest;
    }

    /**
     * The body's size: the diagonal of its rest positions' bounding box, or its longest spring if larger, m; infinite
     * (no limit on the sag) for a body whose nodes all rest at one point on springs of no length.
     */
    private static double size(MassSpringSpec spec) {
        double[] rest = spec.restPositionM();
        double[] low = {Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY};
        double[] high = {Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY};
        for (int c = 0; c < rest.length; c++) {
            low[c % 3] = Math.min(low[c % 3], rest[c]);
            high[c % 3] = Math.max(high[c % 3], rest[c]);
        }
        double dx = high[0] - low[0];
        double dy = high[1] - low[1];
        double dz = high[2] - low[2];
        double size = Math.sqrt(dx * dx + dy * dy + dz * dz);
        for (double length : spec.restLengthM()) {
            size = Math.max(size, length);
        }
        return size > 0.0 ? size : Double.POSITIVE_INFINITY;
    }

    /** Gravity plus the springs' forces on each free node into {@code f} (zero on pinned ones); the largest, N. */
    static double forces(MassSpringSpec spec, double[] x, double[] f) {
        int n = spec.nodeCount();
        double[] g = spec.gravityMps2();
        for (int i = 0; i < n; i++) {
            double m = spec.massKg()[i];
            f[3 * i] = m * g[0];
            f[3 * i + 1] = m * g[1];
            f[3 * i + 2] = m * g[2];
        }
        MassSpringBody.addSpringForces(spec, x, f);
        double largest = 0.0;
        for (int i = 0; i < n; i++) {
            if (spec.pinned()[i]) {
                f[3 * i] = 0.0;
                f[3 * i + 1] = 0.0;
                f[3 * i + 2] = 0.0;
                continue;
            }
            largest = Math.max(largest, Math.sqrt(f[3 * i] * f[3 * i] + f[3 * i + 1] * f[3 * i + 1]
                + f[3 * i + 2] * f[3 * i + 2]));
        }
        return largest;
    }
}
