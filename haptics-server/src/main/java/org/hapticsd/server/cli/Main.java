package org.hapticsd.server.cli;

import java.io.PrintWriter;
import org.hapticsd.physics.BodyStateLostException;
import picocli.CommandLine;

/**
 * Entry point of {@code ./hapticsd}. Exit codes: 0 success, 1 failure while running (an assertion of the run
 * itself, an I/O error), 2 misuse (unknown flag, bad value, missing or invalid file), with one line on standard
 * error that names the problem and no stack trace.
 */
public final class Main {
    public static final int EXIT_OK = 0;
    public static final int EXIT_FAILURE = 1;
    public static final int EXIT_USAGE = 2;
    /** Stopped by Ctrl-C or SIGTERM after a clean close (128 + SIGINT, as a shell reports an interrupted command). */
    public static final int EXIT_INTERRUPTED = 130;
    /**
     * {@code hapticsd test}: no assertion failed, but some could not be checked because the host stalled beyond a
     * script's host-timing budget (or a lockstep link broke): run again, on a quieter machine or in lockstep.
     */
    public static final int EXIT_INCONCLUSIVE = 3;

    private Main() {
    }

    public static void main(String[] args) {
        PrintWriter err = new PrintWriter(System.err, true);
        // Any thread of ours that dies of something it did not handle says so in one line, not a stack trace (a
        // tester's recorder thread out of heap printed one). The loop thread catches its own; commands still end with
        // their exit code and zero force.
        Thread.setDefaultUncaughtExceptionHandler((thread, error) ->
            err.println("hapticsd: thread " + thread.getName() + " stopped: " + failure(error)));
        int code;
        try {
            code = run(new PrintWriter(System.out, true), err, args);
        } catch (Throwable fatal) {
            // An Error picocli lets through (out of memory, a linkage error): still one line and a failure code.
            // Every command closes its device in a finally (zero force first), which ran on the way here.
            err.println("hapticsd: " + failure(fatal));
            code = EXIT_FAILURE;
        }
        System.exit(code);
    }

    /** Runs the CLI with the given streams; returns the exit code. */
    public static int run(PrintWriter out, PrintWriter err, String... args) {
        CommandLine cli = commandLine(out, err);
        return cli.execute(withDefaultSubcommand(args));
    }

    /** {@code hapticsd} and {@code hapticsd --scene x ...} mean {@code hapticsd run ...}. */
    static String[] withDefaultSubcommand(String[] args) {
        boolean startsWithRunOption = args.length > 0 && args[0].startsWith("--")
            && !args[0].equals("--help") && !args[0].equals("--version");
        if (args.length > 0 && !startsWithRunOption) {
            return args;
        }
        String[] withRun = new String[args.length + 1];
        withRun[0] = "run";
        System.arraycopy(args, 0, withRun, 1, args.length);
        return withRun;
    }

    static CommandLine commandLine(PrintWriter out, PrintWriter err) {
        CommandLine cli = new CommandLine(new HapticsdCommand(out, err));
        cli.setOut(out);
        cli.setErr(err);
        cli.setExitCodeExceptionMapper(exception -> exception instanceof UsageException ? EXIT_USAGE : EXIT_FAILURE);
        cli.setParameterExceptionHandler((exception, arguments) -> {
            err.println("hapticsd: " + plainTypes(exception.getMessage().replace('\n', ' ').trim()));
            err.flush();
            return EXIT_USAGE;
        });
        cli.setExecutionExceptionHandler((exception, commandLine, parseResult) -> {
            if (exception instanceof UsageException) {
                err.println("hapticsd: " + exception.getMessage());
                err.flush();
                return EXIT_USAGE;
            }
            boolean explained = exception instanceof LoopOptions.SceneLoadFailure
                || exception instanceof LoopOptions.DeviceUnavailable;
            err.println("hapticsd: " + (explained ? exception.getMessage() : failure(exception)));
            err.flush();
            return EXIT_FAILURE;
        });
        return cli;
    }

    /**
     * Picocli's conversion errors name Java types ("'abc' is not an int", "'x' is not a double"); a user reads
     * "a whole number" and "a number" (a tester's {@code scene pile --spheres abc}).
     */
    static String plainTypes(String message) {
        return message.replaceAll("' is not an? (int|long|short|byte|Integer|Long)\\b", "' is not a whole number")
            .replaceAll("' is not an? (double|float|Double|Float)\\b", "' is not a number");
    }

    /**
     * "N tick(s) failed; last error: …" on one line, as run and simulate report failed ticks. A body whose state went
     * non-finite is the simulation's doing, not a fault of the program: its message, which names the body, is the
     * whole story (a string pulled past what its step follows read "org.hapticsd.physics.BodyStateLostException: …
     * (at org.hapticsd.physics.PhysicsWorld.runStages:910)"); anything else keeps its class and place to report.
     */
    static String failedTicks(long count, Throwable last) {
        String error = last == null ? "unknown"
            : last instanceof BodyStateLostException ? last.getMessage() : oneLine(last);
        return count + " tick(s) failed; last error: " + error;
    }

    /**
     * What a command that failed unexpectedly prints after "hapticsd: ": running out of heap says so and what to do
     * (a tester at -Xmx10m got "failed: java.lang.OutOfMemoryError: Java heap space (at org.HdrHistogram...)"),
     * anything else is {@link #oneLine}.
     */
    static String failure(Throwable error) {
        for (Throwable e = error; e != null; e = e.getCause() == e ? null : e.getCause()) {
            if (e instanceof OutOfMemoryError) {
                return "not enough memory (max heap " + Runtime.getRuntime().maxMemory() / (1024 * 1024) + " MB): "
                    + "give the JVM more heap (HAPTICSD_JAVA_OPTS, e.g. -Xmx2g)";
            }
        }
        return "failed: " + oneLine(error);
    }

    /**
     * An unexpected error as one line: its class, message and where it was thrown (the first frame), and the same for
     * its root cause. A user gets something to report without a stack trace burying the status lines above it.
     */
    static String oneLine(Throwable error) {
        StringBuilder b = new StringBuilder(error.toString().replace('\n', ' '));
        appendWhere(error, b);
        Throwable root = error;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        if (root != error) {
            b.append("; caused by ").append(root.toString().replace('\n', ' '));
            appendWhere(root, b);
        }
        return b.toString();
    }

    private static void appendWhere(Throwable error, StringBuilder b) {
        StackTraceElement[] frames = error.getStackTrace();
        if (frames.length > 0) {
            b.append(" (at ").append(frames[0].getClassName()).append('.').append(frames[0].getMethodName());
            if (frames[0].getLineNumber() > 0) {
                b.append(':').append(frames[0].getLineNumber());
            }
            b.append(')');
        }
    }
}
