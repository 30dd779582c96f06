package org.hapticsd.physics.collision;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.joml.Quaterniond;
import org.joml.Vector3d;
import org.junit.jupiter.api.Test;

/**
 * Kernel-level properties that the world cannot show: signed (negative) gaps, aliasing of destinations and the
 * degenerate sphere–sphere case. The contact cases themselves are tested through the world.
 */
class SphereContactsTest {

    /** Centimetre-scale inputs through a rotation and a square root: rounding below 1e-15 m; margin to 1e-12. */
    private static final double TOLERANCE_M = 1e-12;

    @Test
    void shouldReturnNegativeGapWhenSphereIsAbovePlane() {
        Vector3d pointM = new Vector3d();
        Vector3d normal = new Vector3d();
        double depthM = SphereContacts.sphereVsPlane(new Vector3d(0.0, 0.0, 0.05), 0.01,
                new Vector3d(), new Quaterniond(), new Vector3d(0.0, 0.0, 1.0), pointM, normal);
        assertEquals(-0.04, depthM, TOLERANCE_M);
    }

    @Test
    void shouldGiveSameBoxContactWhenDestinationAliasesTheCentre() {
        Quaterniond orientation = new Quaterniond().rotationAxis(0.4, 0.0, 1.0, 1.0);
        Vector3d boxPositionM = new Vector3d(0.1, 0.0, -0.1);
        Vector3d centreM = new Vector3d(0.18, 0.07, -0.02);
        Vector3d pointM = new Vector3d();
        Vector3d normal = new Vector3d();
        double depthM = SphereContacts.sphereVsBox(centreM, 0.05, boxPositionM, orientation, 0.06, 0.04, 0.05,
                pointM, normal);

        Vector3d aliased = new Vector3d(centreM);
        Vector3d aliasedNormal = new Vector3d();
        double aliasedDepthM = SphereContacts.sphereVsBox(aliased, 0.05, boxPositionM, orientation, 0.06, 0.04, 0.05,
                aliased, aliasedNormal);

        // Same operations on the same values: bit-identical, tolerance 0.
        assertEquals(depthM, aliasedDepthM, 0.0);
        assertEquals(pointM, aliased);
        assertEquals(normal, aliasedNormal);
    }

    @Test
    void shouldGiveSamePlaneContactWhenDestinationAliasesTheCentre() {
        Quaterniond orientation = new Quaterniond().rotationAxis(0.3, 1.0, 0.0, 0.0);
        Vector3d centreM = new Vector3d(0.01, 0.02, 0.004);
        Vector3d pointM = new Vector3d();
        Vector3d normal = new Vector3d();
        double depthM = SphereContacts.sphereVsPlane(centreM, 0.01, new Vector3d(), orientation,
                new Vector3d(0.0, 0.0, 1.0), pointM, normal);
        Vector3d aliasedNormal = new Vector3d(centreM);
        Vector3d aliasedPointM = new Vector3d();
        double aliasedDepthM = SphereContacts.sphereVsPlane(aliasedNormal, 0.01, new Vector3d(), orientation,
                new Vector3d(0.0, 0.0, 1.0), aliasedPointM, aliasedNormal);
        assertEquals(depthM, aliasedDepthM, 0.0);
        assertEquals(pointM, aliasedPointM);
        assertEquals(normal, aliasedNormal);
    }

    @Test
    void shouldPushAlongPlusZWhenSphereCentresCoincide() {
        Vector3d pointM = new Vector3d();
        Vector3d normal = new Vector3d();
        double depthM = SphereContacts.sphereVsSphere(new Vector3d(0.5, 0.5, 0.5), 0.01,
                new Vector3d(0.5, 0.5, 0.5), 0.02, pointM, normal);
        assertEquals(0.03, depthM, TOLERANCE_M);
        assertEquals(new Vector3d(0.0, 0.0, 1.0), normal);
        assertEquals(0.52, pointM.z, TOLERANCE_M);
    }

    @Test
    void shouldExitThinSlabThroughNearestFaceNotAwayFromItsCentre() {
        // A centre inside a 1 m × 1 m × 2 cm slab, far off-centre in x: pushing away from the box centre would
        // exit through the far x face; the least-penetration face is +z, 4 mm away.
        Vector3d pointM = new Vector3d();
        Vector3d normal = new Vector3d();
        double depthM = SphereContacts.sphereVsBox(new Vector3d(0.4, 0.0, 0.006), 0.01, new Vector3d(),
                new Quaterniond(), 0.5, 0.5, 0.01, pointM, normal);
        assertEquals(0.014, depthM, TOLERANCE_M);
        assertEquals(1.0, normal.z, TOLERANCE_M);
        assertEquals(0.01, pointM.z, TOLERANCE_M);
        assertEquals(0.4, pointM.x, TOLERANCE_M);
    }
}
