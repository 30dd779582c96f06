package org.hapticsd.physics.geometry;

/** Geometry on points stored flat as x, y, z triples in a {@code double[]}, shared by the hull builders. */
final class PointArrays {
    private PointArrays() {
    }

    /** Distance of point {@code point} from the line through points {@code a} and {@code b}: |u × w| / |u|. */
    static double distanceToLine(double[] p, int a, int b, int point) {
        double ux = p[3 * b] - p[3 * a];
        double uy = p[3 * b + 1] - p[3 * a + 1];
        double uz = p[3 * b + 2] - p[3 * a + 2];
        double wx = p[3 * point] - p[3 * a];
        double wy = p[3 * point + 1] - p[3 * a + 1];
        double wz = p[3 * point + 2] - p[3 * a + 2];
        double cx = uy * wz - uz * wy;
        double cy = uz * wx - ux * wz;
        double cz = ux * wy - uy * wx;
        return Math.sqrt((cx * cx + cy * cy + cz * cz) / (ux * ux + uy * uy + uz * uz));
    }
}
