package org.hapticsd.physics.dynamics;

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
}
