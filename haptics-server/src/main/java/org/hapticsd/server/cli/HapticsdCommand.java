package org.hapticsd.server.cli;

import java.io.PrintWriter;
import picocli.CommandLine.Command;

/** {@code hapticsd}: with no subcommand {@link Main} runs {@code hapticsd run} on the embedded defaults. */
@Command(name = "hapticsd", mixinStandardHelpOptions = true, version = "hapticsd 0.1.0",
    description = "Haptic rendering server for force-feedback devices.",
    subcommands = {RunCommand.class, SimulateCommand.class, BenchCommand.class, TestCommand.class,
        EmulateCommand.class, DevicesCommand.class, WatchCommand.class, SendCommand.class, SceneCommand.class,
        CalibrateCommand.class})
public final class HapticsdCommand {
    private final PrintWriter out;
    private final PrintWriter err;

    HapticsdCommand(PrintWriter out, PrintWriter err) {
        this.out = out;
        this.err = err;
    }

    PrintWriter out() {
        return out;
    }

    PrintWriter err() {
        return err;
    }
}
