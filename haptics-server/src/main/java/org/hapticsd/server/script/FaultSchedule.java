package org.hapticsd.server.script;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongFunction;
import org.hapticsd.device.emulator.EmulatorControl;
import org.hapticsd.server.loop.CommandQueue;
import org.hapticsd.server.loop.LoopCommand;

/**
 * Injects a script's faults at their times while the loop runs: unplugging the emulator's cable (and plugging it
 * back), noise on the line, and a stall of the loop thread itself; its known forces ({@code renderForce}), which
 * the loop adds to what it renders; and its changes of the bodies' material effects ({@code set}). In real time
 * {@link #run} does it from the script's own thread on the wall clock; in lockstep the loop thread calls
 * {@link #runDue} before each tick, so a fault lands on the same tick on every machine.
 *
 * <p>A stall is a loop command that stops the loop inside one tick: exactly the fault a real server suffers from a
 * page fault or a collector pause, and the one the device's own watchdog exists for. In real time it parks the loop
 * thread; in lockstep it moves the lockstep clock on by the stall, which the device sees the same way.
 */
final class FaultSchedule {
    /** Seeded so a script's noise is the same bytes on every run. */
    private static final long GARBAGE_SEED = 0x5EED_6A2BL;

    private record Action(double atS, Runnable run) {
    }

    /** A loop command the script gives at a time: a {@code set} step's change. */
    record Timed(double atS, LoopCommand command) {
    }

    private final List<Action> actions = new ArrayList<>();
    private int next;

    /**
     * @param changes      the {@code set} steps' commands at their times
     * @param emulator     the in-process emulator the cable and line faults act on (null without one)
     * @param stallCommand makes the loop command that stalls the loop for the given nanoseconds
     */
    FaultSchedule(List<ScriptSpec.Step> timeline, List<Timed> changes, CommandQueue commands,
                  EmulatorControl emulator, LongFunction<LoopCommand> stallCommand) {
        for (ScriptSpec.Step step : timeline) {
            if (step.unplugS() > 0) {
                actions.add(new Action(step.atS(), () -> emulator.setUnplugged(true)));
                actions.add(new Action(step.atS() + step.unplugS(), () -> emulator.setUnplugged(false)));
            } else if (step.garbageBytes() > 0) {
                byte[] noise = noise(step.garbageBytes());
                actions.add(new Action(step.atS(), () -> emulator.injectGarbage(noise)));
            } else if (step.stallS() > 0) {
                LoopCommand stall = stallCommand.apply(Math.round(step.stallS() * 1e9));
                actions.add(new Action(step.atS(), () -> commands.offer(stall)));
            } else if (step.renderForceN() != null) {
                double[] f = step.renderForceN();
                double frequencyHz = step.frequencyHz();
                LoopCommand force = loop -> loop.setTestForce(f[0], f[1], f[2], frequencyHz);
                actions.add(new Action(step.atS(), () -> commands.offer(force)));
            }
        }
        for (Timed change : changes) {
            actions.add(new Action(change.atS(), () -> commands.offer(change.command())));
        }
        // Stable: steps at the same time keep the timeline's order.
        actions.sort(Comparator.comparingDouble(Action::atS));
    }

    /** The real-time stall: the loop thread parks, and the trace marks the tick. */
    static LongFunction<LoopCommand> parkingStall(TickTrace trace) {
        return stallNs -> loop -> {
            trace.markInjectedStall();
            LockSupport.parkNanos(stallNs);
        };
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

    /**
     * Real time: runs every action at its time after {@code startNs}, then waits until {@code durationS} passed, or
     * until {@code stop} says so (checked whenever the thread wakes: a stop unparks it).
     */
    void run(long startNs, double durationS, java.util.function.BooleanSupplier stop) {
        for (Action action : actions) {
            if (!sleepUntil(startNs + Math.round(action.atS() * 1e9), stop)) {
                return;
            }
            action.run().run();
        }
        sleepUntil(startNs + Math.round(durationS * 1e9), stop);
    }

    /** Lockstep, on the loop thread before a tick: runs the actions due by {@code sinceFirstTickNs}. */
    void runDue(long sinceFirstTickNs) {
        while (next < actions.size() && Math.round(actions.get(next).atS() * 1e9) <= sinceFirstTickNs) {
            actions.get(next++).run().run();
        }
    }

    private static boolean sleepUntil(long deadlineNs, java.util.function.BooleanSupplier stop) {
        long remainingNs;
        while ((remainingNs = deadlineNs - System.nanoTime()) > 0) {
            if (stop.getAsBoolean() || Thread.currentThread().isInterrupted()) {
                return false;
            }
            LockSupport.parkNanos(remainingNs);
        }
        return !stop.getAsBoolean();
    }
}
