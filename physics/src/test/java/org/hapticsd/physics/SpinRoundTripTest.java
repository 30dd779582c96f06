package org.hapticsd.physics;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@link SpinRoundTrip}: a measured round trip, twice from one echo thread, and the thread gone after close. */
class SpinRoundTripTest {

    @Test
    void shouldMeasureRoundTripsAndEndItsThreadOnClose() throws InterruptedException {
        SpinRoundTrip roundTrip = new SpinRoundTrip();
        Thread echo = roundTrip.echoThread();
        try {
            // Twice: the echo thread parks between measurements and must wake for the second. The upper bound only
            // catches a hang or a unit slip: a spin round trip is some hundreds of ns on a 2-vCPU VM, a few µs when
            // both threads share one CPU, never a millisecond on average over 1,000 trips.
            for (int measurement = 0; measurement < 2; measurement++) {
                long meanNs = roundTrip.meanNs(1_000);
                assertTrue(meanNs > 0 && meanNs < 1_000_000, "mean round trip " + meanNs + " ns");
            }
        } finally {
            roundTrip.close();
        }
        echo.join(5_000);
        assertFalse(echo.isAlive(), "the echo thread still runs after close");
    }

    @Test
    void shouldRefuseNoTrips() {
        try (SpinRoundTrip roundTrip = new SpinRoundTrip()) {
            assertThrows(IllegalArgumentException.class, () -> roundTrip.meanNs(0));
        }
    }
}
