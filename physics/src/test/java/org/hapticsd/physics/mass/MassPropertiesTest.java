package org.hapticsd.physics.mass;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.joml.Matrix3d;
import org.joml.Vector3d;
import org.junit.jupiter.api.Test;

class MassPropertiesTest {

    @Test
    void shouldWriteSymmetricTensorWithSignedProductsIntoMatrix() {
        MassProperties body = new MassProperties(2.0, 0.1, -0.2, 0.3, 3.0, 4.0, 5.0, -0.5, 0.25, -0.125);
        Matrix3d inertia = body.inertiaKgM2(new Matrix3d());
        // Dyadic values are stored and copied exactly.
        assertEquals(3.0, inertia.m00, 0.0);
        assertEquals(4.0, inertia.m11, 0.0);
        assertEquals(5.0, inertia.m22, 0.0);
        assertEquals(-0.5, inertia.m01, 0.0);
        assertEquals(-0.5, inertia.m10, 0.0);
        assertEquals(0.25, inertia.m02, 0.0);
        assertEquals(0.25, inertia.m20, 0.0);
        assertEquals(-0.125, inertia.m12, 0.0);
        assertEquals(-0.125, inertia.m21, 0.0);
        Vector3d centre = body.centreOfMassM(new Vector3d());
        assertEquals(new Vector3d(0.1, -0.2, 0.3), centre);
    }

    @Test
    void shouldScaleInertiaWithMassAndKeepCentre() {
        MassProperties body = new MassProperties(2.0, 0.1, -0.2, 0.3, 3.0, 4.0, 5.0, -0.5, 0.25, -0.125);
        MassProperties heavier = body.withMassKg(8.0);
        assertEquals(8.0, heavier.massKg(), 0.0);
        assertEquals(12.0, heavier.ixxKgM2(), 0.0);
        assertEquals(-2.0, heavier.ixyKgM2(), 0.0);
        assertEquals(-0.2, heavier.centreYM(), 0.0);
    }

    @Test
    void shouldRejectTensorsNoBodyCanHave() {
        // Izz above Ixx + Iyy: a body would need negative ∫ z² dm.
        String message = assertThrows(IllegalArgumentException.class,
            () -> new MassProperties(1.0, 0, 0, 0, 1.0, 1.0, 2.5, 0, 0, 0)).getMessage();
        assertTrue(message.startsWith("inertia tensor (1.0, 1.0, 2.5; 0.0, 0.0, 0.0) kg·m² is not that of a body"),
            message);
        // A product larger than the geometric mean of the second moments it couples (here ∫x² = ∫y² = 0.5).
        assertThrows(IllegalArgumentException.class, () -> new MassProperties(1.0, 0, 0, 0, 1, 1, 1, 0.6, 0, 0));
        assertEquals("massKg must be finite and > 0, was -1.0", assertThrows(IllegalArgumentException.class,
            () -> new MassProperties(-1.0, 0, 0, 0, 1, 1, 1, 0, 0, 0)).getMessage());
        assertEquals("centreYM must be finite, was NaN", assertThrows(IllegalArgumentException.class,
            () -> new MassProperties(1.0, 0, Double.NaN, 0, 1, 1, 1, 0, 0, 0)).getMessage());
        // A thin rod along z (Izz = 0, Ixx = Iyy) lies on the boundary and must be accepted.
        new MassProperties(1.0, 0, 0, 0, 1.0, 1.0, 0.0, 0, 0, 0);
    }
}
