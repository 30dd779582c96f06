package org.hapticsd.protocol;

/**
 * Which way a frame travels. Bit 7 of the type code carries it, so a receiver knows the direction of any frame
 * from its header alone and can keep one sequence tracker per direction.
 */
public enum Direction {
    HOST_TO_DEVICE,
    DEVICE_TO_HOST
}
