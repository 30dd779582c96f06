package org.hapticsd.device.emulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.hapticsd.device.DeviceState;
import org.hapticsd.device.sim.FixedHandTarget;
import org.hapticsd.device.sim.SimulatedDevice;
import org.hapticsd.protocol.Direction;
import org.hapticsd.protocol.HomingProgress;
import org.hapticsd.protocol.HomingRequest;
import org.hapticsd.protocol.Info;
import org.hapticsd.protocol.MessageType;
import org.hapticsd.protocol.Status;
import org.hapticsd.protocol.StatusFlags;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The emulated firmware against the protocol spec, driven byte-for-byte by a host-side codec and a fake clock. */
class EmulatedDeviceTest {

    private static final long MS = 1_000_000L;
    private static final long US = 1_000L;

    private static HostLink openSession(EmulatorProfile profile, int rateHz) {
        HostLink host = new HostLink(new EmulatedDevice(profile));
        host.sendHello(1, 1, rateHz, 0L);
        host.poll(0L);
        return host;
    }

    private static HostLink openVersion2Session(EmulatorProfile profile, int rateHz) {
        HostLink host = new HostLink(new EmulatedDevice(profile));
        host.sendHello(1, 2, rateHz, 0L);
        host.poll(0L);
        assertEquals(2, host.lastInfo.selectedVersion());
        return host;
    }

    @Test
    void shouldAnswerHelloWithInfoThatDecodesOnHost() {
        HostLink host = new HostLink(new EmulatedDevice(EmulatorProfile.falconLike()));
        host.sendHello(1, 3, 1000, 0L);
        int bytes = host.poll(0L);

        // INFO (92 bytes on the wire, framed as version 1) first, the session's initial STATUS (18 in version 2),
        // then the first STATE (72 in version 2) right after INFO, as spec 6.5 says.
        assertEquals(MessageType.INFO.wireBytes(1) + MessageType.STATUS.wireBytes(2) + MessageType.STATE.wireBytes(2),
                bytes);
        assertEquals(0, host.rx[MessageType.INFO.wireBytes(1) - 1], "INFO ends with the delimiter");
        assertEquals(MessageType.INFO.code(), host.typeLog[0]);
        assertEquals(MessageType.STATUS.code(), host.typeLog[1]);
        assertEquals(MessageType.STATE.code(), host.typeLog[2]);
        assertEquals(Status.FAULT_NONE, host.lastStatusFault);
        assertEquals(1, host.infoCount);
        assertEquals(0, host.decoder.crcErrors() + host.decoder.malformedFrames());

        Info info = host.lastInfo;
        assertEquals(2, info.selectedVersion(), "highest of 1..3 the firmware speaks");
        assertEquals(2, host.lastStateVersion, "frames after INFO in the session's version");
        assertEquals(3, info.selectedRateIndex(), "1000 Hz = 125 * 2^3");
        assertEquals(3, info.sensedDof());
        assertEquals(3, info.actuatedDof());
        assertEquals(8.0f, info.maxForceN());
        assertEquals(4.0f, info.maxContinuousForceN());
        assertEquals(3000.0f, info.nominalStiffnessNpm());
        assertEquals(EmulatorProfile.RATES_125_TO_1000_HZ, info.supportedRates());
        assertEquals(-0.05f, info.workspaceMinM(0));
        assertEquals(0.05f, info.workspaceMaxM(2));
        assertEquals("Falcon-like emulator", info.name());
        assertTrue(host.device.isSessionActive());
        assertEquals(0, host.lastStateFlags & StatusFlags.OUTPUT_ENABLED, "output off until a FORCE enables it");
    }

    @Test
    void shouldAnswerUnsupportedVersionWithVersionZeroThenIncompatibleStatus() {
        HostLink host = new HostLink(new EmulatedDevice(EmulatorProfile.touchLike()));
        host.sendHello(3, 4, 1000, 0L);
        host.poll(0L);

        assertEquals(MessageType.INFO.code(), host.typeLog[0]);
        assertEquals(MessageType.STATUS.code(), host.typeLog[1]);
        assertEquals(0, host.lastInfo.selectedVersion());
        assertEquals(Info.NO_RATE, host.lastInfo.selectedRateIndex());
        assertEquals(Status.FAULT_INCOMPATIBLE_VERSION, host.lastStatusFault);
        assertEquals(StatusFlags.FAULT, host.lastStatusFlags & StatusFlags.FAULT);

        // Every frame but HELLO is ignored: FORCE applies nothing and no STATE is streamed. Not streaming, the
        // device sends a heartbeat and a STATUS every 50 ms: at 50, 100 and 150 ms within [1, 200) ms.
        host.sendForce(1f, 0f, 0f, true, 1 * MS);
        host.pollEvery(1 * MS, 200 * MS, 1 * MS);
        assertEquals(0.0, host.device.appliedForceN(0));
        assertEquals(0, host.stateCount);
        assertEquals(3, host.heartbeatCount);
        assertTrue(host.statusCount >= 1 + host.heartbeatCount, "a STATUS with every heartbeat");
    }

    @Test
    void shouldRecoverSessionWhenHelloRetriesWithCommonVersion() {
        HostLink host = new HostLink(new EmulatedDevice(EmulatorProfile.falconLike()));
        host.sendHello(3, 3, 1000, 0L);
        host.poll(0L);
        host.sendHello(1, 3, 500, 1 * MS);
        host.poll(1 * MS);

        assertEquals(2, host.lastInfo.selectedVersion());
        assertEquals(2, host.lastInfo.selectedRateIndex(), "500 Hz");
        assertEquals(Status.FAULT_NONE, host.device.faultCode());
        assertTrue(host.device.isSessionActive());
    }

    /**
     * Polls every 100 µs for one simulated second. 100 µs divides every period up to 8 kHz exactly, so each
     * STATE goes out on its deadline: the count is the rate (±1 for the frame at t = 0 vs the one at 1 s) and
     * consecutive deviceTimeUs differ by exactly one period.
     */
    @ParameterizedTest
    @CsvSource({"1000, 1000", "500, 500", "250, 250", "125, 125", "0, 1000", "700, 500", "4000, 1000"})
    void shouldStreamStateAtNegotiatedRateWithIncreasingSequence(int requestedHz, int expectedHz) {
        HostLink host = new HostLink(new EmulatedDevice(EmulatorProfile.falconLike()));
        host.sendHello(1, 1, requestedHz, 0L);
        host.pollEvery(0L, 1_000 * MS, 100 * US);

        assertEquals(expectedHz, host.device.sessionRateHz());
        assertEquals(expectedHz, host.stateCount, 1.0, "STATE frames in one simulated second");
        assertTrue(host.stateSequenceIncreasing);
        long periodUs = 1_000_000L / expectedHz;
        assertEquals(periodUs, host.minStateIntervalUs);
        assertEquals(periodUs, host.maxStateIntervalUs);
        // Spec 5: one counter for all device frames, +1 per frame, so the host sees no gap and nothing stale.
        assertEquals(0, host.decoder.sequenceGaps(Direction.DEVICE_TO_HOST));
        assertEquals(0, host.decoder.staleFrames(Direction.DEVICE_TO_HOST));
        assertEquals(0, host.decoder.duplicates(Direction.DEVICE_TO_HOST));
    }

    @Test
    void shouldNotBurstMissedStatesAfterAStall() {
        HostLink host = openSession(EmulatorProfile.falconLike(), 1000);
        host.clearRecord();
        host.poll(50 * MS);
        assertEquals(1, host.stateCount, "a 50 ms stall yields one STATE, not 50");
        host.poll(50 * MS + 999 * US);
        assertEquals(1, host.stateCount, "the schedule restarted from the stall: next one due at 51 ms");
        host.poll(51 * MS);
        assertEquals(2, host.stateCount);
    }

    /**
     * The emulator's stylus is {@link SimulatedDevice} with the profile's config, so with the same hand, the same
     * force (exact in float32) and the same call times its trajectory must be the same to rounding.
     */
    @Test
    void shouldApplyForceAndPushStylusAgainstHandLikeSimulatedDevice() {
        EmulatorProfile profile = EmulatorProfile.falconLike();
        HostLink host = openSession(profile, 1000);
        SimulatedDevice reference = new SimulatedDevice(profile.simulatedDeviceConfig(),
                new FixedHandTarget(0.0, 0.0, 0.0));
        reference.open();
        DeviceState referenceState = new DeviceState();
        reference.readState(0L, referenceState);

        for (long t = 1 * MS; t <= 300 * MS; t += MS) {
            host.sendForce(2f, 0f, -1f, true, t);
            host.poll(t);
            reference.readState(t, referenceState);
            reference.commandForce(2.0, 0.0, -1.0, 0.0, 0.0, 0.0);
        }

        assertEquals(2.0, host.device.appliedForceN(0));
        assertEquals(-1.0, host.device.appliedForceN(2));
        assertTrue(host.device.isOutputEnabled());
        assertEquals(StatusFlags.OUTPUT_ENABLED, host.lastStateFlags & StatusFlags.OUTPUT_ENABLED);
        // Same arithmetic in the same order: 1e-12 m only allows for a different summation order, none expected.
        assertEquals(referenceState.positionXM, host.device.positionM(0), 1e-12);
        assertEquals(referenceState.positionZM, host.device.positionM(2), 1e-12);
        // Against the hand: the stylus settles at F / k_hand = (0.01, 0, -0.005) m. Mass 0.15 kg, k 200 N/m,
        // c 7 N*s/m decays as exp(-23 t); after 0.3 s the transient is under 1e-3 of the step: 1e-4 m is loose.
        double handKNpm = profile.simulatedDeviceConfig().handStiffnessNpm();
        assertEquals(2.0 / handKNpm, host.device.positionM(0), 1e-4);
        assertEquals(-1.0 / handKNpm, host.device.positionM(2), 1e-4);
        assertEquals((float) host.device.positionM(0), host.lastStatePositionXM, "STATE carries the position");
        assertEquals(2f, host.lastStateAppliedForceN[0], "STATE carries the applied force");
        assertEquals(-1f, host.lastStateAppliedForceN[2]);
    }

    @Test
    void shouldReportClampedAndWatchdogZeroedForceInState() {
        HostLink host = openSession(EmulatorProfile.falconLike(), 1000);
        host.sendForce(0f, 0f, 80f, true, 1 * MS);
        host.poll(1 * MS);
        // 80 N along z clamped to the profile's 8 N keeping direction: exact in float32.
        assertEquals(8f, host.lastStateAppliedForceN[2]);
        assertEquals(StatusFlags.FORCE_LIMITED, host.lastStateFlags & StatusFlags.FORCE_LIMITED);
        for (long t = 2 * MS; t <= 12 * MS; t += MS) {
            host.poll(t);
        }
        // No FORCE for 11 ms > the 5 ms watchdog: the device reports what it applies, which is nothing.
        assertEquals(0f, host.lastStateAppliedForceN[2]);
        assertEquals(StatusFlags.WATCHDOG_TRIPPED, host.lastStateFlags & StatusFlags.WATCHDOG_TRIPPED);
    }

    @Test
    void shouldEchoPingTokenInPongWithDeviceTime() {
        HostLink host = openSession(EmulatorProfile.falconLike(), 1000);
        host.sendPing(0xCAFE_F00DL, 7 * MS + 250 * US);
        host.poll(8 * MS);
        assertEquals(1, host.pongCount);
        assertEquals(0xCAFE_F00DL, host.lastPongToken);
        assertEquals(7_250L, host.lastPongDeviceTimeUs, "device time at reception, µs");
        host.poll(9 * MS);
        assertEquals(1, host.pongCount, "one PONG per PING");
    }

    @Test
    void shouldAnswerOnlyTheNewestOfSeveralPingsAndNoneBeforeHello() {
        HostLink before = new HostLink(new EmulatedDevice(EmulatorProfile.falconLike()));
        before.sendPing(1L, 0L);
        before.poll(1 * MS);
        assertEquals(0, before.pongCount, "no session, no answer");

        HostLink host = openSession(EmulatorProfile.falconLike(), 1000);
        host.sendPing(1L, 1 * MS);
        host.sendPing(2L, 1 * MS + 100 * US);
        host.poll(2 * MS);
        assertEquals(1, host.pongCount);
        assertEquals(2L, host.lastPongToken);
    }

    /** Spec 6.4: in a session a FORCE framed in another version the device speaks is malformed and not applied. */
    @Test
    void shouldIgnoreAndCountAForceInAnotherVersionThanTheSessions() {
        HostLink host = openSession(EmulatorProfile.falconLike(), 1000);
        int other = host.device.sessionVersion() == 1 ? 2 : 1;
        host.sendForce(2f, 0f, 0f, true, 1 * MS);
        assertEquals(2.0, host.device.appliedForceN(0));
        long malformed = host.device.malformedFrames();
        host.sendForceInVersion(other, 5f, 0f, 0f, true, 2 * MS);
        assertEquals(2.0, host.device.appliedForceN(0), "the FORCE in version " + other + " is not applied");
        assertEquals(malformed + 1, host.device.malformedFrames());
    }

    @Test
    void shouldIgnoreAndCountForceWithNonNewerSequence() {
        HostLink host = openSession(EmulatorProfile.falconLike(), 1000);
        host.sendForceWithSequence(10, 2f, 0f, 0f, true, 1 * MS);
        assertEquals(2.0, host.device.appliedForceN(0));

        host.sendForceWithSequence(10, 5f, 0f, 0f, true, 2 * MS);
        assertEquals(2.0, host.device.appliedForceN(0), "duplicate (d = 0) ignored");
        host.sendForceWithSequence(9, 1f, 0f, 0f, true, 3 * MS);
        assertEquals(2.0, host.device.appliedForceN(0), "stale (d < 0) ignored");
        host.sendForceWithSequence(10 - 32_768, 1f, 0f, 0f, true, 4 * MS);
        assertEquals(2.0, host.device.appliedForceN(0), "d = -32768 is not newer under RFC 1982");
        assertEquals(3, host.device.staleForcesIgnored());

        host.sendForceWithSequence(11, 3f, 0f, 0f, true, 5 * MS);
        assertEquals(3.0, host.device.appliedForceN(0), "d = 1 applied");
        // Forward in steps under 32768 to the top of the range, then across the wrap.
        host.sendForceWithSequence(20_000, 4f, 0f, 0f, true, 5 * MS);
        host.sendForceWithSequence(40_000, 4f, 0f, 0f, true, 5 * MS);
        host.sendForceWithSequence(65_535, 5f, 0f, 0f, true, 5 * MS);
        assertEquals(5.0, host.device.appliedForceN(0), "d = 25535 is newer");
        host.sendForce(6f, 0f, 0f, true, 5 * MS);
        assertEquals(6.0, host.device.appliedForceN(0), "65535 -> 0 wraps forward");
        host.sendForceWithSequence(65_535, 7f, 0f, 0f, true, 5 * MS);
        assertEquals(6.0, host.device.appliedForceN(0), "0 -> 65535 is one step back");
        assertEquals(4, host.device.staleForcesIgnored());
    }

    @Test
    void shouldNotFeedWatchdogWithNonNewerForce() {
        HostLink host = openSession(EmulatorProfile.falconLike(), 1000);
        host.sendForceWithSequence(100, 2f, 0f, 0f, true, 1 * MS);
        for (long t = 2 * MS; t <= 6 * MS; t += MS) {
            host.sendForceWithSequence(100, 2f, 0f, 0f, true, t);
        }
        // Fed only at 1 ms: deadline 1 + 5 = 6 ms, so the duplicate at 6 ms finds it already tripped.
        assertTrue(host.device.isWatchdogTripped());
        assertEquals(0.0, host.device.appliedForceN(0));
        assertEquals(5, host.device.staleForcesIgnored());
    }

    @Test
    void shouldClampForceAboveProfileMaxKeepingDirection() {
        HostLink host = openSession(EmulatorProfile.falconLike(), 1000);
        host.sendForce(30f, -40f, 0f, true, 1 * MS);
        host.poll(1 * MS);

        // |(30, -40, 0)| = 50 N → scaled by 8/50: (4.8, -6.4, 0). 1e-12 N covers the rounding of 8/50.
        assertEquals(4.8, host.device.appliedForceN(0), 1e-12);
        assertEquals(-6.4, host.device.appliedForceN(1), 1e-12);
        assertEquals(0.0, host.device.appliedForceN(2));
        double magnitudeN = Math.hypot(host.device.appliedForceN(0), host.device.appliedForceN(1));
        assertEquals(8.0, magnitudeN, 1e-12);
        assertEquals(StatusFlags.FORCE_LIMITED, host.lastStateFlags & StatusFlags.FORCE_LIMITED);

        host.sendForce(3f, 4f, 0f, true, 2 * MS);
        host.poll(2 * MS);
        assertEquals(3.0, host.device.appliedForceN(0), "within the limit: applied unchanged");
        assertEquals(4.0, host.device.appliedForceN(1));
        assertEquals(0, host.lastStateFlags & StatusFlags.FORCE_LIMITED);

        HostLink touch = openSession(EmulatorProfile.touchLike(), 1000);
        touch.sendForce(0f, 0f, -10f, true, 1 * MS);
        assertEquals(-3.3, touch.device.appliedForceN(2), 1e-12, "Touch-like peak force");
    }

    @Test
    void shouldZeroForceForNonFiniteComponent() {
        HostLink host = openSession(EmulatorProfile.falconLike(), 1000);
        host.sendForce(2f, 0f, 0f, true, 1 * MS);
        host.sendForce(Float.NaN, 1f, 0f, true, 2 * MS);
        assertEquals(0.0, host.device.appliedForceN(0));
        assertEquals(0.0, host.device.appliedForceN(1));
        host.sendForce(1f, Float.POSITIVE_INFINITY, 0f, true, 3 * MS);
        assertEquals(0.0, host.device.appliedForceN(0));
    }

    /** Timeout = max(5 ms, 3 periods): 5 ms at 1 kHz, 6 ms at 500 Hz, 12 ms at 250 Hz, 24 ms at 125 Hz. */
    @ParameterizedTest
    @CsvSource({"1000, 5", "500, 6", "250, 12", "125, 24"})
    void shouldTripWatchdogAfterTimeoutNotBefore(int rateHz, long timeoutMs) {
        HostLink host = openSession(EmulatorProfile.falconLike(), rateHz);
        long lastForceNs = 1 * MS;
        host.sendForce(1f, 0f, 0f, true, lastForceNs);
        // The firmware cycles every 250 µs: the STATUS announcing OUTPUT_ENABLED goes out in the first free slot
        // (at most one STATUS per period, spec 4.6), long before the trip, whose STATUS it must not hold back.
        for (long t = lastForceNs; t < lastForceNs + timeoutMs * MS - 1; t += 250 * US) {
            host.poll(t);
        }
        assertEquals(timeoutMs * MS, host.device.watchdogTimeoutNs());

        host.poll(lastForceNs + timeoutMs * MS - 1);
        assertEquals(1.0, host.device.appliedForceN(0), "1 ns before the timeout the force still acts");
        assertFalse(host.device.isWatchdogTripped());

        host.poll(lastForceNs + timeoutMs * MS);
        assertEquals(0.0, host.device.appliedForceN(0), "at the timeout the output is zero");
        assertTrue(host.device.isWatchdogTripped());
        assertFalse(host.device.isOutputEnabled());
        assertEquals(Status.FAULT_WATCHDOG, host.lastStatusFault, "STATUS with fault 5 sent at the trip");
        int tripped = StatusFlags.WATCHDOG_TRIPPED | StatusFlags.FAULT;
        assertEquals(tripped, host.lastStatusFlags & (tripped | StatusFlags.OUTPUT_ENABLED));
    }

    @Test
    void shouldZeroForceAtWatchdogDeadlineEvenWhenPolledLate() {
        EmulatorProfile profile = EmulatorProfile.falconLike();
        HostLink host = openSession(profile, 1000);
        SimulatedDevice reference = new SimulatedDevice(profile.simulatedDeviceConfig(),
                new FixedHandTarget(0.0, 0.0, 0.0));
        reference.open();
        DeviceState referenceState = new DeviceState();
        reference.readState(0L, referenceState);

        host.sendForce(2f, 0f, 0f, true, 1 * MS);
        reference.readState(1 * MS, referenceState);
        reference.commandForce(2.0, 0.0, 0.0, 0.0, 0.0, 0.0);
        host.poll(40 * MS);
        reference.readState(6 * MS, referenceState);
        reference.commandForce(0.0, 0.0, 0.0, 0.0, 0.0, 0.0);
        reference.readState(40 * MS, referenceState);

        assertEquals(referenceState.positionXM, host.device.positionM(0), 1e-12,
                "force acted from 1 ms to exactly 6 ms, not until the late poll at 40 ms");
    }

    /**
     * A configured minimum replaces the spec's 5 ms in max(minimum, 3 periods): 20 ms wins at 1 kHz (3 ms), 2 ms
     * loses to 3 periods at 1 kHz (3 ms) and at 125 Hz (24 ms). The trip is checked 1 ns either side of it.
     */
    @ParameterizedTest
    @CsvSource({"20, 1000, 20", "2, 1000, 3", "2, 125, 24", "30, 125, 30"})
    void shouldTripConfiguredWatchdogAtMaxOfMinimumAndThreePeriods(long minimumMs, int rateHz, long timeoutMs) {
        EmulatedDevice device = new EmulatedDevice(EmulatorProfile.falconLike(), new FixedHandTarget(0, 0, 0),
                minimumMs * MS);
        HostLink host = new HostLink(device);
        host.sendHello(1, 1, rateHz, 0L);
        host.poll(0L);
        assertEquals(minimumMs * MS, device.watchdogMinTimeoutNs());
        long lastForceNs = 1 * MS;
        host.sendForce(1f, 0f, 0f, true, lastForceNs);
        assertEquals(timeoutMs * MS, device.watchdogTimeoutNs());

        host.poll(lastForceNs + timeoutMs * MS - 1);
        assertEquals(1.0, device.appliedForceN(0), "1 ns before the timeout the force still acts");
        host.poll(lastForceNs + timeoutMs * MS);
        assertEquals(0.0, device.appliedForceN(0), "at the timeout the output is zero");
        assertTrue(device.isWatchdogTripped());
        assertEquals(1, device.watchdogTrips());
    }

    @Test
    void shouldKeepSpecWatchdogMinimumByDefault() {
        assertEquals(EmulatedDevice.WATCHDOG_MIN_TIMEOUT_NS,
                new EmulatedDevice(EmulatorProfile.falconLike()).watchdogMinTimeoutNs());
        assertEquals(5 * MS, EmulatedDevice.WATCHDOG_MIN_TIMEOUT_NS, "spec section 7");
    }

    @ParameterizedTest
    @ValueSource(longs = {0L, -1L, Long.MIN_VALUE, EmulatedDevice.WATCHDOG_MAX_TIMEOUT_NS + 1, Long.MAX_VALUE})
    void shouldRejectWatchdogMinimumOutsideZeroToOneHour(long minimumNs) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new EmulatedDevice(EmulatorProfile.falconLike(), new FixedHandTarget(0, 0, 0), minimumNs));
        assertTrue(e.getMessage().contains("> 0 ns and at most 3600000000000 ns"), e.getMessage());
    }

    @Test
    void shouldAcceptWatchdogMinimumOfOneHour() {
        EmulatedDevice device = new EmulatedDevice(EmulatorProfile.falconLike(), new FixedHandTarget(0, 0, 0),
                EmulatedDevice.WATCHDOG_MAX_TIMEOUT_NS);
        assertEquals(3_600_000L * MS, device.watchdogMinTimeoutNs());
    }

    @Test
    void shouldResumeForceOnlyAfterReArm() {
        HostLink host = openSession(EmulatorProfile.falconLike(), 1000);
        host.sendForce(1f, 0f, 0f, true, 1 * MS);
        host.poll(6 * MS);
        assertTrue(host.device.isWatchdogTripped());

        host.sendForce(2f, 0f, 0f, true, 7 * MS);
        host.sendForce(2f, 0f, 0f, true, 8 * MS);
        assertEquals(0.0, host.device.appliedForceN(0), "outputEnable = 1 alone does not resume");
        assertFalse(host.device.isArmed());
        host.sendForce(2f, 0f, 0f, false, 9 * MS);
        assertEquals(0.0, host.device.appliedForceN(0), "outputEnable = 0 commands zero");
        assertTrue(host.device.isWatchdogTripped(), "half a re-arm");

        host.sendForce(2f, 0f, 0f, true, 10 * MS);
        host.poll(10 * MS);
        assertEquals(2.0, host.device.appliedForceN(0), "0 then 1: re-armed");
        assertFalse(host.device.isWatchdogTripped());
        assertTrue(host.device.isArmed());
        assertEquals(Status.FAULT_NONE, host.device.faultCode());
        assertEquals(Status.FAULT_NONE, host.lastStatusFault, "STATUS reports the cleared fault");
        assertEquals(StatusFlags.OUTPUT_ENABLED | StatusFlags.HOMED, host.lastStatusFlags);
    }

    @Test
    void shouldNotReArmAcrossAnotherWatchdogTimeout() {
        HostLink host = openSession(EmulatorProfile.falconLike(), 1000);
        host.sendForce(1f, 0f, 0f, true, 1 * MS);
        host.poll(6 * MS);
        host.sendForce(0f, 0f, 0f, false, 7 * MS);
        host.poll(12 * MS);
        host.sendForce(2f, 0f, 0f, true, 13 * MS);
        assertEquals(0.0, host.device.appliedForceN(0), "the host stalled between the two halves of the re-arm");
        assertTrue(host.device.isWatchdogTripped());
    }

    @Test
    void shouldDecodeForceAfterGarbageAndCountCrcErrors() {
        HostLink host = openSession(EmulatorProfile.falconLike(), 1000);
        byte[] wire = new byte[256];

        // Noise with no 0x00 merges with the next frame; the decoder recovers the frame from the run's end.
        int n = 0;
        for (int i = 0; i < 20; i++) {
            wire[n++] = (byte) (0x55 + i);
        }
        n += host.encodeForce(1f, 0f, 0f, true, wire, n);
        host.device.receive(wire, 0, n, 1 * MS);
        assertEquals(1.0, host.device.appliedForceN(0));
        assertEquals(1, host.device.resyncs());

        // A single corrupted byte fails the CRC; the frame after it still decodes.
        // Flip a bit of the force's 0x40 exponent byte: a data byte (COBS codes here are < 0x20), and not 0x01,
        // so it cannot turn into a delimiter.
        n = host.encodeForce(2f, 0f, 0f, true, wire, 0);
        int exponentAt = 1;
        while (wire[exponentAt] != 0x40) {
            exponentAt++;
        }
        wire[exponentAt] ^= 0x01;
        int second = host.encodeForce(3f, 0f, 0f, true, wire, n);
        host.device.receive(wire, 0, n + second, 2 * MS);
        assertEquals(1, host.device.crcErrors());
        assertEquals(3.0, host.device.appliedForceN(0));

        // Garbage ended by its own delimiter, then a frame delivered one byte at a time.
        wire[0] = 0x12;
        wire[1] = 0x34;
        wire[2] = 0;
        n = 3 + host.encodeForce(4f, 0f, 0f, true, wire, 3);
        for (int i = 0; i < n; i++) {
            host.device.receive(wire, i, 1, 3 * MS);
        }
        assertEquals(4.0, host.device.appliedForceN(0));
        assertEquals(1, host.device.malformedFrames());
        assertFalse(host.device.isWatchdogTripped());
        assertEquals(3, host.device.forcesAccepted(), "1, 3 and 4 N; the corrupted 2 N frame never delivered");
    }

    @Test
    void shouldHomeWithProgressWhileIgnoringForce() {
        EmulatorProfile profile = EmulatorProfile.falconLike().withHomingDurationNs(300 * MS);
        HostLink host = new HostLink(new EmulatedDevice(profile, new FixedHandTarget(0, 0, 0),
                EmulatedDevice.Firmware.defaults().withHomedAtPowerUp(false)));
        host.sendHello(1, 1, 1000, 0L);
        host.poll(0L);
        host.sendHoming(HomingRequest.ACTION_START, 0, 1 * MS);
        host.poll(1 * MS);
        assertEquals(HomingProgress.PHASE_RUNNING, host.lastProgressPhase);
        host.clearRecord();

        for (long t = 2 * MS; t < 301 * MS; t += MS) {
            host.sendForce(2f, 0f, 0f, true, t);
            host.poll(t);
            assertEquals(0.0, host.device.appliedForceN(0), "FORCE ignored while homing");
        }
        assertEquals(0, host.stateCount, "no STATE while homing: the device is not streaming");
        // 299 ms not streaming: a heartbeat (with its STATUS) every 50 ms gives 5.
        assertEquals(5, host.heartbeatCount);
        assertTrue(host.statusCount >= host.heartbeatCount);
        assertEquals(StatusFlags.HOMING, host.lastStatusFlags & StatusFlags.HOMING);
        assertTrue(host.maxProgressGapNs <= 100 * MS, "progress at least every 100 ms");
        assertEquals(HomingProgress.PHASE_RUNNING, host.lastProgressPhase);

        host.sendForce(2f, 0f, 0f, true, 301 * MS);
        host.poll(301 * MS);
        assertEquals(HomingProgress.PHASE_SUCCEEDED, host.lastProgressPhase);
        assertEquals(100, host.lastProgressPercent);
        assertTrue(host.device.isHomed());
        host.sendForce(2f, 0f, 0f, true, 302 * MS);
        host.poll(302 * MS);
        assertEquals(2.0, host.device.appliedForceN(0), "streaming and applying again after homing");
        assertEquals(StatusFlags.HOMED | StatusFlags.OUTPUT_ENABLED, host.lastStateFlags);
    }

    @Test
    void shouldFailHomingAtRequestTimeout() {
        EmulatorProfile profile = EmulatorProfile.touchLike().withHomingDurationNs(300 * MS);
        HostLink host = openSession(profile, 1000);
        host.sendHoming(HomingRequest.ACTION_START, 100, 1 * MS);
        host.pollEvery(1 * MS, 102 * MS, MS);

        assertEquals(HomingProgress.PHASE_FAILED, host.lastProgressPhase);
        assertEquals(Status.FAULT_HOMING_FAILED, host.lastProgressResult);
        assertEquals(Status.FAULT_HOMING_FAILED, host.device.faultCode());
        assertFalse(host.device.isHomed());
    }

    @Test
    void shouldEndSessionAfter500MsWithoutValidFrame() {
        HostLink host = openSession(EmulatorProfile.falconLike(), 1000);
        host.sendForce(1f, 0f, 0f, false, 1 * MS);
        for (long t = 2 * MS; t < 501 * MS; t += MS) {
            host.poll(t);
        }
        assertTrue(host.device.isSessionActive(), "last valid frame at 1 ms: alive until 501 ms");
        host.clearRecord();
        host.poll(501 * MS);
        assertFalse(host.device.isSessionActive());
        host.pollEvery(502 * MS, 1_000 * MS, MS);
        // pollEvery sends host heartbeats, but a device waiting for HELLO ignores them and stays silent.
        assertEquals(0, host.frames);

        host.sendHello(1, 1, 1000, 1_000 * MS);
        host.poll(1_000 * MS);
        assertEquals(1, host.infoCount);
        assertTrue(host.device.isSessionActive());
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 7, 13})
    void shouldHandleHostBytesInAnyChunking(int chunkBytes) {
        HostLink host = new HostLink(new EmulatedDevice(EmulatorProfile.falconLike()));
        byte[] wire = new byte[256];
        int n = 0;
        wire[n++] = 0;
        n += host.encodeHello(1, 1, 1000, wire, n);
        n += host.encodeForce(1.5f, 0f, 0f, true, wire, n);
        for (int i = 0; i < n; i += chunkBytes) {
            host.device.receive(wire, i, Math.min(chunkBytes, n - i), 1 * MS);
        }
        assertEquals(1.5, host.device.appliedForceN(0));
        assertEquals(2, host.device.framesReceived(), "HELLO and FORCE");
        assertTrue(host.device.isSessionActive());
    }

    @Test
    void shouldAcknowledgeTheNewestForceAndTheOpeningHelloInVersion2State() {
        HostLink host = new HostLink(new EmulatedDevice(EmulatorProfile.falconLike()));
        int helloSequence = host.nextSequence();
        host.sendHello(1, 2, 1000, 0L);
        host.poll(0L);
        assertEquals(helloSequence, host.lastStateAck, "no FORCE yet: the HELLO that opened the session");
        assertEquals(0, host.lastStateTrips);

        int forceSequence = host.nextSequence();
        host.sendForce(1f, 0f, 0f, true, 1 * MS);
        host.poll(1 * MS);
        assertEquals(forceSequence, host.lastStateAck);
        // A duplicate is not newer: it moves nothing, the acknowledgement included.
        host.resendLast(2 * MS);
        host.poll(2 * MS);
        assertEquals(forceSequence, host.lastStateAck);
        // A PING is not a FORCE: it does not move the acknowledgement either.
        host.sendPing(5L, 2 * MS + 500 * US);
        host.poll(3 * MS);
        assertEquals(forceSequence, host.lastStateAck);
    }

    @Test
    void shouldCountTripsPerSessionInVersion2StateAndStatus() {
        HostLink host = openVersion2Session(EmulatorProfile.falconLike(), 1000);
        host.sendForce(1f, 0f, 0f, true, 1 * MS);
        host.poll(6 * MS);
        assertTrue(host.device.isWatchdogTripped());
        assertEquals(1, host.lastStateTrips);
        assertEquals(1, host.lastStatusTrips, "the STATUS sent at the trip carries its count");

        // Re-armed, and tripped again 3 ms later: a second trip with its own number.
        host.sendForce(0f, 0f, 0f, false, 7 * MS);
        host.sendForce(0f, 0f, 0f, true, 8 * MS);
        host.poll(8 * MS);
        assertFalse(host.device.isWatchdogTripped());
        assertEquals(1, host.lastStateTrips, "the count stays: it names the last trip, not the state");
        host.poll(13 * MS);
        assertTrue(host.device.isWatchdogTripped());
        assertEquals(2, host.lastStateTrips);
        assertEquals(2, host.lastStatusTrips);

        // A new session counts from zero.
        host.sendHello(1, 2, 1000, 14 * MS);
        host.poll(14 * MS);
        assertEquals(0, host.lastStateTrips);
        assertFalse(host.device.isWatchdogTripped());
        assertEquals(2, host.device.watchdogTrips(), "the firmware's own counter keeps the total");
    }

    @Test
    void shouldStopTheWatchdogOnOutputEnableZeroAndNeverFeedItWithHeartbeatsOrPings() {
        HostLink host = openVersion2Session(EmulatorProfile.falconLike(), 1000);
        // Enable = 0 is how a host closes: no trip follows, however long the silence (heartbeats keep the session).
        host.sendForce(1f, 0f, 0f, true, 1 * MS);
        host.sendForce(0f, 0f, 0f, false, 2 * MS);
        host.pollEvery(2 * MS, 300 * MS, MS);
        assertFalse(host.device.isWatchdogTripped());
        assertEquals(0, host.device.watchdogTrips());

        // Enable = 1 arms it again, and neither heartbeats nor PINGs feed it: it trips 5 ms after that FORCE.
        host.sendForce(1f, 0f, 0f, true, 300 * MS);
        host.sendHeartbeat(302 * MS);
        host.sendPing(9L, 304 * MS);
        host.poll(305 * MS - 1);
        assertFalse(host.device.isWatchdogTripped());
        host.poll(305 * MS);
        assertTrue(host.device.isWatchdogTripped());
    }

    @Test
    void shouldSendAtMostOneStatusPerPeriodAndTheNextChangeWithTheNextSlot() {
        HostLink host = openVersion2Session(EmulatorProfile.falconLike(), 1000);
        host.poll(2 * MS);
        host.clearRecord();
        host.sendForce(1f, 0f, 0f, true, 3 * MS);
        host.poll(3 * MS);
        assertEquals(1, host.statusCount, "OUTPUT_ENABLED announced");
        host.sendForce(0f, 0f, 0f, false, 3 * MS + 300 * US);
        host.poll(3 * MS + 300 * US);
        assertEquals(1, host.statusCount, "a second change in the same period waits");
        host.poll(4 * MS - 1);
        assertEquals(1, host.statusCount);
        host.poll(4 * MS);
        assertEquals(2, host.statusCount, "and goes out one period after the first");
        assertEquals(0, host.lastStatusFlags & StatusFlags.OUTPUT_ENABLED);
    }

    @Test
    void shouldNotSendStatusWhenOnlyForceLimitedFlips() {
        HostLink host = openVersion2Session(EmulatorProfile.falconLike(), 1000);
        host.sendForce(1f, 0f, 0f, true, 1 * MS);
        host.poll(1 * MS);
        host.clearRecord();
        int limitedStates = 0;
        for (long t = 2 * MS; t < 102 * MS; t += MS) {
            // 80 N is clamped to 8 N (FORCE_LIMITED), 1 N is not: the flag flips every tick.
            host.sendForce(t % (2 * MS) == 0 ? 80f : 1f, 0f, 0f, true, t);
            host.poll(t);
            limitedStates += (host.lastStateFlags & StatusFlags.FORCE_LIMITED) != 0 ? 1 : 0;
        }
        assertEquals(100, host.stateCount);
        assertEquals(50, limitedStates, "STATE carries the flag every tick");
        assertEquals(0, host.statusCount, "FORCE_LIMITED alone never costs a STATUS");
    }

    @Test
    void shouldSpeakVersion1WhenBuiltForItAndRefuseVersion2Frames() {
        EmulatedDevice device = new EmulatedDevice(EmulatorProfile.falconLike(), new FixedHandTarget(0, 0, 0),
                EmulatedDevice.Firmware.defaults().withProtocolVersion(1));
        HostLink host = new HostLink(device);
        host.sendHello(1, 2, 1000, 0L);
        host.poll(0L);
        assertEquals(1, host.lastInfo.selectedVersion());
        assertEquals(1, host.lastStateVersion);
        assertEquals(MessageType.STATE.wireBytes(1), host.lastPollBytes - MessageType.INFO.wireBytes(1)
                - MessageType.STATUS.wireBytes(1));
        // A firmware of version 1 does not speak version 2: such a frame is an unsupported version, not a FORCE.
        byte[] wire = new byte[64];
        int n = new org.hapticsd.protocol.FrameEncoder().encode(new org.hapticsd.protocol.Force()
                .setForceN(1f, 0f, 0f).setOutputEnabled(true), 2, 77, wire, 0);
        device.receive(wire, 0, n, 1 * MS);
        assertEquals(0.0, device.appliedForceN(0));
        assertEquals(1, device.framesReceived(), "only HELLO was decoded");
        assertEquals(0, device.forcesAccepted());
    }

    @Test
    void shouldStartANewSessionOnHelloDuringASession() {
        HostLink host = openVersion2Session(EmulatorProfile.falconLike(), 1000);
        host.sendForce(2f, 0f, 0f, true, 1 * MS);
        assertEquals(2.0, host.device.appliedForceN(0));
        host.clearRecord();
        host.sendHello(1, 2, 500, 2 * MS);
        host.poll(2 * MS);
        assertEquals(1, host.infoCount, "INFO again");
        assertEquals(500, host.device.sessionRateHz());
        assertEquals(0.0, host.device.appliedForceN(0), "output off until a FORCE enables it again");
        assertEquals(0, host.lastStateFlags & StatusFlags.OUTPUT_ENABLED);
        host.poll(20 * MS);
        assertFalse(host.device.isWatchdogTripped(), "the new session's watchdog waits for its first FORCE");
    }

    @Test
    void shouldReportHomedFromPowerUpByDefaultAndClearItWhenAHomingRunStarts() {
        HostLink host = openVersion2Session(EmulatorProfile.falconLike(), 1000);
        assertEquals(StatusFlags.HOMED, host.lastStateFlags & StatusFlags.HOMED, "absolute encoders: homed at once");
        host.sendHoming(HomingRequest.ACTION_START, 0, 1 * MS);
        host.poll(1 * MS);
        assertFalse(host.device.isHomed(), "relative again until the run succeeds");
        assertEquals(0, host.lastStatusFlags & StatusFlags.HOMED);

        HostLink unhomed = new HostLink(new EmulatedDevice(EmulatorProfile.falconLike(), new FixedHandTarget(0, 0, 0),
                EmulatedDevice.Firmware.defaults().withHomedAtPowerUp(false)));
        unhomed.sendHello(1, 2, 1000, 0L);
        unhomed.poll(0L);
        assertEquals(0, unhomed.lastStateFlags & StatusFlags.HOMED);
    }
}
