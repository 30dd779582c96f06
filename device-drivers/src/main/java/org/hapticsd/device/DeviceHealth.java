package org.hapticsd.device;

/** Link health of a device, preallocated by the reader and overwritten in place. */
public final class DeviceHealth {
    public boolean connected;
    /** Time since the newest state was produced, on the loop clock; {@link Long#MAX_VALUE} before the first. */
    public long lastStateAgeNs = Long.MAX_VALUE;
    /** Fault reported by the device itself; {@link DeviceFault#NONE} when healthy. */
    public DeviceFault fault = DeviceFault.NONE;
}
