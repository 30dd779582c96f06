package org.hapticsd.device.emulator;

/**
 * What a test script does to the device emulator it runs in its own process: pull the cable, put noise on the line,
 * and afterwards read what the firmware saw. Implemented by the real-time {@link EmulatorRunner} and by the
 * lockstep link, which steps the same firmware with the loop.
 */
public interface EmulatorControl {

    /** Pulls the cable out ({@code true}) or plugs it back in. Any thread. */
    void setUnplugged(boolean unplugged);

    /** Writes {@code bytes} on the line from the device, ahead of its next frames. Any thread. */
    void injectGarbage(byte[] bytes);

    /** The firmware's own count of watchdog trips; call once the emulator has stopped, or from its thread. */
    long watchdogTrips();

    /**
     * The emulator's view of the host's timing, for naming host stalls: gaps between FORCE frames arriving while the
     * cable was in and a session streamed ({@code linkGaps}), and firmware cycles that came late
     * ({@code lateCycles}); null when time is not real (lockstep). Read once the emulator has stopped.
     */
    HostTiming hostTiming();

    /** @param linkGaps gaps between FORCE arrivals; @param lateCycles late firmware cycles (both on System.nanoTime) */
    record HostTiming(GapLog linkGaps, GapLog lateCycles) {
    }
}
