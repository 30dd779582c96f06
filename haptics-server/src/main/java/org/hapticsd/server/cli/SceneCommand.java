package org.hapticsd.server.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code hapticsd scene NAME}: writes a generated scene file, the physics validation's scale series and benchmark
 * scenes, from the same definitions the peer benchmark builds in other engines.
 */
@Command(name = "scene", mixinStandardHelpOptions = true,
    description = "Write a generated scene file: pile (spheres dropped into a box) or stack (cubes on a floor); or "
        + "check scene files as run would judge them: check FILE...",
    subcommands = {ScenePileCommand.class, SceneStackCommand.class, SceneCheckCommand.class})
final class SceneCommand implements Runnable {
    @ParentCommand
    HapticsdCommand parent;

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(),
            "scene needs a generator name, pile or stack, or check FILE...");
    }

    /**
     * Writes {@code yaml} to {@code out}, or to standard output, byte for byte, when {@code out} is null; with a file,
     * one line on standard output says what was written. The file is touched only after the directory is checked,
     * so misuse never truncates an existing file.
     */
    static void emit(String yaml, Path out, PrintWriter stdout, String what) {
        if (out == null) {
            stdout.print(yaml);
            stdout.flush();
            return;
        }
        Path directory = out.toAbsolutePath().getParent();
        if (directory != null && !Files.isDirectory(directory)) {
            throw new UsageException("--out " + out + ": directory " + directory + " does not exist");
        }
        if (Files.isDirectory(out)) {
            throw new UsageException("--out " + out + ": is a directory");
        }
        try {
            Files.writeString(out, yaml);
        } catch (IOException e) {
            throw new UsageException("--out " + out + ": cannot write: " + e.getMessage());
        }
        stdout.println("wrote " + what + " to " + out);
        stdout.flush();
    }
}
