package org.hapticsd.device.link;

import static org.hapticsd.device.link.SessionWire.MS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.hapticsd.device.DeviceFault;
import org.hapticsd.device.Workspace;
import org.hapticsd.device.emulator.EmulatedDevice;
import org.hapticsd.device.emulator.EmulatorProfile;
import org.hapticsd.device.sim.FixedHandTarget;
import org.hapticsd.protocol.Frame;
import org.hapticsd.protocol.FrameDecoder;
import org.hapticsd.protocol.FrameEncoder;
import org.hapticsd.protocol.Info;
import org.hapticsd.protocol.State;
import org.hapticsd.protocol.Message;
import org.hapticsd.protocol.MessageType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The host half of the protocol against the emulated firmware, in memory on a fake clock (the shape of Aeron's
 * {@code SenderTest}): advance the clock to one nanosecond before a deadline, poll, assert nothing; advance past
 * it, assert it happened. Nothing here depends on how fast or idle the machine is.
 */
class LinkSessionTest {
    private static final LinkSession.Config CONFIG = LinkSession.Config.defaults(1000);

    private static EmulatedDevice device(EmulatedDevice.Firmware firmware) {
        return new EmulatedDevice(EmulatorProfile.falconLike(), new FixedHandTarget(0, 0, 0), firmware);
    }

    private static SessionWire open(EmulatedDevice.Firmware firmware) {
        SessionWire wire = new SessionWire(new LinkSession(CONFIG, "test"), device(firmware));
        assertTrue(wire.runUntil(10, 0, 0, 0, wire.session::isSessionActive), "session within 10 ms");
        return wire;
    }

    /** Decodes what a session sends, with no device behind it. */
    private static List<String> sent(LinkSession session, long nowNs) {
        byte[] out = new byte[LinkSession.MAX_POLL_BYTES];
        int n = session.poll(nowNs, out, 0);
        List<String> types = new ArrayList<>();
        new FrameDecoder(m -> types.add(m.type().name())).feed(out, 0, n);
        return types;
    }

    @Test
    void shouldSendADelimiterAndHelloOnOpenAndResendHelloEveryIntervalUntilInfo() {
        LinkSession session = new LinkSession(CONFIG, "test");
        session.linkOpened(0);
        byte[] out = new byte[LinkSession.MAX_POLL_BYTES];
        int n = session.poll(0, out, 0);
        assertEquals(1 + MessageType.HELLO.wireBytes(1), n);
        assertEquals(Frame.DELIMITER, out[0], "spec 6.1: one 0x00 first");
        assertEquals(List.of(), sent(session, CONFIG.helloIntervalNs() - 1));
        assertEquals(List.of("HELLO"), sent(session, CONFIG.helloIntervalNs()));
        assertEquals(List.of(), sent(session, 2 * CONFIG.helloIntervalNs() - 1));
        assertEquals(List.of("HELLO"), sent(session, 2 * CONFIG.helloIntervalNs()));
        assertFalse(session.wantsReopen(CONFIG.reopenAfterNs()));
        assertTrue(session.wantsReopen(CONFIG.reopenAfterNs() + 1), "no INFO 2 s after HELLO: reopen the link");
    }

    @Test
    void shouldOfferBothVersionsAndOpenAVersion2SessionWithTheEmulator() {
        SessionWire wire = open(EmulatedDevice.Firmware.defaults());
        assertEquals(2, wire.session.sessionVersion());
        assertEquals(2, wire.device.sessionVersion());
        assertEquals(1000, wire.session.sessionRateHz());
        assertEquals("Falcon-like emulator", wire.session.info().name());
        wire.run(100, 0, 0, 0);
        assertTrue(wire.fresh >= 99, "a STATE every tick: " + wire.fresh);
        assertTrue(wire.health.connected);
        assertEquals(DeviceFault.NONE, wire.health.fault);
        LinkStatistics stats = wire.session.statistics();
        assertEquals(2, stats.protocolVersion());
        assertEquals(0, stats.framesDamagedOrLost());
    }

    /**
     * Found by a tester: an over-temperature and an emergency stop read "fault DEVICE" like a disconnect, with no
     * line giving the code. The code and its meaning are the link's error when it latches and when it clears; the
     * watchdog's own code (5) is left to the trip count.
     */
    @Test
    void shouldReportADeviceFaultCodeWhenItLatchesAndWhenItClears() {
        SessionWire wire = open(EmulatedDevice.Firmware.defaults());
        wire.run(20, 0, 0, 0);
        byte[] frame = new byte[64];
        FrameEncoder encoder = new FrameEncoder();
        int sequence = 40_000;
        int n = encoder.encode(new org.hapticsd.protocol.Status().set(0x0009, 1, 4512).setWatchdogTrips(0), 2,
            sequence++, frame, 0);
        wire.session.receive(frame, 0, n, wire.nowNs);
        assertEquals("test: device reports fault 1 (over-temperature), detail 4512; force held at zero until the "
            + "device clears it", wire.session.statistics().lastError());

        n = encoder.encode(new org.hapticsd.protocol.Status().set(0x0001, 0, 0).setWatchdogTrips(0), 2, sequence++,
            frame, 0);
        wire.session.receive(frame, 0, n, wire.nowNs);
        assertEquals("test: device cleared fault 1 (over-temperature)", wire.session.statistics().lastError());

        String before = wire.session.statistics().lastError();
        n = encoder.encode(new org.hapticsd.protocol.Status().set(0x000D, 5, 0).setWatchdogTrips(1), 2, sequence,
            frame, 0);
        wire.session.receive(frame, 0, n, wire.nowNs);
        assertSame(before, wire.session.statistics().lastError(), "a watchdog trip is counted, not logged as a fault");
        assertEquals("vendor-specific", LinkSession.faultName(0x8001));
    }

    /** Found by a tester: an unplugged device's loss was replaced in lastError by the reopen's error, unlogged. */
    @Test
    void shouldKeepWhyTheLastSessionWasLost() {
        SessionWire wire = open(EmulatedDevice.Firmware.defaults());
        wire.run(20, 0, 0, 0);
        assertEquals(null, wire.session.statistics().lastLoss());
        wire.session.linkClosed("tcp:127.0.0.1:1: closed by the peer (end of stream)");
        wire.session.linkOpenFailed("tcp:127.0.0.1:1: Connection refused");
        LinkStatistics stats = wire.session.statistics();
        assertEquals(1, stats.sessionsLost());
        assertEquals("tcp:127.0.0.1:1: closed by the peer (end of stream)", stats.lastLoss());
        assertEquals("tcp:127.0.0.1:1: Connection refused", stats.lastError());
    }

    @Test
    void shouldSpeakVersion1WithAVersion1Device() {
        SessionWire wire = open(EmulatedDevice.Firmware.defaults().withProtocolVersion(1));
        assertEquals(1, wire.session.sessionVersion());
        assertTrue(wire.runUntil(200, 0, 0, 1.5, () -> wire.state.appliedForceZN == 1.5));
        assertEquals(1.5, wire.device.appliedForceN(2));
    }

    @Test
    void shouldApplyForceOnceEnabledAndDeliverEveryForceInOrder() {
        SessionWire wire = open(EmulatedDevice.Firmware.defaults());
        assertTrue(wire.runUntil(100, 0, 0, 1.5, () -> wire.state.appliedForceZN == 1.5));
        wire.run(200, 0, 0, 1.5);
        assertEquals(0, wire.device.staleForcesIgnored());
        assertEquals(wire.session.forcesSent(), wire.device.forcesAccepted(), "each FORCE accepted once");
    }

    /** A device that negotiated 500 Hz under a 1 kHz loop receives 500 FORCE frames a second, not 1000. */
    @Test
    void shouldSendForceAtTheNegotiatedRateNotTheLoopRate() {
        EmulatorProfile upTo500Hz = EmulatorProfile.falconLike().withSupportedRates(0x07, 500);
        SessionWire wire = new SessionWire(new LinkSession(CONFIG, "test"),
                new EmulatedDevice(upTo500Hz, new FixedHandTarget(0, 0, 0)));
        assertTrue(wire.runUntil(10, 0, 0, 0, wire.session::isSessionActive));
        assertEquals(500, wire.session.sessionRateHz());
        wire.run(50, 0, 0, 1.0);
        long before = wire.device.forcesAccepted();
        wire.run(1000, 0, 0, 1.0);
        // 1000 loop ticks of 1 ms at a 2 ms session period: 500 slots, each filled exactly once.
        assertEquals(500, wire.device.forcesAccepted() - before);
        assertEquals(1.0, wire.device.appliedForceN(2), "the newest force, every other tick");
        assertFalse(wire.device.isWatchdogTripped(), "6 ms watchdog at 500 Hz, fed every 2 ms");
    }

    @Test
    void shouldReportTheTripAndNotReArmWhileTheLoopStillCommandsForce() {
        SessionWire wire = open(EmulatedDevice.Firmware.defaults());
        assertTrue(wire.runUntil(100, 2.0, 0, 0, () -> wire.state.appliedForceXN == 2.0));
        wire.stallLoop(6);
        assertTrue(wire.device.isWatchdogTripped());
        wire.exchange();
        wire.session.health(wire.nowNs, wire.health);
        assertEquals(DeviceFault.WATCHDOG, wire.health.fault);
        // A loop that ignored the fault and kept commanding 2 N: the session must not re-arm.
        for (int k = 0; k < 100; k++) {
            wire.session.commandForce(2.0, 0, 0);
            wire.exchange();
            wire.nowNs += MS;
        }
        assertTrue(wire.device.isWatchdogTripped());
        assertEquals(0.0, wire.device.appliedForceN(0));
        assertEquals(0, wire.session.reArmsSent());
        // The loop goes SAFE and commands zero: re-armed, and force flows again.
        assertTrue(wire.runUntil(20, 0, 0, 0, () -> !wire.device.isWatchdogTripped()));
        assertTrue(wire.runUntil(20, 1.0, 0, 0, () -> wire.device.appliedForceN(0) == 1.0));
        assertEquals(1, wire.session.reArmsSent());
        assertEquals(1, wire.session.statistics().deviceWatchdogTrips());
    }

    /**
     * The deadlock of the old driver: the device trips again right after a re-arm, and the host, whose reader was
     * stalled, never sees a STATE without WATCHDOG_TRIPPED in between. Version 2's trip count names the new trip,
     * so the host re-arms after every one of them, however soon after the last re-arm it came.
     */
    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void shouldReArmAfterEveryTripHoweverSoonAfterTheLastReArm(int protocolVersion) {
        SessionWire wire = open(EmulatedDevice.Firmware.defaults().withProtocolVersion(protocolVersion));
        assertTrue(wire.runUntil(100, 1.0, 0, 0, () -> wire.device.appliedForceN(0) == 1.0));
        int trips = 8;
        for (int trip = 1; trip <= trips; trip++) {
            // From the second trip on, the stall starts straight after the re-arm and the host's reader stalls
            // with the loop (the device's bytes wait): the device trips again 5 ms after the re-arm, and the
            // STATE that showed the re-arm reaches the host only together with the one that shows the new trip.
            wire.holdDeviceBytes = trip > 1;
            wire.stallLoop(6);
            wire.holdDeviceBytes = false;
            assertTrue(wire.device.isWatchdogTripped(), "trip " + trip);
            // The loop sees the trip and commands zero until the session re-arms: two FORCE frames.
            assertTrue(wire.runUntil(60, 1.0, 0, 0, () -> !wire.device.isWatchdogTripped()),
                "re-armed after trip " + trip);
        }
        wire.holdDeviceBytes = false;
        assertTrue(wire.runUntil(100, 1.0, 0, 0, () -> wire.device.appliedForceN(0) == 1.0),
            "force flows after the last trip");
        assertEquals(trips, wire.device.watchdogTrips());
        assertTrue(wire.session.reArmsSent() >= trips);
        if (protocolVersion == 2) {
            assertEquals(trips, wire.session.statistics().deviceWatchdogTrips(), "counted by the device's own count");
        }
    }

    @Test
    void shouldReArmAgainWhenTheDeviceAcknowledgesTheReArmButStaysTripped() {
        SessionWire wire = open(EmulatedDevice.Firmware.defaults());
        assertTrue(wire.runUntil(100, 1.0, 0, 0, () -> wire.device.appliedForceN(0) == 1.0));
        wire.stallLoop(6);
        wire.exchange();
        // The disable frame of the re-arm is lost on the way (a cable glitch); the enable frame arrives alone.
        wire.dropToDevice = true;
        wire.tick(0, 0, 0, MS);
        wire.dropToDevice = false;
        assertEquals(1, wire.session.reArmsSent());
        assertTrue(wire.runUntil(20, 0, 0, 0, () -> !wire.device.isWatchdogTripped()), "re-armed on the second try");
        assertEquals(2, wire.session.reArmsSent());
    }

    @Test
    void shouldSendTheClosingZeroForceAndCloseOnlyOnceTheDeviceAcknowledgesIt() {
        SessionWire wire = open(EmulatedDevice.Firmware.defaults());
        assertTrue(wire.runUntil(100, 0, 0, 2.0, () -> wire.device.appliedForceN(2) == 2.0));
        wire.latencyNs = 3 * MS;
        wire.run(10, 0, 0, 2.0);
        wire.session.beginClose(wire.nowNs);
        wire.exchange();
        assertFalse(wire.session.isClosed(wire.nowNs), "the FORCE is still on its way");
        long closingStartNs = wire.nowNs;
        while (!wire.session.isClosed(wire.nowNs)) {
            wire.nowNs += 100_000L;
            wire.exchange();
        }
        assertTrue(wire.session.closeConfirmed());
        // 3 ms there, the next STATE, 3 ms back: acknowledged after 6 to 7 ms, never before the device had it.
        long tookNs = wire.nowNs - closingStartNs;
        assertTrue(tookNs >= 6 * MS && tookNs <= 7 * MS + 100_000L, "closing took " + tookNs + " ns");
        assertEquals(0.0, wire.device.appliedForceN(2));
        assertFalse(wire.device.isOutputEnabled());
        // Enable = 0 stops the device's watchdog: closing leaves no trip behind.
        wire.latencyNs = 0;
        for (int k = 0; k < 100; k++) {
            wire.device.poll(wire.nowNs += MS, new byte[EmulatedDevice.MAX_POLL_BYTES], 0);
        }
        assertFalse(wire.device.isWatchdogTripped());
    }

    @Test
    void shouldResendTheClosingForceWhenItIsLostAndGiveUpAfterTheTimeoutOnASilentDevice() {
        SessionWire wire = open(EmulatedDevice.Firmware.defaults());
        wire.run(20, 0, 0, 1.0);
        wire.unplugged = true;
        wire.session.beginClose(wire.nowNs);
        wire.exchange();
        wire.unplugged = false;
        long startNs = wire.nowNs;
        while (!wire.session.isClosed(wire.nowNs)) {
            wire.nowNs += 100_000L;
            wire.exchange();
        }
        assertTrue(wire.session.closeConfirmed(), "the resend one period later got through");
        assertTrue(wire.nowNs - startNs <= 3 * MS);
        assertFalse(wire.device.isOutputEnabled());

        SessionWire silent = open(EmulatedDevice.Firmware.defaults());
        silent.unplugged = true;
        silent.session.beginClose(silent.nowNs);
        long beginNs = silent.nowNs;
        silent.exchange();
        silent.nowNs = beginNs + LinkSession.CLOSE_TIMEOUT_NS - 1;
        silent.exchange();
        assertFalse(silent.session.isClosed(silent.nowNs));
        silent.nowNs = beginNs + LinkSession.CLOSE_TIMEOUT_NS;
        assertTrue(silent.session.isClosed(silent.nowNs));
        assertFalse(silent.session.closeConfirmed());
    }

    @Test
    void shouldConfirmTheCloseOfAVersion1DeviceByTwoStatesWithOutputOff() {
        SessionWire wire = open(EmulatedDevice.Firmware.defaults().withProtocolVersion(1));
        assertTrue(wire.runUntil(100, 0, 0, 2.0, () -> wire.device.appliedForceN(2) == 2.0));
        wire.session.beginClose(wire.nowNs);
        while (!wire.session.isClosed(wire.nowNs)) {
            wire.exchange();
            wire.nowNs += 100_000L;
        }
        assertTrue(wire.session.closeConfirmed());
        assertFalse(wire.device.isOutputEnabled());
    }

    @Test
    void shouldHomeAnUnhomedDeviceBeforeAnyForceReachesIt() {
        EmulatorProfile profile = EmulatorProfile.falconLike().withHomingDurationNs(300 * MS);
        SessionWire wire = new SessionWire(new LinkSession(CONFIG, "test"), new EmulatedDevice(profile,
                new FixedHandTarget(0, 0, 0), EmulatedDevice.Firmware.defaults().withHomedAtPowerUp(false)));
        assertTrue(wire.runUntil(10, 0, 0, 0, wire.session::isSessionActive));
        wire.run(5, 0, 0, 0);
        assertEquals(DeviceFault.NOT_HOMED, wire.health.fault);
        assertTrue(wire.device.homingPhase() == org.hapticsd.protocol.HomingProgress.PHASE_RUNNING,
            "the session asked the device to home");
        // A loop that ignores the fault and commands 2 N: nothing reaches the device while it is not homed.
        for (int k = 0; k < 290; k++) {
            wire.session.commandForce(2.0, 0, 0);
            wire.exchange();
            assertEquals(0.0, wire.device.appliedForceN(0));
            wire.nowNs += MS;
        }
        assertTrue(wire.runUntil(50, 0, 0, 0, wire.device::isHomed));
        wire.run(5, 0, 0, 0);
        assertEquals(DeviceFault.NONE, wire.health.fault);
        assertTrue(wire.runUntil(20, 2.0, 0, 0, () -> wire.device.appliedForceN(0) == 2.0));
    }

    @Test
    void shouldGoStaleAfter100msAndLoseTheSessionAfter500msOfSilenceThenSayHelloAgain() {
        SessionWire wire = open(EmulatedDevice.Firmware.defaults());
        wire.run(50, 0, 0, 0);
        wire.unplugged = true;
        long unpluggedNs = wire.nowNs;
        assertTrue(wire.runUntil(200, 0, 0, 0, () -> !wire.health.connected));
        long staleAfterNs = wire.nowNs - unpluggedNs;
        assertTrue(staleAfterNs >= CONFIG.staleAfterNs() && staleAfterNs <= CONFIG.staleAfterNs() + 2 * MS,
            "stale after " + staleAfterNs);
        assertTrue(wire.runUntil(500, 0, 0, 0, () -> wire.health.fault == DeviceFault.LINK_LOST));
        long lostAfterNs = wire.nowNs - unpluggedNs;
        assertTrue(lostAfterNs >= CONFIG.sessionLostAfterNs() && lostAfterNs <= CONFIG.sessionLostAfterNs() + 2 * MS,
            "lost after " + lostAfterNs);
        wire.unplugged = false;
        assertTrue(wire.runUntil(300, 0, 0, 0, () -> wire.health.connected && wire.health.fault == DeviceFault.NONE));
        LinkStatistics stats = wire.session.statistics();
        assertEquals(2, stats.sessions());
        assertEquals(1, stats.reconnects());
        assertEquals(1, stats.sessionsLost());
    }

    /**
     * Found by a tester: PINGs that waited in a pty's buffer while the device was away were answered on its return,
     * and one 1.59 s "round trip" ruled the p99. A PONG to a PING of an earlier session is not a sample.
     */
    @Test
    void shouldNotTakeAPongToAnEarlierSessionsPingAsARoundTrip() {
        SessionWire wire = open(EmulatedDevice.Firmware.defaults());
        wire.latencyNs = 2 * MS;
        wire.run(350, 0, 0, 0);
        long firstSessionPings = wire.session.statistics().roundTripNs().getTotalCount();
        assertTrue(firstSessionPings >= 3, "PINGs answered in the first session: " + firstSessionPings);
        wire.session.linkClosed("gone");
        wire.session.linkOpened(wire.nowNs);
        assertTrue(wire.runUntil(50, 0, 0, 0, wire.session::isSessionActive), "a second session");
        long before = wire.session.statistics().roundTripNs().getTotalCount();
        byte[] frame = new byte[64];
        int n = new FrameEncoder().encode(new org.hapticsd.protocol.Pong().set(1, 0), 2, 50_000, frame, 0);
        wire.nowNs += 1_000 * MS;
        wire.session.receive(frame, 0, n, wire.nowNs);
        LinkStatistics stats = wire.session.statistics();
        assertEquals(before, stats.roundTripNs().getTotalCount(), "token 1 was the first session's: " + stats.summary());
        assertTrue(stats.roundTripNs().getMaxValue() < 100 * MS, stats.summary());
    }

    @Test
    void shouldPingEvery100msAndMeasureTheRoundTripOnTheFakeClock() {
        SessionWire wire = open(EmulatedDevice.Firmware.defaults());
        wire.latencyNs = 2 * MS;
        wire.run(1000, 0, 0, 0);
        LinkStatistics stats = wire.session.statistics();
        assertTrue(stats.roundTripNs().getTotalCount() >= 9, stats.summary());
        // 2 ms each way; PONGs go out on the device's next poll, which this wire runs in the same step.
        assertEquals(4 * MS, stats.roundTripNs().getMinValue(), 4 * MS / 1000.0);
        assertEquals(4 * MS, stats.roundTripNs().getMaxValue(), 4 * MS / 1000.0);
    }

    @Test
    void shouldSendAHeartbeatWhenNoForceWentOutFor50msSoTheDeviceKeepsTheSession() {
        SessionWire wire = open(EmulatedDevice.Firmware.defaults());
        long frames = wire.device.framesReceived();
        // The loop stops commanding (paused, say) for 2 s: PINGs and heartbeats alone keep the session.
        wire.stallLoop(2000);
        assertTrue(wire.device.isSessionActive());
        long received = wire.device.framesReceived() - frames;
        // 20 PINGs (every 100 ms) and heartbeats whenever 50 ms passed without any frame: 20 more.
        assertEquals(40, received, 2);
    }

    @Test
    void shouldNotAcceptAStrongerDeviceOnTheSameLink() {
        SessionWire wire = open(EmulatedDevice.Firmware.defaults());
        wire.run(10, 0, 0, 0);
        wire.session.linkClosed("replugged");
        EmulatorProfile twentyNewtons = new EmulatorProfile("Stronger device", 3, 3, 1, 0, 0, Workspace.cube(0.05),
                20.0, 4.0, 3000.0, 1.0, 0.15, EmulatorProfile.RATES_125_TO_1000_HZ, 1000, 1_000_000_000L);
        SessionWire stronger = new SessionWire(wire.session,
                new EmulatedDevice(twentyNewtons, new FixedHandTarget(0, 0, 0)));
        stronger.nowNs = wire.nowNs;
        stronger.run(50, 0, 0, 0);
        assertFalse(stronger.session.isSessionActive());
        assertTrue(stronger.session.lastError().contains("a different device answered"),
            stronger.session.lastError());
        assertEquals(8.0, stronger.session.info().maxForceN());
    }

    @Test
    void shouldReportIncompatibleOnInfoWithVersionZero() {
        LinkSession session = new LinkSession(CONFIG, "test");
        session.linkOpened(0);
        session.poll(0, new byte[LinkSession.MAX_POLL_BYTES], 0);
        byte[] wire = new byte[Frame.MAX_WIRE_BYTES];
        int n = new FrameEncoder().encode(new Info().setVersionAndDof(0, 3, 3).setSelectedRateIndex(Info.NO_RATE),
                0, wire, 0);
        session.receive(wire, 0, n, MS);
        assertTrue(session.isIncompatible());
        assertFalse(session.isSessionActive());
        assertNotNull(session.lastError());
        assertTrue(session.lastError().contains("no common protocol version"), session.lastError());
    }

    @Test
    void shouldRefuseAnInfoChoosingAVersionTheHostDidNotOfferOrNoRate() {
        // Found by a device written from the spec: version 3 was accepted and the transmit thread then died encoding
        // the first FORCE; rate index 0xFF opened a session that could never stream.
        Info[] refused = {
            validInfo().setVersionAndDof(Frame.LATEST_VERSION + 1, 3, 3),
            validInfo().setSelectedRateIndex(Info.NO_RATE),
        };
        String[] reason = {"did not offer", "no session rate"};
        for (int k = 0; k < refused.length; k++) {
            LinkSession session = new LinkSession(CONFIG, "test");
            session.linkOpened(0);
            session.poll(0, new byte[LinkSession.MAX_POLL_BYTES], 0);
            byte[] wire = new byte[Frame.MAX_WIRE_BYTES];
            int n = new FrameEncoder().encode(refused[k], 0, wire, 0);
            session.receive(wire, 0, n, MS);
            assertFalse(session.isSessionActive(), reason[k]);
            assertTrue(session.isIncompatible(), reason[k]);
            assertTrue(session.lastError().contains(reason[k]), session.lastError());
        }
        LinkSession session = new LinkSession(CONFIG, "test");
        session.linkOpened(0);
        session.poll(0, new byte[LinkSession.MAX_POLL_BYTES], 0);
        byte[] wire = new byte[Frame.MAX_WIRE_BYTES];
        int n = new FrameEncoder().encode(validInfo(), 0, wire, 0);
        session.receive(wire, 0, n, MS);
        assertTrue(session.isSessionActive(), "the same INFO with version 2 and 1000 Hz opens the session");
    }

    @Test
    void shouldCountTheTripsOfADeviceThatResetItsCountInsteadOfUnderflowing() {
        // A device that answered with a second INFO mid-session had reset its count 3 → 0; the u16 difference was
        // added as 65,533 trips.
        LinkSession session = new LinkSession(CONFIG, "test");
        session.linkOpened(0);
        session.poll(0, new byte[LinkSession.MAX_POLL_BYTES], 0);
        FrameEncoder encoder = new FrameEncoder();
        byte[] wire = new byte[Frame.MAX_WIRE_BYTES];
        int n = encoder.encode(validInfo(), 0, wire, 0);
        session.receive(wire, 0, n, MS);
        int[] trips = {3, -1, 0, 1};
        int sequence = 1;
        for (int t : trips) {
            if (t < 0) {
                n = encoder.encode(validInfo(), sequence++, wire, 0);
            } else {
                State state = new State().setPositionM(0f, 0f, 0f).setLinkCounters(State.NOT_CARRIED, t);
                n = encoder.encode(state, Frame.LATEST_VERSION, sequence++, wire, 0);
            }
            session.receive(wire, 0, n, 2 * MS + sequence);
        }
        assertEquals(4, session.statistics().deviceWatchdogTrips(), "3 before the reset, 1 after");
    }

    @Test
    void shouldNotAcceptAWeakerDeviceOnTheSameLink() {
        // Found by a device that came back declaring 1 N after 3 N: it was sent the first device's 3 N.
        SessionWire wire = open(EmulatedDevice.Firmware.defaults());
        wire.run(10, 0, 0, 0);
        wire.session.linkClosed("replugged");
        EmulatorProfile twoNewtons = new EmulatorProfile("Weaker device", 3, 3, 1, 0, 0, Workspace.cube(0.05),
                2.0, 1.0, 3000.0, 1.0, 0.15, EmulatorProfile.RATES_125_TO_1000_HZ, 1000, 1_000_000_000L);
        SessionWire weaker = new SessionWire(wire.session, new EmulatedDevice(twoNewtons, new FixedHandTarget(0, 0, 0)));
        weaker.nowNs = wire.nowNs;
        weaker.run(50, 5.0, 0, 0);
        assertFalse(weaker.session.isSessionActive());
        assertTrue(weaker.session.lastError().contains("max force 2.00 N, the first 8.00 N"),
            weaker.session.lastError());
        assertEquals(0.0, weaker.device.appliedForceN(0), "no force reaches a device the session was not sized for");
    }

    /**
     * Found by a tester: a Touch-like device (3.3 N) answering after a Falcon-like one (8 N) was refused as "max
     * force 3.299999952316284 N" (INFO's float32 printed as a double), and the refusal was made anew by each HELLO
     * and each reopen, so the server warned every second. Now it reads 3.30 N, and is said once: the same device
     * answering again, on the same link or after a reopen, leaves the error as it was (the same string).
     */
    @Test
    void shouldRefuseADifferentDeviceOnceInReadableUnits() {
        SessionWire wire = open(EmulatedDevice.Firmware.defaults());
        wire.run(10, 0, 0, 0);
        wire.session.linkClosed("replugged");
        SessionWire touch = new SessionWire(wire.session, new EmulatedDevice(EmulatorProfile.touchLike(),
                new FixedHandTarget(0, 0, 0)));
        touch.nowNs = wire.nowNs;
        touch.run(300, 0, 0, 0);
        String refusal = touch.session.lastError();
        assertTrue(refusal.contains("(max force 3.30 N, the first 8.00 N)"), refusal);

        touch.run(300, 0, 0, 0);
        assertSame(refusal, touch.session.lastError(), "three more HELLOs answered by the same device");
        assertTrue(touch.session.wantsReopen(touch.nowNs + CONFIG.reopenAfterNs() + 1));
        assertSame(refusal, touch.session.lastError(), "a reopen for the same device adds nothing");
        touch.session.linkClosed(null);
        SessionWire again = new SessionWire(touch.session, touch.device);
        again.nowNs = touch.nowNs;
        again.run(300, 0, 0, 0);
        assertSame(refusal, again.session.lastError(), "the same device after the reopen");
        assertFalse(again.session.isSessionActive());
    }

    /** A session fed frames by hand, no device behind it: what a firmware under test would send. */
    private static final class HandFed {
        final LinkSession session = new LinkSession(CONFIG, "test");
        final byte[] out = new byte[LinkSession.MAX_POLL_BYTES];
        private final FrameEncoder encoder = new FrameEncoder();
        private final byte[] wire = new byte[Frame.MAX_WIRE_BYTES];

        /** The link opened and its HELLO sent. */
        HandFed() {
            session.linkOpened(0);
            session.poll(0, out, 0);
        }

        void send(Message message, int sequence, long nowNs) {
            int n = message instanceof Info ? encoder.encode(message, sequence, wire, 0)
                : encoder.encode(message, Frame.LATEST_VERSION, sequence, wire, 0);
            session.receive(wire, 0, n, nowNs);
        }

        void sendInVersion(Message message, int version, int sequence, long nowNs) {
            session.receive(wire, 0, encoder.encode(message, version, sequence, wire, 0), nowNs);
        }
    }

    @Test
    void shouldNeverSendMoreThanTheDeviceDeclaredWhateverTheLoopCommands() {
        HandFed fed = new HandFed();
        fed.send(validInfo(), 0, MS);
        fed.send(new State().setStatusFlags(org.hapticsd.protocol.StatusFlags.HOMED)
            .setLinkCounters(State.NOT_CARRIED, 0), 1, MS);
        // 13 N along (3, 4, 12) against the device's declared 8 N.
        fed.session.commandForce(3.0, 4.0, 12.0);
        byte[] out = fed.out;
        int n = fed.session.poll(2 * MS, out, 0);
        List<org.hapticsd.protocol.Force> forces = new ArrayList<>();
        new FrameDecoder(m -> {
            if (m instanceof org.hapticsd.protocol.Force f) {
                forces.add(new org.hapticsd.protocol.Force().setForceN(f.forceN(0), f.forceN(1), f.forceN(2)));
            }
        }).feed(out, 0, n);
        assertEquals(1, forces.size());
        org.hapticsd.protocol.Force sent = forces.get(0);
        double x = sent.forceN(0);
        double y = sent.forceN(1);
        double z = sent.forceN(2);
        assertEquals(8.0, Math.sqrt(x * x + y * y + z * z), 1e-5, "clamped to the declared 8 N");
        assertEquals(8.0 * 12.0 / 13.0, z, 1e-5, "in the commanded direction");
    }

    @Test
    void shouldNotUseStaleStatesAndRestartTheSessionWhenTheDevicesSequenceWentBack() {
        HandFed fed = new HandFed();
        LinkSession session = fed.session;
        fed.send(validInfo(), 40_000, MS);
        assertTrue(session.isSessionActive());
        org.hapticsd.device.DeviceState read = new org.hapticsd.device.DeviceState();
        State state = new State().setPositionM(0.01f, 0f, 0f).setLinkCounters(State.NOT_CARRIED, 0);
        fed.send(state, 40_001, 2 * MS);
        assertTrue(session.readState(read));
        assertEquals(0.01f, (float) read.positionXM);
        // The counter goes back by 10,001 (the firmware restarted it without a new session): every frame after it is
        // stale (spec 5), until it would pass the last one again some 10,000 frames later.
        state.setPositionM(0.05f, 0f, 0f);
        int sequence = 30_000;
        for (int k = 1; k < LinkSession.STALE_STATES_BEFORE_RESTART; k++) {
            fed.send(state, sequence++, (2 + k) * MS);
            assertFalse(session.readState(read), "a stale STATE is not the newest position (" + k + ")");
            assertTrue(session.isSessionActive());
        }
        fed.send(state, sequence, 40 * MS);
        assertFalse(session.isSessionActive(), "the session restarts after 32 stale STATEs in a row");
        assertTrue(session.lastError().contains("restarting the session"), session.lastError());
        assertEquals(List.of("HELLO"), sent(session, 41 * MS));
        // The device's INFO starts the count afresh, and its states are used again.
        fed.send(validInfo(), 7, 42 * MS);
        fed.send(state, 8, 43 * MS);
        assertTrue(session.readState(read));
        assertEquals(0.05f, (float) read.positionXM);
    }

    /**
     * A STATE framed in version 1 inside a version-2 session: the spec had not said what a receiver does with it (a
     * version this host speaks, but not the session's). It is malformed and not used: its layout has no ackSequence,
     * on which the session's close relies.
     */
    @Test
    void shouldCountAFrameInAnotherVersionThanTheSessionsAsMalformedAndNotUseIt() {
        HandFed fed = new HandFed();
        LinkSession session = fed.session;
        fed.send(validInfo(), 0, MS);
        assertEquals(Frame.LATEST_VERSION, session.sessionVersion());
        org.hapticsd.device.DeviceState read = new org.hapticsd.device.DeviceState();
        fed.send(new State().setPositionM(0.01f, 0f, 0f).setLinkCounters(State.NOT_CARRIED, 0), 1, 2 * MS);
        assertTrue(session.readState(read));
        long malformed = session.statistics().malformedFrames();
        fed.sendInVersion(new State().setPositionM(0.05f, 0f, 0f), Frame.VERSION_1, 2, 3 * MS);
        assertFalse(session.readState(read), "the version-1 STATE is not a new state");
        assertEquals(0.01f, (float) read.positionXM);
        assertEquals(malformed + 1, session.statistics().malformedFrames());
        assertTrue(session.isSessionActive());
    }

    private static Info validInfo() {
        return new Info().setVersionAndDof(Frame.LATEST_VERSION, 3, 3).setSelectedRateIndex(3)
            .setWorkspaceM(-0.1f, -0.1f, -0.1f, 0.1f, 0.1f, 0.1f).setRatings(8f, 4f, 3000f, 1f)
            .setSupportedRates(0x0F).setName("device");
    }

    @Test
    void shouldNumberEveryHostFrameFromOneCounterAndFrameThemInTheSessionsVersion() {
        SessionWire wire = open(EmulatedDevice.Firmware.defaults());
        List<Integer> versions = new ArrayList<>();
        List<Integer> sequences = new ArrayList<>();
        FrameDecoder spy = new FrameDecoder((Message m) -> {
            versions.add(m.version());
            sequences.add(m.sequence());
        });
        byte[] out = new byte[LinkSession.MAX_POLL_BYTES];
        for (int k = 0; k < 300; k++) {
            wire.session.commandForce(0.5, 0, 0);
            int n = wire.session.poll(wire.nowNs, out, 0);
            spy.feed(out, 0, n);
            wire.device.receive(out, 0, n, wire.nowNs);
            n = wire.device.poll(wire.nowNs, out, 0);
            wire.session.receive(out, 0, n, wire.nowNs);
            wire.nowNs += MS;
        }
        assertTrue(versions.stream().allMatch(v -> v == 2), "every frame after INFO in version 2");
        for (int i = 1; i < sequences.size(); i++) {
            assertEquals((sequences.get(i - 1) + 1) & 0xFFFF, (int) sequences.get(i), "frame " + i);
        }
        assertTrue(sequences.size() >= 300, "a FORCE per tick plus PINGs: " + sequences.size());
        assertEquals(0, spy.sequenceGaps(org.hapticsd.protocol.Direction.HOST_TO_DEVICE));
    }
}
