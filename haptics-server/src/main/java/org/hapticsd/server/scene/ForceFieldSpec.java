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

    /**
     * Three rows of three numbers: row i gives F_i = Σ_j B_ij·v_j. Read as whatever the file has, so that text or a
     * mapping where the rows belong gets this message rather than one about Java types.
     */
    public void setMatrixNspm(Object value) {
        String shape = "matrixNspm must be three rows [[Bxx, Bxy, Bxz], [Byx, Byy, Byz], [Bzx, Bzy, Bzz]], N·s/m";
        if (!(value instanceof java.util.List<?> rows) || rows.size() != 3) {
            throw new IllegalArgumentException(shape);
        }
        double[][] matrix = new double[3][3];
        for (int i = 0; i < 3; i++) {
            if (!(rows.get(i) instanceof java.util.List<?> row) || row.size() != 3) {
                throw new IllegalArgumentException("matrixNspm row " + i + " must have three numbers, N·s/m");
            }
            for (int j = 0; j < 3; j++) {
                if (!(row.get(j) instanceof Number n) || !Double.isFinite(n.doubleValue())) {
                    throw new IllegalArgumentException("matrixNspm row " + i + " must be three finite numbers, got "
                        + row);
                }
                matrix[i][j] = n.doubleValue();
            }
        }
        this.matrixNspm = matrix;
    }

    double dampingNspm() {
        return dampingNspm;
    }

    double[][] matrixNspm() {
        return matrixNspm;
    }
}
