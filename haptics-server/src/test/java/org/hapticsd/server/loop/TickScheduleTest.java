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
        // The tick that started at 0 stalls until 3.6 ms: deadlines 1, 2 and 3 ms have passed, the last 0.6 ms ago.
        assertTrue(schedule.advance(3_600_000));
        assertEquals(4_000_000, schedule.deadlineNs(), "resume at the first deadline still in the future");
        assertFalse(schedule.nextStartsLate());
        assertEquals(3, schedule.skippedDeadlines());
        assertEquals(0, schedule.lateStarts());
    }

    /**
     * A tick that ends less than half a period past the next deadline is followed at once by the tick for that
     * deadline, late, and the loop is back on its deadlines after it; the deadlines before the latest are skipped.
     */
    @Test
    void shouldRunTheTickForADeadlinePassedLessThanHalfAPeriodAgoAtOnce() {
        TickSchedule schedule = new TickSchedule(1000, 0);
        assertEquals(500_000, schedule.lateStartLimitNs());
        assertTrue(schedule.advance(1_250_000), "ended 0.25 ms past the deadline at 1 ms: an overrun");
        assertEquals(PERIOD_NS, schedule.deadlineNs(), "the tick for 1 ms runs at once, 0.25 ms late");
        assertTrue(schedule.nextStartsLate());
        assertEquals(0, schedule.skippedDeadlines());
        assertEquals(1, schedule.lateStarts());
        // The late tick ends in time for the deadline after it: back on the schedule, nothing skipped.
        assertFalse(schedule.advance(1_400_000));
        assertFalse(schedule.nextStartsLate());
        assertEquals(2 * PERIOD_NS, schedule.deadlineNs());
        // A stall to 5.499999 ms: 3 and 4 ms are skipped, 5 ms passed just under half a period ago: its tick, late.
        assertTrue(schedule.advance(5_499_999));
        assertEquals(5 * PERIOD_NS, schedule.deadlineNs());
        assertTrue(schedule.nextStartsLate());
        assertEquals(2, schedule.skippedDeadlines());
        assertEquals(2, schedule.lateStarts());
        // Exactly half a period is too late: skipped, like every deadline passed longer ago.
        assertTrue(schedule.advance(6_500_000));
        assertEquals(7 * PERIOD_NS, schedule.deadlineNs());
        assertFalse(schedule.nextStartsLate());
        assertEquals(3, schedule.skippedDeadlines());
        assertEquals(2, schedule.lateStarts());
    }

    /**
     * A late tick that overruns too is not followed by another late tick: the deadline it ran past is skipped however
     * recently it passed, so one stall never makes a chain of overruns (the safety layer latches SAFE after
     * {@code overrunLimit} in a row).
     */
    @Test
    void shouldNotFollowALateTickThatOverranWithAnotherLateTick() {
        TickSchedule schedule = new TickSchedule(1000, 0);
        assertTrue(schedule.advance(1_300_000));
        assertTrue(schedule.nextStartsLate(), "the tick for 1 ms starts at once, 0.3 ms late");
        // It takes 0.9 ms and ends 0.2 ms past the deadline at 2 ms: skipped, the next tick waits for 3 ms.
        assertTrue(schedule.advance(2_200_000));
        assertFalse(schedule.nextStartsLate());
        assertEquals(3 * PERIOD_NS, schedule.deadlineNs());
        assertEquals(1, schedule.skippedDeadlines());
        assertEquals(1, schedule.lateStarts());
        // On time again, an overrun is followed by a late tick as before.
        assertTrue(schedule.advance(4_100_000));
        assertTrue(schedule.nextStartsLate());
        assertEquals(2, schedule.lateStarts());
    }

    /**
     * A scene whose ticks take 1.2 periods: each tick on time is followed by one late tick, whose overrun is followed
     * by a skipped deadline and a wait; so it runs two ticks in three periods, never back to back for good, and each
     * period is one tick or one skipped deadline.
     */
    @Test
    void shouldKeepAHeavySceneFromRunningItsTicksBackToBackForGood() {
        TickSchedule schedule = new TickSchedule(1000, 0);
        long startNs = 0;
        int ticks = 0;
        int lateTicks = 0;
        for (int i = 0; i < 400; i++) {
            long endNs = startNs + 1_200_000;
            ticks++;
            schedule.advance(endNs);
            if (schedule.nextStartsLate()) {
                lateTicks++;
                startNs = endNs;
            } else {
                startNs = schedule.deadlineNs();
            }
        }
        long spannedPeriods = schedule.deadlineNs() / PERIOD_NS;
        assertEquals(spannedPeriods, ticks + schedule.skippedDeadlines(), "each period one tick or one skip");
        assertEquals(lateTicks, schedule.lateStarts());
        assertEquals(2.0 / 3.0, (double) ticks / spannedPeriods, 0.01, "two ticks in three periods");
        assertEquals(ticks / 2, lateTicks, 1, "every other tick late");
    }

    @Test
    void shouldCountATickEndingExactlyOnTheNextDeadlineAsAnOverrunFollowedAtOnce() {
        TickSchedule schedule = new TickSchedule(1000, 0);
        assertTrue(schedule.advance(PERIOD_NS));
        assertEquals(PERIOD_NS, schedule.deadlineNs());
        assertTrue(schedule.nextStartsLate());
        assertEquals(0, schedule.skippedDeadlines());
    }

    @Test
    void shouldStartOverOnTimeAfterARestart() {
        TickSchedule schedule = new TickSchedule(1000, 0);
        schedule.advance(1_100_000);
        assertTrue(schedule.nextStartsLate());
        schedule.restart(10 * PERIOD_NS);
        assertFalse(schedule.nextStartsLate());
        assertEquals(1, schedule.lateStarts(), "the counts are kept");
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
