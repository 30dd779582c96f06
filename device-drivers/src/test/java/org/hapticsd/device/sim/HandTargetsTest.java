package org.hapticsd.device.sim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** Fixed and external targets only copy values, so they must come back bit for bit (tolerance 0). */
class HandTargetsTest {

    @Test
    void shouldReturnFixedPointAtAnyTime() {
        FixedHandTarget target = new FixedHandTarget(0.01, -0.02, 0.03);
        double[] out = new double[3];
        target.targetAt(0.0, out);
        assertArrayEquals(new double[] {0.01, -0.02, 0.03}, out, 0.0);
        target.targetAt(1e6, out);
        assertArrayEquals(new double[] {0.01, -0.02, 0.03}, out, 0.0);
    }

    @Test
    void shouldReturnLatestExternallySetPoint() {
        ExternalHandTarget target = new ExternalHandTarget();
        double[] out = new double[3];
        target.targetAt(0.0, out);
        assertArrayEquals(new double[] {0.0, 0.0, 0.0}, out, 0.0);

        target.set(0.04, 0.05, -0.06);
        target.targetAt(3.0, out);
        assertArrayEquals(new double[] {0.04, 0.05, -0.06}, out, 0.0);
    }

    @Test
    void shouldRejectNonFiniteExternalPointAndKeepThePreviousOne() {
        ExternalHandTarget target = new ExternalHandTarget(0.01, 0.0, 0.0);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> target.set(Double.NaN, 0.0, 0.0));
        assertEquals("hand target must be finite, got (NaN, 0.0, 0.0)", e.getMessage());
        assertEquals(0.01, target.xM(), 0.0);
    }

    @Test
    void shouldRejectNonFiniteFixedPoint() {
        assertThrows(IllegalArgumentException.class,
                () -> new FixedHandTarget(0.0, Double.POSITIVE_INFINITY, 0.0));
    }
}
