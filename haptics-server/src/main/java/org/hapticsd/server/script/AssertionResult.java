package org.hapticsd.server.script;

/**
 * One checked assertion: its name, its outcome, and the measured value against the expectation. An assertion whose
 * window the host did not keep time in (a stall beyond the script's host-timing budget) is {@link Outcome#ERROR}:
 * neither a pass nor a device failure, with the stall in {@link #error()}. {@link #hostTiming()} says how the host
 * kept time in the assertion's window, or is null when that cannot matter (lockstep).
 */
public record AssertionResult(String name, Outcome outcome, String measured, String expected, String error,
                              String hostTiming) {

    /** PASS, FAIL (the device or the server did not do what the script expects), ERROR (the run cannot say). */
    public enum Outcome { PASS, FAIL, ERROR }

    /** A pass or a failure, without host timing (set later with {@link #withHostTiming}). */
    public AssertionResult(String name, boolean passed, String measured, String expected) {
        this(name, passed ? Outcome.PASS : Outcome.FAIL, measured, expected, null, null);
    }

    public boolean passed() {
        return outcome == Outcome.PASS;
    }

    public AssertionResult withHostTiming(String timing) {
        return new AssertionResult(name, outcome, measured, expected, error, timing);
    }

    /** The same check, not counted: the host stalled in its window ({@code why} names the stall). */
    public AssertionResult asError(String why) {
        return new AssertionResult(name, Outcome.ERROR, measured, expected, why, hostTiming);
    }

    public String line() {
        String checked = "measured " + measured + ", expected " + expected;
        return switch (outcome) {
            case PASS -> "PASS " + name + ": " + checked;
            case FAIL -> "FAIL " + name + ": " + checked;
            case ERROR -> "ERROR " + name + ": " + error + " (not checked: " + checked + ")";
        };
    }
}
