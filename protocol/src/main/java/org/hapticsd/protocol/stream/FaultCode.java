package org.hapticsd.protocol.stream;

/** Why the safety layer is SAFE (mirrors the server's SafetyFault; NONE otherwise). */
public enum FaultCode {
    NONE(0),
    /** No fresh device state for the watchdog's number of ticks; clears when states resume. */
    WATCHDOG(1),
    /** The device reports itself disconnected or faulty; clears when it reports healthy. */
    DEVICE(2),
    /** The rendered force was NaN or infinite; latched until reset. */
    NON_FINITE_FORCE(3),
    /** Too many consecutive loop overruns; latched until reset. */
    OVERRUNS(4),
    /** A stage of the tick threw; latched until reset. */
    INTERNAL_ERROR(5);

    private final int code;

    FaultCode(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    /** The fault with this code, or null. */
    public static FaultCode fromCode(int code) {
        for (FaultCode f : values()) {
            if (f.code == code) {
                return f;
            }
        }
        return null;
    }
}
