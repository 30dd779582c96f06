package org.hapticsd.server.loop;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.locks.LockSupport;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;
import org.junit.jupiter.api.Test;

/**
 * The physics budget judges the step by the loop thread's CPU time: time the host takes the CPU away (here, the
 * thread parked) is not the scene's weight. A tester's loaded machine flagged a 6 µs step over its 800 µs budget.
 */
class ThreadCpuClockTest {

    @Test
    void shouldCountWorkNotWaiting() {
        NanoClock cpu = ThreadCpuClock.ifSupported();
        assertNotNull(cpu, "HotSpot on Linux reads a thread's CPU time");
        long cpuStart = cpu.nanoTime();
        long wallStart = System.nanoTime();
        LockSupport.parkNanos(50_000_000L);
        long waitedWallNs = System.nanoTime() - wallStart;
        long waitedCpuNs = cpu.nanoTime() - cpuStart;
        assertTrue(waitedWallNs >= 50_000_000L, "parked 50 ms: " + waitedWallNs);
        // Parking, waking and two clock readings: well under a millisecond of CPU on any machine.
        assertTrue(waitedCpuNs < 5_000_000L, "CPU time while parked 50 ms: " + waitedCpuNs + " ns");

        long spinStart = cpu.nanoTime();
        long until = System.nanoTime() + 20_000_000L;
        while (System.nanoTime() < until) {
            Thread.onSpinWait();
        }
        assertTrue(cpu.nanoTime() - spinStart > 0, "work moves it");
    }

    @Test
    void shouldJudgeByCpuTimeOnTheSystemClockAndByATestsClockOtherwise() throws Exception {
        org.hapticsd.server.scene.BuiltScene scene =
            org.hapticsd.server.scene.SceneBuilder.build(new org.hapticsd.server.scene.SceneLoader().loadEmbedded());
        ScriptedDevice device = new ScriptedDevice();
        device.open();
        HapticLoop onSystemClock = new org.hapticsd.server.LoopAssembly(scene, device, 1000,
            SystemNanoClock.INSTANCE).loop();
        assertTrue(onSystemClock.judgesStepByCpuTime(), "run, test and the benchmarks time stages on the system clock");
        HapticLoop onTestClock = new org.hapticsd.server.LoopAssembly(scene, device, 1000, () -> 0L).loop();
        assertFalse(onTestClock.judgesStepByCpuTime(), "a test's stage timer times the step itself");
    }
}
