package org.hapticsd.protocol;

/** Bits of the u16 status word carried by STATE and STATUS. Bits 8-15 are reserved, sent 0, ignored. */
public final class StatusFlags {
    /** Motors powered and applying the last FORCE. */
    public static final int OUTPUT_ENABLED = 1;
    /** Encoders referenced: positions are absolute in the workspace box. */
    public static final int HOMED = 1 << 1;
    /** FORCE frames stopped for longer than the watchdog period; output was forced to zero. */
    public static final int WATCHDOG_TRIPPED = 1 << 2;
    /** A fault is latched; STATUS carries its code. */
    public static final int FAULT = 1 << 3;
    /** The device clamped the commanded force to its limits this tick. */
    public static final int FORCE_LIMITED = 1 << 4;
    /** A homing run is in progress; FORCE is ignored until it ends. */
    public static final int HOMING = 1 << 5;
    /** Emergency stop engaged. */
    public static final int ESTOP = 1 << 6;

    private StatusFlags() {
    }
}
