package org.hapticsd.protocol.stream;

/** Bits of STATE's {@code flags} byte; bits 3..7 are reserved (0 when sent, ignored when received). */
final class StateFlags {
    static final int DEVICE_CONNECTED = 1;
    static final int PAUSED = 1 << 1;
    static final int PHYSICS_OVER_BUDGET = 1 << 2;

    private StateFlags() {
    }
}
