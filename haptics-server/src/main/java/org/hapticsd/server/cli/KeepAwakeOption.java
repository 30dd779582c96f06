package org.hapticsd.server.cli;

import picocli.CommandLine.Option;

/** {@code --no-keep-cpu-awake}, in the commands that run the real-time loop ({@code LoopRunner#keepCpuAwake}). */
final class KeepAwakeOption {
    @Option(names = "--no-keep-cpu-awake",
        description = "Let the loop's CPU go idle between ticks. By default, with a wait that parks (hybrid, sleep), the "
            + "loop thread runs on the last CPU it may use and an idle-priority (SCHED_IDLE) thread spins there "
            + "whenever nothing else wants that CPU, so the CPU never halts: on a virtual machine a halted virtual CPU "
            + "wakes late and runs slower (docs/performance.md). That CPU then shows as busy.")
    boolean off;

    boolean on() {
        return !off;
    }
}
