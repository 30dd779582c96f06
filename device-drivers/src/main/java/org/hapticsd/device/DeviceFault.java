package org.hapticsd.device;

/** Faults a device reports about itself. */
public enum DeviceFault {
    NONE,
    /** The link is down or frames stopped arriving. */
    LINK_LOST,
    /** The device's own force clamp or thermal protection tripped. */
    OVER_FORCE,
    /**
     * The device's own FORCE watchdog tripped (its output is zero); it needs a re-arm, which a driver sends only
     * while the host commands zero force, so force resumes through the host's start-up gate.
     */
    WATCHDOG,
    /** The device reported an internal error. */
    INTERNAL,
    /**
     * The device's positions are not absolute (its HOMED flag is clear, spec 4.9): a homing run is under way, has
     * failed, or has not been done. Force is never applied to it: the scene would be felt in the wrong place.
     */
    NOT_HOMED
}
