package org.hapticsd.device.link;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.concurrent.locks.LockSupport;
import org.hapticsd.device.DeviceFault;
import org.hapticsd.device.DeviceHealth;
import org.hapticsd.device.DeviceState;
import org.hapticsd.device.emulator.EmulatedDevice;
import org.hapticsd.device.emulator.EmulatorProfile;
import org.hapticsd.device.emulator.EmulatorRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The driver on a real serial port: the host end of a socat pseudo-terminal pair opened through jSerialComm at
 * 1 Mbaud, the emulated firmware on the other end. .ci/run installs socat, so this test does not skip in CI.
 */
class LinkOverPtyTest {
    private static final long MS = 1_000_000L;

    @Test
    void shouldHandshakeStreamAndApplyForceOverAPseudoTerminal(@TempDir Path dir) throws Exception {
        assertTrue(PseudoTerminalPair.isAvailable(), "socat is required (.ci/run installs the Debian package)");
        try (PseudoTerminalPair pair = PseudoTerminalPair.start(dir);
             EmulatorRunner emulator = new EmulatorRunner(new EmulatedDevice(EmulatorProfile.touchLike()),
                 SerialByteLink.connector(pair.devicePath().toString(), 1_000_000, 20)).start();
             LinkHapticDevice device = new LinkHapticDevice(
                 LinkAddress.parse("serial:" + pair.hostPath()).connector(1_000, 20),
                 LinkHapticDevice.Config.defaults(1000))) {
            device.open();
            assertEquals("Touch-like emulator", device.info().name());
            assertEquals(3.3, device.info().maxForceN(), 1e-6, "float32 3.3 read back as a double");
            DeviceState state = new DeviceState();
            DeviceHealth health = new DeviceHealth();
            int fresh = 0;
            boolean applied = false;
            long end = System.nanoTime() + 2_000 * MS;
            while (System.nanoTime() - end < 0 && !(applied && fresh >= 300)) {
                long now = System.nanoTime();
                if (device.readState(now, state)) {
                    fresh++;
                }
                device.health(now, health);
                boolean safe = health.connected && health.fault == DeviceFault.NONE;
                // 0.75 N is exact in float32: the device applies and reports exactly it.
                device.commandForce(0.0, safe ? 0.75 : 0.0, 0.0, 0, 0, 0);
                applied |= state.appliedForceYN == 0.75;
                LockSupport.parkNanos(MS);
            }
            assertTrue(applied, "STATE never reported the applied 0.75 N");
            assertTrue(fresh >= 300, "fresh states in at most 2 s: " + fresh);
            LinkStatistics stats = device.statistics();
            assertEquals(0, stats.framesDamagedOrLost(), stats.summary());
            assertTrue(stats.roundTripNs().getTotalCount() > 0, stats.summary());
        }
    }
}
