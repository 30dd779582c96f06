package org.hapticsd.protocol.stream;

/**
 * How the physics handles a pair of bodies in contact (the scene's {@code contact.mode} and {@code contactModes}),
 * as sent in IMPULSE_COLLISION events (table 7.7 of the spec). Mirrors the engine's ContactMode; the protocol keeps
 * its own copy so clients depend on the spec's table, not on engine internals.
 */
public enum ContactModeCode {
    /** The pair passes through. */
    NONE(0),
    /** Contact impulses from a complementarity problem (the constraint method). */
    LCP(1),
    /** A spring and damper on the penetration. */
    PENALTY(2),
    /** Source 000's impulse waveform, played over the collision's duration. */
    IMPULSE(3);

    private final int code;

    ContactModeCode(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    /** The mode with this code, or null. */
    public static ContactModeCode fromCode(int code) {
        for (ContactModeCode m : values()) {
            if (m.code == code) {
                return m;
            }
        }
        return null;
    }
}
