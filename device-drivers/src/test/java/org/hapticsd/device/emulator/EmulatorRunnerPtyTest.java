package org.hapticsd.device.emulator;

import static org.hapticsd.device.emulator.LinkHost.MS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.hapticsd.device.link.LinkAddress;
import org.hapticsd.device.link.PseudoTerminalPair;
import org.hapticsd.device.link.SerialByteLink;
import org.hapticsd.device.sim.FixedHandTarget;
import org.hapticsd.protocol.Direction;
import org.hapticsd.protocol.StatusFlags;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link EmulatorRunner} on a serial port, with the host on the other end of a socat pty pair: the path a user
 * takes with {@code hapticsd emulate --pty}. Skipped only where socat is missing; CI installs it (.ci/run).
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class EmulatorRunnerPtyTest {
    private static final long ANSWER_TIMEOUT_NS = 3_000 * MS;
    private static final int READ_TIMEOUT_MS = 10;

    @TempDir
    Path dir;

    private PseudoTerminalPair pair;
    private EmulatorRunner runner;

    @BeforeEach
    void startPair() throws IOException {
        Assumptions.assumeTrue(PseudoTerminalPair.isAvailable(), "socat is not installed");
        pair = PseudoTerminalPair.start(dir);
        // 10 s watchdog: the test thread may stall between FORCE frames; the spec's 5 ms would trip on that.
        EmulatedDevice device = new EmulatedDevice(EmulatorProfile.touchLike(), new FixedHandTarget(0, 0, 0),
                10_000 * MS);
        runner = new EmulatorRunner(device, SerialByteLink.connector(pair.devicePath().toString(),
                LinkAddress.DEFAULT_BAUD, READ_TIMEOUT_MS)).start();
    }

    @AfterEach
    void stop() {
        if (runner != null) {
            runner.close();
        }
        if (pair != null) {
            pair.close();
        }
    }

    private LinkHost openHost() throws IOException {
        return new LinkHost(SerialByteLink.open(pair.hostPath().toString(), LinkAddress.DEFAULT_BAUD,
                READ_TIMEOUT_MS));
    }

    @Test
    void shouldHandshakeStreamAndApplyForceOverPseudoTerminals() throws IOException {
        try (LinkHost host = openHost()) {
            host.sendZeroAndHello(1000);
            assertTrue(host.pumpUntil(() -> host.infoCount == 1 && !host.states.isEmpty(), ANSWER_TIMEOUT_NS),
                    "INFO and a first STATE within 3 s");
            assertEquals("Touch-like emulator", host.infoName);
            assertEquals(1000, host.infoRateHz);

            host.sendForce(0.5f, 0.0f, -1.0f, true);
            assertTrue(host.pumpUntil(() -> (host.lastState().statusFlags() & StatusFlags.OUTPUT_ENABLED) != 0,
                    ANSWER_TIMEOUT_NS), "a STATE with OUTPUT_ENABLED");
            assertEquals(0.5f, host.lastState().fxN(), "binary32-exact and below the 3.3 N clamp");
            assertEquals(-1.0f, host.lastState().fzN());

            int before = host.states.size();
            host.pumpFor(200 * MS);
            assertTrue(host.states.size() - before >= 50,
                    "STATE keeps flowing: " + (host.states.size() - before) + " in 200 ms (1 kHz, half allowed for"
                            + " stalls of a loaded machine)");
            // A pty in raw mode passes every byte value, so not one frame is damaged in transit.
            assertEquals(0, host.decoder.crcErrors() + host.decoder.malformedFrames() + host.decoder.resyncs());
            assertEquals(0, host.decoder.lostFrames(Direction.DEVICE_TO_HOST));
        }
    }

    @Test
    void shouldAnswerAHostThatReopensItsEnd() throws IOException {
        try (LinkHost host = openHost()) {
            host.sendZeroAndHello(500);
            assertTrue(host.pumpUntil(() -> host.infoCount == 1, ANSWER_TIMEOUT_NS));
        }
        // socat holds both pty slaves itself, so closing the host end neither ends the pair nor the device link.
        assertTrue(pair.isAlive());
        try (LinkHost host = openHost()) {
            host.sendZeroAndHello(250);
            assertTrue(host.pumpUntil(() -> host.infoCount == 1, ANSWER_TIMEOUT_NS), "INFO to the second host");
            assertEquals(250, host.infoRateHz);
        }
        assertEquals(1, runner.linksOpened(), "the device end stayed open throughout");
    }
}
