package org.hapticsd.device;

/** A device could not be opened or reached; the message names the device and what went wrong. */
public class DeviceException extends Exception {
    public DeviceException(String message) {
        super(message);
    }

    public DeviceException(String message, Throwable cause) {
        super(message, cause);
    }
}
