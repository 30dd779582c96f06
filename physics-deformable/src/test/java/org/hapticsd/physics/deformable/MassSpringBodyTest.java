package org.hapticsd.physics.deformable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import org.hapticsd.physics.deformable.MassSpringSpec.Integrator;
import org.hapticsd.testsupport.JitPrimer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Source 004's mass–spring bodies: its 2-DOF model (Table 1) against the closed form and between the methods, and
 * the claim of its title, on a taut chain stepped beyond the explicit limit.
 */
class MassSpringBodyTest {

    /** The compiler's one-off allocations on the measuring thread, done before anything is measured. */
    @BeforeAll
    static void primeJit() {
        JitPrimer.primeClassPath();
    }

    @Test
    void shouldFindTheTwoDofModelsNaturalFrequencies() {
        // K = [[k1 + k2, −k2], [−k2, k2]], M = m·I: ω² = 100 and 600 (s⁻²) along the chain; across it the springs
        // are at their rest lengths, so the four lateral modes have ω = 0.
        ModalBasis basis = ModalBasis.of(TwoDofModels.table1(Integrator.MODAL, TwoDofModels.H));
        assertEquals(6, basis.dofs());
        for (int m = 0; m < 4; m++) {
            assertEquals(0.0, basis.omegaRadps(m), 1e-6, "lateral mode " + m);
        }
        assertEquals(10.0, basis.omegaRadps(4), 1e-9);
        assertEquals(Math.sqrt(600.0), basis.omegaRadps(5), 1e-9);
        // Mass-normalised: φᵢᵀ·m·φⱼ = δᵢⱼ.
        for (int i = 0; i < 6; i++) {
            for (int j = 0; j < 6; j++) {
                double dot = 0.0;
                for (int d = 0; d < 6; d++) {
                    dot += basis.phi(i, d) * TwoDofModels.M_KG * basis.phi(j, d);
                }
                assertEquals(i == j ? 1.0 : 0.0, dot, 1e-12, "modes " + i + ", " + j);
            }
        }
    }

    /**
     * Table 1: m₁ = m₂ = 10, k₁ = 3000, k₂ = 2000, h = 0.005, Δt = 1e-4, released at rest at the springs' rest lengths
     * under gravity. The source prints the modal and the physical runs apart by 7.29762e-9 (x₁) and 7.29683e-9 (x₂)
     * after 100 steps, 5.21981e-7 and 5.82287e-7 after 1000. Here, with the damping velocity taken the same way in
     * both ((3.6): the new one), they agree to round-off: the modal run is the physical one in another basis. Taken
     * at the old velocity in the physical run (the other reading of (3.6), an explicit damping term), they are
     * 7.6e-9, 3.5e-9, 3.7e-7 and 4.3e-7 apart: the source's order of magnitude, which is the size of that term,
     * 2·h·ω·Δt ≈ 2.4e-5 of the motion.
     */
    @Test
    void shouldReproduceTable1() {
        MassSpringBody physical = new MassSpringBody(TwoDofModels.table1(Integrator.NEWMARK, TwoDofModels.H));
        MassSpringBody modal = new MassSpringBody(TwoDofModels.table1(Integrator.MODAL, TwoDofModels.H));
        ExplicitDampingNewmark oldVelocity = new ExplicitDampingNewmark(modal.basis());
        double[][] apart = new double[2][2];
        double[][] sourceReading = new double[2][2];
        for (int k = 1; k <= 1000; k++) {
            physical.step(TwoDofModels.DT_S);
            modal.step(TwoDofModels.DT_S);
            oldVelocity.step(TwoDofModels.DT_S);
            int row = k == 100 ? 0 : k == 1000 ? 1 : -1;
            if (row >= 0) {
                for (int node = 1; node <= 2; node++) {
                    apart[row][node - 1] = Math.abs(physical.position(node, 2) - modal.position(node, 2));
                    sourceReading[row][node - 1] = Math.abs(oldVelocity.z(node) - modal.position(node, 2));
                }
            }
        }
        double[][] source = {{7.29762e-9, 7.29683e-9}, {5.21981e-7, 5.82287e-7}};
        for (int row = 0; row < 2; row++) {
            for (int node = 0; node < 2; node++) {
                assertTrue(apart[row][node] < 1e-14, "same scheme, two bases: " + apart[row][node]);
                double ratio = sourceReading[row][node] / source[row][node];
                assertTrue(ratio > 0.1 && ratio < 10.0, "the source's order of magnitude: ours "
                    + sourceReading[row][node] + ", the source's " + source[row][node]);
            }
        }
        // Our figures, to two digits.
        assertEquals(7.6e-9, sourceReading[0][0], 0.1e-9);
        assertEquals(3.5e-9, sourceReading[0][1], 0.1e-9);
        assertEquals(3.7e-7, sourceReading[1][0], 0.1e-7);
        assertEquals(4.3e-7, sourceReading[1][1], 0.1e-7);
    }

    /** The 2-DOF chain with the physical Newmark's damping on Ẋ_n, along the chain only (the lateral DOFs stay 0). */
    private static final class ExplicitDampingNewmark {
        private final double[] c = new double[4];
        private final double[] z = {-TwoDofModels.L_M, -2 * TwoDofModels.L_M};
        private final double[] v = new double[2];
        private double[] a;

        ExplicitDampingNewmark(ModalBasis basis) {
            // [c] = m·φ·C·φᵀ·m restricted to the two axial DOFs (coordinates 5 and 8: nodes 1 and 2, z).
            int[] axial = new int[2];
            for (int i = 0; i < basis.dofs(); i++) {
                if (basis.coordinate(i) == 5) {
                    axial[0] = i;
                } else if (basis.coordinate(i) == 8) {
                    axial[1] = i;
                }
            }
            for (int m = 0; m < basis.dofs(); m++) {
                double cm = 2.0 * TwoDofModels.H * basis.omegaRadps(m);
                for (int r = 0; r < 2; r++) {
                    for (int s = 0; s < 2; s++) {
                        c[2 * r + s] += TwoDofModels.M_KG * basis.phi(m, axial[r]) * cm * basis.phi(m, axial[s])
                            * TwoDofModels.M_KG;
                    }
                }
            }
            a = acceleration();
        }

        double z(int node) {
            return z[node - 1];
        }

        void step(double dt) {
            for (int i = 0; i < 2; i++) {
                z[i] += v[i] * dt + 0.5 * a[i] * dt * dt;
            }
            double[] next = acceleration();
            for (int i = 0; i < 2; i++) {
                v[i] += 0.5 * (a[i] + next[i]) * dt;
            }
            a = next;
        }

        /** m·ẍ = f_g + springs − c·ẋ_n. */
        private double[] acceleration() {
            double upper = -z[0] - TwoDofModels.L_M;
            double lower = z[0] - z[1] - TwoDofModels.L_M;
            double f1 = TwoDofModels.K1_NPM * upper - TwoDofModels.K2_NPM * lower;
            double f2 = TwoDofModels.K2_NPM * lower;
            double[] out = new double[2];
            double[] f = {f1, f2};
            for (int i = 0; i < 2; i++) {
                double cv = c[2 * i] * v[0] + c[2 * i + 1] * v[1];
                out[i] = (f[i] - TwoDofModels.M_KG * TwoDofModels.G_MPS2 - cv) / TwoDofModels.M_KG;
            }
            return out;
        }
    }

    /**
     * Undamped, the chain is linear along its axis: x(t) = x_s − Σ φᵢ·(φᵢᵀ·m·x_s)·cos(ωᵢ·t), x_s the static sag.
     * Newmark (central difference) and the modal run follow it to its O(Δt²) phase error (ω³·Δt²·t/24 ≈ 3e-6 rad
     * after 0.5 s); symplectic Euler to O(Δt).
     */
    @Test
    void shouldFollowTheClosedFormSolutionUndamped() {
        double t = 0.5;
        int steps = (int) Math.round(t / TwoDofModels.DT_S);
        // Static sag along z: K·u = f_g, K = [[5000, −2000], [−2000, 2000]], f_g = −98 each.
        double det = 5000.0 * 2000.0 - 2000.0 * 2000.0;
        double us1 = (2000.0 * -98.0 + 2000.0 * -98.0) / det;
        double us2 = (2000.0 * -98.0 + 5000.0 * -98.0) / det;
        ModalBasis basis = ModalBasis.of(TwoDofModels.table1(Integrator.MODAL, 0.0));
        double[] exact = new double[2];
        exact[0] = us1;
        exact[1] = us2;
        for (int m = 4; m < 6; m++) {
            double p1 = phiAlongZ(basis, m, 1);
            double p2 = phiAlongZ(basis, m, 2);
            double q = p1 * TwoDofModels.M_KG * us1 + p2 * TwoDofModels.M_KG * us2;
            double cos = Math.cos(basis.omegaRadps(m) * t);
            exact[0] -= p1 * q * cos;
            exact[1] -= p2 * q * cos;
        }
        for (Integrator integrator : Integrator.values()) {
            MassSpringBody body = new MassSpringBody(TwoDofModels.table1(integrator, 0.0));
            for (int k = 0; k < steps; k++) {
                body.step(TwoDofModels.DT_S);
            }
            double tolerance = integrator == Integrator.SYMPLECTIC_EULER ? 1e-3 : 1e-6;
            assertEquals(-TwoDofModels.L_M + exact[0], body.position(1, 2), tolerance, integrator + " x1");
            assertEquals(-2 * TwoDofModels.L_M + exact[1], body.position(2, 2), tolerance, integrator + " x2");
        }
    }

    private static double phiAlongZ(ModalBasis basis, int mode, int node) {
        for (int i = 0; i < basis.dofs(); i++) {
            if (basis.coordinate(i) == 3 * node + 2) {
                return basis.phi(mode, i);
            }
        }
        throw new AssertionError();
    }

    /**
     * The title's claim. A taut chain (20 masses of 10 g between two pins, 5 cm apart on springs of 2000 N/m and
     * 4 cm rest length) sags under gravity. Its highest mode is about 2·√(k/m) ≈ 890 rad/s, so explicit Newmark is
     * stable only below Δt ≈ 2/890 s = 2.2 ms. At Δt = 4 ms it diverges; truncated to the modes with ω·Δt < 1.5 it
     * stays bounded, and its sag is the full model's within 2 %.
     */
    @Test
    void shouldStayBoundedBeyondTheExplicitLimitWhenTruncated() {
        double dt = 0.004;
        MassSpringSpec chain = TautChain.spec(Integrator.NEWMARK, 0);
        ModalBasis basis = ModalBasis.of(chain);
        assertTrue(basis.omegaRadps(basis.dofs() - 1) * dt > 2.0, "Δt beyond the explicit limit: ω_max = "
            + basis.omegaRadps(basis.dofs() - 1));
        int kept = 0;
        while (kept < basis.dofs() && basis.omegaRadps(kept) * dt < 1.5) {
            kept++;
        }
        assertTrue(kept >= 10 && kept < basis.dofs(), "modes kept: " + kept + " of " + basis.dofs());

        MassSpringBody explicit = new MassSpringBody(chain, basis);
        MassSpringBody truncated = new MassSpringBody(chain.withIntegrator(Integrator.MODAL_TRUNCATED, kept), basis);
        boolean diverged = false;
        double maxSagM = 0.0;
        for (int k = 0; k < 1000; k++) {
            explicit.step(dt);
            truncated.step(dt);
            double z = explicit.position(10, 2);
            diverged |= !Double.isFinite(z) || Math.abs(z) > 10.0;
            for (int node = 1; node <= TautChain.FREE; node++) {
                maxSagM = Math.max(maxSagM, Math.abs(truncated.position(node, 2)));
            }
        }
        assertTrue(diverged, "explicit Newmark at 4 ms should diverge: z = " + explicit.position(10, 2));
        assertTrue(maxSagM < 0.2, "the truncated run stays bounded: " + maxSagM);
        // Settled (h = 0.05 over 4 s), the middle's sag matches the full model's, stepped stably at 0.5 ms.
        MassSpringBody reference = new MassSpringBody(chain, basis);
        for (int k = 0; k < 8000; k++) {
            reference.step(0.0005);
        }
        double expected = reference.position(10, 2);
        assertTrue(expected < -0.005, "it sags: " + expected);
        assertEquals(expected, truncated.position(10, 2), 0.02 * Math.abs(expected));
    }

    @Test
    void shouldNotAllocateWhileStepping() {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        for (Integrator integrator : Integrator.values()) {
            MassSpringBody body = new MassSpringBody(TautChain.spec(integrator, 30));
            // Warm up until a whole window allocates nothing (the JIT's own work on this thread), then measure.
            long window;
            int windows = 0;
            do {
                long start = threads.getCurrentThreadAllocatedBytes();
                for (int k = 0; k < 2000; k++) {
                    body.step(0.0005);
                    body.applyForce(3, 0.0, 0.0, -0.1);
                }
                window = threads.getCurrentThreadAllocatedBytes() - start;
                windows++;
            } while (window != 0 && windows < 20);
            long before = threads.getCurrentThreadAllocatedBytes();
            for (int k = 0; k < 2000; k++) {
                body.step(0.0005);
                body.applyForce(3, 0.0, 0.0, -0.1);
            }
            long bytes = threads.getCurrentThreadAllocatedBytes() - before;
            assertEquals(0, bytes, integrator + " allocated " + bytes + " bytes in 2000 steps");
        }
    }

    @Test
    void shouldRefuseABadSpecNamingWhatIsWrong() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new MassSpringSpec(
            new double[] {1, 1}, new double[6], new int[] {0, 2}, new double[] {1}, new double[] {1},
            new boolean[2], new double[3], 0.0, Integrator.MODAL, 1, 1));
        assertEquals("spring 0 joins nodes 0 and 2: two different nodes of 0..1 needed", e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
            () -> new MassSpringBody(TautChain.spec(Integrator.MODAL_TRUNCATED, 500)));
        assertTrue(e.getMessage().startsWith("modes must be 1.."), e.getMessage());
        assertFalse(e.getMessage().isEmpty());
    }

    /**
     * Source 004's chain at its unstretched rest: its four lowest modes are the masses' sideways motions, which no
     * spring resists (ω = 0), and gravity has no part in them. Keeping only those would leave the chain hanging
     * frozen under its weight, so the load refuses it and names the first mode that carries weight (the fifth, the
     * chain's 10 rad/s mode); five modes are accepted and the chain falls.
     */
    @Test
    void shouldRefuseATruncationThatKeepsNoneOfTheWeight() {
        MassSpringSpec frozen = TwoDofModels.table1(Integrator.MODAL_TRUNCATED, 0.0).withIntegrator(
            Integrator.MODAL_TRUNCATED, 4);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new MassSpringBody(frozen));
        assertTrue(e.getMessage().startsWith("modes: the 4 lowest modes (0.000 to 0.000 rad/s) take none of the "
            + "body's weight") && e.getMessage().contains("the first mode that carries weight is mode 5 (10.00 rad/s)"),
            e.getMessage());

        MassSpringBody falls = new MassSpringBody(frozen.withIntegrator(Integrator.MODAL_TRUNCATED, 5));
        for (int k = 0; k < 100; k++) {
            falls.step(TwoDofModels.DT_S);
        }
        assertTrue(falls.position(2, 2) < -2 * TwoDofModels.L_M - 1e-6, "the lower mass sinks under gravity: "
            + falls.position(2, 2));
    }

    /**
     * Found by a tester: the same chain with its modes taken about its hanging equilibrium, keeping the four
     * pendulum modes (√(g/l·(2 ∓ √2)) = 2.33 and 5.63 rad/s, each twice) and dropping the stiff axial ones, was
     * refused as "would hang frozen", though the reference shape carries the weight. It is accepted, hangs still where
     * it starts, and swings when pushed sideways.
     */
    @Test
    void shouldAcceptATruncationAboutTheHangingEquilibriumThatKeepsOnlyThePendulumModes() {
        MassSpringSpec chain = TwoDofModels.table1(Integrator.MODAL_TRUNCATED, 0.0).withIntegrator(
            Integrator.MODAL_TRUNCATED, 4);
        double[] hanging = MassSpringStatics.equilibrium(chain);
        ModalBasis about = ModalBasis.of(chain, hanging);
        // A double pendulum of equal masses and lengths l₁, l₂ (the springs as stretched by the weight, whose
        // tension T gives the sideways stiffness T/l): ω² = g·((l₁ + l₂) ∓ √((l₁ + l₂)² − 2·l₁·l₂))/(l₁·l₂).
        double l1 = -hanging[5];
        double l2 = hanging[5] - hanging[8];
        double g = TwoDofModels.G_MPS2;
        double slow = Math.sqrt(g * ((l1 + l2) - Math.sqrt((l1 + l2) * (l1 + l2) - 2 * l1 * l2)) / (l1 * l2));
        double fast = Math.sqrt(g * ((l1 + l2) + Math.sqrt((l1 + l2) * (l1 + l2) - 2 * l1 * l2)) / (l1 * l2));
        assertEquals(slow, about.omegaRadps(0), 1e-6 * slow, "the slow pendulum mode");
        assertEquals(fast, about.omegaRadps(3), 1e-6 * fast, "the fast pendulum mode");
        MassSpringBody body = new MassSpringBody("chain", chain, 0.01, about);
        body.setState(hanging, new double[hanging.length]);
        for (int k = 0; k < 100; k++) {
            body.step(TwoDofModels.DT_S);
        }
        assertEquals(hanging[8], body.position(2, 2), 1e-9, "hangs still at its equilibrium");
        body.applyNodeForce(2, 50.0, 0.0, 0.0);
        for (int k = 0; k < 1000; k++) {
            body.step(TwoDofModels.DT_S);
        }
        // 50 N for one 0.1 ms step on 10 kg: 0.5 mm/s, so about 0.05 mm in 0.1 s (the pendulum slows it a little).
        assertEquals(5e-5, body.position(2, 0), 1e-5, "swings sideways when pushed");
    }
}
