package org.hapticsd.physics.deformable;

import java.util.ArrayDeque;
import java.util.Arrays;
import org.ejml.data.DMatrixRMaj;
import org.ejml.data.DMatrixSparseCSC;
import org.ejml.interfaces.linsol.LinearSolverSparse;
import org.ejml.sparse.FillReducing;
import org.ejml.sparse.csc.factory.LinearSolverFactory_DSCC;

/**
 * The springs' tangent stiffness of a mass–spring body over its free DOFs as a sparse matrix, and its factorisation:
 * the solves a large body needs at load (Newton's steps to its equilibrium, the shift-invert iteration for its lowest
 * modes) in memory and time that grow with its springs and its band, where the dense n × n matrix of
 * {@link ModalBasis#tangentStiffness} takes n² doubles and its LU n³ operations.
 *
 * <p>Rows and columns are numbered in reverse Cuthill–McKee order of the free nodes (breadth-first from a peripheral
 * node, neighbours by increasing degree, the whole order reversed; George and Liu, <i>Computer Solution of Large
 * Sparse Positive Definite Systems</i>, 1981, §4.3), which keeps a mesh's nonzeros near the diagonal, so a factor
 * fills in only within that envelope. EJML's sparse factorisations take the order they are given: its fill-reducing
 * options are none or random. A body's own DOF order ({@link ModalBasis#dofIndex}) is kept everywhere else;
 * {@link #row} maps between the two.
 */
final class SparseStiffness {
    private final MassSpringSpec spec;
    private final int dofs;
    /** Coordinate (3·node + axis) → row of the matrix, −1 for a pinned node's. */
    private final int[] rowOf;
    /** Row → the node's mass, kg. */
    private final double[] massOfRow;
    private final DMatrixSparseCSC matrix;
    /** Per spring, 36 indices into the matrix's values: blocks aa, bb, ab, ba, 9 each, row-major; −1 when pinned. */
    private final int[] springSlots;
    /** Row → index of its diagonal entry in the matrix's values. */
    private final int[] diagonalSlot;
    private final long envelope;

    SparseStiffness(MassSpringSpec spec) {
        this.spec = spec;
        int n = spec.nodeCount();
        int[][] neighbours = freeNeighbours(spec);
        int[] order = reverseCuthillMcKee(spec, neighbours);
        int[] rank = new int[n];
        Arrays.fill(rank, -1);
        for (int r = 0; r < order.length; r++) {
            rank[order[r]] = r;
        }
        dofs = 3 * order.length;
        rowOf = new int[3 * n];
        massOfRow = new double[dofs];
        for (int node = 0; node < n; node++) {
            for (int axis = 0; axis < 3; axis++) {
                rowOf[3 * node + axis] = rank[node] < 0 ? -1 : 3 * rank[node] + axis;
                if (rank[node] >= 0) {
                    massOfRow[3 * rank[node] + axis] = spec.massKg()[node];
                }
            }
        }
        // The pattern: column 3·rank(u) + c holds the rows of u and of its free neighbours, 3 each, sorted.
        int[] columnStart = new int[dofs + 1];
        int[][] rowNodes = new int[order.length][];
        long profile = 0;
        for (int r = 0; r < order.length; r++) {
            int u = order[r];
            int[] nodes = new int[neighbours[u].length + 1];
            nodes[0] = r;
            for (int j = 0; j < neighbours[u].length; j++) {
                nodes[j + 1] = rank[neighbours[u][j]];
            }
            Arrays.sort(nodes);
            rowNodes[r] = nodes;
            for (int c = 0; c < 3; c++) {
                columnStart[3 * r + c + 1] = columnStart[3 * r + c] + 3 * nodes.length;
            }
            // The envelope of row r: from its first nonzero column to the diagonal (a symmetric matrix's rows are
            // its columns), 3 rows per node; a factor without pivoting fills in only within it.
            profile += 3L * (3L * (r - nodes[0]) + 3);
        }
        envelope = profile;
        int nonzeros = columnStart[dofs];
        matrix = new DMatrixSparseCSC(dofs, dofs, nonzeros);
        System.arraycopy(columnStart, 0, matrix.col_idx, 0, dofs + 1);
        for (int r = 0; r < order.length; r++) {
            for (int c = 0; c < 3; c++) {
                int at = columnStart[3 * r + c];
                for (int node : rowNodes[r]) {
                    for (int axis = 0; axis < 3; axis++) {
                        matrix.nz_rows[at++] = 3 * node + axis;
                    }
                }
            }
        }
        matrix.nz_length = nonzeros;
        matrix.indicesSorted = true;
        diagonalSlot = new int[dofs];
        for (int row = 0; row < dofs; row++) {
            diagonalSlot[row] = slot(row, row);
        }
        int[] ends = spec.springNodes();
        springSlots = new int[36 * spec.springCount()];
        for (int s = 0; s < spec.springCount(); s++) {
            int a = ends[2 * s];
            int b = ends[2 * s + 1];
            for (int r = 0; r < 3; r++) {
                for (int c = 0; c < 3; c++) {
                    int at = 36 * s + 3 * r + c;
                    springSlots[at] = slot(rowOf[3 * a + r], rowOf[3 * a + c]);
                    springSlots[at + 9] = slot(rowOf[3 * b + r], rowOf[3 * b + c]);
                    springSlots[at + 18] = slot(rowOf[3 * a + r], rowOf[3 * b + c]);
                    springSlots[at + 27] = slot(rowOf[3 * b + r], rowOf[3 * a + c]);
                }
            }
        }
    }

    /** Entries stored of the (symmetric, both triangles) matrix. */
    int nonzeros() {
        return matrix.nz_length;
    }

    /** Free DOFs, the matrix's order. */
    int dofs() {
        return dofs;
    }

    /** The row of coordinate {@code 3·node + axis}, −1 for a pinned node's. */
    int row(int coordinate) {
        return rowOf[coordinate];
    }

    /** The mass of row {@code row}'s node, kg. */
    double mass(int row) {
        return massOfRow[row];
    }

    /**
     * Entries of a factor without pivoting of this matrix, at most: its envelope (below the diagonal and on it), the
     * heap a Cholesky factor takes in doubles.
     */
    long envelope() {
        return envelope;
    }

    /**
     * The tangent stiffness at positions {@code x} (3 per node) plus {@code shift} times the mass on the diagonal:
     * {@code K(x) + shift·M}. The matrix is this object's own, rewritten by the next call.
     */
    DMatrixSparseCSC assemble(double[] x, double shift) {
        double[] values = matrix.nz_values;
        Arrays.fill(values, 0, matrix.nz_length, 0.0);
        int[] ends = spec.springNodes();
        double[] block = new double[9];
        for (int s = 0; s < spec.springCount(); s++) {
            int a = ends[2 * s];
            int b = ends[2 * s + 1];
            double dx = x[3 * b] - x[3 * a];
            double dy = x[3 * b + 1] - x[3 * a + 1];
            double dz = x[3 * b + 2] - x[3 * a + 2];
            double d = Math.sqrt(dx * dx + dy * dy + dz * dz);
            if (d == 0.0) {
                continue; // as ModalBasis.tangentStiffness: no direction, no tangent stiffness
            }
            ModalBasis.springBlock(spec.stiffnessNpm()[s], spec.restLengthM()[s], dx / d, dy / d, dz / d, d, block);
            for (int e = 0; e < 9; e++) {
                int at = 36 * s + e;
                add(values, springSlots[at], block[e]);
                add(values, springSlots[at + 9], block[e]);
                add(values, springSlots[at + 18], -block[e]);
                add(values, springSlots[at + 27], -block[e]);
            }
        }
        if (shift != 0.0) {
            for (int row = 0; row < dofs; row++) {
                values[diagonalSlot[row]] += shift * massOfRow[row];
            }
        }
        return matrix;
    }

    /**
     * A factorisation of the matrix last assembled: Cholesky when it is positive definite (a stable equilibrium's
     * stiffness, shifted), else null; {@link #factorLu} for one that may not be.
     */
    LinearSolverSparse<DMatrixSparseCSC, DMatrixRMaj> factorCholesky() {
        LinearSolverSparse<DMatrixSparseCSC, DMatrixRMaj> solver = LinearSolverFactory_DSCC.cholesky(FillReducing.NONE);
        return solver.setA(solver.modifiesA() ? matrix.copy() : matrix) ? solver : null;
    }

    /** An LU factorisation (partial pivoting) of the matrix last assembled, or null when it is singular. */
    LinearSolverSparse<DMatrixSparseCSC, DMatrixRMaj> factorLu() {
        LinearSolverSparse<DMatrixSparseCSC, DMatrixRMaj> solver = LinearSolverFactory_DSCC.lu(FillReducing.NONE);
        return solver.setA(solver.modifiesA() ? matrix.copy() : matrix) ? solver : null;
    }

    /**
     * An upper bound on the largest eigenvalue of {@code M⁻¹·K} for the matrix last assembled (Gershgorin's, on the
     * symmetric {@code M^(−½)·K·M^(−½)}), 1/s².
     */
    double largestEigenvalueBound() {
        double[] sums = new double[dofs];
        for (int column = 0; column < dofs; column++) {
            for (int at = matrix.col_idx[column]; at < matrix.col_idx[column + 1]; at++) {
                int row = matrix.nz_rows[at];
                sums[row] += Math.abs(matrix.nz_values[at]) / Math.sqrt(massOfRow[row] * massOfRow[column]);
            }
        }
        double largest = 0.0;
        for (double sum : sums) {
            largest = Math.max(largest, sum);
        }
        return largest;
    }

    private static void add(double[] values, int slot, double v) {
        if (slot >= 0) {
            values[slot] += v;
        }
    }

    private int slot(int row, int column) {
        if (row < 0 || column < 0) {
            return -1;
        }
        int found = Arrays.binarySearch(matrix.nz_rows, matrix.col_idx[column], matrix.col_idx[column + 1], row);
        if (found < 0) {
            throw new IllegalStateException("row " + row + " of column " + column + " is not in the pattern");
        }
        return found;
    }

    /** For each free node, its free neighbours along springs (each once, itself excluded); null for a pinned node. */
    private static int[][] freeNeighbours(MassSpringSpec spec) {
        int n = spec.nodeCount();
        boolean[] pinned = spec.pinned();
        int[] ends = spec.springNodes();
        int[] degree = new int[n];
        for (int s = 0; s < spec.springCount(); s++) {
            int a = ends[2 * s];
            int b = ends[2 * s + 1];
            if (a != b && !pinned[a] && !pinned[b]) {
                degree[a]++;
                degree[b]++;
            }
        }
        int[][] all = new int[n][];
        for (int node = 0; node < n; node++) {
            all[node] = new int[degree[node]];
        }
        int[] filled = new int[n];
        for (int s = 0; s < spec.springCount(); s++) {
            int a = ends[2 * s];
            int b = ends[2 * s + 1];
            if (a != b && !pinned[a] && !pinned[b]) {
                all[a][filled[a]++] = b;
                all[b][filled[b]++] = a;
            }
        }
        for (int node = 0; node < n; node++) {
            if (pinned[node]) {
                all[node] = null;
                continue;
            }
            int[] unique = Arrays.stream(all[node]).sorted().distinct().toArray();
            all[node] = unique;
        }
        return all;
    }

    /** The free nodes in reverse Cuthill–McKee order, each connected part from a pseudo-peripheral node. */
    private static int[] reverseCuthillMcKee(MassSpringSpec spec, int[][] neighbours) {
        int n = spec.nodeCount();
        int free = 0;
        for (int node = 0; node < n; node++) {
            if (neighbours[node] != null) {
                free++;
            }
        }
        int[] order = new int[free];
        boolean[] placed = new boolean[n];
        int count = 0;
        for (int seed = 0; seed < n; seed++) {
            if (neighbours[seed] == null || placed[seed]) {
                continue;
            }
            int start = peripheral(seed, neighbours);
            ArrayDeque<Integer> queue = new ArrayDeque<>();
            queue.add(start);
            placed[start] = true;
            while (!queue.isEmpty()) {
                int u = queue.poll();
                order[count++] = u;
                int[] next = Arrays.stream(neighbours[u]).filter(v -> !placed[v]).boxed()
                    .sorted((p, q) -> p.equals(q) ? 0 : neighbours[p].length != neighbours[q].length
                        ? Integer.compare(neighbours[p].length, neighbours[q].length) : Integer.compare(p, q))
                    .mapToInt(Integer::intValue).toArray();
                for (int v : next) {
                    placed[v] = true;
                    queue.add(v);
                }
            }
        }
        for (int i = 0, j = free - 1; i < j; i++, j--) {
            int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        return order;
    }

    /**
     * A pseudo-peripheral node of {@code seed}'s connected part (George and Liu's iteration): from a node of the last
     * breadth-first level, of least degree, until the number of levels stops growing.
     */
    private static int peripheral(int seed, int[][] neighbours) {
        int node = seed;
        int levels = -1;
        while (true) {
            int[] level = new int[neighbours.length];
            Arrays.fill(level, -1);
            ArrayDeque<Integer> queue = new ArrayDeque<>();
            queue.add(node);
            level[node] = 0;
            int deepest = 0;
            int candidate = node;
            while (!queue.isEmpty()) {
                int u = queue.poll();
                if (level[u] > deepest || level[u] == deepest && neighbours[u].length < neighbours[candidate].length) {
                    deepest = level[u];
                    candidate = u;
                }
                for (int v : neighbours[u]) {
                    if (level[v] < 0) {
                        level[v] = level[u] + 1;
                        queue.add(v);
                    }
                }
            }
            if (deepest <= levels) {
                return node;
            }
            levels = deepest;
            node = candidate;
        }
    }
}
