package org.hapticsd.server.safety;

/** Where the safety layer is. Only {@link #RAMPING} and {@link #ACTIVE} let force through. */
public enum SafetyState {
    /** Output disabled until the rendered force has stayed small for long enough. */
    GATED,
    /** Output enabled and scaled up linearly from 0 to 1 over the ramp time. */
    RAMPING,
    /** Output passes (slew-limited and clamped). */
    ACTIVE,
    /** A fault holds the output at zero. */
    SAFE,
    /** Emergency stop: zero output, latched until reset. */
    ESTOP;

    public static final SafetyState[] ALL = values();
}
