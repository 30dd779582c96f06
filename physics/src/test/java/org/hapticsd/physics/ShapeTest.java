package org.hapticsd.physics;

import static org.hapticsd.physics.PenaltyContactSettingsTest.assertMessage;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.joml.Vector3d;
import org.junit.jupiter.api.Test;

class ShapeTest {

    @Test
    void shouldRejectNonPositiveOrNonFiniteSizesNamingFieldAndValue() {
        assertMessage("radiusM", "0.0", () -> new SphereShape(0.0));
        assertMessage("radiusM", "NaN", () -> new SphereShape(Double.NaN));
        assertMessage("halfXM", "-0.1", () -> new BoxShape(-0.1, 0.1, 0.1));
        assertMessage("halfYM", "0.0", () -> new BoxShape(0.1, 0.0, 0.1));
        assertMessage("halfZM", "Infinity", () -> new BoxShape(0.1, 0.1, Double.POSITIVE_INFINITY));
    }

    @Test
    void shouldRejectZeroOrNonFiniteNormal() {
        assertMessage("normal", "(0.0, 0.0, 0.0)", () -> new PlaneShape(new Vector3d()));
        assertMessage("normal", "NaN", () -> new PlaneShape(new Vector3d(0.0, Double.NaN, 1.0)));
        assertMessage("normal", "null", () -> new PlaneShape(null));
    }

    @Test
    void shouldNormaliseACopyOfThePlaneNormal() {
        Vector3d given = new Vector3d(0.0, 3.0, 4.0);
        PlaneShape plane = new PlaneShape(given);
        given.set(1.0, 0.0, 0.0);
        // |(0, 3, 4)| = 5 exactly and each component is one correctly rounded quotient, so the result is the
        // double nearest 0.6 and 0.8: tolerance 0.
        assertEquals(0.0, plane.normal().x(), 0.0);
        assertEquals(0.6, plane.normal().y(), 0.0);
        assertEquals(0.8, plane.normal().z(), 0.0);
    }
}
