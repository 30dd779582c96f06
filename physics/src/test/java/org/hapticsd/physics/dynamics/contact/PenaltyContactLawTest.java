package org.hapticsd.physics.dynamics.contact;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.joml.Vector3d;
import org.junit.jupiter.api.Test;

class PenaltyContactLawTest {

    /** Products and sums of a few decimal values: relative rounding 1e-16, forces of order 1 N; 1e-12 N margin. */
    private static final double TOLERANCE_N = 1e-12;

    @Test
    void shouldBeSpringPlusDamperWhilePushing() {
        assertEquals(1000.0 * 0.002 + 3.0 * 0.1, PenaltyContactLaw.normalForceN(1000.0, 3.0, 0.002, 0.1),
                TOLERANCE_N);
    }

    @Test
    void shouldClampToZeroInsteadOfPulling() {
        // k·d = 1 N, b·ḋ = -20 N: an unclamped law would pull with 19 N.
        assertEquals(0.0, PenaltyContactLaw.normalForceN(1000.0, 2.0, 0.001, -10.0), 0.0);
    }

    @Test
    void shouldMeasurePenetrationRateAgainstTheNormal() {
        Vector3d normal = new Vector3d(0.0, 0.0, 1.0);
        // A moving down at 0.1 m/s onto B moving up at 0.05 m/s: the depth grows at 0.15 m/s.
        assertEquals(0.15, PenaltyContactLaw.penetrationRateMps(new Vector3d(0.3, 0.0, -0.1),
                new Vector3d(0.0, 0.0, 0.05), normal), 1e-15, "1e-15 m/s: two roundings of 0.1-scale values");
    }

    @Test
    void shouldStickWithSpringForceWhileWithinTheBound() {
        Vector3d normal = new Vector3d(0, 0, 1);
        Vector3d stick = new Vector3d(0.001, 0.0, 0.0);
        Vector3d forceN = new Vector3d();
        // s ← s + v_t·Δt = (0.001 + 0.1·0.001, 0, 0); f = −(k·s + b·v_t) = −(1000·0.0011 + 2·0.1) = −1.3 N.
        PenaltyContactLaw.stickSlipFrictionN(1000.0, 2.0, 0.001, 5.0, normal, new Vector3d(0.1, 0, 0), stick,
                forceN);
        assertEquals(-1.3, forceN.x, TOLERANCE_N);
        assertEquals(0.0011, stick.x, 1e-15, "the stick point stays put: the spring stretches");
    }

    @Test
    void shouldSlipAtTheBoundAndDragTheStickPointAlong() {
        Vector3d normal = new Vector3d(0, 0, 1);
        Vector3d stick = new Vector3d(0.0, 0.004, 0.0);
        Vector3d forceN = new Vector3d();
        // Spring alone would give 1000·0.004 = 4 N; the bound is 1.5 N: slip, force 1.5 N against the stretch, and
        // the stick point moves so that the spring alone gives the bound: s = 1.5/1000.
        PenaltyContactLaw.stickSlipFrictionN(1000.0, 0.0, 0.001, 1.5, normal, new Vector3d(), stick, forceN);
        assertEquals(-1.5, forceN.y, TOLERANCE_N);
        assertEquals(0.0015, stick.y, 1e-15);
    }

    @Test
    void shouldDropTheNormalPartOfTheStretchWhenTheNormalTurns() {
        // A stretch left along z by a normal that has since turned to z contributes nothing.
        Vector3d stick = new Vector3d(0.001, 0.0, 0.002);
        Vector3d forceN = new Vector3d();
        PenaltyContactLaw.stickSlipFrictionN(1000.0, 0.0, 0.001, 10.0, new Vector3d(0, 0, 1), new Vector3d(), stick,
                forceN);
        assertEquals(0.0, stick.z, 0.0);
        assertEquals(-1.0, forceN.x, TOLERANCE_N);
        assertEquals(0.0, forceN.z, 0.0);
    }

    @Test
    void shouldGiveNoFrictionAndForgetTheStretchWithoutABound() {
        Vector3d stick = new Vector3d(0.001, 0.002, 0.0);
        Vector3d forceN = new Vector3d(9, 9, 9);
        PenaltyContactLaw.stickSlipFrictionN(1000.0, 1.0, 0.001, 0.0, new Vector3d(0, 0, 1), new Vector3d(1, 0, 0),
                stick, forceN);
        assertEquals(new Vector3d(), forceN);
        assertEquals(new Vector3d(), stick);
    }
}
