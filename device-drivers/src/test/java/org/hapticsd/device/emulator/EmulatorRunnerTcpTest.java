package org.hapticsd.device.emulator;

import static org.hapticsd.device.emulator.LinkHost.MS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.hapticsd.device.link.TcpByteLink;
import org.hapticsd.device.sim.FixedHandTarget;
import org.hapticsd.protocol.Direction;
import org.hapticsd.protocol.MessageType;
import org.hapticsd.protocol.StatusFlags;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link EmulatorRunner} on a real TCP connection over loopback, with the reference codec on the host side. What is
 * asserted is what the host sees on the wire; timing is read from the device's own STATE clock, not from how fast
 * the machine ran the test.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class EmulatorRunnerTcpTest {
    /** Long enough for any handshake on a loaded machine, short enough to fail a broken one quickly. */
    private static final long ANSWER_TIMEOUT_NS = 3_000 * MS;
    /** Read timeout of both ends: how long a read waits for a first byte. */
    private static final int READ_TIMEOUT_MS = 10;

    private ServerSocket server;
    private EmulatorRunner runner;
    private final List<LinkHost> hosts = new ArrayList<>();

    private EmulatorRunner startRunner(EmulatedDevice device) throws IOException {
        server = new ServerSocket(0, 4, InetAddress.getLoopbackAddress());
        runner = new EmulatorRunner(device, TcpByteLink.acceptor(server, READ_TIMEOUT_MS)).start();
        return runner;
    }

    private LinkHost connect() throws IOException {
        LinkHost host = new LinkHost(TcpByteLink.connect("127.0.0.1", server.getLocalPort(), 2000, READ_TIMEOUT_MS));
        hosts.add(host);
        return host;
    }

    private LinkHost connectAndHandshake() throws IOException {
        LinkHost host = connect();
        host.sendZeroAndHello(1000);
        assertTrue(host.pumpUntil(() -> host.infoCount == 1 && !host.states.isEmpty(), ANSWER_TIMEOUT_NS),
                "INFO and a first STATE within 3 s");
        return host;
    }

    @AfterEach
    void stop() throws IOException {
        hosts.forEach(LinkHost::close);
        if (runner != null) {
            runner.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    void shouldStreamStateAtNegotiatedRateAfterHandshake() throws IOException {
        startRunner(new EmulatedDevice(EmulatorProfile.falconLike()));
        LinkHost host = connectAndHandshake();
        assertEquals("Falcon-like emulator", host.infoName);
        assertEquals(1, host.infoVersion, "this host offers version 1 only");
        assertEquals(1000, host.infoRateHz);

        host.states.clear();
        host.pumpFor(300 * MS);

        List<LinkHost.StateSample> states = host.states;
        assertTrue(states.size() >= 20, "STATE streams: " + states.size() + " in 300 ms of pumping");
        long spanUs = states.get(states.size() - 1).deviceTimeUs() - states.get(0).deviceTimeUs();
        // The schedule never runs ahead of 1 per ms (at most one frame more at each end of the span), however the
        // threads were scheduled. How many it sends in a wall-clock window depends on the machine (a stalled
        // firmware thread skips frames rather than bursting them), so the rate is read from the device's own
        // clock: the median interval ignores those stalls, 1000 us give or take the 250 us poll interval. The
        // exact rate, frame by frame, is EmulatedDeviceTest's on a fake clock.
        long periods = spanUs / 1000;
        assertTrue(states.size() <= periods + 2, states.size() + " STATEs in " + spanUs + " us");
        List<Long> intervalsUs = new ArrayList<>();
        for (int i = 1; i < states.size(); i++) {
            intervalsUs.add(states.get(i).deviceTimeUs() - states.get(i - 1).deviceTimeUs());
        }
        Collections.sort(intervalsUs);
        long medianUs = intervalsUs.get(intervalsUs.size() / 2);
        assertEquals(1000.0, medianUs, 250.0, "median STATE interval, us");
        assertEquals(0, host.decoder.lostFrames(Direction.DEVICE_TO_HOST), "TCP loses nothing");
        assertEquals(0, host.decoder.crcErrors() + host.decoder.malformedFrames());
    }

    @Test
    void shouldApplyForceAndReportItInState() throws IOException {
        // A 10 s watchdog: the test thread sends one FORCE and may then stall; the spec's 5 ms would trip on that.
        startRunner(new EmulatedDevice(EmulatorProfile.falconLike(), new FixedHandTarget(0, 0, 0), 10_000 * MS));
        LinkHost host = connectAndHandshake();
        assertEquals(0, host.lastState().statusFlags() & StatusFlags.OUTPUT_ENABLED, "output off until FORCE");

        host.sendForce(1.5f, -2.0f, 0.25f, true);
        assertTrue(host.pumpUntil(() -> (host.lastState().statusFlags() & StatusFlags.OUTPUT_ENABLED) != 0,
                ANSWER_TIMEOUT_NS), "a STATE with OUTPUT_ENABLED");

        LinkHost.StateSample state = host.lastState();
        // Exact: the values are binary32-exact and below the 8 N clamp, so the device applies them unchanged.
        assertEquals(1.5f, state.fxN());
        assertEquals(-2.0f, state.fyN());
        assertEquals(0.25f, state.fzN());
        assertEquals(1L, (long) runner.query(EmulatedDevice::forcesAccepted));
        assertEquals(1.5, runner.query(d -> d.appliedForceN(0)));
    }

    @Test
    void shouldSendNothingWhileUnpluggedAndCountDiscardedBytes() throws IOException {
        startRunner(new EmulatedDevice(EmulatorProfile.falconLike()));
        LinkHost host = connectAndHandshake();
        host.pumpFor(20 * MS);
        long lastSeenUs = host.lastState().deviceTimeUs();

        runner.setUnplugged(true);
        host.stopHeartbeats();
        // A cycle that had already polled when the flag flipped may still write once; let that arrive.
        assertTrue(host.drainUntilQuiet(30 * MS, 1_000 * MS), "the line goes quiet after unplugging");
        long sent = 0;
        for (int i = 0; i < 3; i++) {
            sent += host.sendHeartbeat();
        }
        assertEquals(0, host.pumpFor(150 * MS), "no byte from an unplugged device in 150 ms");
        long expected = sent;
        assertTrue(host.pumpUntil(() -> runner.bytesDiscarded() == expected, 1_000 * MS));
        assertEquals(3L * MessageType.HOST_HEARTBEAT.wireBytes(1), runner.bytesDiscarded());

        runner.setUnplugged(false);
        host.startHeartbeats();
        int before = host.states.size();
        // Well inside the 500 ms liveness: the session survives the 150 ms pull and STATE resumes.
        assertTrue(host.pumpUntil(() -> host.states.size() > before, ANSWER_TIMEOUT_NS), "STATE resumes");
        LinkHost.StateSample resumed = host.states.get(before);
        assertTrue(resumed.deviceTimeUs() - lastSeenUs >= 150_000,
                "the firmware kept its clock while unplugged: " + (resumed.deviceTimeUs() - lastSeenUs) + " us");
        assertTrue(host.decoder.lostFrames(Direction.DEVICE_TO_HOST) >= 1,
                "frames sent into the unplugged cable show as a sequence gap");
    }

    @Test
    void shouldKeepDecodingAfterInjectedGarbage() throws IOException {
        startRunner(new EmulatedDevice(EmulatorProfile.falconLike()));
        LinkHost host = connectAndHandshake();
        host.pumpFor(20 * MS);
        long malformed = host.decoder.malformedFrames();
        long crc = host.decoder.crcErrors();
        long resyncs = host.decoder.resyncs();
        int before = host.states.size();

        // "11 22 33" then a delimiter: a run too short to be a frame (malformed). "44 55 66" has no delimiter, so
        // it merges with the next frame; the decoder recovers that frame from the end of the run (spec 2.5).
        runner.injectGarbage(new byte[] {0x11, 0x22, 0x33, 0x00, 0x44, 0x55, 0x66});
        assertTrue(host.pumpUntil(() -> host.states.size() >= before + 20, ANSWER_TIMEOUT_NS), "20 more STATEs");

        assertEquals(1, host.decoder.malformedFrames() - malformed, "the short run");
        assertEquals(1, host.decoder.resyncs() - resyncs, "the frame after the garbage, recovered");
        assertEquals(0, host.decoder.crcErrors() - crc);
        assertEquals(0, host.decoder.lostFrames(Direction.DEVICE_TO_HOST),
                "no sequence gap: the frame behind the garbage was delivered, not lost");
    }

    @Test
    void shouldAcceptTheNextHostWhenOneLeaves() throws IOException {
        startRunner(new EmulatedDevice(EmulatorProfile.touchLike()));
        // A host that connects and leaves without a byte: nothing is written to it, so only a read notices.
        LinkHost silent = connect();
        silent.close();
        // A host that leaves in the middle of a session: the next STATE write fails.
        LinkHost first = connectAndHandshake();
        first.close();

        LinkHost second = connectAndHandshake();
        assertEquals("Touch-like emulator", second.infoName);
        assertEquals(3, runner.linksOpened(), "three hosts, one at a time");
        assertTrue(runner.isLinked());
    }

    /**
     * A host that ends its run as the real one does (a zero FORCE, then close) while STATE is streaming: the next
     * write fails with EPIPE or ECONNRESET, which is the host leaving, not a link error.
     */
    @Test
    void shouldReportAHostThatClosesAsClosedByThePeerNotAsAnError() throws IOException {
        startRunner(new EmulatedDevice(EmulatorProfile.falconLike()));
        LinkHost host = connectAndHandshake();
        host.sendForce(0f, 0f, 0f, false);
        host.close();
        List<EmulatorRunner.Event> events = eventsUntil(EmulatorRunner.EventKind.LINK_CLOSED_BY_PEER, 1);

        assertEquals(List.of(EmulatorRunner.EventKind.LINK_OPENED, EmulatorRunner.EventKind.SESSION_STARTED,
            EmulatorRunner.EventKind.LINK_CLOSED_BY_PEER), kinds(events));
        assertEquals(events.get(0).linkName(), events.get(2).linkName(), "closed is told of the link that opened");
        assertNull(runner.lastError(), "a host closing its socket is not a link error");
    }

    /**
     * Two hosts, the second connecting (queued by the kernel) while the first streams: each close is told of its
     * own link, in order, even when both happen between two looks of a reader.
     */
    @Test
    void shouldTellEachCloseOfItsOwnLinkWhenASecondHostWaits() throws IOException {
        startRunner(new EmulatedDevice(EmulatorProfile.falconLike()));
        LinkHost first = connectAndHandshake();
        LinkHost second = connect();
        second.close();
        first.close();
        List<EmulatorRunner.Event> events = eventsUntil(EmulatorRunner.EventKind.LINK_CLOSED_BY_PEER, 2);

        List<EmulatorRunner.Event> links = events.stream()
            .filter(e -> e.kind().name().startsWith("LINK_")).toList();
        assertEquals(List.of(EmulatorRunner.EventKind.LINK_OPENED, EmulatorRunner.EventKind.LINK_CLOSED_BY_PEER,
            EmulatorRunner.EventKind.LINK_OPENED, EmulatorRunner.EventKind.LINK_CLOSED_BY_PEER), kinds(links));
        assertEquals(links.get(0).linkName(), links.get(1).linkName());
        assertEquals(links.get(2).linkName(), links.get(3).linkName());
        assertTrue(!links.get(0).linkName().equals(links.get(2).linkName()), "two connections, two source ports");
        assertNull(runner.lastError());
    }

    /**
     * A host that comes back within the 500 ms liveness (a reconnect) sends its HELLO while the old session still
     * runs, at the same rate: the runner still reports the old session's end and the new one's start, and the
     * device's counts agree with it.
     */
    @Test
    void shouldReportASessionThatAReconnectingHostReplaces() throws IOException {
        EmulatedDevice device = new EmulatedDevice(EmulatorProfile.falconLike());
        startRunner(device);
        LinkHost first = connectAndHandshake();
        first.close();
        connectAndHandshake();
        List<EmulatorRunner.Event> events = eventsUntil(EmulatorRunner.EventKind.SESSION_RESTARTED, 1);

        assertEquals(List.of(EmulatorRunner.EventKind.LINK_OPENED, EmulatorRunner.EventKind.SESSION_STARTED,
            EmulatorRunner.EventKind.LINK_CLOSED_BY_PEER, EmulatorRunner.EventKind.LINK_OPENED,
            EmulatorRunner.EventKind.SESSION_RESTARTED), kinds(events));
        assertEquals(events.get(3).linkName(), events.get(4).linkName(), "the new session is the new link's");
        assertEquals("1000", events.get(events.size() - 1).detail(), "the new session's rate, Hz");
        assertEquals(2L, runner.query(EmulatedDevice::sessionsStarted));
        assertEquals(1L, runner.query(EmulatedDevice::sessionsEnded), "the replaced session; the new one runs");
    }

    /** Events until the {@code count}-th of {@code kind}, waiting at most {@link #ANSWER_TIMEOUT_NS}. */
    private List<EmulatorRunner.Event> eventsUntil(EmulatorRunner.EventKind kind, int count) {
        List<EmulatorRunner.Event> events = new ArrayList<>();
        long deadlineNs = System.nanoTime() + ANSWER_TIMEOUT_NS;
        int seen = 0;
        while (seen < count) {
            EmulatorRunner.Event e = runner.pollEvent();
            if (e == null) {
                assertTrue(System.nanoTime() - deadlineNs < 0, "no " + count + " x " + kind + " within 3 s: " + events);
                java.util.concurrent.locks.LockSupport.parkNanos(MS);
                continue;
            }
            events.add(e);
            if (e.kind() == kind) {
                seen++;
            }
        }
        return events;
    }

    private static List<EmulatorRunner.EventKind> kinds(List<EmulatorRunner.Event> events) {
        return events.stream().map(EmulatorRunner.Event::kind).toList();
    }

    @Test
    void shouldRunFirmwareAndServeTasksWithNoHost() throws IOException {
        startRunner(new EmulatedDevice(EmulatorProfile.falconLike()));
        // No host: the acceptor's accept times out after its read timeout and the runner polls the firmware.
        assertEquals(0, runner.query(EmulatedDevice::sessionRateHz));
        assertEquals(0, runner.linksOpened());
        assertNull(runner.lastError(), "an accept that timed out is not an error");
    }
}
