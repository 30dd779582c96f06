package org.hapticsd.server.calibrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.hapticsd.physics.ContactSettings;
import org.junit.jupiter.api.Test;

/**
 * {@code hapticsd calibrate}'s fit (source 000 §5) against collisions made by the engine with known parameters:
 * Table 2's single-point and multi-point fits, with noise.
 */
class CalibrationTest {

    private static final ImpulseParameters MULTI = ImpulseParameters.table2MultiPoint("b0-b1", "b1-b2", "b2-b3");
    private static final int EVALUATIONS = 8000;

    @Test
    void shouldReplayTheEnginesCollisionsExactlyWithTheirParameters() {
        // Noise-free data: the replay is the engine's own collision, sequencing, free rotation and resting contacts,
        // so with the true parameters the objective is round-off (9-digit CSV) and anything else is far above it.
        CollisionData single = data(new SyntheticCollisions(ImpulseParameters.TABLE_2_SINGLE_POINT, 3, 0, 0)
            .singlePoint(40).lines());
        Calibration fit = calibration(single, Calibration.Model.SINGLE);
        assertTrue(fit.objectiveAt(ImpulseParameters.TABLE_2_SINGLE_POINT) < 1e-14,
            "single-point objective at the truth: " + fit.objectiveAt(ImpulseParameters.TABLE_2_SINGLE_POINT));
        ImpulseParameters off = new ImpulseParameters(0.73, 117.42, 0.459, 0.14, 0.019, java.util.Map.of(), 7.5);
        assertTrue(fit.objectiveAt(off) > 1e-6, "e off by 0.01: " + fit.objectiveAt(off));

        // 1e-8, not round-off: since the restitution ends at e² of the compression's work when that comes first
        // (the energy bound, ImpulseCollision), a sample's size depends on the velocities at the sample, and the
        // replay holds positions at the onset while the engine moves them: with chains of simultaneous collisions
        // the two differ by 4.7e-9 (it was under 1e-10). Still 200 times below the objective of e off by 0.01.
        CollisionData multi = data(new SyntheticCollisions(MULTI, 4, 0, 0).multiPoint(15, 6).lines());
        Calibration multiFit = calibration(multi, Calibration.Model.MULTI);
        assertTrue(multiFit.objectiveAt(MULTI) < 1e-8, "multi-point objective at the truth: "
            + multiFit.objectiveAt(MULTI));
        ImpulseParameters multiOff = new ImpulseParameters(MULTI.elasticity() - 0.01, MULTI.heightFactorPerS(),
            MULTI.durationFactorMsNs(), MULTI.staticFriction(), MULTI.dynamicFriction(), MULTI.correlationRatios(),
            MULTI.minimumDurationMs());
        assertTrue(multiFit.objectiveAt(multiOff) > 1e-6, "e off by 0.01: " + multiFit.objectiveAt(multiOff));
    }

    @Test
    void shouldRecoverTheSinglePointFitOfTable2FromNoisyCollisions() {
        // 120 strikes of balls and boxes on a floor, velocities with 0.3 % noise, every fourth with its force
        // samples (1 % noise): e and μ within 5 % (the issue's bound), S_h and S_w too. μ_s is the loosest: it acts
        // only where a collision tips between sticking and sliding, so the data pins it between the nearest such
        // events (a sweep of data and search seeds 20–27 gave |error| <= 5.0 % for μ_s, <= 2.3 % for μ_d).
        CollisionData data = data(new SyntheticCollisions(ImpulseParameters.TABLE_2_SINGLE_POINT, 11, 0.003, 0.01)
            .singlePoint(120).lines());
        Calibration calibration = calibration(data, Calibration.Model.SINGLE);
        CalibrationResult result = calibration.run();
        ImpulseParameters fit = result.parameters();
        ImpulseParameters truth = ImpulseParameters.TABLE_2_SINGLE_POINT;
        assertEquals(truth.elasticity(), fit.elasticity(), 0.05 * truth.elasticity(), "e");
        assertEquals(truth.staticFriction(), fit.staticFriction(), 0.05 * truth.staticFriction(), "μ_s");
        assertEquals(truth.dynamicFriction(), fit.dynamicFriction(), 0.05 * truth.dynamicFriction(), "μ_d");
        assertEquals(truth.heightFactorPerS(), fit.heightFactorPerS(), 0.05 * truth.heightFactorPerS(), "S_h");
        assertEquals(truth.durationFactorMsNs(), fit.durationFactorMsNs(), 0.05 * truth.durationFactorMsNs(), "S_w");
        assertEquals(CalibrationResult.Status.FITTED, result.parameter("e").status());
        // The search found a point at least as good as the truth (the noise lets it do a little better).
        double truthResidual = Math.sqrt(calibration.objectiveAt(truth));
        assertTrue(result.residual() <= truthResidual, "residual " + result.residual() + ", at the truth "
            + truthResidual);
    }

    @Test
    void shouldRecoverTheMultiPointFitOfTable2WithEveryCorrelationRatio() {
        // Rows of 4 and 3 touching balls struck at one end, and strikes on the floor that pin e and the friction;
        // 0.3 % noise: e and μ within 5 %, every α_j within 0.02 (a sweep of seeds 20–25: |α error| <= 0.009).
        CollisionData data = data(new SyntheticCollisions(MULTI, 2, 0.003, 0.01).multiPoint(30, 40).lines());
        Calibration calibration = calibration(data, Calibration.Model.MULTI);
        CalibrationResult result = calibration.run();
        ImpulseParameters fit = result.parameters();
        double truthResidual = Math.sqrt(calibration.objectiveAt(MULTI));
        assertTrue(result.residual() <= truthResidual, "residual " + result.residual() + ", at the truth "
            + truthResidual);
        assertEquals(MULTI.elasticity(), fit.elasticity(), 0.05 * MULTI.elasticity(), "e");
        assertEquals(MULTI.staticFriction(), fit.staticFriction(), 0.05 * MULTI.staticFriction(), "μ_s");
        assertEquals(MULTI.dynamicFriction(), fit.dynamicFriction(), 0.05 * MULTI.dynamicFriction(), "μ_d");
        for (String pair : List.of("b0-b1", "b1-b2", "b2-b3")) {
            assertEquals(MULTI.correlationRatio(pair), fit.correlationRatio(pair), 0.02, "α " + pair);
        }
    }

    @Test
    void shouldHoldTheWaveformFactorsWithoutForceSamplesAndSayTheyAreNotIdentified() {
        CollisionData data = data(new SyntheticCollisions(ImpulseParameters.TABLE_2_SINGLE_POINT, 5, 0.0, 0.0)
            .singlePoint(12).lines().stream().map(CalibrationTest::withoutForces).toList());
        CalibrationResult result = calibration(data, Calibration.Model.SINGLE, 1500).run();
        assertEquals(CalibrationResult.Status.NOT_IDENTIFIED, result.parameter("S_h").status());
        assertEquals(CalibrationResult.Status.NOT_IDENTIFIED, result.parameter("S_w").status());
        assertEquals(117.42, result.parameters().heightFactorPerS(), 0.0, "held at Table 2's single-point S_h");
        assertEquals(0.72, result.parameters().elasticity(), 0.01, "e is still fitted");
    }

    @Test
    void shouldHoldAParameterWhoseRangeIsOneValue() {
        CollisionData data = data(new SyntheticCollisions(ImpulseParameters.TABLE_2_SINGLE_POINT, 6, 0.0, 0.0)
            .singlePoint(12).lines());
        CalibrationBounds bounds = new CalibrationBounds(new CalibrationBounds.Range(0.5, 0.5),
            CalibrationBounds.DEFAULTS.heightFactorPerS(), CalibrationBounds.DEFAULTS.durationFactorMsNs(),
            CalibrationBounds.DEFAULTS.staticFriction(), CalibrationBounds.DEFAULTS.dynamicFriction(),
            CalibrationBounds.DEFAULTS.correlationRatio(), java.util.Map.of());
        CalibrationResult result = new Calibration(data, Calibration.Model.SINGLE, bounds, 1, SyntheticCollisions.DT_S,
            ContactSettings.defaults(), 1500).run();
        assertEquals(0.5, result.parameters().elasticity(), 0.0);
        assertEquals(CalibrationResult.Status.FIXED, result.parameter("e").status());
    }

    /** Empties the force columns (the last two) of a data row. */
    private static String withoutForces(String line) {
        if (line.startsWith("#") || line.startsWith("event,")) {
            return line;
        }
        int last = line.lastIndexOf(',');
        int before = line.lastIndexOf(',', last - 1);
        return line.substring(0, before) + ",,";
    }

    private static CollisionData data(List<String> lines) {
        try {
            return CollisionDataReader.parse("synthetic.csv", lines);
        } catch (CollisionDataException e) {
            throw new AssertionError(e.getMessage(), e);
        }
    }

    private static Calibration calibration(CollisionData data, Calibration.Model model) {
        return calibration(data, model, EVALUATIONS);
    }

    private static Calibration calibration(CollisionData data, Calibration.Model model, int evaluations) {
        return new Calibration(data, model, CalibrationBounds.DEFAULTS, 1, SyntheticCollisions.DT_S,
            ContactSettings.defaults(), evaluations);
    }
}
