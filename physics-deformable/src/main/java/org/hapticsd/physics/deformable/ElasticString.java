package org.hapticsd.physics.deformable;

import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.interfaces.decomposition.EigenDecomposition_F64;

/**
 * Source 001's dynamic string: a planar, inextensible elastica with inertia in the x–z plane. Its shape is the tangent
 * angle {@code θ(s, t) = Σ aᵢ(t)·φᵢ(s)} over the arc length s ∈ [0, L] (9); the left end is held at the origin, so
 * {@code x(s) = ∫₀ˢ cos θ}, {@code z(s) = ∫₀ˢ sin θ} (1)(2); the right end is free and pushed along −x by a force f.
 * Line density ρ, bending stiffness R.
 *
 * <h2>The step</h2>
 * The equation of motion (7), {@code h = sin θ·∫ₛᴸ ρẍ − cos θ·∫ₛᴸ ρz̈ + R·θ'' + f·sin θ = 0}, is evaluated at step k
 * with the source's differences (12)(13): θ from {@code aᵏ}, θ̇ from {@code (aᵏ⁺¹ − aᵏ)/T}, θ̈ from
 * {@code (aᵏ⁺² − 2aᵏ⁺¹ + aᵏ)/T²}. With {@code ẍ(s) = −∫₀ˢ (cos θ·θ̇² + sin θ·θ̈)} and
 * {@code z̈(s) = ∫₀ˢ (cos θ·θ̈ − sin θ·θ̇²)}, h is linear in θ̈, so {@code h(s) = Σᵢ Aᵢ(s)·äᵢ + b(s)}, and the source's
 * objective {@code E(aᵏ⁺²) = ∫₀ᴸ h² ds} (15), which it minimises by a multiplier method and a simplex search, has its
 * minimum where the normal equations {@code (∫AᵢAⱼ)·ä = −∫Aᵢb} hold: one small linear solve a step. Integrals are
 * trapezoidal on {@code samples} intervals.
 *
 * <h2>The right end</h2>
 * Free and pushed by f (the default); held on the x axis, as in the source's example ({@link #setEndOnAxis}); or
 * driven along a path ({@link #driveEnd}). A held or driven end adds one or two Lagrange multipliers to each step:
 * the force the support exerts on the end ({@link #endReactionN}). The world's {@code StringBody} adds contacts and
 * the tool's grasp as point forces. Loop thread; allocates only at construction.
 */
public final class ElasticString {
    /** The largest turn of θ at any point one step may make, rad, before the step is taken again in substeps. */
    public static final double MAX_TURN_PER_STEP_RAD = 0.25;
    /** The most substeps one step is split into. */
    public static final int MAX_SUBSTEPS = 64;
    /** The bases of θ. */
    public enum Projection {
        /** Source 001's: the θ̈ that minimises E = ∫h² ds (least squares of the equation of motion). */
        LEAST_SQUARES,
        /**
         * Galerkin: ∫ h·φᵢ ds = 0 for every basis function. (7) is the Euler–Lagrange equation of Hamilton's principle
         * (3) in θ(s), so with a basis that meets the boundary conditions (θ(0) = 0, θ'(L) = 0:
         * {@link Basis#CLAMPED_FREE}) these are Lagrange's equations in the coefficients.
         */
        GALERKIN
    }

    /** Where (7) is evaluated in the step from aᵏ, aᵏ⁺¹ to aᵏ⁺². */
    public enum Scheme {
        /**
         * Source 001's (12)(13): θ at step k, θ̇ = (aᵏ⁺¹ − aᵏ)/T, θ̈ = (aᵏ⁺² − 2aᵏ⁺¹ + aᵏ)/T². The second difference is
         * centred on k + 1 but equated to the forces at k, a lag that makes the step unstable at any T: on a mode
         * of frequency ω, λ² − 2λ + 1 + (ωT)² = 0 gives |λ| = √(1 + (ωT)²) > 1, growth e^{ω²Tt/2}.
         */
        SOURCE,
        /**
         * Størmer–Verlet: θ at step k + 1, where the second difference is centred; stable while ω_max·T < 2. The
         * velocity in (7)'s θ̇² terms is taken at k + 1 too, by a second solve (predictor–corrector), so the step is
         * second order in T with them.
         */
        CENTRED
    }

    public enum Basis {
        /**
         * Source 001's: 1, s, sin 2πs/L, cos 2πs/L, sin 4πs/L, cos 4πs/L with 6 terms; more terms add the next
         * harmonics (sin 6πs/L, cos 6πs/L, …), fewer drop the last. Neither end's angle is held: the left end is
         * pinned, not clamped.
         */
        SOURCE,
        /**
         * sin((2i − 1)·π·s/(2L)), i = 1…n: each is zero at s = 0 and has zero slope at s = L, so θ(0) = 0 (the left
         * end clamped) and θ'(L) = 0 (no moment at the free end) hold exactly: the clamped–free column's modes.
         */
        CLAMPED_FREE
    }

    private final double lengthM;
    private final Basis basis;
    private final double densityKgpm;
    private final double stiffnessNm2;
    private double forceN;
    private final int n;
    private final int samples;
    private final double ds;
    /** φᵢ, φᵢ' and φᵢ'' at the sample points, [i][j]. */
    private final double[][] phi;
    private final double[][] phiS;
    private final double[][] phiSs;
    private final double[] a;
    private final double[] aNext;
    // Scratch, per sample.
    private final double[] thetaDot;
    private final double[] cos;
    private final double[] sin;
    private final double[] x1;
    private final double[] z1;
    private final double[][] xi;
    private final double[][] zi;
    private final double[][] coefficient;
    private final double[] rest;
    private final double[] restShape;
    private final double[] g;
    private final double[] r;
    private final double[] acceleration;
    private Projection projection = Projection.LEAST_SQUARES;
    /** Point forces at the sample points (x, z), and their generalised forces Qᵢ = Σⱼ Fⱼ·∂rⱼ/∂aᵢ. */
    private final double[] pointForceX;
    private final double[] pointForceZ;
    private final double[] generalizedForce;
    private boolean forcesApplied;
    /** Gravity in the string's plane, m/s² (x along the rest string, z up). */
    private double gravityX;
    private double gravityZ;
    /** The right end held on the x axis (z(L) = 0), the source's example: a multiplier in each step. */
    private boolean endOnAxis;
    /** The right end driven to (driveX, driveZ) moving at (driveVx, driveVz): two multipliers in each step. */
    private boolean endDriven;
    private double driveX;
    private double driveZ;
    private double driveVx;
    private double driveVz;
    private final double[] endZi;
    /** A rate set by {@link #setMotion}, turned into aᵏ at the first step, once T is known. */
    private final double[] pendingRate;
    private final double[] corrected;
    /** The θ̈ coefficients of the last step, for {@link #energyJ}'s velocity. */
    private final double[] lastAcceleration;
    private boolean ratePending;
    private final double[] endXi;
    private double endZ1;
    private double endZ;
    private double endZDot;
    private double endX1;
    private double endX;
    private double endXDot;
    /** The multipliers of the last step: the force the support exerts on the right end, x and z, N. */
    private double reactionX;
    private double reactionZ;
    private final double[] kkt;
    private final double[] kktRhs;
    private final double[] kktSolution;
    private Scheme scheme = Scheme.SOURCE;
    /** The coefficients before the step and θ̈ at k + 1, for a step taken again in substeps. */
    private final double[] savedA;
    private final double[] savedNext;
    private final double[] savedAcceleration;
    /** max |φᵢ| over the samples: the turn a change of aᵢ makes at most. */
    private final double[] largestPhi;
    private int substeps = 1;
    /** A grasp on sample {@code graspSample} for this step (−1: none): spring and damper to a point moving. */
    private int graspSample = -1;
    private double graspX;
    private double graspZ;
    private double graspVx;
    private double graspVz;
    private double graspK;
    private double graspB;
    /** The grasped sample's point force as applied for the step, and the part of it that is not the grasp's, N. */
    private double appliedFx;
    private double appliedFz;
    private double otherFx;
    private double otherFz;
    private final double[] point = new double[2];
    private final double[] pointBefore = new double[2];
    private final double[] graspForce = new double[2];
    /** Scratch for {@link #samplePosition}: every sample's (x, z) up to the one asked for. */
    private final double[] scratchXz;
    /** Within a CENTRED step: θ from the second coefficient vector given, not the first. */
    private boolean shapeAtNext;

    /**
     * @param basisSize for {@link Basis#CLAMPED_FREE} the number of terms; {@link Basis#SOURCE} has 6
     * @param samples   trapezoid intervals over the length
     */
    public ElasticString(double lengthM, double densityKgpm, double stiffnessNm2, double forceN, Basis basis,
                         int basisSize, int samples) {
        if (!(lengthM > 0) || !(densityKgpm > 0) || !(stiffnessNm2 > 0) || samples < 4) {
            throw new IllegalArgumentException("a string needs L, ρ, R > 0 and at least 4 samples");
        }
        this.lengthM = lengthM;
        this.densityKgpm = densityKgpm;
        this.stiffnessNm2 = stiffnessNm2;
        this.forceN = forceN;
        this.basis = java.util.Objects.requireNonNull(basis, "basis");
        this.n = basisSize;
        if (n < 1) {
            throw new IllegalArgumentException("basisSize must be >= 1");
        }
        this.samples = samples;
        this.ds = lengthM / samples;
        phi = new double[n][samples + 1];
        phiS = new double[n][samples + 1];
        phiSs = new double[n][samples + 1];
        for (int j = 0; j <= samples; j++) {
            double s = j * ds;
            for (int i = 0; i < n; i++) {
                double[] v = basis == Basis.SOURCE ? source(i, s, lengthM) : clampedFree(i, s, lengthM);
                phi[i][j] = v[0];
                phiS[i][j] = v[1];
                phiSs[i][j] = v[2];
            }
        }
        a = new double[n];
        aNext = new double[n];
        thetaDot = new double[samples + 1];
        cos = new double[samples + 1];
        sin = new double[samples + 1];
        x1 = new double[samples + 1];
        z1 = new double[samples + 1];
        xi = new double[n][samples + 1];
        zi = new double[n][samples + 1];
        coefficient = new double[n][samples + 1];
        rest = new double[samples + 1];
        restShape = new double[samples + 1];
        g = new double[n * n];
        r = new double[n];
        acceleration = new double[n];
        pointForceX = new double[samples + 1];
        pointForceZ = new double[samples + 1];
        generalizedForce = new double[n];
        endZi = new double[n];
        endXi = new double[n];
        pendingRate = new double[n];
        corrected = new double[n];
        lastAcceleration = new double[n];
        kkt = new double[(n + 2) * (n + 2)];
        kktRhs = new double[n + 2];
        kktSolution = new double[n + 2];
        savedA = new double[n];
        savedNext = new double[n];
        savedAcceleration = new double[n];
        scratchXz = new double[2 * (samples + 1)];
        largestPhi = new double[n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j <= samples; j++) {
                largestPhi[i] = Math.max(largestPhi[i], Math.abs(phi[i][j]));
            }
        }
    }

    /**
     * Holds the right end on the x axis, z(L) = 0, as in source 001's example: each step minimises its objective
     * (least squares) or solves its Galerkin equations subject to z̈(L) = −2β·ż(L) − β²·z(L) (β = 0.2/T, which
     * pulls round-off drift back), by a Lagrange multiplier: the force along z the axis exerts on the end.
     */
    public void setEndOnAxis(boolean value) {
        this.endOnAxis = value;
        if (value) {
            endDriven = false;
        }
    }

    /**
     * Drives the right end for the next {@link #step}: each step solves subject to
     * {@code r̈(L) = −2β·(ṙ(L) − v) − β²·(r(L) − p)} in x and z (β = 0.2/T), so the end follows a path given by its
     * positions p and velocities v relative to the left end, m and m/s. Stays in force until {@link #releaseEnd}.
     * Neither the end force f nor {@link #setEndOnAxis} applies meanwhile (f's work shows in the reaction).
     */
    public void driveEnd(double xM, double zM, double vxMps, double vzMps) {
        endDriven = true;
        endOnAxis = false;
        driveX = xM;
        driveZ = zM;
        driveVx = vxMps;
        driveVz = vzMps;
    }

    /** Frees a driven end again (pushed by f only). */
    public void releaseEnd() {
        endDriven = false;
    }

    /**
     * The force the support exerted on the right end in the last step, x and z into {@code dest}, N: the
     * multipliers of a held ({@link #setEndOnAxis}, z only) or driven ({@link #driveEnd}) end; zero for a free one.
     * {@link Projection#GALERKIN} only: under least squares the multipliers are not forces.
     */
    public double[] endReactionN(double[] dest) {
        dest[0] = reactionX;
        dest[1] = reactionZ;
        return dest;
    }

    /**
     * The coefficients of a circular arc θ(s) = c·(1 − 2s/L) whose right end lies on the x axis at {@code endXM}
     * (L·sin c / c = x, 0 < x ≤ L, as the string's samples integrate it): the shape of least bending energy with that
     * end, the first buckling mode of a pinned column. {@link Basis#SOURCE} only (it spans 1 and s). Allocates.
     *
     * @throws IllegalArgumentException for another basis or an end outside (0, L]
     */
    public double[] arcWithEndAt(double endXM) {
        if (basis != Basis.SOURCE || n < 2) {
            throw new IllegalArgumentException("an arc needs the source basis (its terms 1 and s)");
        }
        if (!(endXM > 0) || endXM > lengthM) {
            throw new IllegalArgumentException("the end of an arc must lie in (0, L = " + lengthM + "], got " + endXM);
        }
        double low = 0;
        double high = Math.PI;
        for (int i = 0; i < 200 && high - low > 1e-15; i++) {
            double mid = 0.5 * (low + high);
            double x = 0;
            for (int j = 1; j <= samples; j++) {
                double before = Math.cos(mid * (1 - 2 * (j - 1) * ds / lengthM));
                x += 0.5 * ds * (before + Math.cos(mid * (1 - 2 * j * ds / lengthM)));
            }
            if (x > endXM) {
                low = mid;
            } else {
                high = mid;
            }
        }
        double c = 0.5 * (low + high);
        double[] coefficients = new double[n];
        coefficients[0] = c;
        coefficients[1] = -2 * c / lengthM;
        return coefficients;
    }

    /**
     * Adds a force at sample point j (x and z, N) for the next {@link #step}: it enters the Galerkin equations as the
     * generalised forces Qᵢ = Fₓ·∂xⱼ/∂aᵢ + F_z·∂zⱼ/∂aᵢ, with ∂xⱼ/∂aᵢ = −∫₀^{sⱼ} sin θ·φᵢ and ∂zⱼ/∂aᵢ = ∫₀^{sⱼ} cos θ·φᵢ
     * (virtual work). {@link Projection#GALERKIN} only: the source's least squares has no place for them.
     */
    public void applyForce(int sample, double fxN, double fzN) {
        pointForceX[sample] += fxN;
        pointForceZ[sample] += fzN;
        forcesApplied = true;
    }

    /**
     * The grasp on sample {@code sample} for the next {@link #step}, whose force at the step's start is already among
     * the {@link #applyForce} forces: a spring {@code k} (N/m) and damper {@code b} (N·s/m) to the point ({@code x},
     * {@code z}) (m, from the left end) moving at ({@code vx}, {@code vz}) (m/s). A step taken in substeps replaces
     * that force at each substep after the first by the grasp's force on the substep's own state.
     */
    public void grasp(int sample, double x, double z, double vx, double vz, double k, double b) {
        graspSample = sample;
        graspX = x;
        graspZ = z;
        graspVx = vx;
        graspVz = vz;
        graspK = k;
        graspB = b;
    }

    /**
     * Gravity in the string's plane, x and z (m/s²): a load ρ·g along its length, entering the Galerkin equations as
     * generalised forces like {@link #applyForce}'s ({@link Projection#GALERKIN} only). Source 001 has none.
     */
    public void setGravity(double gxMps2, double gzMps2) {
        if (!Double.isFinite(gxMps2) || !Double.isFinite(gzMps2)) {
            throw new IllegalArgumentException("gravity must be finite");
        }
        this.gravityX = gxMps2;
        this.gravityZ = gzMps2;
    }

    /** φ, φ', φ'' of the source's basis function i at s: 1, s, then sin and cos of 2πks/L for k = 1, 2, …. */
    private static double[] source(int i, double s, double l) {
        if (i == 0) {
            return new double[] {1, 0, 0};
        }
        if (i == 1) {
            return new double[] {s, 1, 0};
        }
        double w = 2 * Math.PI * ((i - 2) / 2 + 1) / l;
        double sin = Math.sin(w * s);
        double cos = Math.cos(w * s);
        return (i - 2) % 2 == 0 ? new double[] {sin, w * cos, -w * w * sin}
            : new double[] {cos, -w * sin, -w * w * cos};
    }

    private static double[] clampedFree(int i, double s, double l) {
        double w = (2 * i + 1) * Math.PI / (2 * l);
        return new double[] {Math.sin(w * s), w * Math.cos(w * s), -w * w * Math.sin(w * s)};
    }

    /** Sets the shape at steps k and k + 1 (coefficients of θ), so the next step computes k + 2. */
    public void setCoefficients(double[] atK, double[] atK1) {
        System.arraycopy(atK, 0, a, 0, n);
        System.arraycopy(atK1, 0, aNext, 0, n);
        java.util.Arrays.fill(lastAcceleration, 0.0);
        ratePending = false;
    }

    /**
     * Sets the shape and its rate (coefficients and their time derivatives, per second): the next step starts from
     * this shape moving at this rate, whatever its T.
     */
    public void setMotion(double[] coefficients, double[] ratesPerS) {
        System.arraycopy(coefficients, 0, aNext, 0, n);
        System.arraycopy(ratesPerS, 0, pendingRate, 0, n);
        java.util.Arrays.fill(lastAcceleration, 0.0);
        ratePending = true;
    }

    public void setScheme(Scheme value) {
        this.scheme = java.util.Objects.requireNonNull(value, "scheme");
    }

    public void setProjection(Projection value) {
        this.projection = java.util.Objects.requireNonNull(value, "projection");
    }

    public void setForceN(double value) {
        this.forceN = value;
    }

    public int basisSize() {
        return n;
    }

    /** The coefficients of the newest shape (step k + 1), into {@code dest}. */
    public double[] coefficients(double[] dest) {
        System.arraycopy(aNext, 0, dest, 0, n);
        return dest;
    }

    /**
     * The source's step: aᵏ⁺² from aᵏ and aᵏ⁺¹ by the least-squares solve of (15), then shifts (k ← k + 1). A step
     * that would turn the string by more than {@link #MAX_TURN_PER_STEP_RAD} anywhere along it, or leave it not
     * finite, is taken again in 2, 4, … up to {@link #MAX_SUBSTEPS} equal substeps (the forces applied act over all
     * of them, but a {@link #grasp}, evaluated again at each); see {@link #substepsOfLastStep}.
     */
    public void step(double dtS) {
        if (ratePending) {
            for (int i = 0; i < n; i++) {
                a[i] = aNext[i] - dtS * pendingRate[i];
            }
            ratePending = false;
        }
        System.arraycopy(a, 0, savedA, 0, n);
        System.arraycopy(aNext, 0, savedNext, 0, n);
        stepOnce(dtS);
        // θ̈ at k + 1, from aᵏ and aᵏ⁺¹: what the substeps' first rate needs.
        System.arraycopy(lastAcceleration, 0, savedAcceleration, 0, n);
        substeps = 1;
        if (!followed()) {
            // A whip (the tool's grasp yanking the free end from far away, say) turns the string faster than the
            // explicit step can follow: the one step is taken again in halves until each substep follows.
            if (graspSample >= 0) {
                // The grasp's force at the step's start, from the saved state, as the world computed it from the
                // positions T apart; the rest of the sample's force stays as applied.
                int j = graspSample;
                appliedFx = pointForceX[j];
                appliedFz = pointForceZ[j];
                graspForce(savedA, savedNext, dtS, 0.0);
                otherFx = appliedFx - graspForce[0];
                otherFz = appliedFz - graspForce[1];
            }
            for (int count = 2; count <= MAX_SUBSTEPS; count *= 2) {
                substeps = count;
                if (subdivided(dtS, count)) {
                    break;
                }
            }
        }
        if (forcesApplied) {
            java.util.Arrays.fill(pointForceX, 0.0);
            java.util.Arrays.fill(pointForceZ, 0.0);
            forcesApplied = false;
        }
        graspSample = -1;
    }

    /**
     * Substeps the last {@link #step} took: 1, or a power of two when it was subdivided ({@link #MAX_SUBSTEPS} also
     * when even that many did not follow).
     */
    public int substepsOfLastStep() {
        return substeps;
    }

    /**
     * The step from the saved aᵏ, aᵏ⁺¹ taken in {@code count} substeps of T/count; true if each followed (a try
     * stops at the first that does not, but the last try takes them all).
     */
    private boolean subdivided(double dtS, int count) {
        double h = dtS / count;
        // (aᵏ⁺¹ − aᵏ)/T is the rate half a step back, at k + ½; the rate half a substep back is that plus ä·(T − h)/2
        // (ä at k + 1), so the substeps start at the same motion, not a rate that is T·ä/2 stale.
        for (int i = 0; i < n; i++) {
            double rate = (savedNext[i] - savedA[i]) / dtS + 0.5 * (dtS - h) * savedAcceleration[i];
            aNext[i] = savedNext[i];
            a[i] = savedNext[i] - h * rate;
        }
        // The last try takes all its substeps whatever they turn: the step must end at k + 2 (non-finite there, the
        // world takes the body out).
        boolean last = count >= MAX_SUBSTEPS;
        boolean followed = true;
        for (int k = 0; k < count && (followed || last); k++) {
            if (graspSample >= 0) {
                // The first substep takes the force as applied; each later one the grasp's on its own state.
                if (k == 0) {
                    pointForceX[graspSample] = appliedFx;
                    pointForceZ[graspSample] = appliedFz;
                } else {
                    graspForce(a, aNext, h, k * h);
                    pointForceX[graspSample] = otherFx + graspForce[0];
                    pointForceZ[graspSample] = otherFz + graspForce[1];
                }
            }
            stepOnce(h);
            followed &= followed();
        }
        // Back to steps T apart: the rate half a step back from the last substep's.
        for (int i = 0; i < n; i++) {
            double rate = (aNext[i] - a[i]) / h - 0.5 * (dtS - h) * lastAcceleration[i];
            a[i] = aNext[i] - dtS * rate;
        }
        return followed;
    }

    /**
     * The grasp's force on its sample into {@link #graspForce}: the sample at {@code now} moving at its change from
     * {@code before} over {@code dtS}, the grasping point {@code elapsedS} into the step.
     */
    private void graspForce(double[] before, double[] now, double dtS, double elapsedS) {
        samplePosition(before, graspSample, pointBefore);
        samplePosition(now, graspSample, point);
        graspForce[0] = (graspX + graspVx * elapsedS - point[0]) * graspK
            + (graspVx - (point[0] - pointBefore[0]) / dtS) * graspB;
        graspForce[1] = (graspZ + graspVz * elapsedS - point[1]) * graspK
            + (graspVz - (point[1] - pointBefore[1]) / dtS) * graspB;
    }

    /** Sample {@code sample}'s position (x, z) for the coefficients {@code c}, as {@link #positions} has it. */
    private void samplePosition(double[] c, int sample, double[] destXz) {
        positions(c, sample, scratchXz);
        destXz[0] = scratchXz[2 * sample];
        destXz[1] = scratchXz[2 * sample + 1];
    }

    /** Whether the step just taken (aᵏ to aᵏ⁺¹ now) is finite and turned no point of θ by more than the limit. */
    private boolean followed() {
        double turn = 0.0;
        for (int i = 0; i < n; i++) {
            turn += Math.abs(aNext[i] - a[i]) * largestPhi[i];
        }
        return turn <= MAX_TURN_PER_STEP_RAD;
    }

    private void stepOnce(double dtS) {
        shapeAtNext = scheme == Scheme.CENTRED;
        accelerationAt(a, aNext, dtS, acceleration);
        if (shapeAtNext) {
            // The velocity in (7)'s θ̇² terms: (aᵏ⁺¹ − aᵏ)/T is half a step late; a second solve with the velocity at
            // k + 1 that the first acceleration gives, (aᵏ⁺¹ − aᵏ)/T + ä·T/2, makes the step second order.
            // The shape is the same, so only the velocity's terms are computed again.
            for (int i = 0; i < n; i++) {
                corrected[i] = a[i] - 0.5 * dtS * dtS * acceleration[i];
            }
            velocityTerms(corrected, aNext, dtS);
            solveAcceleration(dtS, acceleration);
        }
        shapeAtNext = false;
        for (int i = 0; i < n; i++) {
            double next = 2 * aNext[i] - a[i] + dtS * dtS * acceleration[i];
            a[i] = aNext[i];
            aNext[i] = next;
            lastAcceleration[i] = acceleration[i];
        }
    }

    /**
     * The θ̈ coefficients that minimise E for the shape {@code ak} moving at {@code (ak1 − ak)/dt}: the normal
     * equations of the least-squares problem, solved directly.
     */
    public void accelerationAt(double[] ak, double[] ak1, double dtS, double[] dest) {
        residualTerms(ak, ak1, dtS);
        solveAcceleration(dtS, dest);
    }

    /** The θ̈ coefficients from the terms of h last computed: the projection's equations, with any end's rows. */
    private void solveAcceleration(double dtS, double[] dest) {
        // Least squares: the normal equations (∫AᵢAₖ)·ä = −∫Aᵢb. Galerkin: (∫φᵢAₖ)·ä = −∫φᵢb.
        double[][] test = projection == Projection.LEAST_SQUARES ? coefficient : phi;
        for (int i = 0; i < n; i++) {
            for (int k = 0; k < n; k++) {
                g[i * n + k] = integral(test[i], coefficient[k]);
            }
            // Galerkin: ∫h·φᵢ + Qᵢ = 0 (∫R·θ''·φᵢ = −∂U/∂aᵢ fixes the sign against Lagrange's equations).
            r[i] = -integral(test[i], rest) - (projection == Projection.GALERKIN ? generalizedForce[i] : 0.0);
        }
        if (!endOnAxis && !endDriven) {
            reactionX = 0;
            reactionZ = 0;
            solve(g, r, dest, n);
            return;
        }
        // [G Jᵀ; J 0]·[ä; λ] = [r; d]: J's rows are ∂x(L)/∂aᵢ = −Xᵢ(L) and ∂z(L)/∂aᵢ = Zᵢ(L), and the end's
        // accelerations ẍ(L) = −X1(L) + J_x·ä and z̈(L) = −Z1(L) + J_z·ä are set to d = −2β·(ṙ − v) − β²·(r − p).
        // Under Galerkin, G·ä = r − Jᵀ·λ makes λ the force the support exerts on the end.
        double beta = 0.2 / dtS;
        // A straight string cannot move its end along itself at first order (∂x(L)/∂a = −∫sin θ·φ = 0): that row
        // is dropped for the step, and the bend the z row makes lets the next one act.
        boolean xRow = endDriven && norm(endXi) > 1e-9 * norm(endZi);
        int rows = xRow ? 2 : 1;
        int m = n + rows;
        java.util.Arrays.fill(kkt, 0.0);
        for (int i = 0; i < n; i++) {
            for (int k = 0; k < n; k++) {
                kkt[i * m + k] = g[i * n + k];
            }
            kktRhs[i] = r[i];
        }
        int zRow = n;
        if (xRow) {
            for (int i = 0; i < n; i++) {
                kkt[i * m + n] = endXi[i];
                kkt[n * m + i] = endXi[i];
            }
            kktRhs[n] = endX1 - 2 * beta * (endXDot - driveVx) - beta * beta * (endX - driveX);
            zRow = n + 1;
        }
        double zTarget = endDriven ? driveZ : 0.0;
        double vzTarget = endDriven ? driveVz : 0.0;
        for (int i = 0; i < n; i++) {
            kkt[i * m + zRow] = endZi[i];
            kkt[zRow * m + i] = endZi[i];
        }
        kktRhs[zRow] = endZ1 - 2 * beta * (endZDot - vzTarget) - beta * beta * (endZ - zTarget);
        solve(kkt, kktRhs, kktSolution, m);
        System.arraycopy(kktSolution, 0, dest, 0, n);
        reactionX = xRow ? kktSolution[n] : 0.0;
        reactionZ = kktSolution[zRow];
    }

    private double norm(double[] v) {
        double sum = 0;
        for (int i = 0; i < n; i++) {
            sum += v[i] * v[i];
        }
        return Math.sqrt(sum);
    }

    /** E(ä) = ∫ (Σ Aᵢ·äᵢ + b)² ds for the shape {@code ak} moving at {@code (ak1 − ak)/dt}: the source's objective. */
    public double objective(double[] ak, double[] ak1, double dtS, double[] candidateAcceleration) {
        residualTerms(ak, ak1, dtS);
        double sum = 0;
        for (int j = 0; j <= samples; j++) {
            double h = rest[j];
            for (int i = 0; i < n; i++) {
                h += coefficient[i][j] * candidateAcceleration[i];
            }
            sum += weight(j) * h * h;
        }
        return sum;
    }

    /**
     * The weighted residuals √wⱼ·h(sⱼ) at the sample points for a candidate θ̈ (so that E is their sum of squares),
     * into {@code dest} ({@link #samples()} + 1 values).
     */
    public double[] residuals(double[] ak, double[] ak1, double dtS, double[] candidateAcceleration, double[] dest) {
        residualTerms(ak, ak1, dtS);
        for (int j = 0; j <= samples; j++) {
            double h = rest[j];
            for (int i = 0; i < n; i++) {
                h += coefficient[i][j] * candidateAcceleration[i];
            }
            dest[j] = Math.sqrt(weight(j)) * h;
        }
        return dest;
    }

    /** Fills {@code coefficient} (Aᵢ(s)) and {@code rest} (b(s)) of h = Σ Aᵢ·äᵢ + b. */
    private void residualTerms(double[] ak, double[] ak1, double dtS) {
        shapeTerms(shapeAtNext ? ak1 : ak);
        velocityTerms(ak, ak1, dtS);
    }

    /** The terms of h that depend on the shape only: θ, its sines and cosines, the Aᵢ, b's R·θ'' + f·sin θ. */
    private void shapeTerms(double[] shape) {
        for (int j = 0; j <= samples; j++) {
            double th = 0;
            double thss = 0;
            for (int i = 0; i < n; i++) {
                th += shape[i] * phi[i][j];
                thss += shape[i] * phiSs[i][j];
            }
            cos[j] = Math.cos(th);
            sin[j] = Math.sin(th);
            restShape[j] = stiffnessNm2 * thss + (endDriven ? 0.0 : forceN) * sin[j];
        }
        // ẍ(s) = −X1(s) − Σ äᵢ·Xᵢ(s), z̈(s) = −Z1(s) + Σ äᵢ·Zᵢ(s), cumulative from s = 0 (trapezoidal).
        for (int i = 0; i < n; i++) {
            xi[i][0] = 0;
            zi[i][0] = 0;
        }
        for (int j = 1; j <= samples; j++) {
            double h = 0.5 * ds;
            for (int i = 0; i < n; i++) {
                xi[i][j] = xi[i][j - 1] + h * (sin[j - 1] * phi[i][j - 1] + sin[j] * phi[i][j]);
                zi[i][j] = zi[i][j - 1] + h * (cos[j - 1] * phi[i][j - 1] + cos[j] * phi[i][j]);
            }
        }
        // The end's position and ∂r(L)/∂aᵢ, for a held or driven end, before the tails.
        endZ = 0;
        endX = 0;
        for (int j = 1; j <= samples; j++) {
            endZ += 0.5 * ds * (sin[j - 1] + sin[j]);
            endX += 0.5 * ds * (cos[j - 1] + cos[j]);
        }
        for (int i = 0; i < n; i++) {
            endZi[i] = zi[i][samples];
            endXi[i] = -xi[i][samples];
        }
        // The applied point forces' generalised forces, from ∂x/∂aᵢ = −Xᵢ and ∂z/∂aᵢ = Zᵢ before the tails.
        // Gravity, a load ρ·g per length: Qᵢ = ∫ ρ·(gₓ·∂x/∂aᵢ + g_z·∂z/∂aᵢ) ds.
        boolean weighed = gravityX != 0 || gravityZ != 0;
        for (int i = 0; i < n; i++) {
            double q = 0;
            if (forcesApplied) {
                for (int j = 0; j <= samples; j++) {
                    q += -pointForceX[j] * xi[i][j] + pointForceZ[j] * zi[i][j];
                }
            }
            if (weighed) {
                for (int j = 0; j <= samples; j++) {
                    q += weight(j) * densityKgpm * (-gravityX * xi[i][j] + gravityZ * zi[i][j]);
                }
            }
            generalizedForce[i] = q;
        }
        // Tail integrals ∫ₛᴸ, in place.
        for (int i = 0; i < n; i++) {
            tail(xi[i]);
            tail(zi[i]);
        }
        for (int j = 0; j <= samples; j++) {
            for (int i = 0; i < n; i++) {
                coefficient[i][j] = -densityKgpm * (sin[j] * xi[i][j] + cos[j] * zi[i][j]);
            }
        }
    }

    /**
     * The terms of h that depend on the velocity (aᵏ⁺¹ − aᵏ)/T, for the shape {@link #shapeTerms} last saw: θ̇, the
     * θ̇² parts of ẍ and z̈, and b = R·θ'' + f·sin θ + sin θ·ρ∫ₛᴸẍ₁ − cos θ·ρ∫ₛᴸz̈₁.
     */
    private void velocityTerms(double[] ak, double[] ak1, double dtS) {
        for (int j = 0; j <= samples; j++) {
            double thd = 0;
            for (int i = 0; i < n; i++) {
                thd += (ak1[i] - ak[i]) / dtS * phi[i][j];
            }
            thetaDot[j] = thd;
        }
        x1[0] = 0;
        z1[0] = 0;
        endZDot = 0;
        endXDot = 0;
        for (int j = 1; j <= samples; j++) {
            double h = 0.5 * ds;
            x1[j] = x1[j - 1] + h * (cos[j - 1] * thetaDot[j - 1] * thetaDot[j - 1] + cos[j] * thetaDot[j] * thetaDot[j]);
            z1[j] = z1[j - 1] + h * (sin[j - 1] * thetaDot[j - 1] * thetaDot[j - 1] + sin[j] * thetaDot[j] * thetaDot[j]);
            endZDot += h * (cos[j - 1] * thetaDot[j - 1] + cos[j] * thetaDot[j]);
            endXDot -= h * (sin[j - 1] * thetaDot[j - 1] + sin[j] * thetaDot[j]);
        }
        endZ1 = z1[samples];
        endX1 = x1[samples];
        tail(x1);
        tail(z1);
        // h = sin θ·ρ∫ₛᴸẍ − cos θ·ρ∫ₛᴸz̈ + R·θ'' + f·sin θ.
        for (int j = 0; j <= samples; j++) {
            rest[j] = restShape[j] + densityKgpm * (-sin[j] * x1[j] + cos[j] * z1[j]);
        }
    }

    /** values[j] ← ∫_{s_j}^L values, trapezoidal, in place. */
    private void tail(double[] values) {
        double sum = 0;
        double previous = values[samples];
        values[samples] = 0;
        for (int j = samples - 1; j >= 0; j--) {
            double current = values[j];
            sum += 0.5 * ds * (previous + current);
            previous = current;
            values[j] = sum;
        }
    }

    private double weight(int j) {
        return j == 0 || j == samples ? 0.5 * ds : ds;
    }

    private double integral(double[] u, double[] v) {
        double sum = 0;
        for (int j = 0; j <= samples; j++) {
            sum += weight(j) * u[j] * v[j];
        }
        return sum;
    }

    /** Gaussian elimination with partial pivoting on a copy-free n × n system (m and rhs are overwritten). */
    private static void solve(double[] m, double[] rhs, double[] dest, int n) {
        for (int col = 0; col < n; col++) {
            int pivot = col;
            for (int row = col + 1; row < n; row++) {
                if (Math.abs(m[row * n + col]) > Math.abs(m[pivot * n + col])) {
                    pivot = row;
                }
            }
            if (pivot != col) {
                for (int k = 0; k < n; k++) {
                    double t = m[col * n + k];
                    m[col * n + k] = m[pivot * n + k];
                    m[pivot * n + k] = t;
                }
                double t = rhs[col];
                rhs[col] = rhs[pivot];
                rhs[pivot] = t;
            }
            double d = m[col * n + col];
            for (int row = col + 1; row < n; row++) {
                double factor = m[row * n + col] / d;
                for (int k = col; k < n; k++) {
                    m[row * n + k] -= factor * m[col * n + k];
                }
                rhs[row] -= factor * rhs[col];
            }
        }
        for (int row = n - 1; row >= 0; row--) {
            double sum = rhs[row];
            for (int k = row + 1; k < n; k++) {
                sum -= m[row * n + k] * dest[k];
            }
            dest[row] = sum / m[row * n + row];
        }
    }

    /**
     * The static shape (ρ → 0: (7) becomes the elastica R·θ'' + f·sin θ = 0) by Newton's method on its Galerkin
     * equations ∫(R·θ'' + f·sin θ)·φᵢ ds = 0, from the coefficients {@code guess}; sets it as the string's shape (at
     * rest) and returns the coefficients. Allocates; not for the loop.
     *
     * @throws IllegalStateException when Newton's method does not converge in 50 steps
     */
    public double[] staticShape(double[] guess) {
        double[] c = guess.clone();
        double[] jac = new double[n * n];
        double[] rhs = new double[n];
        double[] delta = new double[n];
        double[] weighted = new double[samples + 1];
        for (int iteration = 0; iteration < 50; iteration++) {
            double largest = 0;
            for (int j = 0; j <= samples; j++) {
                double th = 0;
                double thss = 0;
                for (int i = 0; i < n; i++) {
                    th += c[i] * phi[i][j];
                    thss += c[i] * phiSs[i][j];
                }
                rest[j] = stiffnessNm2 * thss + forceN * Math.sin(th);
                cos[j] = Math.cos(th);
            }
            for (int i = 0; i < n; i++) {
                rhs[i] = -integral(phi[i], rest);
                largest = Math.max(largest, Math.abs(rhs[i]));
                for (int k = 0; k < n; k++) {
                    for (int j = 0; j <= samples; j++) {
                        weighted[j] = stiffnessNm2 * phiSs[k][j] + forceN * cos[j] * phi[k][j];
                    }
                    jac[i * n + k] = integral(phi[i], weighted);
                }
            }
            if (largest < 1e-14 * Math.max(stiffnessNm2, Math.abs(forceN) * lengthM)) {
                setCoefficients(c, c);
                return c;
            }
            solve(jac, rhs, delta, n);
            for (int i = 0; i < n; i++) {
                c[i] += delta[i];
            }
        }
        throw new IllegalStateException("no static shape found from " + java.util.Arrays.toString(guess));
    }

    /**
     * The highest angular frequency of the motion linearised about the current shape at rest, rad/s: √(−μ) for the
     * most negative eigenvalue μ of J = ∂ä/∂a, J taken by central differences of {@link #accelerationAt} (the end's
     * rows included). {@link Scheme#CENTRED} is Størmer–Verlet on ä = J·a, whose step λ² − (2 + T²μ)·λ + 1 = 0 keeps
     * |λ| = 1 only while −4 ≤ T²μ ≤ 0: the step is stable while this frequency times T is below 2. An eigenvalue with
     * a positive real part is the string's own instability (buckling under f), not the step's, and is left out.
     * For the scene's check at load; it allocates.
     */
    public double highestModeRadps(double dtS) {
        double[] base = aNext.clone();
        double[] plus = new double[n];
        double[] minus = new double[n];
        DMatrixRMaj jacobian = new DMatrixRMaj(n, n);
        for (int k = 0; k < n; k++) {
            double h = 1e-6 * Math.max(1.0, Math.abs(base[k]));
            double[] shape = base.clone();
            shape[k] = base[k] + h;
            accelerationAt(shape, shape, dtS, plus);
            shape[k] = base[k] - h;
            accelerationAt(shape, shape, dtS, minus);
            for (int i = 0; i < n; i++) {
                jacobian.set(i, k, (plus[i] - minus[i]) / (2 * h));
            }
        }
        reactionX = 0;
        reactionZ = 0;
        EigenDecomposition_F64<DMatrixRMaj> eigen = DecompositionFactory_DDRM.eig(n, false);
        if (!eigen.decompose(jacobian)) {
            throw new IllegalStateException("the string's linearised modes could not be computed");
        }
        double omegaSq = 0;
        for (int i = 0; i < eigen.getNumberOfEigenvalues(); i++) {
            omegaSq = Math.max(omegaSq, -eigen.getEigenvalue(i).getReal());
        }
        return Math.sqrt(omegaSq);
    }

    /** Positions of the sample points, x and z interleaved (2 per sample), for the shape at step k + 1. */
    public double[] positions(double[] destXz) {
        return positions(aNext, samples, destXz);
    }

    /** The positions of samples 0 … {@code last} for the coefficients {@code c}: x = ∫cos θ, z = ∫sin θ, trapezoidal. */
    private double[] positions(double[] c, int last, double[] destXz) {
        double x = 0;
        double z = 0;
        double previousCos = 0;
        double previousSin = 0;
        for (int j = 0; j <= last; j++) {
            double th = 0;
            for (int i = 0; i < n; i++) {
                th += c[i] * phi[i][j];
            }
            double cs = Math.cos(th);
            double sn = Math.sin(th);
            if (j > 0) {
                x += 0.5 * ds * (previousCos + cs);
                z += 0.5 * ds * (previousSin + sn);
            }
            destXz[2 * j] = x;
            destXz[2 * j + 1] = z;
            previousCos = cs;
            previousSin = sn;
        }
        return destXz;
    }

    public int samples() {
        return samples;
    }

    /**
     * T + U − f·Δx at step k + 1 with the velocity (aᵏ⁺¹ − aᵏ)/T + ä·T/2 (ä of the last step): kinetic ½ρ∫(ẋ² + ż²), bending ½R∫θ'², gravity's
     * −ρ∫(gₓ·x + g_z·z), and the work the end force has done, f·∫(1 − cos θ) (conserved by the exact motion).
     */
    public double energyJ(double dtS) {
        double kinetic = 0;
        double bending = 0;
        double work = 0;
        double xd = 0;
        double zd = 0;
        double previousSinThd = 0;
        double previousCosThd = 0;
        double x = 0;
        double z = 0;
        double previousCos = 0;
        double previousSin = 0;
        double potential = 0;
        for (int j = 0; j <= samples; j++) {
            double th = 0;
            double thd = 0;
            double ths = 0;
            for (int i = 0; i < n; i++) {
                th += aNext[i] * phi[i][j];
                thd += ((aNext[i] - a[i]) / dtS + 0.5 * dtS * lastAcceleration[i]) * phi[i][j];
                ths += aNext[i] * phiS[i][j];
            }
            double sinThd = Math.sin(th) * thd;
            double cosThd = Math.cos(th) * thd;
            double c = Math.cos(th);
            double sn = Math.sin(th);
            if (j > 0) {
                xd -= 0.5 * ds * (previousSinThd + sinThd);
                zd += 0.5 * ds * (previousCosThd + cosThd);
                x += 0.5 * ds * (previousCos + c);
                z += 0.5 * ds * (previousSin + sn);
            }
            previousSinThd = sinThd;
            previousCosThd = cosThd;
            previousCos = c;
            previousSin = sn;
            double w = weight(j);
            kinetic += w * 0.5 * densityKgpm * (xd * xd + zd * zd);
            bending += w * 0.5 * stiffnessNm2 * ths * ths;
            work += w * (endDriven ? 0.0 : forceN) * (1 - c);
            potential -= w * densityKgpm * (gravityX * x + gravityZ * z);
        }
        return kinetic + bending + potential - work;
    }
}
