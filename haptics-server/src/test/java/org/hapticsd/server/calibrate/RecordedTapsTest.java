package org.hapticsd.server.calibrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.hapticsd.physics.ContactSettings;
import org.joml.Vector3d;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Taps in a tick recording as calibration data: a recording written by the server's own recorder from a known
 * sequence of ticks (taps of a tool of 0.12 kg on a tilted surface with restitution 0.55, a press, a slow touch),
 * read back as collisions and fitted.
 */
class RecordedTapsTest {
    private static final double E = TapRecordings.E;
    private static final double MASS_KG = TapRecordings.MASS_KG;
    private static final Vector3d NORMAL = TapRecordings.NORMAL;
    private static final double[] TAP_SPEEDS_MPS = TapRecordings.TAP_SPEEDS_MPS;

    @TempDir
    Path dir;

    private Path record() throws Exception {
        return TapRecordings.write(dir.resolve("taps.rec"));
    }

    @Test
    void shouldReadEachTapAsACollisionOfTheToolWithAFixedSurface() throws Exception {
        CollisionData data = RecordedTaps.read(record(), MASS_KG, 0.1);
        assertEquals(TAP_SPEEDS_MPS.length, data.events().size(), "the press and the slow touch are no taps");
        for (int k = 0; k < TAP_SPEEDS_MPS.length; k++) {
            CollisionData.Event event = data.events().get(k);
            CollisionData.Body tool = event.bodies().get(0);
            CollisionData.Body surface = event.bodies().get(1);
            assertEquals(MASS_KG, tool.massKg());
            assertFalse(surface.moves());
            assertEquals(0.0, new Vector3d(NORMAL).mul(-TAP_SPEEDS_MPS[k]).distance(new Vector3d(tool.velocityBeforeMps())),
                1e-12, "velocity before, tap " + k);
            assertEquals(0.0, new Vector3d(NORMAL).mul(E * TAP_SPEEDS_MPS[k]).distance(new Vector3d(tool.velocityAfterMps())),
                1e-12, "velocity after, tap " + k);
            // The normal is the rendered force's direction: from the surface toward the tool.
            assertEquals(0.0, new Vector3d(NORMAL).distance(new Vector3d(event.contacts().get(0).normal())), 1e-12);
        }
    }

    @Test
    void shouldFitTheRestitutionOfTheTapsAndSayTheRestCannotBeTold() throws Exception {
        CollisionData data = RecordedTaps.read(record(), MASS_KG, 0.1);
        CalibrationResult result = new Calibration(data, Calibration.Model.SINGLE, CalibrationBounds.DEFAULTS, 1,
            0.001, ContactSettings.defaults(), 3000).run();
        assertEquals(E, result.parameters().elasticity(), 0.005 * E, "e of taps made with 0.55");
        assertTrue(result.residual() < 1e-3, "exact data fit exactly: " + result.residual());
        // No force samples (S_h, S_w) and taps straight along the normal of a particle (μ_s, μ_d): not identified,
        // held at Table 2's values rather than reported from noise.
        for (CalibrationResult.Fitted f : result.fitted()) {
            CalibrationResult.Status expected = f.name().equals("e") ? CalibrationResult.Status.FITTED
                : CalibrationResult.Status.NOT_IDENTIFIED;
            assertEquals(expected, f.status(), f.toString());
        }
        assertEquals(ImpulseParameters.TABLE_2_SINGLE_POINT.staticFriction(), result.parameters().staticFriction());
        assertEquals(ImpulseParameters.TABLE_2_SINGLE_POINT.dynamicFriction(), result.parameters().dynamicFriction());
    }
}
