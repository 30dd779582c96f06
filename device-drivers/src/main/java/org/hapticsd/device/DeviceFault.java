package org.hapticsd.device;

/** Faults a device reports about itself. */
public enum DeviceFault {
    NONE,
    /** The link is down or frames stopped arriving. */
    LINK_LOST,
    /** The device's own force clamp or thermal protection tripped. */
    OVER_FORCE,
    /** The device reported an internal error. */
    INTERNAL
}
