package org.hapticsd.physics;

/** Tolerances shared by the world-level tests, with the reasoning written once. */
final class Tolerances {

    /**
     * Positions and depths: inputs are centimetre to decimetre scale, and each result passes through at most a
     * quaternion rotation (about 20 roundings of values below 1, each at most 1.1e-16 relative), a square root
     * and a few sums, so the error is below 1e-15 m. 1e-12 m leaves a thousandfold margin and is still a
     * million times finer than the micrometre a haptic device resolves.
     */
    static final double LENGTH_M = 1e-12;

    /** Unit normals: the same reasoning on dimensionless components of size at most 1. */
    static final double DIRECTION = 1e-12;

    /**
     * Relative error of a force {@code k·d} with {@code k} of order 1e3 N/m: one product (1.1e-16 relative) and
     * the length of a unit normal (a few ulps); 1e-12 relative is the bound the server's end-to-end test uses.
     */
    static final double FORCE_RELATIVE = 1e-12;

    private Tolerances() {
    }
}
