package org.hapticsd.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One call of the command line with captured streams, for the emulate and devices tests: run to completion, or
 * started on another thread while the test plays the host.
 */
final class CliCall {
    /** A stack trace line as the JVM or Main's failure handler prints it, or an exception's class name. */
    private static final Pattern STACK_TRACE = Pattern.compile("(?m)^(\\tat |\\s+at )|Exception|\\.java:\\d+\\)");

    final StringWriter out = new StringWriter();
    final StringWriter err = new StringWriter();
    private CompletableFuture<Integer> exit;

    /** Runs to completion; returns the exit code. */
    static CliCall run(String... args) {
        CliCall call = new CliCall();
        call.exit = CompletableFuture.completedFuture(
            Main.run(new PrintWriter(call.out, true), new PrintWriter(call.err, true), args));
        return call;
    }

    /** Starts on another thread; {@link #exitCode} waits for it. */
    static CliCall start(String... args) {
        CliCall call = new CliCall();
        call.exit = CompletableFuture.supplyAsync(
            () -> Main.run(new PrintWriter(call.out, true), new PrintWriter(call.err, true), args));
        return call;
    }

    int exitCode() {
        return exit.join();
    }

    String out() {
        return out.toString();
    }

    String err() {
        return err.toString();
    }

    /** Waits up to {@code timeoutMs} for a complete stdout line matching {@code regex}; returns its match. */
    Matcher awaitLine(String regex, long timeoutMs) throws InterruptedException {
        Pattern pattern = Pattern.compile("(?m)^" + regex + "$");
        long endNs = System.nanoTime() + timeoutMs * 1_000_000L;
        while (System.nanoTime() - endNs < 0) {
            String text = out();
            int lastNewline = text.lastIndexOf('\n');
            Matcher matcher = pattern.matcher(lastNewline < 0 ? "" : text.substring(0, lastNewline));
            if (matcher.find()) {
                return matcher;
            }
            if (exit.isDone()) {
                break;
            }
            Thread.sleep(10);
        }
        throw new AssertionError("no line matching " + regex + " within " + timeoutMs + " ms:\n" + this);
    }

    /** Exit 2, one non-empty stderr line containing every fragment, nothing on stdout, no stack trace. */
    String assertMisuse(String... fragments) {
        return assertOneLineExit(Main.EXIT_USAGE, fragments);
    }

    /** Exit 1 (a failure that is not misuse), with one stderr line holding every fragment, and nothing else. */
    String assertFailure(String... fragments) {
        return assertOneLineExit(Main.EXIT_FAILURE, fragments);
    }

    private String assertOneLineExit(int code, String... fragments) {
        assertEquals(code, exitCode(), toString());
        List<String> lines = err().lines().toList();
        assertEquals(1, lines.size(), "exactly one stderr line: " + this);
        String line = lines.get(0);
        for (String fragment : fragments) {
            assertTrue(line.contains(fragment), "'" + fragment + "' in: " + line);
        }
        assertEquals("", out(), "nothing on stdout: " + this);
        assertFalse(STACK_TRACE.matcher(err()).find(), "no stack trace: " + this);
        return line;
    }

    @Override
    public String toString() {
        return "exit " + (exit.isDone() ? exit.join() : "(running)") + "\n--- stdout ---\n" + out() + "--- stderr ---\n"
            + err();
    }
}
