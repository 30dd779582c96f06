package org.hapticsd.physics.deformable;

import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.joml.Vector3d;

/**
 * A mass–spring body stepped by one of source 004's integrators ({@link MassSpringSpec.Integrator}):
 * {@code [m]·ẍ + [c]·ẋ + {f} = {f_g}} (its (3.1)), {@code f} the restoring force of the geometrically nonlinear
 * springs (3.9), computed in physical coordinates every step whatever the integrator.
 *
 * <h2>The scheme</h2>
 * Explicit Newmark-β (β = 0, γ = ½), source 004 (3.6)–(3.8), in physical coordinates ({@code NEWMARK}) or on each
 * modal coordinate ({@code MODAL}, {@code MODAL_TRUNCATED}):
 * <pre>
 *   X_{n+1} = X_n + Ẋ_n·Δt + ½·Ẍ_n·Δt²                                    (3.8)
 *   M·Ẍ_{n+1} = F_g − F(x_{n+1}) − C·Ẋ_{n+1},  Ẋ_{n+1} = Ẋ_n + ½·(Ẍ_n + Ẍ_{n+1})·Δt   (3.6), (3.7)
 * </pre>
 * The velocity in the damping term is the new one, so each step solves {@code (M + ½·Δt·C)·Ẍ_{n+1} = F_g − F −
 * C·(Ẋ_n + ½·Δt·Ẍ_n)}: a division per mode in modal coordinates (C diagonal, {@code Cᵢ = 2·hᵢ·ωᵢ}, unit modal
 * masses), a product with {@code (m + ½·Δt·c)⁻¹} in physical ones, with {@code [c] = φ⁻ᵀ·[C]·φ⁻¹ = m·φ·C·φᵀ·m}
 * (3.10, φ mass-normalised) so both damp alike. The modal run maps X to positions by
 * {@code x = x_rest + Σᵢ φᵢ·Xᵢ} (3.3) over the modes it keeps, computes the spring forces there and projects them,
 * {@code Fᵢ = φᵢᵀ·f} (3.5). Kept with all modes it is the physical run in another basis (equal to round-off); kept
 * with L' modes, the dropped high modes no longer limit the step. {@code SYMPLECTIC_EULER}: {@code v += Δt·m⁻¹·(f_g
 * − f − c·v)}, then {@code x += Δt·v}.
 *
 * <p>Forces on nodes from outside (a rigid body, the tool) go in through {@link #applyForce}, summed until the
 * next step. Loop thread; allocates only at construction and when the step length changes (the physical scheme's
 * {@code (m + ½·Δt·c)⁻¹}).
 */
public final class MassSpringBody implements DeformableBody {
    /** Node radius of a body made without one: the collision sphere of each node. */
    public static final double DEFAULT_NODE_RADIUS_M = 0.005;

    private final String name;
    private final double nodeRadiusM;
    private final int[] surfaceTriangles;
    private final MassSpringSpec spec;
    private final ModalBasis basis;
    private final int nodes;
    private final int dofs;
    private final int modes;
    /** Positions and velocities of every node, 3 per node; pinned nodes stay at rest. */
    private final double[] x;
    private final double[] v;
    /** Physical accelerations of the free DOFs (NEWMARK), Ẍ_n. */
    private final double[] a;
    private final double[] force;
    private final double[] external;
    private boolean externalApplied;
    private final double[] scratch;
    private final double[] scratch2;
    /** Modal state: X, Ẋ, Ẍ of the kept modes, and each mode's damping 2·h·ω. */
    private final double[] modalX;
    private final double[] modalV;
    private final double[] modalA;
    private final double[] modalDamping;
    /** Accelerations of the applied forces this step: physical (NEWMARK) and modal. */
    private final double[] appliedA;
    private final double[] modalApplied;
    private boolean appliedNonZero;
    /** [c] over the free DOFs, row-major, or null when undamped. */
    private final double[] damping;
    /** (m + ½·Δt·c)⁻¹ for {@link #preparedDtS}, row-major. */
    private double[] newmarkInverse;
    private double preparedDtS = Double.NaN;
    private boolean started;

    /** A body named "mass-spring" with nodes of {@link #DEFAULT_NODE_RADIUS_M}. */
    public MassSpringBody(MassSpringSpec spec) {
        this("mass-spring", spec, DEFAULT_NODE_RADIUS_M, ModalBasis.of(spec));
    }

    /** With a basis already solved for the same spec (several bodies of one spec share it). */
    public MassSpringBody(MassSpringSpec spec, ModalBasis basis) {
        this("mass-spring", spec, DEFAULT_NODE_RADIUS_M, basis);
    }

    /**
     * @param name        the scene's name for it
     * @param nodeRadiusM each node's collision sphere, m
     */
    public MassSpringBody(String name, MassSpringSpec spec, double nodeRadiusM) {
        this(name, spec, nodeRadiusM, ModalBasis.of(spec));
    }

    public MassSpringBody(String name, MassSpringSpec spec, double nodeRadiusM, ModalBasis basis) {
        this(name, spec, nodeRadiusM, basis, new int[0]);
    }

    /**
     * @param surfaceTriangles node triples to draw as its surface (a cloth's cells), counter-clockwise from the front
     */
    public MassSpringBody(String name, MassSpringSpec spec, double nodeRadiusM, int[] surfaceTriangles) {
        this(name, spec, nodeRadiusM, ModalBasis.of(spec), surfaceTriangles);
    }

    /** With a basis solved already (about the rest positions or another configuration: {@link ModalBasis#of}). */
    public MassSpringBody(String name, MassSpringSpec spec, double nodeRadiusM, ModalBasis basis,
                          int[] surfaceTriangles) {
        this.name = java.util.Objects.requireNonNull(name, "name");
        if (surfaceTriangles.length % 3 != 0) {
            throw new IllegalArgumentException(name + ": surface triangles need 3 node indices each");
        }
        for (int index : surfaceTriangles) {
            if (index < 0 || index >= spec.nodeCount()) {
                throw new IllegalArgumentException(name + ": surface triangle node " + index + " is not a node");
            }
        }
        this.surfaceTriangles = surfaceTriangles.clone();
        if (!(nodeRadiusM > 0.0) || !Double.isFinite(nodeRadiusM)) {
            throw new IllegalArgumentException(name + ": nodeRadiusM must be finite and > 0, was " + nodeRadiusM);
        }
        this.nodeRadiusM = nodeRadiusM;
        this.spec = spec;
        this.basis = basis;
        this.nodes = spec.nodeCount();
        this.dofs = basis.dofs();
        this.modes = switch (spec.integrator()) {
            case MODAL_TRUNCATED -> {
                if (spec.modes() < 1 || spec.modes() > dofs) {
                    throw new IllegalArgumentException("modes must be 1.." + dofs + " for this body, got "
                        + spec.modes());
                }
                if (spec.modes() > basis.modeCount()) {
                    throw new IllegalArgumentException("modes: " + spec.modes() + " kept, but the basis holds only "
                        + "the lowest " + basis.modeCount());
                }
                requireWeightCarried(spec, basis);
                yield spec.modes();
            }
            default -> {
                if (basis.modeCount() != dofs) {
                    throw new IllegalArgumentException(spec.integrator() + " integrates every mode, but the basis "
                        + "holds only the lowest " + basis.modeCount() + " of " + dofs);
                }
                yield dofs;
            }
        };
        x = spec.restPositionM().clone();
        v = new double[3 * nodes];
        a = new double[dofs];
        force = new double[3 * nodes];
        external = new double[3 * nodes];
        scratch = new double[dofs];
        scratch2 = new double[dofs];
        modalX = new double[modes];
        modalV = new double[modes];
        modalA = new double[modes];
        modalDamping = new double[modes];
        appliedA = new double[dofs];
        modalApplied = new double[modes];
        for (int m = 0; m < modes; m++) {
            modalDamping[m] = 2.0 * spec.dampingRatio() * basis.omegaRadps(m);
        }
        // [c] is n × n and costs O(n³) to build: only the physical-coordinate integrators use it.
        boolean physical = spec.integrator() == MassSpringSpec.Integrator.NEWMARK
            || spec.integrator() == MassSpringSpec.Integrator.SYMPLECTIC_EULER;
        damping = physical && spec.dampingRatio() > 0.0 ? physicalDamping() : null;
    }

    /** {@code [c] = m·φ·C·φᵀ·m} over the free DOFs, from every mode (3.10). */
    private double[] physicalDamping() {
        double[] c = new double[dofs * dofs];
        for (int m = 0; m < dofs; m++) {
            double cm = 2.0 * spec.dampingRatio() * basis.omegaRadps(m);
            if (cm == 0.0) {
                continue;
            }
            for (int i = 0; i < dofs; i++) {
                double mi = mass(i) * basis.phi(m, i) * cm;
                for (int j = 0; j < dofs; j++) {
                    c[i * dofs + j] += mi * basis.phi(m, j) * mass(j);
                }
            }
        }
        return c;
    }

    private double mass(int dof) {
        return spec.massKg()[basis.coordinate(dof) / 3];
    }

    public MassSpringSpec spec() {
        return spec;
    }

    public ModalBasis basis() {
        return basis;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public int nodeCount() {
        return nodes;
    }

    @Override
    public double nodeRadiusM() {
        return nodeRadiusM;
    }

    @Override
    public double nodeMassKg(int node) {
        return spec.massKg()[node];
    }

    @Override
    public boolean nodePinned(int node) {
        return spec.pinned()[node];
    }

    @Override
    public Vector3d nodePosition(int node, Vector3d destM) {
        return destM.set(x[3 * node], x[3 * node + 1], x[3 * node + 2]);
    }

    @Override
    public Vector3d nodeVelocity(int node, Vector3d destMps) {
        return destMps.set(v[3 * node], v[3 * node + 1], v[3 * node + 2]);
    }

    @Override
    public int[] edges() {
        return spec.springNodes();
    }

    @Override
    public int[] triangles() {
        return surfaceTriangles.clone();
    }

    @Override
    public void applyNodeForce(int node, double fxN, double fyN, double fzN) {
        applyForce(node, fxN, fyN, fzN);
    }

    /**
     * Refuses a truncation whose kept modes take none of the body's weight. With mass-normalised modes, gravity's
     * modal force is Qₘ = Σᵢ φₘᵢ·mᵢ·gᵢ and Σₘ Qₘ² = Σᵢ mᵢ·gᵢ² over all modes; when the kept ones hold none of it (they
     * are zero-frequency motions no spring resists at the reference shape, e.g. the sideways swing of a chain at
     * its unstretched rest), the body would hang frozen under gravity. Refused at load, naming the first mode that
     * carries weight, rather than run without a word. A body without gravity is not checked.
     *
     * <p>What the kept modes must take is the net force at the modes' reference shape, gravity plus the springs
     * there: at the unstretched rest that is the weight, and about the hanging equilibrium it is nothing, since the
     * reference itself carries the weight. The check took the weight whatever the reference, and refused source 004's
     * chain hanging about its equilibrium with its four pendulum modes kept (2.33 to 5.63 rad/s: modes that do swing)
     * and its stiff axial ones dropped, the truncation the source is about (a tester).
     */
    private static void requireWeightCarried(MassSpringSpec spec, ModalBasis basis) {
        int dofs = basis.dofs();
        double weight = 0;
        for (int i = 0; i < dofs; i++) {
            int c = basis.coordinate(i);
            double w = spec.massKg()[c / 3] * spec.gravityMps2()[c % 3];
            weight += w * w / spec.massKg()[c / 3];
        }
        if (weight == 0) {
            return;
        }
        double[] net = new double[3 * spec.nodeCount()];
        MassSpringStatics.forces(spec, basis.referencePositionM(), net);
        double total = 0;
        double[] load = new double[dofs];
        for (int i = 0; i < dofs; i++) {
            int c = basis.coordinate(i);
            load[i] = net[c];
            total += load[i] * load[i] / spec.massKg()[c / 3];
        }
        if (total <= 1e-9 * weight) {
            // The reference shape is an equilibrium: the weight is carried there, and no mode has more to take.
            return;
        }
        double kept = 0;
        int firstCarrying = -1;
        for (int m = 0; m < basis.modeCount(); m++) {
            double q = 0;
            for (int i = 0; i < dofs; i++) {
                q += basis.phi(m, i) * load[i];
            }
            double share = q * q / total;
            if (m < spec.modes()) {
                kept += share;
            }
            if (firstCarrying < 0 && share > 1e-9) {
                firstCarrying = m;
            }
        }
        if (kept < 1e-9) {
            if (firstCarrying < 0) {
                // A basis of the lowest modes only (ModalBasis.lowest), none of which carries weight.
                throw new IllegalArgumentException(String.format(java.util.Locale.ROOT, "modes: the %d lowest modes "
                    + "(%.4g to %.4g rad/s) take none of the body's weight, so it would hang frozen under gravity; "
                    + "take the modes about equilibrium (modesAbout: equilibrium), where tension stiffens the "
                    + "zero-frequency motions no spring resists at rest", spec.modes(), basis.omegaRadps(0),
                    basis.omegaRadps(spec.modes() - 1)));
            }
            boolean zeroModes = basis.omegaRadps(spec.modes() - 1)
                < 1e-6 * basis.omegaRadps(basis.modeCount() - 1);
            throw new IllegalArgumentException(String.format(java.util.Locale.ROOT, "modes: the %d lowest modes "
                + "(%.4g to %.4g rad/s) take none of the body's weight, so it would hang frozen under gravity: the "
                + "first mode that carries weight is mode %d (%.4g rad/s); keep at least %d%s", spec.modes(),
                basis.omegaRadps(0), basis.omegaRadps(spec.modes() - 1), firstCarrying + 1,
                basis.omegaRadps(firstCarrying), firstCarrying + 1, zeroModes
                    ? ", or take the modes about equilibrium (modesAbout: equilibrium), where tension stiffens the "
                        + "zero-frequency motions no spring resists at rest" : ""));
        }
    }

    /**
     * The longest step (one substep) at which this body's integrator is stable on its highest integrated mode,
     * linearised about the modes' reference shape, s; infinite for a body without free degrees of freedom.
     * Explicit Newmark (β = 0, γ = ½) and the modal step (the same scheme per mode) need ω·h < 2 whatever the
     * damping (γ = ½); symplectic Euler with the modal damping c = 2ζω needs (ωh)² + 4ζ·ωh < 4 (the Jury bound of
     * its step). ω is the highest mode of all ({@code NEWMARK}, {@code SYMPLECTIC_EULER}, {@code MODAL}) or of the
     * kept ones ({@code MODAL_TRUNCATED}). A necessary bound, not a sufficient one: a large rotation stiffens the
     * springs beyond their linearisation (docs/deformable.md, the cloth released flat).
     */
    public double stableStepLimitS() {
        if (dofs == 0) {
            return Double.POSITIVE_INFINITY;
        }
        double omega = basis.omegaRadps(modes - 1);
        if (!(omega > 0)) {
            return Double.POSITIVE_INFINITY;
        }
        double zeta = spec.dampingRatio();
        double limitOmegaH = spec.integrator() == MassSpringSpec.Integrator.SYMPLECTIC_EULER
            ? -2 * zeta + 2 * Math.sqrt(zeta * zeta + 1) : 2.0;
        return limitOmegaH / omega;
    }

    /** The highest integrated mode's angular frequency (all, or the kept ones when truncated), rad/s. */
    public double highestIntegratedModeRadps() {
        return dofs == 0 ? 0.0 : basis.omegaRadps(modes - 1);
    }

    /** Modes integrated: all free DOFs, or the L' of MODAL_TRUNCATED. */
    public int modesKept() {
        return modes;
    }

    /** Node {@code i}'s position coordinate {@code axis} (0 x, 1 y, 2 z), m. */
    public double position(int node, int axis) {
        return x[3 * node + axis];
    }

    public double velocity(int node, int axis) {
        return v[3 * node + axis];
    }

    /** Places the body: positions and velocities of every node (pinned nodes keep their rest position). */
    public void setState(double[] positionM, double[] velocityMps) {
        for (int node = 0; node < nodes; node++) {
            if (spec.pinned()[node]) {
                continue;
            }
            for (int k = 0; k < 3; k++) {
                x[3 * node + k] = positionM[3 * node + k];
                v[3 * node + k] = velocityMps[3 * node + k];
            }
        }
        started = false;
    }

    /** Adds a force on a node for the next step, N (a rigid body's or the tool's contact, a grasp). */
    public void applyForce(int node, double fxN, double fyN, double fzN) {
        external[3 * node] += fxN;
        external[3 * node + 1] += fyN;
        external[3 * node + 2] += fzN;
        externalApplied = true;
    }

    /** Advances the body by {@code dtS} in {@code substeps} equal steps; the applied forces act over all of them. */
    @Override
    public void step(double dtS) {
        double h = dtS / spec.substeps();
        for (int k = 0; k < spec.substeps(); k++) {
            switch (spec.integrator()) {
                case NEWMARK -> newmark(h);
                case MODAL, MODAL_TRUNCATED -> modal(h);
                case SYMPLECTIC_EULER -> symplecticEuler(h);
                default -> throw new IllegalStateException();
            }
        }
        if (externalApplied) {
            java.util.Arrays.fill(external, 0.0);
            externalApplied = false;
        }
    }

    // ---- forces ----------------------------------------------------------------------------------------------

    /**
     * {@code force} = gravity + the springs' forces on the nodes (3.9) at the current positions: the right-hand side
     * {@code f_g − f} of (3.1), N; with {@code withExternal}, plus the applied forces.
     */
    private void forces(boolean withExternal) {
        double[] g = spec.gravityMps2();
        double e = withExternal ? 1.0 : 0.0;
        for (int node = 0; node < nodes; node++) {
            double m = spec.massKg()[node];
            force[3 * node] = m * g[0] + e * external[3 * node];
            force[3 * node + 1] = m * g[1] + e * external[3 * node + 1];
            force[3 * node + 2] = m * g[2] + e * external[3 * node + 2];
        }
        addSpringForces(spec, x, force);
    }

    /**
     * Adds each spring's force on its two nodes (source 004 (3.9)) to {@code f}: on i, {@code k·(d − l)·(x_j − x_i)/d},
     * pulling toward j when stretched; on j the opposite. No allocation.
     */
    static void addSpringForces(MassSpringSpec spec, double[] x, double[] f) {
        int[] ends = spec.springNodes();
        for (int s = 0; s < spec.springCount(); s++) {
            int i = 3 * ends[2 * s];
            int j = 3 * ends[2 * s + 1];
            double dx = x[j] - x[i];
            double dy = x[j + 1] - x[i + 1];
            double dz = x[j + 2] - x[i + 2];
            double d = Math.sqrt(dx * dx + dy * dy + dz * dz);
            if (d == 0.0) {
                continue;
            }
            double t = spec.stiffnessNpm()[s] * (d - spec.restLengthM()[s]) / d;
            f[i] += t * dx;
            f[i + 1] += t * dy;
            f[i + 2] += t * dz;
            f[j] -= t * dx;
            f[j + 1] -= t * dy;
            f[j + 2] -= t * dz;
        }
    }

    // ---- NEWMARK ---------------------------------------------------------------------------------------------

    private void newmark(double dtS) {
        if (dofs == 0) {
            return;
        }
        prepare(dtS);
        if (!started) {
            // Ẍ_0 from (3.1) at the start: m·a = f_g − f − c·v.
            forces(false);
            for (int i = 0; i < dofs; i++) {
                scratch[i] = force[basis.coordinate(i)] - dampingTimes(v, i);
            }
            for (int i = 0; i < dofs; i++) {
                a[i] = scratch[i] / mass(i);
            }
            started = true;
        }
        // The applied forces were sampled at this step's starting positions (a contact spring). They act over the
        // whole step as in symplectic Euler, v += Δt·a_F and x += Δt²·a_F besides the Newmark terms: a spring
        // sampled at x_n then neither lags (taken into Ẍ_{n+1}, it would act a step late and pump energy into every
        // bounce) nor gains (taken into the position as ½·Δt²·a_F only, the step's determinant is 1 + ½·(ωΔt)²).
        externalAcceleration(dtS);
        for (int i = 0; i < dofs; i++) {
            int c = basis.coordinate(i);
            x[c] += v[c] * dtS + (0.5 * a[i] + appliedA[i]) * dtS * dtS;
            // The predictor of the velocity in the damping term, Ẋ_n + ½·Δt·Ẍ_n.
            scratch2[i] = v[c] + 0.5 * dtS * a[i];
        }
        forces(false);
        for (int i = 0; i < dofs; i++) {
            double cv = 0.0;
            if (damping != null) {
                for (int j = 0; j < dofs; j++) {
                    cv += damping[i * dofs + j] * scratch2[j];
                }
            }
            scratch[i] = force[basis.coordinate(i)] - cv;
        }
        for (int i = 0; i < dofs; i++) {
            double next = solveNewmark(i, scratch, false);
            int c = basis.coordinate(i);
            v[c] += (0.5 * (a[i] + next) + appliedA[i]) * dtS;
            a[i] = next;
        }
    }

    /** {@code appliedA} = (m + ½·Δt·c)⁻¹·F_applied over the free DOFs; zero when no force is applied. */
    private void externalAcceleration(double dtS) {
        if (!externalApplied) {
            if (appliedNonZero) {
                java.util.Arrays.fill(appliedA, 0.0);
                appliedNonZero = false;
            }
            return;
        }
        for (int i = 0; i < dofs; i++) {
            appliedA[i] = solveNewmark(i, external, true);
        }
        appliedNonZero = true;
    }

    /** (c·v)_i over the free DOFs of a full-length velocity array. */
    private double dampingTimes(double[] velocity, int i) {
        if (damping == null) {
            return 0.0;
        }
        double sum = 0.0;
        for (int j = 0; j < dofs; j++) {
            sum += damping[i * dofs + j] * velocity[basis.coordinate(j)];
        }
        return sum;
    }

    /** (m + ½·Δt·c)⁻¹ for this step length; computed again only when it changes. */
    private void prepare(double dtS) {
        if (dtS == preparedDtS) {
            return;
        }
        preparedDtS = dtS;
        if (damping == null) {
            // m is diagonal: (m)⁻¹ needs no matrix, and the step stays O(n) (see solveNewmark).
            newmarkInverse = null;
            return;
        }
        DMatrixRMaj lhs = new DMatrixRMaj(dofs, dofs);
        for (int i = 0; i < dofs; i++) {
            for (int j = 0; j < dofs; j++) {
                lhs.set(i, j, (i == j ? mass(i) : 0.0) + (damping == null ? 0.0 : 0.5 * dtS * damping[i * dofs + j]));
            }
        }
        if (!CommonOps_DDRM.invert(lhs)) {
            throw new IllegalStateException("m + ½·Δt·c is singular for Δt = " + dtS + " s");
        }
        newmarkInverse = lhs.getData().clone();
    }

    /** (m + ½·Δt·c)⁻¹ times {@code rhs} (a free-DOF vector, or a full coordinate vector when {@code full}), row i. */
    private double solveNewmark(int i, double[] rhs, boolean full) {
        if (newmarkInverse == null) {
            return (full ? rhs[basis.coordinate(i)] : rhs[i]) / mass(i);
        }
        double sum = 0.0;
        for (int j = 0; j < dofs; j++) {
            sum += newmarkInverse[i * dofs + j] * (full ? rhs[basis.coordinate(j)] : rhs[j]);
        }
        return sum;
    }

    // ---- MODAL -----------------------------------------------------------------------------------------------

    private void modal(double dtS) {
        if (dofs == 0) {
            return;
        }
        double[] phi = basis.phiArray();
        if (!started) {
            // (3.4): X_i = φ_iᵀ·m·(x − x_rest), Ẋ likewise (φ mass-normalised, so M_i = 1).
            for (int m = 0; m < modes; m++) {
                double sx = 0.0;
                double sv = 0.0;
                for (int i = 0; i < dofs; i++) {
                    int c = basis.coordinate(i);
                    double w = phi[m * dofs + i] * mass(i);
                    sx += w * (x[c] - basis.referenceComponent(c));
                    sv += w * v[c];
                }
                modalX[m] = sx;
                modalV[m] = sv;
            }
            // Truncated, the body starts at what its kept modes can represent.
            toPhysical();
            forces(false);
            gather(force, scratch2);
            for (int m = 0; m < modes; m++) {
                modalA[m] = project(phi, m) - modalDamping[m] * modalV[m];
            }
            started = true;
        }
        // As in newmark, the applied forces act over the whole step; projected, F_i = φ_iᵀ·F.
        if (externalApplied) {
            gather(external, scratch2);
        }
        for (int m = 0; m < modes; m++) {
            double sum = 0.0;
            if (externalApplied) {
                int base = m * dofs;
                for (int i = 0; i < dofs; i++) {
                    sum += phi[base + i] * scratch2[i];
                }
            }
            modalApplied[m] = sum / (1.0 + 0.5 * dtS * modalDamping[m]);
            modalX[m] += modalV[m] * dtS + (0.5 * modalA[m] + modalApplied[m]) * dtS * dtS;
        }
        toPhysical();
        forces(false);
        gather(force, scratch2);
        for (int m = 0; m < modes; m++) {
            double cm = modalDamping[m];
            double next = (project(phi, m) - cm * (modalV[m] + 0.5 * dtS * modalA[m])) / (1.0 + 0.5 * dtS * cm);
            modalV[m] += (0.5 * (modalA[m] + next) + modalApplied[m]) * dtS;
            modalA[m] = next;
        }
        // Velocities in physical coordinates, for the world (contacts, the snapshot): v = Σ φ_i·Ẋ_i.
        combine(phi, modalV, scratch);
        for (int i = 0; i < dofs; i++) {
            v[basis.coordinate(i)] = scratch[i];
        }
    }

    /** F_i = φ_iᵀ·(f_g − f): the right-hand side projected onto mode m, from the forces gathered into scratch2. */
    private double project(double[] phi, int m) {
        double sum = 0.0;
        int base = m * dofs;
        for (int i = 0; i < dofs; i++) {
            sum += phi[base + i] * scratch2[i];
        }
        return sum;
    }

    /** A coordinate vector's free DOFs, in DOF order, into {@code dest}: the projections then read φ and it in step. */
    private void gather(double[] coordinates, double[] dest) {
        for (int i = 0; i < dofs; i++) {
            dest[i] = coordinates[basis.coordinate(i)];
        }
    }

    /**
     * {@code dest = Σ_m φ_m·q_m} over the kept modes, mode by mode: each pass reads one mode's φ in order, where a sum
     * per DOF across the modes read φ a mode's length apart (38 KB on a 40 × 40 cloth) for every term. Each DOF's
     * sum still adds its terms in ascending m from 0, so the result is the same to the bit.
     */
    private void combine(double[] phi, double[] q, double[] dest) {
        java.util.Arrays.fill(dest, 0, dofs, 0.0);
        for (int m = 0; m < modes; m++) {
            double qm = q[m];
            int base = m * dofs;
            for (int i = 0; i < dofs; i++) {
                dest[i] += phi[base + i] * qm;
            }
        }
    }

    /** x = x_rest + Σ φ_i·X_i over the kept modes (3.3). */
    private void toPhysical() {
        combine(basis.phiArray(), modalX, scratch);
        for (int i = 0; i < dofs; i++) {
            int c = basis.coordinate(i);
            x[c] = basis.referenceComponent(c) + scratch[i];
        }
    }

    // ---- SYMPLECTIC_EULER ------------------------------------------------------------------------------------

    private void symplecticEuler(double dtS) {
        forces(true);
        for (int i = 0; i < dofs; i++) {
            scratch[i] = (force[basis.coordinate(i)] - dampingTimes(v, i)) / mass(i);
        }
        for (int i = 0; i < dofs; i++) {
            int c = basis.coordinate(i);
            v[c] += dtS * scratch[i];
            x[c] += dtS * v[c];
        }
    }

    // ---- energy ----------------------------------------------------------------------------------------------

    /** Kinetic energy + the springs' elastic energy − the work gravity could do from the origin, J. */
    public double energyJ() {
        double e = 0.0;
        double[] g = spec.gravityMps2();
        for (int node = 0; node < nodes; node++) {
            double m = spec.massKg()[node];
            double vx = v[3 * node];
            double vy = v[3 * node + 1];
            double vz = v[3 * node + 2];
            e += 0.5 * m * (vx * vx + vy * vy + vz * vz);
            e -= m * (g[0] * x[3 * node] + g[1] * x[3 * node + 1] + g[2] * x[3 * node + 2]);
        }
        int[] ends = spec.springNodes();
        for (int s = 0; s < spec.springCount(); s++) {
            int i = 3 * ends[2 * s];
            int j = 3 * ends[2 * s + 1];
            double dx = x[j] - x[i];
            double dy = x[j + 1] - x[i + 1];
            double dz = x[j + 2] - x[i + 2];
            double stretch = Math.sqrt(dx * dx + dy * dy + dz * dz) - spec.restLengthM()[s];
            e += 0.5 * spec.stiffnessNpm()[s] * stretch * stretch;
        }
        return e;
    }
}
