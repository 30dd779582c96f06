package org.hapticsd.server.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code hapticsd bench NAME}: built-in benchmarks. */
@Command(name = "bench", mixinStandardHelpOptions = true, description = "Built-in benchmarks.",
    subcommands = {LoopBenchCommand.class, StreamBenchCommand.class})
final class BenchCommand implements Runnable {
    @ParentCommand
    HapticsdCommand parent;

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "bench needs a benchmark name: loop or stream");
    }
}
