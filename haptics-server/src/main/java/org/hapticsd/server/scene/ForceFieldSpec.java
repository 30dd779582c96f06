package org.hapticsd.server.scene;

/**
 * {@code forceField}: a velocity-dependent force on the hand, {@code F = B·v} (render.ForceField). Give exactly one of
 * {@code dampingNspm} (a viscous field, {@code B = −b·I}) and {@code matrixNspm} (B by rows, N·s/m: a curl field,
 * an anisotropic damping).
 */
public final class ForceFieldSpec extends Located {
    private double dampingNspm = Double.NaN;
    private double[][] matrixNspm;

    public void setDampingNspm(double value) {
        this.dampingNspm = Check.nonNegative("dampingNspm", value);
    }

    /** Three rows of three numbers: row i gives F_i = Σ_j B_ij·v_j. */
    public void setMatrixNspm(double[][] value) {
        if (value == null || value.length != 3) {
            throw new IllegalArgumentException("matrixNspm must be three rows [[Bxx, Bxy, Bxz], [Byx, Byy, Byz], "
                + "[Bzx, Bzy, Bzz]], N·s/m");
        }
        for (int i = 0; i < 3; i++) {
            if (value[i] == null || value[i].length != 3) {
                throw new IllegalArgumentException("matrixNspm row " + i + " must have three numbers, N·s/m");
            }
            for (double v : value[i]) {
                if (!Double.isFinite(v)) {
                    throw new IllegalArgumentException("matrixNspm row " + i + " must be finite");
                }
            }
        }
        this.matrixNspm = new double[][] {value[0].clone(), value[1].clone(), value[2].clone()};
    }

    double dampingNspm() {
        return dampingNspm;
    }

    double[][] matrixNspm() {
        return matrixNspm;
    }
}
