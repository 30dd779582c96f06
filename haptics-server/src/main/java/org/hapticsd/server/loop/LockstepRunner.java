package org.hapticsd.server.loop;

import org.hapticsd.device.lockstep.LockstepClock;

/**
 * Runs a loop in lockstep with its device on a {@link LockstepClock}: the runner's time is the clock's, which moves
 * to each tick's deadline when the previous tick is done and by whatever a tick itself adds (an injected stall), so
 * the ticks, their order and their times are the same on any machine however loaded it is. The device does the
 * waiting: its {@code readState} returns only once the device's bytes of that tick have crossed the link
 * ({@link org.hapticsd.device.lockstep.LockstepLink}).
 *
 * <p>Deadlines and missed deadlines follow {@link TickSchedule} exactly as in real time: a tick that (by an injected
 * stall) ends past the next deadline is an overrun; the latest deadline it ran past gets its tick at once, late, when
 * it passed less than half a period ago, and the others are skipped, not burst.
 */
public final class LockstepRunner {

    /** Called on the loop thread before each tick, with the tick's time since the first tick. */
    @FunctionalInterface
    public interface TickHook {
        void beforeTick(long sinceFirstTickNs);
    }

    private final HapticLoop loop;
    private final TickSchedule schedule;
    private final LockstepClock clock;

    public LockstepRunner(HapticLoop loop, int rateHz, LockstepClock clock) {
        this.loop = loop;
        this.schedule = new TickSchedule(rateHz, 0);
        this.clock = clock;
    }

    /**
     * Ticks until the next tick would come later than {@code durationNs} after the first, then commands zero and
     * closes the device ({@link HapticLoop#shutdown()}), on the calling thread.
     */
    public void run(long durationNs, TickHook hook) {
        long firstNs = clock.getAsLong();
        schedule.restart(firstNs);
        try {
            while (true) {
                clock.advanceTo(schedule.deadlineNs());
                long nowNs = clock.getAsLong();
                if (nowNs - firstNs > durationNs) {
                    return;
                }
                hook.beforeTick(nowNs - firstNs);
                loop.tick(nowNs);
                loop.afterTick(schedule.advance(clock.getAsLong()));
            }
        } finally {
            loop.shutdown();
        }
    }

    /** Deadlines skipped because a tick overran (an injected stall): deadlines that got no tick. */
    public long skippedDeadlines() {
        return schedule.skippedDeadlines();
    }
}
