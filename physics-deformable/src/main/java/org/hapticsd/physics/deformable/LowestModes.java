package org.hapticsd.physics.deformable;

import java.util.SplittableRandom;
import org.ejml.data.DMatrixRMaj;
import org.ejml.data.DMatrixSparseCSC;
import org.ejml.dense.row.CommonOps_DDRM;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.interfaces.decomposition.EigenDecomposition_F64;
import org.ejml.interfaces.decomposition.QRDecomposition;
import org.ejml.interfaces.linsol.LinearSolverSparse;
import org.ejml.sparse.csc.CommonOps_DSCC;

/**
 * The lowest modes of {@code K·φ = λ·M·φ} by subspace iteration with a shift and invert (Bathe, <i>Finite Element
 * Procedures</i>, 1996, §11.6): a block of p vectors is multiplied by {@code (K + τ·M)⁻¹·M} (one sparse Cholesky
 * factor, p solves), made M-orthonormal, and rotated to the Ritz vectors of its span (a p × p symmetric
 * eigenproblem), until the wanted ones have residuals at round-off. Mode i converges like
 * {@code ((λᵢ + τ)/(λₚ₊₁ + τ))ʲ} over j iterations, so the block carries more vectors than are wanted
 * (p = max(2L', L' + 8), Bathe's choice). The small shift τ (10⁻⁶ of the largest eigenvalue's bound) makes a free body's zero modes, where
 * K is singular, solvable, and moves the others by nothing the iteration sees: the Ritz values are K's own.
 *
 * <p>A truncated body keeps its L' lowest modes of n, and this finds them in the time of a few hundred sparse
 * solves, where the dense eigendecomposition of {@link ModalBasis#of(MassSpringSpec, double[])} finds all n in
 * O(n³) time and n² memory: source 004's 20 × 20 cloth (1,194 DOFs) in 1.9 s, a 40 × 40 one (4,794) not within
 * the default heap.
 */
final class LowestModes {
    /** Iterations before the search gives up (the cloth's 30 modes converge in tens). */
    static final int MAX_ITERATIONS = 500;
    /**
     * A wanted mode has converged when its residual {@code ‖M^(−½)·(K·φ − λ·M·φ)‖} (φ M-normalised) is below this
     * fraction of the largest eigenvalue's bound: then λ is within that of an eigenvalue, and φ within
     * residual/gap of its eigenvector. 10⁻¹³ is near the round-off of K's products with a vector.
     */
    static final double RESIDUAL_TOLERANCE = 1e-13;
    /** The shift τ, as a fraction of the largest eigenvalue's bound. */
    static final double SHIFT = 1e-6;

    /** The modes found: ascending eigenvalues λ (clamped at 0 below round-off), and φ in the body's DOF order. */
    record Result(double[] lambda, double[] phi) {
    }

    private LowestModes() {
    }

    /**
     * The {@code count} lowest modes of {@code spec} about {@code reference}, or null when the shifted stiffness is
     * not positive definite (the reference is no stable equilibrium: a compressed spring's geometric term makes K
     * indefinite) and the caller should take the dense route.
     *
     * @throws IllegalStateException if the iteration does not converge
     */
    static Result solve(MassSpringSpec spec, double[] reference, int count) {
        SparseStiffness stiffness = new SparseStiffness(spec);
        int n = stiffness.dofs();
        int p = blockSize(count, n);
        stiffness.assemble(reference, 0.0);
        double bound = stiffness.largestEigenvalueBound();
        if (!(bound > 0.0) || !Double.isFinite(bound)) {
            return null;
        }
        double tau = SHIFT * bound;
        DMatrixSparseCSC shifted = stiffness.assemble(reference, tau);
        LinearSolverSparse<DMatrixSparseCSC, DMatrixRMaj> solver = stiffness.factorCholesky();
        if (solver == null) {
            return null;
        }
        double[] mass = new double[n];
        double[] rootMass = new double[n];
        for (int row = 0; row < n; row++) {
            mass[row] = stiffness.mass(row);
            rootMass[row] = Math.sqrt(mass[row]);
        }
        // A deterministic start (the same modes, bit for bit, on every load): uniform in [−1, 1].
        DMatrixRMaj x = new DMatrixRMaj(n, p);
        SplittableRandom random = new SplittableRandom(0x5eedL);
        for (int i = 0; i < x.data.length; i++) {
            x.data[i] = 2.0 * random.nextDouble() - 1.0;
        }
        DMatrixRMaj b = new DMatrixRMaj(n, p);
        DMatrixRMaj y = new DMatrixRMaj(n, p);
        DMatrixRMaj q = new DMatrixRMaj(n, p);
        DMatrixRMaj kz = new DMatrixRMaj(n, p);
        DMatrixRMaj kx = new DMatrixRMaj(n, p);
        DMatrixRMaj small = new DMatrixRMaj(p, p);
        DMatrixRMaj rotation = new DMatrixRMaj(p, p);
        double[] lambda = new double[p];
        QRDecomposition<DMatrixRMaj> qr = DecompositionFactory_DDRM.qr(n, p);
        EigenDecomposition_F64<DMatrixRMaj> eig = DecompositionFactory_DDRM.eig(p, true, true);
        double tolerance = RESIDUAL_TOLERANCE * bound;
        for (int iteration = 1; iteration <= MAX_ITERATIONS; iteration++) {
            // Y = (K + τM)⁻¹·M·X
            scaleRows(x, mass, b);
            solver.solve(b, y);
            // Z = M^(−½)·orth(M^(½)·Y): an M-orthonormal basis of span(Y), into q.
            scaleRows(y, rootMass, y);
            if (!qr.decompose(y)) {
                throw new IllegalStateException("the subspace iteration's QR failed at iteration " + iteration);
            }
            qr.getQ(q, true);
            divideRows(q, rootMass, q);
            // The Ritz problem Zᵀ·K·Z·v = λ·v, K·Z = (K + τM)·Z − τ·M·Z.
            CommonOps_DSCC.mult(shifted, q, kz);
            for (int row = 0; row < n; row++) {
                for (int c = 0; c < p; c++) {
                    int at = row * p + c;
                    kz.data[at] -= tau * mass[row] * q.data[at];
                }
            }
            CommonOps_DDRM.multTransA(q, kz, small);
            for (int r = 0; r < p; r++) {
                for (int c = r + 1; c < p; c++) {
                    double mean = 0.5 * (small.get(r, c) + small.get(c, r));
                    small.set(r, c, mean);
                    small.set(c, r, mean);
                }
            }
            if (!eig.decompose(small)) {
                throw new IllegalStateException("the subspace iteration's Ritz problem did not converge at "
                    + "iteration " + iteration);
            }
            Integer[] order = new Integer[p];
            for (int i = 0; i < p; i++) {
                order[i] = i;
            }
            java.util.Arrays.sort(order, (i, j) -> Double.compare(eig.getEigenvalue(i).getReal(),
                eig.getEigenvalue(j).getReal()));
            for (int c = 0; c < p; c++) {
                lambda[c] = eig.getEigenvalue(order[c]).getReal();
                DMatrixRMaj v = eig.getEigenVector(order[c]);
                double norm = Math.sqrt(CommonOps_DDRM.dot(v, v));
                for (int r = 0; r < p; r++) {
                    rotation.set(r, c, v.get(r, 0) / norm);
                }
            }
            // X = Z·V, and K·X = (K·Z)·V for the residuals.
            CommonOps_DDRM.mult(q, rotation, x);
            CommonOps_DDRM.mult(kz, rotation, kx);
            double worst = 0.0;
            for (int c = 0; c < count; c++) {
                double sum = 0.0;
                for (int row = 0; row < n; row++) {
                    double r = kx.data[row * p + c] - lambda[c] * mass[row] * x.data[row * p + c];
                    sum += r * r / mass[row];
                }
                worst = Math.max(worst, Math.sqrt(sum));
            }
            if (worst <= tolerance) {
                return result(stiffness, spec, x, lambda, count, bound);
            }
        }
        throw new IllegalStateException(String.format(java.util.Locale.ROOT, "the %d lowest modes did not converge "
            + "in %d iterations of the subspace iteration", count, MAX_ITERATIONS));
    }

    /** The block's vectors for {@code count} wanted modes of {@code dofs}: max(2L', L' + 8), at most n. */
    static int blockSize(int count, int dofs) {
        return Math.min(dofs, Math.max(2 * count, count + 8));
    }

    private static Result result(SparseStiffness stiffness, MassSpringSpec spec, DMatrixRMaj x, double[] lambda,
                                 int count, double bound) {
        int n = stiffness.dofs();
        int p = x.numCols;
        int[] count0 = new int[1];
        int[] dofOf = ModalBasis.dofIndex(spec, count0);
        double[] phi = new double[count * n];
        for (int c = 0; c < dofOf.length; c++) {
            int dof = dofOf[c];
            if (dof < 0) {
                continue;
            }
            int row = stiffness.row(c);
            for (int m = 0; m < count; m++) {
                phi[m * n + dof] = x.data[row * p + m];
            }
        }
        double[] kept = new double[count];
        for (int m = 0; m < count; m++) {
            // As the dense route's: round-off about a zero mode is zero (a free body's rigid motions).
            kept[m] = lambda[m] <= ModalBasis.ZERO_EIGENVALUE * bound ? 0.0 : lambda[m];
        }
        return new Result(kept, phi);
    }

    private static void scaleRows(DMatrixRMaj from, double[] by, DMatrixRMaj to) {
        int columns = from.numCols;
        for (int row = 0; row < from.numRows; row++) {
            for (int c = 0; c < columns; c++) {
                to.data[row * columns + c] = from.data[row * columns + c] * by[row];
            }
        }
    }

    private static void divideRows(DMatrixRMaj from, double[] by, DMatrixRMaj to) {
        int columns = from.numCols;
        for (int row = 0; row < from.numRows; row++) {
            for (int c = 0; c < columns; c++) {
                to.data[row * columns + c] = from.data[row * columns + c] / by[row];
            }
        }
    }
}
