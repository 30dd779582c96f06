package org.hapticsd.server.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class TickScheduleTest {
    private static final long PERIOD_NS = 1_000_000;

    @Test
    void shouldPlaceDeadlinesAtAbsoluteMultiplesOfThePeriod() {
        TickSchedule schedule = new TickSchedule(1000, 5_000);
        assertEquals(5_000, schedule.deadlineNs());
        // Ticks that end at varying times inside their period do not shift the next deadline.
        assertFalse(schedule.advance(5_000 + 300_000));
        assertEquals(5_000 + PERIOD_NS, schedule.deadlineNs());
        assertFalse(schedule.advance(5_000 + PERIOD_NS + 999_999));
        assertEquals(5_000 + 2 * PERIOD_NS, schedule.deadlineNs());
        assertEquals(0, schedule.skippedDeadlines());
    }

    @Test
    void shouldSkipMissedDeadlinesInsteadOfRunningThemBackToBack() {
        TickSchedule schedule = new TickSchedule(1000, 0);
        // The tick that started at 0 stalls until 3.4 ms: deadlines 1, 2 and 3 ms have passed.
        assertTrue(schedule.advance(3_400_000));
        assertEquals(4_000_000, schedule.deadlineNs(), "resume at the first deadline still in the future");
        assertEquals(3, schedule.skippedDeadlines());
    }

    @Test
    void shouldCountATickEndingExactlyOnTheNextDeadlineAsAnOverrun() {
        TickSchedule schedule = new TickSchedule(1000, 0);
        assertTrue(schedule.advance(PERIOD_NS));
        assertEquals(2 * PERIOD_NS, schedule.deadlineNs());
        assertEquals(1, schedule.skippedDeadlines());
    }

    @Test
    void shouldCompareDeadlinesBySubtractionAcrossClockWrap() {
        long start = Long.MAX_VALUE - 1_500_000;
        TickSchedule schedule = new TickSchedule(1000, start);
        assertFalse(schedule.advance(start + 500_000));
        assertFalse(schedule.advance(start + 1_700_000), "wrapped clock, still before the next deadline");
        assertEquals(start + 2 * PERIOD_NS, schedule.deadlineNs());
    }

    @Test
    void shouldAcceptRatesFrom250To4000Hz() {
        assertEquals(4_000_000, TickSchedule.periodNsFor(250));
        assertEquals(250_000, TickSchedule.periodNsFor(4000));
        assertThrows(IllegalArgumentException.class, () -> TickSchedule.periodNsFor(249));
        assertThrows(IllegalArgumentException.class, () -> TickSchedule.periodNsFor(4001));
    }
}
