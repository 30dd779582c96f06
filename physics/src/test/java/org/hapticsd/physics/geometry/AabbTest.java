package org.hapticsd.physics.geometry;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.joml.Quaterniond;
import org.joml.Vector3d;
import org.junit.jupiter.api.Test;

class AabbTest {

    /**
     * Rotated bounds pass through the quaternion-to-matrix products (about ten roundings of values below 1, each
     * at most 1.1e-16 relative) and JOML's sin/cos of the half angle (within 1 ulp): error below 1e-15 m. 1e-12 m
     * leaves margin and is still a million times below a micrometre.
     */
    private static final double TOLERANCE_M = 1e-12;

    @Test
    void shouldBoundSphereByItsRadiusOnEveryAxis() {
        double[] boundsM = new double[2 * Aabb.STRIDE];
        Aabb.ofSphere(new Vector3d(1.0, -2.0, 0.5), 0.25, boundsM, 1);
        // Dyadic inputs: every sum is exact, so the tolerance is zero.
        assertArrayEquals(new double[] {0.75, -2.25, 0.25, 1.25, -1.75, 0.75},
                java.util.Arrays.copyOfRange(boundsM, Aabb.STRIDE, 2 * Aabb.STRIDE), 0.0);
    }

    @Test
    void shouldBoundBoxTurnedAboutZByItsProjectedExtents() {
        double[] boundsM = new double[Aabb.STRIDE];
        double angle = Math.PI / 4.0;
        Aabb.ofOrientedBox(new Vector3d(0.1, 0.2, 0.3), new Quaterniond().rotationZ(angle), 0.2, 0.1, 0.05,
                boundsM, 0);
        // Turned 45° about z, the x and y extents are (hx + hy)·cos 45°; z is unchanged.
        double extentXYM = (0.2 + 0.1) * Math.cos(angle);
        assertArrayEquals(new double[] {0.1 - extentXYM, 0.2 - extentXYM, 0.25, 0.1 + extentXYM, 0.2 + extentXYM,
                0.35}, boundsM, TOLERANCE_M);
    }

    @Test
    void shouldBoundBoxTurnedAboutSeveralAxesByTheHullOfItsCorners() {
        double[] boundsM = new double[Aabb.STRIDE];
        Quaterniond orientation = new Quaterniond().rotationAxis(0.7, 1.0, 2.0, 3.0);
        double hx = 0.3;
        double hy = 0.2;
        double hz = 0.1;
        Aabb.ofOrientedBox(new Vector3d(), orientation, hx, hy, hz, boundsM, 0);
        // Independent reference: the extremes of the eight turned corners.
        double[] expected = {Double.MAX_VALUE, Double.MAX_VALUE, Double.MAX_VALUE,
            -Double.MAX_VALUE, -Double.MAX_VALUE, -Double.MAX_VALUE};
        Vector3d corner = new Vector3d();
        for (int i = 0; i < 8; i++) {
            orientation.transform((i & 1) == 0 ? -hx : hx, (i & 2) == 0 ? -hy : hy, (i & 4) == 0 ? -hz : hz, corner);
            for (int axis = 0; axis < 3; axis++) {
                expected[axis] = Math.min(expected[axis], corner.get(axis));
                expected[axis + 3] = Math.max(expected[axis + 3], corner.get(axis));
            }
        }
        assertArrayEquals(expected, boundsM, TOLERANCE_M);
    }

    @Test
    void shouldOverlapUnboundedShapeWithFarAwayBounds() {
        double[] boundsM = new double[2 * Aabb.STRIDE];
        Aabb.unbounded(boundsM, 0);
        Aabb.ofSphere(new Vector3d(1e6, -1e6, 1e6), 0.01, boundsM, 1);
        assertTrue(Aabb.overlap(boundsM, 0, 1));
        assertTrue(Aabb.overlap(boundsM, 1, 0));
    }

    @Test
    void shouldCountTouchingBoundsAsOverlapAndSeparatedOnOneAxisAsNot() {
        double[] boundsM = new double[3 * Aabb.STRIDE];
        Aabb.ofSphere(new Vector3d(0.0, 0.0, 0.0), 0.5, boundsM, 0);
        Aabb.ofSphere(new Vector3d(1.0, 0.0, 0.0), 0.5, boundsM, 1);
        Aabb.ofSphere(new Vector3d(0.0, 0.0, 1.0 + 0x1p-40), 0.5, boundsM, 2);
        assertTrue(Aabb.overlap(boundsM, 0, 1), "faces touching at x = 0.5 must stay a candidate");
        assertFalse(Aabb.overlap(boundsM, 0, 2), "a gap of 2^-40 m on z alone must separate");
    }
}
