package org.hapticsd.physics.deformable;

import java.util.ArrayList;
import java.util.List;

/**
 * The cloth: 20 × 20 nodes 2 cm apart, horizontal at z = 0, structural and shear springs, pinned at the two
 * corners of its first row, under gravity.
 */
final class ClothModels {
    static final int SIDE = 20;
    static final double SPACING_M = 0.02;

    private ClothModels() {
    }

    static MassSpringSpec cloth(MassSpringSpec.Integrator integrator, int modes, double massKg, double stiffnessNpm,
                                double dampingRatio) {
        return cloth(SIDE, integrator, modes, massKg, stiffnessNpm, dampingRatio);
    }

    /** The same cloth with {@code side} × {@code side} nodes, 2 cm apart. */
    static MassSpringSpec cloth(int side, MassSpringSpec.Integrator integrator, int modes, double massKg,
                                double stiffnessNpm, double dampingRatio) {
        int n = side * side;
        double[] mass = new double[n];
        double[] rest = new double[3 * n];
        boolean[] pinned = new boolean[n];
        for (int r = 0; r < side; r++) {
            for (int c = 0; c < side; c++) {
                int i = r * side + c;
                mass[i] = massKg;
                rest[3 * i] = c * SPACING_M;
                rest[3 * i + 1] = -r * SPACING_M;
            }
        }
        pinned[0] = true;
        pinned[side - 1] = true;
        List<int[]> springs = new ArrayList<>();
        for (int r = 0; r < side; r++) {
            for (int c = 0; c < side; c++) {
                int i = r * side + c;
                if (c + 1 < side) {
                    springs.add(new int[] {i, i + 1});
                }
                if (r + 1 < side) {
                    springs.add(new int[] {i, i + side});
                }
                if (r + 1 < side && c + 1 < side) {
                    springs.add(new int[] {i, i + side + 1});
                }
                if (r + 1 < side && c > 0) {
                    springs.add(new int[] {i, i + side - 1});
                }
            }
        }
        int[] ends = new int[2 * springs.size()];
        double[] k = new double[springs.size()];
        for (int s = 0; s < springs.size(); s++) {
            ends[2 * s] = springs.get(s)[0];
            ends[2 * s + 1] = springs.get(s)[1];
            k[s] = stiffnessNpm;
        }
        return new MassSpringSpec(mass, rest, ends, k, MassSpringSpec.restDistances(rest, ends), pinned,
            new double[] {0, 0, -9.8}, dampingRatio, integrator, modes, 1);
    }
}
