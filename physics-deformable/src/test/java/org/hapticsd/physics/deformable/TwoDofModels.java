package org.hapticsd.physics.deformable;

/** Source 004's verification model (its Fig. 4, Table 1): a support, spring k₁, mass m₁, spring k₂, mass m₂, hanging. */
final class TwoDofModels {
    static final double M_KG = 10.0;
    static final double K1_NPM = 3000.0;
    static final double K2_NPM = 2000.0;
    static final double H = 0.005;
    static final double DT_S = 1e-4;
    static final double G_MPS2 = 9.8;
    /** Each spring's rest length: any length works along the axis; 1 m keeps the springs far from inverting. */
    static final double L_M = 1.0;

    private TwoDofModels() {
    }

    /** Nodes: 0 the support (pinned) at the origin, 1 and 2 below it at the springs' rest lengths; z up. */
    static MassSpringSpec table1(MassSpringSpec.Integrator integrator, double dampingRatio) {
        double[] rest = {0, 0, 0, 0, 0, -L_M, 0, 0, -2 * L_M};
        return new MassSpringSpec(new double[] {1.0, M_KG, M_KG}, rest, new int[] {0, 1, 1, 2},
            new double[] {K1_NPM, K2_NPM}, new double[] {L_M, L_M}, new boolean[] {true, false, false},
            new double[] {0, 0, -G_MPS2}, dampingRatio, integrator, 6, 1);
    }
}
