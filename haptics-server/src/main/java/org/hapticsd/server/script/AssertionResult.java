package org.hapticsd.server.script;

/** One checked assertion: its name, whether it held, and the measured value against the expectation. */
public record AssertionResult(String name, boolean passed, String measured, String expected) {

    public String line() {
        return (passed ? "PASS " : "FAIL ") + name + ": measured " + measured + ", expected " + expected;
    }
}
