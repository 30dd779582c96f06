package org.hapticsd.server.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.joml.Matrix3d;
import org.joml.Vector3d;
import org.junit.jupiter.api.Test;

/** {@link ForceField}: F = B·v, refused when it could give energy; its largest damping for the passivity check. */
class ForceFieldTest {

    /** B from rows (JOML's constructor takes columns). */
    private static Matrix3d rows(double... b) {
        return new Matrix3d(b[0], b[3], b[6], b[1], b[4], b[7], b[2], b[5], b[8]);
    }

    @Test
    void shouldRenderBTimesTheVelocity() {
        assertEquals(new Vector3d(-2.0, 0.0, 0.5),
            ForceField.viscous(2.0).addTo(new Vector3d(1.0, 0.0, -0.25), new Vector3d()));
        ForceField curl = new ForceField(rows(0, 13, 0, -13, 0, 0, 0, 0, 0));
        assertEquals(new Vector3d(13.0, 0.0, 0.0), curl.addTo(new Vector3d(0.0, 1.0, 0.0), new Vector3d()));
        assertEquals(new Vector3d(1.0, -13.0, 0.0), curl.addTo(new Vector3d(1.0, 0.0, 0.0), new Vector3d(1, 0, 0)),
            "adds to what is there");
        assertEquals(0.0, curl.addTo(new Vector3d(0.3, -0.7, 0.2), new Vector3d()).dot(0.3, -0.7, 0.2), 1e-15,
            "a curl field does no work");
    }

    @Test
    void shouldRefuseAFieldThatCouldGiveEnergyAndAcceptOneThatDampsOrCurls() {
        IllegalArgumentException symmetric = assertThrows(IllegalArgumentException.class,
            () -> new ForceField(rows(0, 5, 0, 5, 0, 0, 0, 0, 0)));
        assertTrue(symmetric.getMessage().contains("the eigenvalue 5.000 N·s/m > 0"), symmetric.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new ForceField(rows(0.1, 0, 0, 0, -3, 0, 0, 0, -3)),
            "a negative damping along x");
        assertThrows(IllegalArgumentException.class,
            () -> new ForceField(rows(Double.NaN, 0, 0, 0, 0, 0, 0, 0, 0)));
        // Damped along x and y, curling between them: the symmetric part is −I in that plane.
        new ForceField(rows(-1, 3, 0, -3, -1, 0, 0, 0, 0));
        ForceField.viscous(0.0);
    }

    @Test
    void shouldReportTheLargestDampingAsTheGreatestSingularValue() {
        assertEquals(13.0, new ForceField(rows(0, 13, 0, -13, 0, 0, 0, 0, 0)).largestDampingNspm(), 1e-12);
        assertEquals(4.0, ForceField.viscous(4.0).largestDampingNspm(), 1e-12);
        assertEquals(Math.sqrt(10.0), new ForceField(rows(-1, 3, 0, -3, -1, 0, 0, 0, 0)).largestDampingNspm(),
            1e-12);
    }
}
