package org.hapticsd.protocol.stream;

/**
 * The safety layer's state as sent in STATE and safety events. Mirrors the server's SafetyState; the protocol keeps
 * its own copy so clients depend on the spec's table, not on server internals.
 */
public enum SafetyCode {
    /** Output disabled until the rendered force has stayed small for long enough. */
    GATED(0),
    /** Output enabled and ramping up from zero. */
    RAMPING(1),
    /** Output passes (slew-limited and clamped). */
    ACTIVE(2),
    /** A fault holds the output at zero. */
    SAFE(3),
    /** Emergency stop: zero output, latched until reset. */
    ESTOP(4);

    private final int code;

    SafetyCode(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    /** The state with this code, or null. */
    public static SafetyCode fromCode(int code) {
        for (SafetyCode s : values()) {
            if (s.code == code) {
                return s;
            }
        }
        return null;
    }
}
