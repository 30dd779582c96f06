package org.hapticsd.server.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import org.hapticsd.device.emulator.EmulatedDevice;
import org.hapticsd.device.emulator.EmulatorProfile;
import org.hapticsd.device.link.LinkSession;
import org.hapticsd.device.lockstep.LockstepClock;
import org.hapticsd.device.lockstep.LockstepLink;
import org.hapticsd.server.device.InProcessEmulator;
import org.hapticsd.server.scene.BuiltScene;
import org.hapticsd.testsupport.JitPrimer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * In lockstep the loop thread also drives the link session, the emulated firmware and the pty's reads and writes
 * (jSerialComm): still nothing allocated per tick. Same method as {@link LoopAllocationTest} (per-thread counter,
 * warm-up until quiet windows, then exactly 0 bytes), fewer ticks since each one crosses the pty twice.
 */
class LockstepAllocationTest {
    private static final int WINDOW_TICKS = 5_000;
    /**
     * 100,000 ticks at least, as {@link LoopAllocationTest} found the last of C2's compile-time allocations on the
     * ticking thread comes before tick 100,000: with 40,000 (8 windows) a fresh-clone CI run measured 88 bytes in its
     * 20,000 measured ticks, once in many runs, and none in four runs after it.
     */
    private static final int MIN_WARM_UP_WINDOWS = 20;
    private static final int MAX_WARM_UP_WINDOWS = 80;
    private static final int QUIET_WINDOWS = 3;
    private static final int MEASURED_TICKS = 20_000;

    /** The compiler's one-off allocations on the measuring thread, done before anything is measured. */
    @BeforeAll
    static void primeJit() {
        JitPrimer.primeClassPath();
    }

    @Test
    void shouldAllocateZeroBytesPerLockstepTickOverAPseudoTerminal() throws Exception {
        BuiltScene scene = LoopFixture.defaultScene();
        LockstepClock clock = new LockstepClock(0L);
        EmulatedDevice firmware = new EmulatedDevice(EmulatorProfile.falconLike(), scene.handTargets().get());
        try (InProcessEmulator emulator = InProcessEmulator.lockstep(firmware, InProcessEmulator.Transport.PTY,
                LinkSession.Config.defaults(1000), clock)) {
            LockstepLink link = emulator.lockstepLink();
            LoopFixture f = new LoopFixture(scene, link);
            Driver driver = new Driver(f.loop, clock);
            int windows = driver.warmUp();
            long allocated = driver.run(MEASURED_TICKS);
            assertTrue(windows <= MAX_WARM_UP_WINDOWS, "warm-up never reached an allocation-free window");
            assertEquals(0, allocated, "bytes allocated by " + MEASURED_TICKS + " lockstep ticks");
            assertTrue(link.statistics().statesReceived() >= (long) MEASURED_TICKS, "a STATE every tick");
            assertEquals(0, link.statistics().framesDamagedOrLost());
        }
    }

    /** Ticks on the lockstep clock; no string literals (see {@link LoopAllocationTest}). */
    private static final class Driver {
        private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        private final HapticLoop loop;
        private final LockstepClock clock;

        Driver(HapticLoop loop, LockstepClock clock) {
            this.loop = loop;
            this.clock = clock;
        }

        int warmUp() {
            int quiet = 0;
            for (int window = 1; window <= MAX_WARM_UP_WINDOWS; window++) {
                quiet = run(WINDOW_TICKS) == 0 ? quiet + 1 : 0;
                if (quiet >= QUIET_WINDOWS && window >= MIN_WARM_UP_WINDOWS) {
                    return window;
                }
            }
            return MAX_WARM_UP_WINDOWS + 1;
        }

        long run(int ticks) {
            long before = THREADS.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < ticks; i++) {
                clock.advanceBy(LoopFixture.PERIOD_NS);
                loop.tick(clock.getAsLong());
                loop.afterTick(false);
            }
            return THREADS.getCurrentThreadAllocatedBytes() - before;
        }
    }
}
