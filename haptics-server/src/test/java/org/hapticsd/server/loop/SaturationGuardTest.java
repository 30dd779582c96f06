package org.hapticsd.server.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The guard's arithmetic on made-up samples: 1 s window, 85 %, ten samples a window (one each 100 ms). */
class SaturationGuardTest {
    private static final long MS = 1_000_000L;

    @Test
    void shouldNotTripBeforeAWholeWindowHasBeenSeen() {
        SaturationGuard guard = new SaturationGuard(1000 * MS, 0.85, 10);
        // 100 % busy from the start, but only 900 ms seen.
        for (int i = 0; i <= 9; i++) {
            assertFalse(guard.sample(i * 100 * MS, i * 100 * MS), "tripped at " + i * 100 + " ms");
        }
        assertTrue(guard.sample(1000 * MS, 1000 * MS), "a full second at 100 %");
        assertEquals(1.0, guard.lastShare(), 1e-12);
    }

    @Test
    void shouldTripAtTheShareAndNotBelowIt() {
        SaturationGuard below = new SaturationGuard(1000 * MS, 0.85, 10);
        SaturationGuard at = new SaturationGuard(1000 * MS, 0.85, 10);
        boolean trippedBelow = false;
        boolean trippedAt = false;
        for (int i = 0; i <= 30; i++) {
            trippedBelow |= below.sample(i * 100 * MS, i * 84 * MS);
            trippedAt |= at.sample(i * 100 * MS, i * 86 * MS);
        }
        assertFalse(trippedBelow, "84 % of a core is not saturated");
        assertTrue(trippedAt, "86 % is");
        assertEquals(0.84, below.lastShare(), 1e-9);
    }

    @Test
    void shouldJudgeTheLastSecondNotTheWholeRun() {
        SaturationGuard guard = new SaturationGuard(1000 * MS, 0.85, 10);
        long cpu = 0;
        // Ten seconds at 40 % (a pile under the real-time policy)...
        for (int i = 0; i <= 100; i++) {
            assertFalse(guard.sample(i * 100 * MS, cpu));
            cpu += 40 * MS;
        }
        cpu -= 40 * MS;
        // ...then a burst at 100 %: the last second holds 60..100 % of it as it grows (76 % at 600 ms, 82 % at
        // 700 ms, 88 % at 800 ms).
        for (int i = 101; i <= 107; i++) {
            cpu += 100 * MS;
            assertFalse(guard.sample(i * 100 * MS, cpu), "tripped " + (i - 100) * 100 + " ms into the burst");
        }
        cpu += 100 * MS;
        assertTrue(guard.sample(108 * 100 * MS, cpu), "800 ms of the last second busy");
        assertEquals(0.88, guard.lastShare(), 1e-9);
    }

    @Test
    void shouldUseTheNewestSampleAtLeastAWindowOldWhenSamplesComeLate() {
        SaturationGuard guard = new SaturationGuard(1000 * MS, 0.85, 10);
        // The sampling thread was held up: samples at 0, 1.5 s and 1.6 s.
        assertFalse(guard.sample(0, 0));
        assertFalse(guard.sample(1500 * MS, 1200 * MS), "1.2 s of 1.5 s is 80 %");
        assertTrue(guard.sample(1600 * MS, 1400 * MS), "1.4 s of 1.6 s is 87.5 %, measured from the sample at 0");
    }

    @Test
    void shouldRefuseANonsenseConfiguration() {
        assertThrows(IllegalArgumentException.class, () -> new SaturationGuard(0, 0.85, 10));
        assertThrows(IllegalArgumentException.class, () -> new SaturationGuard(MS, 1.5, 10));
        assertThrows(IllegalArgumentException.class, () -> new SaturationGuard(MS, 0.85, 0));
    }
}
