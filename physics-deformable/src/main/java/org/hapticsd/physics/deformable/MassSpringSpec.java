package org.hapticsd.physics.deformable;

import java.util.Arrays;
import java.util.Objects;

/**
 * A mass–spring body as source 004 builds it: point masses joined by geometrically nonlinear springs
 * {@code f = k·(|xⱼ − xᵢ| − lᵢⱼ)·(xⱼ − xᵢ)/|xⱼ − xᵢ|} (its (3.9)), under gravity, with modal damping
 * {@code Cᵢ = 2·hᵢ·ωᵢ·Mᵢ} (its (3.10)). Nodes may be pinned (held at their rest position). Immutable; SI units,
 * world frame.
 *
 * @param massKg            per node, > 0
 * @param restPositionM     3 per node: where the node is when no spring is stretched (and where a pinned node stays)
 * @param springNodes       2 per spring: the node indices it joins
 * @param stiffnessNpm      per spring, k > 0
 * @param restLengthM       per spring, l ≥ 0 (the distance of its nodes at rest unless given otherwise)
 * @param pinned            per node: held at its rest position
 * @param gravityMps2       3 components
 * @param dampingRatio      h, the same for every mode (source 004 Table 1: 0.005), ≥ 0
 * @param integrator        how the body is stepped
 * @param modes             for {@link Integrator#MODAL_TRUNCATED}: the L' lowest modes kept, 1 ≤ modes ≤ free DOFs;
 *                          ignored by the others
 * @param substeps          steps of the body per step of the world, ≥ 1
 */
public record MassSpringSpec(double[] massKg, double[] restPositionM, int[] springNodes, double[] stiffnessNpm,
                             double[] restLengthM, boolean[] pinned, double[] gravityMps2, double dampingRatio,
                             Integrator integrator, int modes, int substeps) {

    /** Source 004's four ways of stepping the body. */
    public enum Integrator {
        /** Explicit Newmark-β (β = 0, γ = ½) in physical coordinates, damping [c] = φ⁻ᵀ[C]φ⁻¹. */
        NEWMARK,
        /** The same scheme on every modal coordinate (decoupled), forces projected onto the modes each step. */
        MODAL,
        /** MODAL on the {@code modes} lowest modes only (modal truncation): the dropped high modes no longer bound the step. */
        MODAL_TRUNCATED,
        /** Semi-implicit Euler in physical coordinates (velocity first, then position), the same damping. */
        SYMPLECTIC_EULER
    }

    public MassSpringSpec {
        Objects.requireNonNull(integrator, "integrator");
        int n = massKg.length;
        if (n == 0) {
            throw new IllegalArgumentException("a mass-spring body needs at least one node");
        }
        if (restPositionM.length != 3 * n || pinned.length != n) {
            throw new IllegalArgumentException("restPositionM needs 3 and pinned 1 entry per node (" + n + " nodes)");
        }
        int s = stiffnessNpm.length;
        if (springNodes.length != 2 * s || restLengthM.length != s) {
            throw new IllegalArgumentException("springNodes needs 2 and restLengthM 1 entry per spring (" + s
                + " springs)");
        }
        for (int i = 0; i < n; i++) {
            if (!(massKg[i] > 0.0) || !Double.isFinite(massKg[i])) {
                throw new IllegalArgumentException("node " + i + ": massKg must be finite and > 0, was " + massKg[i]);
            }
        }
        for (int k = 0; k < s; k++) {
            int a = springNodes[2 * k];
            int b = springNodes[2 * k + 1];
            if (a < 0 || a >= n || b < 0 || b >= n || a == b) {
                throw new IllegalArgumentException("spring " + k + " joins nodes " + a + " and " + b
                    + ": two different nodes of 0.." + (n - 1) + " needed");
            }
            if (!(stiffnessNpm[k] > 0.0) || !Double.isFinite(stiffnessNpm[k])) {
                throw new IllegalArgumentException("spring " + k + ": stiffnessNpm must be finite and > 0, was "
                    + stiffnessNpm[k]);
            }
            if (!(restLengthM[k] >= 0.0) || !Double.isFinite(restLengthM[k])) {
                throw new IllegalArgumentException("spring " + k + ": restLengthM must be finite and >= 0, was "
                    + restLengthM[k]);
            }
        }
        if (gravityMps2.length != 3) {
            throw new IllegalArgumentException("gravityMps2 needs 3 components");
        }
        if (!(dampingRatio >= 0.0) || !Double.isFinite(dampingRatio)) {
            throw new IllegalArgumentException("dampingRatio must be finite and >= 0, was " + dampingRatio);
        }
        if (substeps < 1) {
            throw new IllegalArgumentException("substeps must be >= 1, was " + substeps);
        }
        massKg = massKg.clone();
        restPositionM = restPositionM.clone();
        springNodes = springNodes.clone();
        stiffnessNpm = stiffnessNpm.clone();
        restLengthM = restLengthM.clone();
        pinned = pinned.clone();
        gravityMps2 = gravityMps2.clone();
    }

    public int nodeCount() {
        return massKg.length;
    }

    public int springCount() {
        return stiffnessNpm.length;
    }

    /** Degrees of freedom that move: three per node that is not pinned. */
    public int freeDofs() {
        int free = 0;
        for (boolean p : pinned) {
            free += p ? 0 : 3;
        }
        return free;
    }

    /** The rest lengths of the springs as the distances of their nodes' rest positions. */
    public static double[] restDistances(double[] restPositionM, int[] springNodes) {
        double[] out = new double[springNodes.length / 2];
        for (int k = 0; k < out.length; k++) {
            int a = 3 * springNodes[2 * k];
            int b = 3 * springNodes[2 * k + 1];
            double dx = restPositionM[b] - restPositionM[a];
            double dy = restPositionM[b + 1] - restPositionM[a + 1];
            double dz = restPositionM[b + 2] - restPositionM[a + 2];
            out[k] = Math.sqrt(dx * dx + dy * dy + dz * dz);
        }
        return out;
    }

    /** The same body stepped another way. */
    public MassSpringSpec withIntegrator(Integrator value, int modeCount) {
        return new MassSpringSpec(massKg, restPositionM, springNodes, stiffnessNpm, restLengthM, pinned, gravityMps2,
            dampingRatio, value, modeCount, substeps);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MassSpringSpec m && Arrays.equals(massKg, m.massKg)
            && Arrays.equals(restPositionM, m.restPositionM) && Arrays.equals(springNodes, m.springNodes)
            && Arrays.equals(stiffnessNpm, m.stiffnessNpm) && Arrays.equals(restLengthM, m.restLengthM)
            && Arrays.equals(pinned, m.pinned) && Arrays.equals(gravityMps2, m.gravityMps2)
            && dampingRatio == m.dampingRatio && integrator == m.integrator && modes == m.modes
            && substeps == m.substeps;
    }

    @Override
    public int hashCode() {
        return Objects.hash(Arrays.hashCode(massKg), Arrays.hashCode(restPositionM), Arrays.hashCode(springNodes),
            integrator, modes, substeps);
    }

    @Override
    public String toString() {
        return "MassSpringSpec[" + nodeCount() + " nodes, " + springCount() + " springs, " + integrator
            + (integrator == Integrator.MODAL_TRUNCATED ? " " + modes + " modes" : "") + "]";
    }
}
