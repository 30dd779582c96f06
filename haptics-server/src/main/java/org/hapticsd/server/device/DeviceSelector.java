package org.hapticsd.server.device;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;
import org.hapticsd.device.DeviceException;
import org.hapticsd.device.HapticDevice;
import org.hapticsd.device.emulator.EmulatedDevice;
import org.hapticsd.device.emulator.EmulatorProfile;
import org.hapticsd.device.link.LinkAddress;
import org.hapticsd.device.link.LinkHapticDevice;
import org.hapticsd.device.link.LinkSession;
import org.hapticsd.device.lockstep.LockstepClock;
import org.hapticsd.device.sim.HandTarget;
import org.hapticsd.server.record.ReplayDevice;
import org.hapticsd.server.scene.BuiltScene;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens a device by the name given to {@code --device} or a test script's {@code device}:
 * <ul>
 *   <li>{@code sim}: the scene's simulated stylus, in the loop thread, no link;
 *   <li>{@code replay:FILE}: a tick recording played back;
 *   <li>{@code serial:PORT[:BAUD]}: a device on a serial port (default 1 Mbaud);
 *   <li>{@code tcp:HOST:PORT}: a device behind a serial-to-network bridge, or {@code ./hapticsd emulate --tcp};
 *   <li>{@code emulator[:falcon|:touch]}: the device emulator started in this process, reached over a real link:
 *       a pseudo-terminal pair when socat is installed (a serial port to the driver), else TCP on 127.0.0.1.
 * </ul>
 */
public final class DeviceSelector {
    private static final Logger LOG = LoggerFactory.getLogger(DeviceSelector.class);
    public static final String NAMES = "sim, replay:FILE, serial:PORT[:BAUD], tcp:HOST:PORT, emulator[:falcon|:touch]";
    public static final String SIM = "sim";
    public static final String REPLAY_PREFIX = "replay:";
    public static final String EMULATOR = "emulator";

    private DeviceSelector() {
    }

    /** Whether {@code name} is well formed (the device may still fail to open); the message says what is wrong. */
    public static void check(String name) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("no device named (devices: " + NAMES + ")");
        }
        if (SIM.equals(name)) {
            return;
        }
        if (name.startsWith(REPLAY_PREFIX)) {
            if (name.length() == REPLAY_PREFIX.length()) {
                throw new IllegalArgumentException("replay: needs a file, as replay:FILE");
            }
            return;
        }
        if (LinkAddress.isLinkAddress(name)) {
            LinkAddress.parse(name);
            return;
        }
        if (name.equals(EMULATOR) || name.startsWith(EMULATOR + ":")) {
            profile(name);
            return;
        }
        throw new IllegalArgumentException("'" + name + "' is not a device (devices: " + NAMES + ")");
    }

    /** The emulator profile named by {@code emulator[:NAME]}: falcon (the default) or touch. */
    public static EmulatorProfile profile(String name) {
        String profile = name.equals(EMULATOR) ? "falcon" : name.substring(EMULATOR.length() + 1);
        return profileNamed(profile);
    }

    /** {@code falcon} or {@code touch}, case-insensitive. */
    public static EmulatorProfile profileNamed(String profile) {
        return switch (profile.toLowerCase(Locale.ROOT)) {
            case "falcon" -> EmulatorProfile.falconLike();
            case "touch" -> EmulatorProfile.touchLike();
            default -> throw new IllegalArgumentException("unknown emulator profile '" + profile
                + "' (profiles: falcon, touch)");
        };
    }

    /**
     * Opens the named device.
     *
     * @param emulatorHand the virtual hand of an in-process emulator; null for the scene's own hand
     * @throws IllegalArgumentException the name is malformed
     * @throws DeviceException the device cannot be opened (no port, nothing answers, incompatible)
     */
    public static OpenedDevice open(String name, BuiltScene scene, int rateHz, HandTarget emulatorHand)
            throws DeviceException {
        return open(name, scene, rateHz, emulatorHand, EmulatedDevice.WATCHDOG_MIN_TIMEOUT_NS,
            InProcessEmulator.Transport.AUTO);
    }

    /**
     * As {@link #open(String, BuiltScene, int, HandTarget)}, with the in-process emulator's FORCE watchdog set to
     * at least {@code emulatorWatchdogNs}, reached over {@code transport} (both ignored for other devices).
     */
    public static OpenedDevice open(String name, BuiltScene scene, int rateHz, HandTarget emulatorHand,
                                    long emulatorWatchdogNs, InProcessEmulator.Transport transport)
            throws DeviceException {
        return open(name, scene, rateHz, emulatorHand, emulatorWatchdogNs, transport, null, 0);
    }

    /**
     * As {@link #open(String, BuiltScene, int, HandTarget)}, the threads of a link (its reader and writer) and of an
     * in-process emulator (its firmware) under the real-time FIFO policy at {@code rtPriority}, as the loop thread
     * ({@code --rt-priority}; 0: the normal policy).
     */
    public static OpenedDevice open(String name, BuiltScene scene, int rateHz, HandTarget emulatorHand, int rtPriority)
            throws DeviceException {
        return open(name, scene, rateHz, emulatorHand, EmulatedDevice.WATCHDOG_MIN_TIMEOUT_NS,
            InProcessEmulator.Transport.AUTO, null, rtPriority);
    }

    /**
     * As {@link #open(String, BuiltScene, int, HandTarget, long, InProcessEmulator.Transport)}; with a
     * {@code lockstepClock} the in-process emulator runs in lockstep with the loop on that clock
     * ({@link org.hapticsd.device.lockstep.LockstepLink}), which only {@code emulator} devices can.
     */
    public static OpenedDevice open(String name, BuiltScene scene, int rateHz, HandTarget emulatorHand,
                                    long emulatorWatchdogNs, InProcessEmulator.Transport transport,
                                    LockstepClock lockstepClock, int rtPriority)
            throws DeviceException {
        check(name);
        if (SIM.equals(name)) {
            HapticDevice sim = scene.newSimulatedDevice();
            sim.open();
            return new OpenedDevice(name, sim, null, null);
        }
        if (name.startsWith(REPLAY_PREFIX)) {
            try {
                Path file = Path.of(name.substring(REPLAY_PREFIX.length()));
                ReplayDevice replay = new ReplayDevice(file, scene.simDevice().info());
                int recordedHz = replay.recording().rateHz();
                if (recordedHz != rateHz) {
                    // One record per tick: at another rate the same positions would play faster or slower than they
                    // were recorded, and nothing would say so.
                    throw new DeviceException("recording " + file + " was made at " + recordedHz + " Hz and the loop "
                        + "runs at " + rateHz + " Hz: replay it at " + recordedHz + " Hz (--rate " + recordedHz
                        + ", or the scene's rateHz)");
                }
                String cutShort = replay.recording().cutShortNote();
                if (cutShort != null) {
                    LOG.warn("recording {} has {} are replayed, then the device goes silent and the loop SAFE", file,
                        cutShort);
                }
                String gaps = replay.recording().gapsNote();
                if (gaps != null) {
                    LOG.warn("recording {} {}", file, gaps);
                }
                replay.open();
                return new OpenedDevice(name, replay, null, null);
            } catch (java.nio.file.NoSuchFileException e) {
                throw new DeviceException("recording " + e.getFile() + " not found");
            } catch (java.nio.file.AccessDeniedException e) {
                throw new DeviceException("recording " + e.getFile() + " cannot be read (permission denied)");
            } catch (IOException e) {
                throw new DeviceException(e.getMessage());
            }
        }
        LinkSession.Config config = LinkSession.Config.defaults(rateHz);
        if (LinkAddress.isLinkAddress(name)) {
            LinkHapticDevice link = new LinkHapticDevice(LinkAddress.parse(name).connector(1_000, 20), config);
            link.setRtPriority(rtPriority);
            link.open();
            return new OpenedDevice(name, link, link, null);
        }
        HandTarget hand = emulatorHand != null ? emulatorHand : scene.handTargets().get();
        EmulatedDevice firmware = new EmulatedDevice(profile(name), hand, emulatorWatchdogNs);
        InProcessEmulator emulator;
        try {
            emulator = lockstepClock == null ? InProcessEmulator.start(firmware, transport, rtPriority)
                : InProcessEmulator.lockstep(firmware, transport, config, lockstepClock);
        } catch (IOException e) {
            throw new DeviceException("emulator: cannot start: " + e.getMessage());
        }
        if (lockstepClock != null) {
            try {
                emulator.lockstepLink().open();
            } catch (DeviceException e) {
                emulator.close();
                throw e;
            }
            return new OpenedDevice(name, emulator.lockstepLink(), null, emulator);
        }
        LinkHapticDevice link = new LinkHapticDevice(emulator.hostSide(), config);
        link.setRtPriority(rtPriority);
        try {
            link.open();
        } catch (DeviceException e) {
            emulator.close();
            throw e;
        }
        return new OpenedDevice(name, link, link, emulator);
    }
}
