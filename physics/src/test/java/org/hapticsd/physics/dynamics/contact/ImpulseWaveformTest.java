package org.hapticsd.physics.dynamics.contact;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The waveform's pure functions: source 000 (8)(9), the shape family and its exact area. */
class ImpulseWaveformTest {

    @Test
    void shouldGiveTheGammaFunctionsKnownValues() {
        // Γ(1/2) = √π, Γ(1) = Γ(2) = 1, Γ(5) = 24, Γ(10.5) = 1133278.3889487855...
        assertEquals(0.5 * Math.log(Math.PI), ImpulseWaveform.lnGamma(0.5), 1e-14);
        assertEquals(0.0, ImpulseWaveform.lnGamma(1.0), 1e-14);
        assertEquals(0.0, ImpulseWaveform.lnGamma(2.0), 1e-14);
        assertEquals(Math.log(24.0), ImpulseWaveform.lnGamma(5.0), 1e-13);
        assertEquals(Math.log(1133278.3889487855), ImpulseWaveform.lnGamma(10.5), 1e-12);
    }

    /** Equation (9) grows without bound as the impulse shrinks: the pulse is cut at its longest. */
    @Test
    void shouldLastAtMostTheLongestPulse() {
        ImpulseWaveformSettings table2 = ImpulseWaveformSettings.TABLE_2_SINGLE_POINT;
        assertEquals(0.459e-3 / 0.05 + 7.5e-3, ImpulseWaveform.durationS(table2, 0.05), 1e-15, "(9) as written");
        assertEquals(ImpulseWaveform.MAX_DURATION_S, ImpulseWaveform.durationS(table2, 1e-9), "a touch of 1e-9 N·s");
        assertEquals(ImpulseWaveform.MAX_DURATION_S,
            ImpulseWaveform.durationS(new ImpulseWaveformSettings(117.42, 0.459e-3, 1e6), 0.05), "W_min of 11 days");
    }

    @Test
    void shouldGiveTheAreaFactorsOfTheRectangleHalfSineAndRaisedCosine() {
        assertEquals(1.0, ImpulseWaveform.areaFactor(0.0), 1e-14, "rectangle");
        assertEquals(2.0 / Math.PI, ImpulseWaveform.areaFactor(1.0), 1e-14, "half sine");
        assertEquals(0.5, ImpulseWaveform.areaFactor(2.0), 1e-14, "raised cosine");
        assertEquals(3.0 / 8.0, ImpulseWaveform.areaFactor(4.0), 1e-14, "sin⁴");
    }

    @Test
    void shouldFindTheShapeWhoseAreaIsTheImpulse() {
        for (double c : new double[] {0.9, 2.0 / Math.PI, 0.5, 0.3, 0.16, 0.11}) {
            double exponent = ImpulseWaveform.exponentFor(c);
            assertEquals(c, ImpulseWaveform.areaFactor(exponent), 1e-12, "c = " + c);
        }
        assertEquals(0.0, ImpulseWaveform.exponentFor(1.3), 0.0, "an impulse too large for H·W: the rectangle");
        assertEquals(ImpulseWaveform.MAX_EXPONENT, ImpulseWaveform.exponentFor(0.01), 0.0, "the narrowest shape");
    }

    @Test
    void shouldSampleThePulseSoThatTheSamplesAddUpToItsArea() {
        // A 16.7 ms half sine at 1 kHz: 17 samples, the last partial; the Simpson sums match ∫ = 2W/π to 1e-9.
        double w = 0.0167;
        double dt = 0.001;
        assertEquals(17, ImpulseWaveform.sampleCount(w, dt));
        assertEquals(2.0 * w / Math.PI, ImpulseWaveform.totalArea(1.0, w, dt), 1e-9 * w);
        assertEquals(0.0, ImpulseWaveform.sampleArea(1.0, w, dt, 17), 0.0, "past the end");
        assertEquals(ImpulseWaveform.sampleArea(1.0, w, dt, 2), ImpulseWaveform.sampleArea(1.0, w, dt, 2), 0.0);
        assertTrue(ImpulseWaveform.sampleArea(1.0, w, dt, 8) > ImpulseWaveform.sampleArea(1.0, w, dt, 1));
        assertEquals(1, ImpulseWaveform.sampleCount(0.001, 0.001), "exactly one step");
    }

    @Test
    void shouldFollowHeightAndDurationLawsEightAndNine() {
        ImpulseWaveformSettings table = ImpulseWaveformSettings.TABLE_2_SINGLE_POINT;
        assertEquals(117.42 * 0.05, ImpulseWaveform.heightN(table, 0.05), 1e-12, "H = S_h·IP_z");
        assertEquals(0.459e-3 / 0.05 + 7.5e-3, ImpulseWaveform.durationS(table, 0.05), 1e-15, "W = S_w/IP_z + W_min");
    }
}
