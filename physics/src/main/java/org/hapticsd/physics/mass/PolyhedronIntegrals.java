package org.hapticsd.physics.mass;

/**
 * Volume, first and second moments of a closed, outward-wound triangulated surface, summed over the signed
 * tetrahedra that join a reference point to each triangle (divergence theorem: the signed tetrahedra of a closed
 * surface cover its inside once and cancel outside).
 *
 * <p>Each tetrahedron's integrals are exact. With the reference point at the origin and corners {@code a, b, c},
 * {@code D = a · (b × c)} (six times the signed volume) and {@code s = a + b + c}:
 * <pre>
 *   ∫ dV       = D / 6
 *   ∫ r dV     = D / 24 · s
 *   ∫ r rᵀ dV  = D / 120 · (a aᵀ + b bᵀ + c cᵀ + s sᵀ)
 * </pre>
 * the last being the canonical tetrahedron's covariance {@code (E + 1 1ᵀ)/120} mapped by {@code [a b c]} (Blow &amp;
 * Binstock, "How to find the inertia tensor (or other mass properties) of a 3D solid body represented by a triangle
 * mesh", 2004; written out entry by entry in Tonon, "Explicit exact formulas for the 3-D tetrahedron inertia tensor
 * in terms of its vertex coordinates", J. Math. Stat. 1(1), 2005).
 *
 * <p>The exact integrals were chosen over the lumped approximation of the rigid-body lecture notes (seed 003: each
 * tetrahedron's mass at its centroid), because lumping drops every tetrahedron's own second moment about its
 * centroid: it underestimates the inertia by a fraction that does not vanish as the mesh is refined around a fixed
 * reference point: the tetrahedra of a fan stay as long as the body however fine the mesh. For a ball meshed from
 * its centre the lumped {@code ∫ |r|² dm} tends to {@code (3R/4)² M = 0.5625 M R²} instead of {@code 0.6 M R²}, 6 %
 * low at any resolution, and a meshed box does not match the analytic box. The exact sum costs a handful of
 * multiplications more per triangle, once per shape.
 *
 * <p>Coordinates are taken relative to a reference point near the body (the caller passes the mean of the
 * vertices): the determinant {@code D} then cancels far less than it would for a body far from the origin.
 */
final class PolyhedronIntegrals {

    private final double refX;
    private final double refY;
    private final double refZ;
    private double sixVolume;
    private double firstX;
    private double firstY;
    private double firstZ;
    private double xx;
    private double yy;
    private double zz;
    private double xy;
    private double xz;
    private double yz;

    PolyhedronIntegrals(double refXM, double refYM, double refZM) {
        this.refX = refXM;
        this.refY = refYM;
        this.refZ = refZM;
    }

    /** Adds the tetrahedron from the reference point to the triangle {@code a, b, c} (counter-clockwise outside). */
    void addTriangle(double ax, double ay, double az, double bx, double by, double bz,
                     double cx, double cy, double cz) {
        ax -= refX;
        ay -= refY;
        az -= refZ;
        bx -= refX;
        by -= refY;
        bz -= refZ;
        cx -= refX;
        cy -= refY;
        cz -= refZ;
        double d = ax * (by * cz - bz * cy) + ay * (bz * cx - bx * cz) + az * (bx * cy - by * cx);
        double sx = ax + bx + cx;
        double sy = ay + by + cy;
        double sz = az + bz + cz;
        sixVolume += d;
        firstX += d * sx;
        firstY += d * sy;
        firstZ += d * sz;
        xx += d * (ax * ax + bx * bx + cx * cx + sx * sx);
        yy += d * (ay * ay + by * by + cy * cy + sy * sy);
        zz += d * (az * az + bz * bz + cz * cz + sz * sz);
        xy += d * (ax * ay + bx * by + cx * cy + sx * sy);
        xz += d * (ax * az + bx * bz + cx * cz + sx * sz);
        yz += d * (ay * az + by * bz + cy * cz + sy * sz);
    }

    double volumeM3() {
        return sixVolume / 6.0;
    }

    /**
     * The mass properties at {@code densityKgPerM3}: centre {@code g = ∫ r dV / V}, second moment moved to the centre
     * by {@code C_g = C − V g gᵀ} (parallel-axis theorem), tensor {@code I = ρ (tr(C_g) E − C_g)}.
     */
    MassProperties toMassProperties(double densityKgPerM3) {
        double volume = sixVolume / 6.0;
        double gx = firstX / 24.0 / volume;
        double gy = firstY / 24.0 / volume;
        double gz = firstZ / 24.0 / volume;
        double cxx = xx / 120.0 - volume * gx * gx;
        double cyy = yy / 120.0 - volume * gy * gy;
        double czz = zz / 120.0 - volume * gz * gz;
        double cxy = xy / 120.0 - volume * gx * gy;
        double cxz = xz / 120.0 - volume * gx * gz;
        double cyz = yz / 120.0 - volume * gy * gz;
        double rho = densityKgPerM3;
        return new MassProperties(rho * volume, refX + gx, refY + gy, refZ + gz,
            rho * (cyy + czz), rho * (cxx + czz), rho * (cxx + cyy), -rho * cxy, -rho * cxz, -rho * cyz);
    }
}
