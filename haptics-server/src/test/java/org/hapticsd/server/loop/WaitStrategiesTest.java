package org.hapticsd.server.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.agrona.concurrent.NanoClock;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class WaitStrategiesTest {

    /** A clock that moves 10 µs forward every time it is read: waiting never depends on real time. */
    private static final class SteppingClock implements NanoClock {
        long nowNs;
        int reads;

        @Override
        public long nanoTime() {
            reads++;
            return nowNs += 10_000;
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"hybrid", "spin", "sleep"})
    void shouldReturnOnceTheClockReachesTheDeadline(String name) {
        WaitStrategy strategy = WaitStrategies.named(name);
        SteppingClock clock = new SteppingClock();
        strategy.waitUntil(1_000_000, clock);
        assertTrue(clock.nowNs >= 1_000_000, "returned before the deadline");
        // A strategy reads the clock at most once per 10 µs step plus a constant: it never waits past the
        // first read at or after the deadline by more than one extra read.
        assertTrue(clock.nowNs <= 1_000_000 + 20_000, "kept waiting after the deadline: " + clock.nowNs);
    }

    @ParameterizedTest
    @ValueSource(strings = {"hybrid", "spin", "sleep"})
    void shouldNotWaitForADeadlineInThePast(String name) {
        SteppingClock clock = new SteppingClock();
        clock.nowNs = 5_000_000;
        WaitStrategies.named(name).waitUntil(1_000_000, clock);
        assertEquals(1, clock.reads);
    }

    @Test
    void shouldParkUnderTheRealTimePolicyUntilAShortFixedWindowWhateverTheTick() {
        WaitStrategy realTime = WaitStrategies.HYBRID.underRealTimePolicy();
        assertEquals("hybrid", realTime.name());
        assertSame(realTime, realTime.underRealTimePolicy());
        // 100 µs before the deadline, heavy tick or light: a real-time thread's timer wakes it at once.
        assertEquals(880_000, WaitStrategies.realTimeParkNs(980_000));
        assertEquals(300_000, WaitStrategies.realTimeParkNs(400_000));
        assertEquals(0, WaitStrategies.realTimeParkNs(90_000));
        SteppingClock clock = new SteppingClock();
        realTime.waitUntil(1_000_000, 600_000, clock);
        assertTrue(clock.nowNs >= 1_000_000 && clock.nowNs <= 1_020_000, "returned at " + clock.nowNs);
        // Sleep already parks to the deadline; spin must not run there (the kernel throttles a thread that never
        // sleeps).
        assertSame(WaitStrategies.SLEEP, WaitStrategies.SLEEP.underRealTimePolicy());
        assertEquals(null, WaitStrategies.SPIN.underRealTimePolicy());
    }

    @Test
    void shouldParkHybridLessAfterHeavyTicksSoThatALateWakeUpHasTheSameMargin() {
        // A light tick (20 µs) leaves 980 µs: park until the 300 µs window plus the tick, 660 µs.
        assertEquals(660_000, WaitStrategies.hybridParkNs(980_000, 20_000));
        // A heavy tick (600 µs) leaves 400 µs, less than the window plus the tick: spin, do not park.
        assertEquals(0, WaitStrategies.hybridParkNs(400_000, 600_000));
        // The same heavy scene after a cheap stretch: 830 µs left, park 830 - 300 - 170 = 360 µs.
        assertEquals(360_000, WaitStrategies.hybridParkNs(830_000, 170_000));
        // Unknown tick time (0) is the fixed window.
        assertEquals(700_000, WaitStrategies.hybridParkNs(1_000_000, 0));
    }

    @Test
    void shouldSelectStrategiesByName() {
        assertSame(WaitStrategies.HYBRID, WaitStrategies.named("hybrid"));
        assertSame(WaitStrategies.SPIN, WaitStrategies.named("spin"));
        assertSame(WaitStrategies.SLEEP, WaitStrategies.named("sleep"));
        assertEquals(List.of("hybrid", "spin", "sleep"), WaitStrategies.names());
    }

    @Test
    void shouldNameTheValidStrategiesWhenTheNameIsUnknown() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> WaitStrategies.named("yield"));
        assertEquals("unknown wait strategy 'yield' (expected one of [hybrid, spin, sleep])", e.getMessage());
    }
}
