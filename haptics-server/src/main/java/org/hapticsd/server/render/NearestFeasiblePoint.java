package org.hapticsd.server.render;

import org.hapticsd.physics.collision.SphereClearance;
import org.joml.Vector3d;

/**
 * The point nearest a goal {@code g} that satisfies a few half-spaces {@code aᵢ·x ≥ bᵢ} (unit {@code aᵢ}): the
 * god-object's step (Zilles and Salisbury 1995, with up to three active constraints, solved here for any number).
 *
 * <p>The method: the nearest feasible point {@code x*} is {@code g + Σ λᵢ aᵢ} over the half-spaces active there, with
 * every {@code λᵢ ≥ 0} (the projection's optimality conditions), and in three dimensions at most three linearly
 * independent of them are needed (Carathéodory's theorem for cones). So the candidates are the projections of
 * {@code g} onto one plane, onto the line where two meet and onto the point where three meet, each with the
 * multipliers of its equations. A candidate with {@code λ ≥ 0} is the nearest point of the intersection of its own
 * half-spaces; if it also satisfies all the others it is the nearest point of the smaller feasible set too, and
 * therefore the answer. Sets are tried by size, one plane first, and the first such candidate is returned. With
 * {@code m} half-spaces the work is at most {@code m³/6} small solves of {@code m} checks each; the proxy keeps
 * {@code m} at 16 or fewer, and a tool touches one to three in practice.
 *
 * <p>Static, allocation-free.
 */
final class NearestFeasiblePoint {

    /** Gram determinants below this mark planes too nearly parallel to meet usefully. */
    private static final double DEGENERATE = 1e-12;
    /** Multipliers this negative still count as zero (rounding). */
    private static final double MULTIPLIER_SLACK = -1e-12;

    private NearestFeasiblePoint() {
    }

    /**
     * Writes into {@code dest} the point nearest {@code (gx, gy, gz)} that satisfies every half-space of
     * {@code planes} to within {@code toleranceM}.
     *
     * @return false, leaving {@code dest} alone, when no candidate is feasible (the half-spaces have no common point
     *         within the tolerance)
     */
    static boolean solve(SphereClearance planes, double gx, double gy, double gz, double toleranceM, Vector3d dest) {
        int m = planes.count();
        if (feasible(planes, gx, gy, gz, toleranceM)) {
            dest.set(gx, gy, gz);
            return true;
        }
        for (int i = 0; i < m; i++) {
            double ri = residual(planes, i, gx, gy, gz);
            if (ri <= 0.0) {
                continue;
            }
            double x = gx + ri * planes.normalX(i);
            double y = gy + ri * planes.normalY(i);
            double z = gz + ri * planes.normalZ(i);
            if (feasible(planes, x, y, z, toleranceM)) {
                dest.set(x, y, z);
                return true;
            }
        }
        for (int i = 0; i < m; i++) {
            for (int j = i + 1; j < m; j++) {
                double c = dot(planes, i, j);
                double det = 1.0 - c * c;
                if (det < DEGENERATE) {
                    continue;
                }
                double ri = residual(planes, i, gx, gy, gz);
                double rj = residual(planes, j, gx, gy, gz);
                double li = (ri - c * rj) / det;
                double lj = (rj - c * ri) / det;
                if (li < MULTIPLIER_SLACK || lj < MULTIPLIER_SLACK) {
                    continue;
                }
                double x = gx + li * planes.normalX(i) + lj * planes.normalX(j);
                double y = gy + li * planes.normalY(i) + lj * planes.normalY(j);
                double z = gz + li * planes.normalZ(i) + lj * planes.normalZ(j);
                if (feasible(planes, x, y, z, toleranceM)) {
                    dest.set(x, y, z);
                    return true;
                }
            }
        }
        for (int i = 0; i < m; i++) {
            for (int j = i + 1; j < m; j++) {
                for (int k = j + 1; k < m; k++) {
                    if (triple(planes, i, j, k, gx, gy, gz, toleranceM, dest)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /** The candidate of three planes: {@code G·λ = r} by Cramer's rule, G their Gram matrix. */
    private static boolean triple(SphereClearance planes, int i, int j, int k, double gx, double gy, double gz,
                                  double toleranceM, Vector3d dest) {
        double cij = dot(planes, i, j);
        double cik = dot(planes, i, k);
        double cjk = dot(planes, j, k);
        // G = [[1, cij, cik], [cij, 1, cjk], [cik, cjk, 1]]
        double det = 1.0 + 2.0 * cij * cik * cjk - cij * cij - cik * cik - cjk * cjk;
        if (det < DEGENERATE) {
            return false;
        }
        double ri = residual(planes, i, gx, gy, gz);
        double rj = residual(planes, j, gx, gy, gz);
        double rk = residual(planes, k, gx, gy, gz);
        double li = (ri * (1.0 - cjk * cjk) - cij * (rj - cjk * rk) + cik * (rj * cjk - rk)) / det;
        double lj = ((rj - cjk * rk) - cij * (ri - cik * rk) + cik * (ri * cjk - rj * cik)) / det;
        double lk = ((rk - cjk * rj) - cik * (ri - cij * rj) + cij * (ri * cjk - rk * cij)) / det;
        if (li < MULTIPLIER_SLACK || lj < MULTIPLIER_SLACK || lk < MULTIPLIER_SLACK) {
            return false;
        }
        double x = gx + li * planes.normalX(i) + lj * planes.normalX(j) + lk * planes.normalX(k);
        double y = gy + li * planes.normalY(i) + lj * planes.normalY(j) + lk * planes.normalY(k);
        double z = gz + li * planes.normalZ(i) + lj * planes.normalZ(j) + lk * planes.normalZ(k);
        if (!feasible(planes, x, y, z, toleranceM)) {
            return false;
        }
        dest.set(x, y, z);
        return true;
    }

    /** {@code bᵢ − aᵢ·g}: how far the goal is on the wrong side of plane {@code i} (negative: on the right side). */
    private static double residual(SphereClearance planes, int i, double gx, double gy, double gz) {
        return planes.offsetM(i) - (planes.normalX(i) * gx + planes.normalY(i) * gy + planes.normalZ(i) * gz);
    }

    private static double dot(SphereClearance planes, int i, int j) {
        return planes.normalX(i) * planes.normalX(j) + planes.normalY(i) * planes.normalY(j)
            + planes.normalZ(i) * planes.normalZ(j);
    }

    static boolean feasible(SphereClearance planes, double x, double y, double z, double toleranceM) {
        for (int i = 0; i < planes.count(); i++) {
            if (residual(planes, i, x, y, z) > toleranceM) {
                return false;
            }
        }
        return true;
    }
}
