package org.hapticsd.physics.dynamics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.joml.Matrix3d;
import org.junit.jupiter.api.Test;

class SolidInertiaTest {

    @Test
    void shouldGiveTwoFifthsMRSquaredForABall() {
        Matrix3d i = SolidInertia.sphere(2.0, 0.5, new Matrix3d());
        assertEquals(new Matrix3d().scaling(0.2), i);
    }

    @Test
    void shouldGiveTheTwelfthFormulaForABoxOfFullEdges() {
        // Edges 0.2 × 0.4 × 0.6 m, 3 kg: I_x = 3/12·(0.4² + 0.6²) = 0.13, I_y = 3/12·(0.2² + 0.6²) = 0.1,
        // I_z = 3/12·(0.2² + 0.4²) = 0.05; a few roundings of 0.1-scale values: 1e-15.
        Matrix3d i = SolidInertia.box(3.0, 0.1, 0.2, 0.3, new Matrix3d());
        assertEquals(0.13, i.m00(), 1e-15);
        assertEquals(0.1, i.m11(), 1e-15);
        assertEquals(0.05, i.m22(), 1e-15);
        assertEquals(0.0, i.m01(), 0.0);
        assertEquals(0.0, i.m12(), 0.0);
    }
}
