package org.hapticsd.physics.deformable;

/**
 * A taut chain along x: two pinned ends 1.05 m apart and 20 masses of 10 g between them, 5 cm apart, joined by
 * springs of 2000 N/m with a rest length of 4 cm (tension 20 N); gravity along −z, damping ratio 0.05.
 */
final class TautChain {
    static final int FREE = 20;
    static final double SPACING_M = 0.05;

    private TautChain() {
    }

    static MassSpringSpec spec(MassSpringSpec.Integrator integrator, int modes) {
        int n = FREE + 2;
        double[] mass = new double[n];
        double[] rest = new double[3 * n];
        boolean[] pinned = new boolean[n];
        for (int i = 0; i < n; i++) {
            mass[i] = 0.01;
            rest[3 * i] = i * SPACING_M;
        }
        pinned[0] = true;
        pinned[n - 1] = true;
        int[] springs = new int[2 * (n - 1)];
        double[] k = new double[n - 1];
        double[] l = new double[n - 1];
        for (int s = 0; s < n - 1; s++) {
            springs[2 * s] = s;
            springs[2 * s + 1] = s + 1;
            k[s] = 2000.0;
            l[s] = 0.04;
        }
        return new MassSpringSpec(mass, rest, springs, k, l, pinned, new double[] {0, 0, -9.8}, 0.05, integrator,
            modes, 1);
    }
}
