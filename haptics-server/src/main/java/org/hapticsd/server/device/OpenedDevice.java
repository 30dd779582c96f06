package org.hapticsd.server.device;

import org.hapticsd.device.HapticDevice;
import org.hapticsd.device.link.LinkHapticDevice;
import org.hapticsd.device.link.LinkStatistics;

/**
 * A device opened from its name ({@link DeviceSelector}), with what only some devices have: link statistics
 * (serial, TCP, emulator) and the in-process emulator behind {@code emulator}.
 *
 * <p>The loop owns {@link #device()} and closes it when it stops; {@link #close()} then releases the rest (the
 * emulator), so the device's last zero-force frame still reaches a live emulator.
 */
public final class OpenedDevice implements AutoCloseable {
    private final String name;
    private final HapticDevice device;
    private final LinkHapticDevice link;
    private final InProcessEmulator emulator;

    OpenedDevice(String name, HapticDevice device, LinkHapticDevice link, InProcessEmulator emulator) {
        this.name = name;
        this.device = device;
        this.link = link;
        this.emulator = emulator;
    }

    /** The name it was opened by, as on the command line. */
    public String name() {
        return name;
    }

    public HapticDevice device() {
        return device;
    }

    /** The link driver, or null for devices without a link (sim, replay). */
    public LinkHapticDevice link() {
        return link;
    }

    /**
     * The scheduling of the link's threads and of an in-process emulator's firmware thread ("link threads: ...;
     * emulator firmware: ..."), or null for devices without a link.
     */
    public String threadPolicies() {
        return link == null ? null : "link threads: " + link.threadPolicy()
            + (emulator == null ? "" : "; emulator firmware: " + emulator.runner().threadPolicy());
    }

    /** Link statistics now, or null for devices without a link (in lockstep: once the loop has stopped). */
    public LinkStatistics linkStatistics() {
        if (link != null) {
            return link.statistics();
        }
        return emulator != null && emulator.lockstepLink() != null ? emulator.lockstepLink().statistics() : null;
    }

    /** The in-process emulator, or null unless the device is {@code emulator}. */
    public InProcessEmulator emulator() {
        return emulator;
    }

    @Override
    public void close() {
        device.close();
        if (emulator != null) {
            emulator.close();
        }
    }
}
