package org.hapticsd.physics.deformable;

import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.interfaces.decomposition.EigenDecomposition_F64;

/**
 * The normal modes of a mass–spring body about its rest configuration (source 004 (3.2)): the eigenproblem
 * {@code ([k] − ω²[m])·φ = 0} over the free degrees of freedom, solved once at load. {@code [m]} is diagonal (the
 * node masses), {@code [k]} the springs' tangent stiffness at rest; the problem is made symmetric standard,
 * {@code M^(−½)·K·M^(−½)·ψ = ω²·ψ}, solved with EJML, and {@code φ = M^(−½)·ψ}, so the modes are mass-normalised:
 * {@code φᵢᵀ·m·φⱼ = δᵢⱼ} and every modal mass {@code Mᵢ} is 1. Modes are sorted by ascending ω.
 *
 * <p>The tangent stiffness of a spring of stiffness k, rest length l and current length d along unit n is
 * {@code k·(n·nᵀ + (1 − l/d)·(I − n·nᵀ))}: the axial term, and the geometric term a pre-stressed spring adds across
 * its axis (zero when the body rests at its springs' rest lengths).
 */
public final class ModalBasis {
    /** Eigenvalues below this fraction of the largest are zero modes (round-off of the solver). */
    static final double ZERO_EIGENVALUE = 1e-12;

    private final int dofs;
    private final int[] coordinate;
    private final double[] referencePositionM;
    private final double[] omegaRadps;
    /** φ, column-major: mode i is {@code phi[i·dofs .. (i+1)·dofs)}. */
    private final double[] phi;

    private ModalBasis(int dofs, int[] coordinate, double[] omegaRadps, double[] phi, double[] referencePositionM) {
        this.referencePositionM = referencePositionM;
        this.dofs = dofs;
        this.coordinate = coordinate;
        this.omegaRadps = omegaRadps;
        this.phi = phi;
    }

    /** Solves the eigenproblem of {@code spec} about its rest positions. */
    public static ModalBasis of(MassSpringSpec spec) {
        return of(spec, spec.restPositionM());
    }

    /**
     * Solves the eigenproblem about the configuration {@code referencePositionM} (3 per node): the modal coordinates
     * then measure displacements from it, {@code x = x_ref + Σ φᵢ·Xᵢ}. About a stretched configuration (a cloth
     * hanging in equilibrium, {@link MassSpringStatics#equilibrium}) the springs' tension gives the motions across
     * them their stiffness, which a flat, unstressed rest state has not.
     */
    public static ModalBasis of(MassSpringSpec spec, double[] referencePositionM) {
        if (referencePositionM.length != 3 * spec.nodeCount()) {
            throw new IllegalArgumentException("reference positions need 3 per node");
        }
        double[] reference = referencePositionM.clone();
        int n = spec.nodeCount();
        int[] dofOf = new int[3 * n];
        int dofs = 0;
        for (int node = 0; node < n; node++) {
            for (int axis = 0; axis < 3; axis++) {
                dofOf[3 * node + axis] = spec.pinned()[node] ? -1 : dofs++;
            }
        }
        int[] coordinate = new int[dofs];
        for (int c = 0; c < 3 * n; c++) {
            if (dofOf[c] >= 0) {
                coordinate[dofOf[c]] = c;
            }
        }
        if (dofs == 0) {
            return new ModalBasis(0, coordinate, new double[0], new double[0], reference);
        }
        DMatrixRMaj k = tangentStiffness(spec, reference, dofOf, dofs);
        // A = M^(−½)·K·M^(−½), symmetric.
        double[] rootMass = new double[dofs];
        for (int i = 0; i < dofs; i++) {
            rootMass[i] = Math.sqrt(spec.massKg()[coordinate[i] / 3]);
        }
        for (int r = 0; r < dofs; r++) {
            for (int c = 0; c < dofs; c++) {
                k.set(r, c, k.get(r, c) / (rootMass[r] * rootMass[c]));
            }
        }
        EigenDecomposition_F64<DMatrixRMaj> eig = DecompositionFactory_DDRM.eig(dofs, true, true);
        if (!eig.decompose(k)) {
            throw new IllegalStateException("the eigenproblem of " + spec + " did not converge");
        }
        Integer[] order = new Integer[dofs];
        double[] lambda = new double[dofs];
        for (int i = 0; i < dofs; i++) {
            order[i] = i;
            lambda[i] = eig.getEigenvalue(i).getReal();
        }
        java.util.Arrays.sort(order, (p, q) -> Double.compare(lambda[p], lambda[q]));
        double[] omega = new double[dofs];
        double[] phi = new double[dofs * dofs];
        double largest = Math.max(0.0, lambda[order[dofs - 1]]);
        for (int m = 0; m < dofs; m++) {
            int src = order[m];
            // The zero modes (a free body's rigid motions, a flat membrane across) come out of the solver as
            // round-off, ±1e-16 of the largest eigenvalue: they are zero, so that their modal damping 2·h·ω is zero
            // and a free body's momentum is damped by nothing.
            double l = lambda[src] <= ZERO_EIGENVALUE * largest ? 0.0 : lambda[src];
            omega[m] = Math.sqrt(l);
            DMatrixRMaj psi = eig.getEigenVector(src);
            double norm = 0.0;
            for (int i = 0; i < dofs; i++) {
                norm += psi.get(i, 0) * psi.get(i, 0);
            }
            norm = Math.sqrt(norm);
            for (int i = 0; i < dofs; i++) {
                phi[m * dofs + i] = psi.get(i, 0) / norm / rootMass[i];
            }
        }
        return new ModalBasis(dofs, coordinate, omega, phi, reference);
    }

    /**
     * Only the {@code count} lowest modes about {@code referencePositionM} (all of them when the body has no more),
     * for a body that integrates no others ({@code MODAL_TRUNCATED}). A body of many DOFs gets them from the sparse
     * subspace iteration of {@link LowestModes}, in time and memory that grow with its springs and band rather than
     * with n³ and n². A small one (fewer than {@link #SUBSPACE_FROM} times the iteration's block of vectors) gets
     * them from the dense eigendecomposition, which returns every mode; so does one whose shifted stiffness is not
     * positive definite there (no stable equilibrium: a spring compressed at the reference shape) or whose iteration
     * does not converge, when that decomposition's {@link #denseBytes} fit {@code denseBytesAllowed}.
     *
     * @throws IllegalArgumentException if the dense route is needed for a stiffness that is not positive definite and
     *                                  does not fit
     * @throws IllegalStateException    if the iteration does not converge and the dense route does not fit
     */
    public static ModalBasis lowest(MassSpringSpec spec, double[] referencePositionM, int count,
                                    long denseBytesAllowed) {
        if (referencePositionM.length != 3 * spec.nodeCount()) {
            throw new IllegalArgumentException("reference positions need 3 per node");
        }
        int dofs = spec.freeDofs();
        int wanted = Math.min(Math.max(count, 1), dofs);
        if (dofs == 0 || dofs < SUBSPACE_FROM * LowestModes.blockSize(wanted, dofs)) {
            return of(spec, referencePositionM);
        }
        LowestModes.Result found;
        try {
            found = LowestModes.solve(spec, referencePositionM, wanted);
        } catch (IllegalStateException notConverged) {
            if (denseBytes(dofs) > denseBytesAllowed) {
                throw notConverged;
            }
            return of(spec, referencePositionM);
        }
        if (found == null) {
            if (denseBytes(dofs) > denseBytesAllowed) {
                throw new IllegalArgumentException(String.format(java.util.Locale.ROOT, "the stiffness about the "
                    + "modes' reference shape is not positive definite (no stable equilibrium there: a spring "
                    + "compressed?), so its lowest modes need the dense eigendecomposition of all %d free degrees of "
                    + "freedom, about %.0f MB, more than the %.0f MB allowed: take the modes about equilibrium "
                    + "(modesAbout: equilibrium), or use fewer nodes", dofs, denseBytes(dofs) / 1e6,
                    denseBytesAllowed / 1e6));
            }
            return of(spec, referencePositionM);
        }
        int[] countOut = new int[1];
        int[] dofOf = dofIndex(spec, countOut);
        int[] coordinate = new int[dofs];
        for (int c = 0; c < dofOf.length; c++) {
            if (dofOf[c] >= 0) {
                coordinate[dofOf[c]] = c;
            }
        }
        double[] omega = new double[wanted];
        for (int m = 0; m < wanted; m++) {
            omega[m] = Math.sqrt(found.lambda()[m]);
        }
        return new ModalBasis(dofs, coordinate, omega, found.phi(), referencePositionM.clone());
    }

    /**
     * Heap the dense eigendecomposition of {@link #of} takes for {@code dofs} free DOFs, bytes: about six n × n
     * matrices of doubles (the stiffness, the decomposition's working copies and eigenvectors, φ).
     */
    public static double denseBytes(long dofs) {
        return 6.0 * Double.BYTES * dofs * dofs;
    }

    /**
     * Heap {@link #lowest} takes for {@code count} modes of {@code spec} by the sparse route, bytes: the stiffness's
     * nonzeros and its factor (within the envelope of {@link SparseStiffness}, twice for an LU), and about ten
     * n × p blocks of doubles.
     */
    public static double lowestBytes(MassSpringSpec spec, int count) {
        SparseStiffness stiffness = new SparseStiffness(spec);
        long n = stiffness.dofs();
        int p = LowestModes.blockSize(Math.min(Math.max(count, 1), (int) Math.max(n, 1)), (int) n);
        return Double.BYTES * (2.0 * stiffness.envelope() + 10.0 * n * p) + 12.0 * stiffness.nonzeros();
    }

    /**
     * The sparse route of {@link #lowest} pays from this many times its block of vectors: below, the dense
     * eigendecomposition of all n modes is a few milliseconds.
     */
    static final int SUBSPACE_FROM = 4;

    /**
     * The springs' tangent stiffness at positions {@code x} over the free DOFs ({@code dofOf} maps a coordinate to its
     * DOF or −1): {@code ∂(−f)/∂x}, the axial term plus the geometric term of a stretched or compressed spring.
     */
    static DMatrixRMaj tangentStiffness(MassSpringSpec spec, double[] x, int[] dofOf, int dofs) {
        DMatrixRMaj k = new DMatrixRMaj(dofs, dofs);
        double[] block = new double[9];
        for (int s = 0; s < spec.springCount(); s++) {
            int a = spec.springNodes()[2 * s];
            int b = spec.springNodes()[2 * s + 1];
            double dx = x[3 * b] - x[3 * a];
            double dy = x[3 * b + 1] - x[3 * a + 1];
            double dz = x[3 * b + 2] - x[3 * a + 2];
            double d = Math.sqrt(dx * dx + dy * dy + dz * dz);
            if (d == 0.0) {
                continue; // a zero-length spring at rest has no direction and no tangent stiffness
            }
            springBlock(spec.stiffnessNpm()[s], spec.restLengthM()[s], dx / d, dy / d, dz / d, d, block);
            // K_aa += B, K_bb += B, K_ab −= B, K_ba −= B (the force on a depends on x_b − x_a).
            for (int r = 0; r < 3; r++) {
                for (int c = 0; c < 3; c++) {
                    int ar = dofOf[3 * a + r];
                    int ac = dofOf[3 * a + c];
                    int br = dofOf[3 * b + r];
                    int bc = dofOf[3 * b + c];
                    double v = block[3 * r + c];
                    add(k, ar, ac, v);
                    add(k, br, bc, v);
                    add(k, ar, bc, -v);
                    add(k, br, ac, -v);
                }
            }
        }
        return k;
    }

    /**
     * One spring's 3 × 3 tangent block {@code k·(n·nᵀ + (1 − l/d)·(I − n·nᵀ))} into {@code block} (row-major), for a
     * spring of stiffness {@code ks} and rest length {@code restM} at length {@code d} along unit {@code (ux, uy, uz)}.
     */
    static void springBlock(double ks, double restM, double ux, double uy, double uz, double d, double[] block) {
        double geometric = 1.0 - restM / d;
        double[] u = {ux, uy, uz};
        for (int r = 0; r < 3; r++) {
            for (int c = 0; c < 3; c++) {
                double nn = u[r] * u[c];
                block[3 * r + c] = ks * (nn + geometric * ((r == c ? 1.0 : 0.0) - nn));
            }
        }
    }

    /** Coordinate → free DOF index, −1 for a pinned node's; and the count, in {@code count[0]}. */
    static int[] dofIndex(MassSpringSpec spec, int[] count) {
        int[] dofOf = new int[3 * spec.nodeCount()];
        int dofs = 0;
        for (int node = 0; node < spec.nodeCount(); node++) {
            for (int axis = 0; axis < 3; axis++) {
                dofOf[3 * node + axis] = spec.pinned()[node] ? -1 : dofs++;
            }
        }
        count[0] = dofs;
        return dofOf;
    }

    private static void add(DMatrixRMaj m, int r, int c, double v) {
        if (r >= 0 && c >= 0) {
            m.add(r, c, v);
        }
    }

    /** The configuration the modes were taken about, 3 per node (a copy). */
    public double[] referencePositionM() {
        return referencePositionM.clone();
    }

    double referenceComponent(int c) {
        return referencePositionM[c];
    }

    /** Free degrees of freedom, L. */
    public int dofs() {
        return dofs;
    }

    /** Modes held: every one ({@link #dofs()}) from {@link #of}, the lowest few from {@link #lowest}. */
    public int modeCount() {
        return omegaRadps.length;
    }

    /** The position coordinate (3·node + axis) of free degree of freedom {@code i}. */
    public int coordinate(int i) {
        return coordinate[i];
    }

    /** Natural angular frequency of mode {@code m} (below {@link #modeCount()}), rad/s, ascending in m. */
    public double omegaRadps(int m) {
        return omegaRadps[m];
    }

    /** Component {@code i} of mass-normalised mode {@code m}. */
    public double phi(int m, int i) {
        return phi[m * dofs + i];
    }

    /** The modes, column-major (mode m at {@code m·dofs()}), for loops that must not call per element. */
    double[] phiArray() {
        return phi;
    }
}
