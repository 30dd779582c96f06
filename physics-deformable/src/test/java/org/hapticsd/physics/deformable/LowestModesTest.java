package org.hapticsd.physics.deformable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.hapticsd.physics.deformable.MassSpringSpec.Integrator;
import org.junit.jupiter.api.Test;

/**
 * The lowest modes by the sparse route ({@link ModalBasis#lowest}: shift-invert subspace iteration on the sparse
 * stiffness) are the dense eigendecomposition's: the same frequencies, the same span, mass-normalised; a free body's
 * rigid motions come out at zero; a stiffness that is not positive definite takes the dense route, or is refused
 * in one line when that would not fit.
 */
class LowestModesTest {
    private static final double MASS_KG = 0.002;
    private static final double STIFFNESS_NPM = 2000.0;

    /**
     * The cloth about its hanging equilibrium, 30 modes (scenes/cloth.yaml). Tolerances: the iteration stops
     * at a residual ‖M^(−½)(K·φ − λ·M·φ)‖ of 10⁻¹³ of the stiffness's Gershgorin bound (1.2e7 s⁻² here), 1.2e-6 s⁻²;
     * an eigenvalue is then within that (ω within 1.2e-6 / (2·ω), below 1e-7 rad/s for ω ≥ 6 rad/s), and a mode's
     * part outside the dense modes' span is at most residual / gap, with the gap to mode 31 at 22.93² − 22.46² = 21
     * s⁻²: 6e-8. The bounds below give 10×–20× of that; measured: 4.2e-8 outside the span.
     */
    @Test
    void shouldFindTheClothsLowestModesAsTheDenseEigendecompositionDoes() {
        MassSpringSpec cloth = ClothModels.cloth(Integrator.MODAL_TRUNCATED, 30, MASS_KG, STIFFNESS_NPM, 0.02);
        double[] hanging = MassSpringStatics.equilibrium(cloth);
        ModalBasis sparse = ModalBasis.lowest(cloth, hanging, 30, Long.MAX_VALUE);
        ModalBasis dense = ModalBasis.of(cloth, hanging);
        assertEquals(30, sparse.modeCount(), "only the modes asked for");
        assertEquals(dense.dofs(), sparse.dofs());
        for (int m = 0; m < 30; m++) {
            assertEquals(dense.omegaRadps(m), sparse.omegaRadps(m), 1e-6, "ω of mode " + m);
        }
        assertOrthonormal(cloth, sparse, 1e-12);
        double outside = largestOutsideSpan(cloth, sparse, dense, 30);
        assertTrue(outside < 1e-6, "each sparse mode lies in the span of the 30 dense ones: " + outside + " outside");
    }

    /**
     * A free cube lattice (4 × 4 × 4 nodes, braced along edges, face and body diagonals: rigid), no gravity: its six
     * rigid motions are zero modes, where K is singular. The shift τ makes them solvable; their Ritz values are K's,
     * round-off, and come out as exactly 0 (as the dense route's). The next four match the dense route's ω to 1e-9
     * of the largest kept (the residual bound, as above, is 1e-13 of the Gershgorin bound).
     */
    @Test
    void shouldGiveAFreeBodyItsRigidModesAtZero() {
        MassSpringSpec lattice = lattice(4, 0.01, false, 1.0);
        ModalBasis sparse = ModalBasis.lowest(lattice, lattice.restPositionM(), 10, Long.MAX_VALUE);
        ModalBasis dense = ModalBasis.of(lattice);
        assertEquals(10, sparse.modeCount(), "192 DOFs, a block of 20: the sparse route");
        assertZeroThenAlike(sparse, dense, 6);
        assertOrthonormal(lattice, sparse, 1e-12);
    }

    /**
     * The lattice held at one corner with its springs' rest lengths 1.5 × their lengths: every spring is compressed
     * at the reference shape, its geometric term −0.5·k across it, so K + τ·M is not positive definite and Cholesky
     * refuses it. The lowest modes then come from the dense route (every mode), or, when that cannot fit the bytes
     * allowed, the load is refused naming why and what to do.
     */
    @Test
    void shouldTakeTheDenseRouteWhereTheStiffnessIsNotPositiveDefinite() {
        MassSpringSpec compressed = lattice(4, 0.01, true, 1.5);
        ModalBasis basis = ModalBasis.lowest(compressed, compressed.restPositionM(), 10, Long.MAX_VALUE);
        assertEquals(basis.dofs(), basis.modeCount(), "the dense route returns every mode");
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
            () -> ModalBasis.lowest(compressed, compressed.restPositionM(), 10, 1_000_000));
        assertTrue(refused.getMessage().startsWith("the stiffness about the modes' reference shape is not positive "
            + "definite") && refused.getMessage().contains("all 189 free degrees of freedom, about 2 MB, more than "
            + "the 1 MB allowed: take the modes about equilibrium (modesAbout: equilibrium)"), refused.getMessage());
    }

    /**
     * The sparse solves order their rows themselves (reverse Cuthill–McKee), whatever order the body lists its nodes
     * in: the cloth with its nodes shuffled hangs in the same place and has the same modes, and its factor's envelope
     * is the natural order's, not the shuffled one's (which would fill in nearly everywhere). Tolerances: the
     * equilibrium is found to 1e-9 of a node's weight (2e-11 N), and the two runs reach it by different round-off.
     */
    @Test
    void shouldSolveTheSameBodyWhateverOrderItListsItsNodesIn() {
        MassSpringSpec cloth = ClothModels.cloth(Integrator.MODAL_TRUNCATED, 30, MASS_KG, STIFFNESS_NPM, 0.02);
        int n = cloth.nodeCount();
        int[] newIndex = new int[n];
        for (int i = 0; i < n; i++) {
            newIndex[i] = i;
        }
        java.util.Random random = new java.util.Random(7);
        for (int i = n - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int t = newIndex[i];
            newIndex[i] = newIndex[j];
            newIndex[j] = t;
        }
        double[] mass = new double[n];
        double[] rest = new double[3 * n];
        boolean[] pinned = new boolean[n];
        for (int i = 0; i < n; i++) {
            mass[newIndex[i]] = cloth.massKg()[i];
            pinned[newIndex[i]] = cloth.pinned()[i];
            for (int axis = 0; axis < 3; axis++) {
                rest[3 * newIndex[i] + axis] = cloth.restPositionM()[3 * i + axis];
            }
        }
        int[] ends = cloth.springNodes().clone();
        for (int e = 0; e < ends.length; e++) {
            ends[e] = newIndex[ends[e]];
        }
        MassSpringSpec shuffled = new MassSpringSpec(mass, rest, ends, cloth.stiffnessNpm(), cloth.restLengthM(),
            pinned, cloth.gravityMps2(), 0.02, Integrator.MODAL_TRUNCATED, 30, 1);

        double[] hanging = MassSpringStatics.equilibrium(cloth);
        double[] hangingShuffled = MassSpringStatics.equilibrium(shuffled);
        double farthest = 0.0;
        for (int i = 0; i < n; i++) {
            for (int axis = 0; axis < 3; axis++) {
                double moved = hanging[3 * i + axis] - hangingShuffled[3 * newIndex[i] + axis];
                farthest = Math.max(farthest, Math.abs(moved));
            }
        }
        assertTrue(farthest < 1e-6, "the same equilibrium: nodes " + farthest + " m apart");
        ModalBasis modes = ModalBasis.lowest(cloth, hanging, 30, Long.MAX_VALUE);
        ModalBasis modesShuffled = ModalBasis.lowest(shuffled, hangingShuffled, 30, Long.MAX_VALUE);
        for (int m = 0; m < 30; m++) {
            assertEquals(modes.omegaRadps(m), modesShuffled.omegaRadps(m), 1e-6, "ω of mode " + m);
        }
        long envelope = new SparseStiffness(cloth).envelope();
        assertEquals(envelope, new SparseStiffness(shuffled).envelope(), 0.05 * envelope, "the envelope");
        // A grid 20 nodes wide has a band of about 21 nodes (63 rows) in that order: 1194 × 66 ≈ 79,000 entries, 11 %
        // of the lower triangle's 713,415 (measured 90,936).
        assertTrue(envelope < 0.15 * 1194L * 1195 / 2, "a band, not the whole lower triangle: " + envelope);
    }

    /**
     * The sparse stiffness is the dense one, entry for entry, in its own row order: the lattice held at one corner,
     * its nodes moved off their rest places (springs stretched and compressed), plus 0.5·M on the diagonal; and every
     * entry outside the sparse pattern is zero in the dense matrix. Tolerance: both add the same spring blocks, in
     * a different order, so round-off of a sum of a few k-sized terms (1e-12 of k = 2000 N/m).
     */
    @Test
    void shouldAssembleTheDenseTangentStiffnessInItsOwnOrder() {
        MassSpringSpec lattice = lattice(3, 0.01, true, 1.0);
        double[] x = lattice.restPositionM().clone();
        java.util.Random random = new java.util.Random(11);
        for (int c = 0; c < x.length; c++) {
            x[c] += lattice.pinned()[c / 3] ? 0.0 : 0.003 * (2 * random.nextDouble() - 1);
        }
        int[] count = new int[1];
        int[] dofOf = ModalBasis.dofIndex(lattice, count);
        org.ejml.data.DMatrixRMaj dense = ModalBasis.tangentStiffness(lattice, x, dofOf, count[0]);
        SparseStiffness stiffness = new SparseStiffness(lattice);
        org.ejml.data.DMatrixSparseCSC sparse = stiffness.assemble(x, 0.5);
        assertEquals(count[0], stiffness.dofs());
        int compared = 0;
        for (int a = 0; a < x.length; a++) {
            for (int b = 0; b < x.length; b++) {
                if (dofOf[a] < 0 || dofOf[b] < 0) {
                    continue;
                }
                double expected = dense.get(dofOf[a], dofOf[b]) + (a == b ? 0.5 * lattice.massKg()[a / 3] : 0.0);
                double actual = sparse.get(stiffness.row(a), stiffness.row(b));
                assertEquals(expected, actual, 1e-12 * STIFFNESS_NPM, "K[" + a + "][" + b + "]");
                compared += sparse.isAssigned(stiffness.row(a), stiffness.row(b)) ? 1 : 0;
            }
        }
        assertEquals(stiffness.nonzeros(), compared, "every stored entry is a free coordinate pair");
    }

    /**
     * Odd topology takes the sparse route as well as the dense: two free lattices not joined, a node on no spring,
     * springs listed twice (one the second time reversed), and one of zero length at rest, which has no direction so
     * has no tangent stiffness. Its 18 zero modes (6 rigid motions per lattice, 3 for the lone node, 3 for the node on
     * the zero-length spring) come out as 0, and the next two match the dense route's ω to 1e-9 of the largest (as
     * for the single lattice).
     */
    @Test
    void shouldFindTheModesOfABodyInSeveralParts() {
        MassSpringSpec one = lattice(3, 0.01, false, 1.0);
        int n1 = one.nodeCount();
        int n = 2 * n1 + 2;
        double[] mass = new double[n];
        double[] rest = new double[3 * n];
        java.util.Arrays.fill(mass, MASS_KG);
        for (int i = 0; i < n1; i++) {
            for (int axis = 0; axis < 3; axis++) {
                rest[3 * i + axis] = one.restPositionM()[3 * i + axis];
                rest[3 * (n1 + i) + axis] = one.restPositionM()[3 * i + axis] + (axis == 0 ? 0.1 : 0.0);
            }
        }
        rest[3 * (2 * n1)] = 0.3;                          // the lone node
        rest[3 * (2 * n1 + 1)] = 0.1;                      // at the second lattice's node 0: a zero-length spring
        int springs = one.springCount();
        int[] ends = new int[2 * (2 * springs + 3)];
        for (int e = 0; e < 2 * springs; e++) {
            ends[e] = one.springNodes()[e];
            ends[2 * springs + e] = one.springNodes()[e] + n1;
        }
        int extra = 4 * springs;
        ends[extra] = 1;                                   // listed twice
        ends[extra + 1] = 0;
        ends[extra + 2] = 4;                               // and again
        ends[extra + 3] = 5;
        ends[extra + 4] = n1;                              // zero length at rest
        ends[extra + 5] = 2 * n1 + 1;
        double[] k = new double[ends.length / 2];
        java.util.Arrays.fill(k, STIFFNESS_NPM);
        MassSpringSpec parts = new MassSpringSpec(mass, rest, ends, k, MassSpringSpec.restDistances(rest, ends),
            new boolean[n], new double[] {0, 0, 0}, 0.0, Integrator.MODAL_TRUNCATED, 1, 1);
        ModalBasis sparse = ModalBasis.lowest(parts, rest, 20, Long.MAX_VALUE);
        ModalBasis dense = ModalBasis.of(parts);
        assertEquals(20, sparse.modeCount(), "168 DOFs, a block of 40: the sparse route");
        assertZeroThenAlike(sparse, dense, 18);
        assertOrthonormal(parts, sparse, 1e-12);
    }

    /** A body too small to gain from the sparse route gets the dense one, all of its modes. */
    @Test
    void shouldSolveASmallBodyDensely() {
        MassSpringSpec small = lattice(2, 0.01, true, 1.0);
        ModalBasis basis = ModalBasis.lowest(small, small.restPositionM(), 3, Long.MAX_VALUE);
        assertEquals(21, basis.modeCount(), "7 free nodes: every mode");
    }

    /**
     * The first {@code zeros} modes of both routes are exactly zero, and the rest of those the sparse one holds match
     * the dense route's ω to 1e-9 of the highest of them.
     */
    private static void assertZeroThenAlike(ModalBasis sparse, ModalBasis dense, int zeros) {
        int last = sparse.modeCount() - 1;
        for (int m = 0; m < zeros; m++) {
            assertEquals(0.0, sparse.omegaRadps(m), 0.0, "zero mode " + m);
            assertEquals(0.0, dense.omegaRadps(m), 0.0, "zero mode " + m + ", dense");
        }
        for (int m = zeros; m <= last; m++) {
            assertEquals(dense.omegaRadps(m), sparse.omegaRadps(m), 1e-9 * dense.omegaRadps(last), "ω of mode " + m);
        }
    }

    /** φᵢᵀ·M·φⱼ = δᵢⱼ over the modes held, to {@code tolerance}. */
    private static void assertOrthonormal(MassSpringSpec spec, ModalBasis basis, double tolerance) {
        int n = basis.dofs();
        for (int i = 0; i < basis.modeCount(); i++) {
            for (int j = 0; j <= i; j++) {
                double dot = 0.0;
                for (int d = 0; d < n; d++) {
                    dot += spec.massKg()[basis.coordinate(d) / 3] * basis.phi(i, d) * basis.phi(j, d);
                }
                assertEquals(i == j ? 1.0 : 0.0, dot, tolerance, "φ" + i + "ᵀ·M·φ" + j);
            }
        }
    }

    /** The largest M-norm of a mode of {@code sparse} outside the span of the first {@code k} of {@code dense}. */
    private static double largestOutsideSpan(MassSpringSpec spec, ModalBasis sparse, ModalBasis dense, int k) {
        int n = sparse.dofs();
        double largest = 0.0;
        for (int m = 0; m < sparse.modeCount(); m++) {
            double inside = 0.0;
            for (int j = 0; j < k; j++) {
                double dot = 0.0;
                for (int d = 0; d < n; d++) {
                    dot += spec.massKg()[sparse.coordinate(d) / 3] * sparse.phi(m, d) * dense.phi(j, d);
                }
                inside += dot * dot;
            }
            largest = Math.max(largest, Math.sqrt(Math.max(0.0, 1.0 - inside)));
        }
        return largest;
    }

    /**
     * A cube of side³ nodes {@code spacingM} apart, a spring between every two within a body diagonal (rigid), no
     * gravity; node 0 pinned when {@code held}; rest lengths {@code restScale} × the distances.
     */
    private static MassSpringSpec lattice(int side, double spacingM, boolean held, double restScale) {
        int n = side * side * side;
        double[] mass = new double[n];
        double[] rest = new double[3 * n];
        boolean[] pinned = new boolean[n];
        for (int i = 0; i < n; i++) {
            mass[i] = MASS_KG;
            rest[3 * i] = (i % side) * spacingM;
            rest[3 * i + 1] = (i / side % side) * spacingM;
            rest[3 * i + 2] = (i / (side * side)) * spacingM;
        }
        pinned[0] = held;
        List<int[]> springs = new ArrayList<>();
        for (int a = 0; a < n; a++) {
            for (int b = a + 1; b < n; b++) {
                double dx = rest[3 * b] - rest[3 * a];
                double dy = rest[3 * b + 1] - rest[3 * a + 1];
                double dz = rest[3 * b + 2] - rest[3 * a + 2];
                if (dx * dx + dy * dy + dz * dz <= 3.0 * spacingM * spacingM * (1 + 1e-9)) {
                    springs.add(new int[] {a, b});
                }
            }
        }
        int[] ends = new int[2 * springs.size()];
        double[] k = new double[springs.size()];
        for (int s = 0; s < springs.size(); s++) {
            ends[2 * s] = springs.get(s)[0];
            ends[2 * s + 1] = springs.get(s)[1];
            k[s] = STIFFNESS_NPM;
        }
        double[] restLength = MassSpringSpec.restDistances(rest, ends);
        for (int s = 0; s < restLength.length; s++) {
            restLength[s] *= restScale;
        }
        return new MassSpringSpec(mass, rest, ends, k, restLength, pinned, new double[] {0, 0, 0}, 0.0,
            Integrator.MODAL_TRUNCATED, 1, 1);
    }
}
