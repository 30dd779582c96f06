package org.hapticsd.server.script;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.locks.LockSupport;
import org.hapticsd.server.LoopAssembly;
import org.hapticsd.server.device.OpenedDevice;
import org.hapticsd.server.loop.LoopCommand;

/**
 * Injects a script's faults at their times while the loop runs, from the script's own thread: unplugging the
 * emulator's cable (and plugging it back), noise on the line, and a stall of the loop thread itself.
 *
 * <p>A stall is a loop command that parks the loop thread inside one tick: exactly the fault a real server
 * suffers from a page fault or a collector pause, and the one the device's own watchdog exists for.
 */
final class FaultSchedule {
    /** Seeded so a script's noise is the same bytes on every run. */
    private static final long GARBAGE_SEED = 0x5EED_6A2BL;

    private record Action(double atS, Runnable run) {
    }

    private final List<Action> actions = new ArrayList<>();

    FaultSchedule(List<ScriptSpec.Step> timeline, LoopAssembly assembly, OpenedDevice opened) {
        for (ScriptSpec.Step step : timeline) {
            if (step.unplugS() > 0) {
                actions.add(new Action(step.atS(), () -> opened.emulator().runner().setUnplugged(true)));
                actions.add(new Action(step.atS() + step.unplugS(),
                    () -> opened.emulator().runner().setUnplugged(false)));
            } else if (step.garbageBytes() > 0) {
                byte[] noise = noise(step.garbageBytes());
                actions.add(new Action(step.atS(), () -> opened.emulator().runner().injectGarbage(noise)));
            } else if (step.stallS() > 0) {
                long stallNs = Math.round(step.stallS() * 1e9);
                LoopCommand stall = loop -> LockSupport.parkNanos(stallNs);
                actions.add(new Action(step.atS(), () -> assembly.commands().offer(stall)));
            }
        }
        actions.sort(Comparator.comparingDouble(Action::atS));
    }

    /** Noise without 0x00 bytes except a few: mostly runs that merge with frames, some that end them early. */
    static byte[] noise(int bytes) {
        SplittableRandom random = new SplittableRandom(GARBAGE_SEED);
        byte[] noise = new byte[bytes];
        for (int i = 0; i < bytes; i++) {
            noise[i] = (byte) (random.nextInt(31) == 0 ? 0 : 1 + random.nextInt(255));
        }
        return noise;
    }

    /** Runs every action at its time after {@code startNs}, then waits until {@code durationS} has passed. */
    void run(long startNs, double durationS) {
        for (Action action : actions) {
            if (!sleepUntil(startNs + Math.round(action.atS() * 1e9))) {
                return;
            }
            action.run().run();
        }
        sleepUntil(startNs + Math.round(durationS * 1e9));
    }

    private static boolean sleepUntil(long deadlineNs) {
        long remainingNs;
        while ((remainingNs = deadlineNs - System.nanoTime()) > 0) {
            LockSupport.parkNanos(remainingNs);
            if (Thread.currentThread().isInterrupted()) {
                return false;
            }
        }
        return true;
    }
}
