package org.hapticsd.server.cli;

import org.hapticsd.server.loop.LoopRunner;
import picocli.CommandLine.Option;

/** {@code --rt-priority}: the scheduling the loop thread asks for, in the commands that run it in real time. */
final class RealTimeOption {
    @Option(names = "--rt-priority", paramLabel = "N", defaultValue = "" + LoopRunner.DEFAULT_RT_PRIORITY,
        description = "Real-time FIFO priority of the loop thread, 1.." + LoopRunner.MAX_RT_PRIORITY + ", or 0 for "
            + "the normal time-sharing policy. Needs root, CAP_SYS_NICE or ulimit -r; where refused, the loop runs "
            + "at normal priority and says why. Default: ${DEFAULT-VALUE}.")
    int rtPriority;

    /** The priority asked for, checked: exit 2 outside 0..98. */
    int rtPriority() {
        if (rtPriority < 0 || rtPriority > LoopRunner.MAX_RT_PRIORITY) {
            throw new UsageException("--rt-priority must be 0 (the normal policy) or 1.." + LoopRunner.MAX_RT_PRIORITY
                + ", got " + rtPriority);
        }
        return rtPriority;
    }
}
