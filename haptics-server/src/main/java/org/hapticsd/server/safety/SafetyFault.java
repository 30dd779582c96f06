package org.hapticsd.server.safety;

/** Why the safety layer is in {@link SafetyState#SAFE}. */
public enum SafetyFault {
    NONE(false),
    /** No fresh device state for the watchdog's number of ticks. Clears by itself when states resume. */
    WATCHDOG(false),
    /** The device reports itself disconnected or faulty. Clears by itself when it reports healthy. */
    DEVICE(false),
    /** The rendered force was NaN or infinite. Latched until reset. */
    NON_FINITE_FORCE(true),
    /** Too many consecutive loop overruns. Latched until reset. */
    OVERRUNS(true),
    /** A stage of the tick threw. Latched until reset. */
    INTERNAL_ERROR(true);

    public static final SafetyFault[] ALL = values();

    private final boolean latched;

    SafetyFault(boolean latched) {
        this.latched = latched;
    }

    /** Latched faults need an explicit reset; the others clear when their cause goes away. */
    public boolean latched() {
        return latched;
    }
}
