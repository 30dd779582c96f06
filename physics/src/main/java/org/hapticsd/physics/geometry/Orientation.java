package org.hapticsd.physics.geometry;

import java.math.BigDecimal;

/**
 * The exact sign of the orientation of four points, for decisions whose consistency keeps a construction
 * topologically valid (which faces of a hull a new point sees).
 *
 * <p>The determinant is evaluated in doubles and trusted when it exceeds Shewchuk's forward error bound for exactly
 * this evaluation order ("Adaptive Precision Floating-Point Arithmetic and Fast Robust Geometric Predicates",
 * Discrete Comput. Geom. 18, 1997, §4.2: {@code |det − det_exact| ≤ (7 + 56ε) ε · permanent}, ε = 2⁻⁵³); only the
 * nearly degenerate remainder is recomputed exactly in {@link BigDecimal}, where differences and products of doubles
 * are exact. Shewchuk's further adaptive stages would make that remainder faster; it is rare and only occurs while
 * a scene is built, so the simple exact fallback was preferred.
 */
final class Orientation {

    private static final double EPSILON = 0x1p-53;
    private static final double ERROR_BOUND = (7.0 + 56.0 * EPSILON) * EPSILON;

    private Orientation() {
    }

    /**
     * The sign (−1, 0 or +1) of {@code (e − a) · ((b − a) × (c − a))} for points {@code a, b, c, e} given by their
     * index into {@code p} (x, y, z triples): +1 when {@code e} lies strictly on the side that the counter-clockwise
     * triangle {@code a, b, c} faces, 0 when the four points are exactly coplanar.
     */
    static int sideOfTriangle(double[] p, int a, int b, int c, int e) {
        // Shewchuk's orient3d(a, b, c, e) with differences taken relative to e; it is positive when e lies on the
        // side opposite the triangle's normal, hence the sign change.
        double adx = p[3 * a] - p[3 * e];
        double bdx = p[3 * b] - p[3 * e];
        double cdx = p[3 * c] - p[3 * e];
        double ady = p[3 * a + 1] - p[3 * e + 1];
        double bdy = p[3 * b + 1] - p[3 * e + 1];
        double cdy = p[3 * c + 1] - p[3 * e + 1];
        double adz = p[3 * a + 2] - p[3 * e + 2];
        double bdz = p[3 * b + 2] - p[3 * e + 2];
        double cdz = p[3 * c + 2] - p[3 * e + 2];
        double bdxcdy = bdx * cdy;
        double cdxbdy = cdx * bdy;
        double cdxady = cdx * ady;
        double adxcdy = adx * cdy;
        double adxbdy = adx * bdy;
        double bdxady = bdx * ady;
        double det = adz * (bdxcdy - cdxbdy) + bdz * (cdxady - adxcdy) + cdz * (adxbdy - bdxady);
        double permanent = (Math.abs(bdxcdy) + Math.abs(cdxbdy)) * Math.abs(adz)
            + (Math.abs(cdxady) + Math.abs(adxcdy)) * Math.abs(bdz)
            + (Math.abs(adxbdy) + Math.abs(bdxady)) * Math.abs(cdz);
        double bound = ERROR_BOUND * permanent;
        if (det > bound) {
            return -1;
        }
        if (-det > bound) {
            return 1;
        }
        return -exactSign(p, a, b, c, e);
    }

    /**
     * The normal {@code (b − a) × (c − a)} computed exactly and rounded once per component: accurate to 1 ulp per
     * component however thin the triangle, where the double evaluation loses all digits as the triangle degenerates.
     * Components are scaled by a power of two when needed so that the rounded vector neither overflows nor
     * underflows; only its direction is meant to be used.
     */
    static double[] exactNormal(double[] p, int a, int b, int c) {
        BigDecimal[] u = difference(p, b, a);
        BigDecimal[] v = difference(p, c, a);
        BigDecimal nx = u[1].multiply(v[2]).subtract(u[2].multiply(v[1]));
        BigDecimal ny = u[2].multiply(v[0]).subtract(u[0].multiply(v[2]));
        BigDecimal nz = u[0].multiply(v[1]).subtract(u[1].multiply(v[0]));
        BigDecimal largest = nx.abs().max(ny.abs()).max(nz.abs());
        if (largest.signum() == 0) {
            return new double[] {0.0, 0.0, 0.0};
        }
        // Scale the largest component to about 1 with an exact power-of-two factor: a product of two coordinate
        // differences can underflow a double when the differences are tiny.
        int exponent = Math.getExponent(largest.doubleValue());
        BigDecimal scale = exponent >= 0 ? BigDecimal.ONE.divide(new BigDecimal(Math.scalb(1.0, exponent)))
            : new BigDecimal(Math.scalb(1.0, -exponent));
        return new double[] {
            nx.multiply(scale).doubleValue(), ny.multiply(scale).doubleValue(), nz.multiply(scale).doubleValue()
        };
    }

    private static int exactSign(double[] p, int a, int b, int c, int e) {
        BigDecimal[] ad = difference(p, a, e);
        BigDecimal[] bd = difference(p, b, e);
        BigDecimal[] cd = difference(p, c, e);
        BigDecimal det = ad[2].multiply(bd[0].multiply(cd[1]).subtract(cd[0].multiply(bd[1])))
            .add(bd[2].multiply(cd[0].multiply(ad[1]).subtract(ad[0].multiply(cd[1]))))
            .add(cd[2].multiply(ad[0].multiply(bd[1]).subtract(bd[0].multiply(ad[1]))));
        return det.signum();
    }

    private static BigDecimal[] difference(double[] p, int i, int j) {
        return new BigDecimal[] {
            new BigDecimal(p[3 * i]).subtract(new BigDecimal(p[3 * j])),
            new BigDecimal(p[3 * i + 1]).subtract(new BigDecimal(p[3 * j + 1])),
            new BigDecimal(p[3 * i + 2]).subtract(new BigDecimal(p[3 * j + 2]))
        };
    }
}
