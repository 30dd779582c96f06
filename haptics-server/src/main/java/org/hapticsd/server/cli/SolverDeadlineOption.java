package org.hapticsd.server.cli;

import picocli.CommandLine.Option;

/** {@code --no-solver-deadline}, in the commands that run the real-time loop ({@code HapticLoop#setSolverDeadline}). */
final class SolverDeadlineOption {
    @Option(names = "--no-solver-deadline",
        description = "Let the physics step's contact solver sweep to convergence (or its sweep budget) on every "
            + "tick. By default, past 60%% of the tick the solver stops after its first sweep and carries the rest "
            + "into the next step, so a slow machine costs the contacts some convergence rather than the device "
            + "its tick; and a step the machine runs too slow to end before the next deadline is dropped (the bodies "
            + "stand still for that tick). Without it, the step's answer does not depend on the machine's speed.")
    boolean off;

    boolean on() {
        return !off;
    }
}
