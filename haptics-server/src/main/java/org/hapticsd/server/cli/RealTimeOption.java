package org.hapticsd.server.cli;

import org.hapticsd.server.loop.LoopRunner;
import picocli.CommandLine.Option;

/** {@code --rt-priority}: the scheduling the time-critical threads ask for, in the commands that run in real time. */
final class RealTimeOption {
    @Option(names = "--rt-priority", paramLabel = "N", defaultValue = "" + LoopRunner.DEFAULT_RT_PRIORITY,
        description = "Real-time FIFO priority of the command's time-critical threads (those it has of: the loop, a "
            + "device link's reader and writer, an emulator's firmware), 1.." + LoopRunner.MAX_RT_PRIORITY + ", or 0 "
            + "for the normal time-sharing policy. Needs CAP_SYS_NICE (root outside a restricted container) or an "
            + "rtprio limit (limits.conf rtprio, systemd LimitRTPRIO=); where refused, they run at normal priority "
            + "and the output says why. Default: ${DEFAULT-VALUE}.")
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
