package org.hapticsd.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The link budget of docs/device-protocol.md, recomputed from the message sizes so the two cannot drift. */
class ByteBudgetTest {
    /** 8N1: a start bit, 8 data bits, a stop bit. */
    private static final int BITS_PER_BYTE_ON_WIRE = 10;

    @Test
    void shouldMatchTheWireSizesInTheSpec() {
        assertEquals(68, MessageType.STATE.wireBytes());
        assertEquals(34, MessageType.FORCE.wireBytes());
        assertEquals(92, MessageType.INFO.wireBytes());
        assertEquals(12, MessageType.HOST_HEARTBEAT.wireBytes());
        assertEquals(16, MessageType.STATUS.wireBytes());
        assertEquals(12, MessageType.PING.wireBytes());
        assertEquals(16, MessageType.PONG.wireBytes());
    }

    @Test
    void shouldFitOneStateAndOneForcePerTickAt1kHzOn1MbaudWithRoomToSpare() {
        int rateHz = 1000;
        int baud = 1_000_000;
        double stateShare = (double) MessageType.STATE.wireBytes() * BITS_PER_BYTE_ON_WIRE * rateHz / baud;
        double forceShare = (double) MessageType.FORCE.wireBytes() * BITS_PER_BYTE_ON_WIRE * rateHz / baud;
        // Full duplex: each direction has the whole baud rate.
        assertEquals(0.68, stateShare, 1e-12);
        assertEquals(0.34, forceShare, 1e-12);
        // "Room to spare": besides its STATE, each tick carries the largest other frame the device may owe (a
        // STATUS on a state change or a PONG), and besides the FORCE the host's PING, with 10 % of the tick still
        // free. A second extra frame due in the same tick waits one tick (spec section 8).
        int byteTimesPerTick = baud / BITS_PER_BYTE_ON_WIRE / rateHz;
        int largestExtra = Math.max(MessageType.STATUS.wireBytes(),
            Math.max(MessageType.PONG.wireBytes(), MessageType.HOMING_PROGRESS.wireBytes()));
        int deviceWorstTick = MessageType.STATE.wireBytes() + largestExtra;
        int hostWorstTick = MessageType.FORCE.wireBytes() + MessageType.PING.wireBytes();
        assertEquals(100, byteTimesPerTick);
        assertTrue(deviceWorstTick <= 0.9 * byteTimesPerTick, "device worst tick " + deviceWorstTick);
        assertTrue(hostWorstTick <= 0.9 * byteTimesPerTick, "host worst tick " + hostWorstTick);
    }

    @Test
    void shouldAllow169HzAt115200Baud() {
        int bytesPerSecond = 115_200 / BITS_PER_BYTE_ON_WIRE;
        int stateLimitedHz = bytesPerSecond / MessageType.STATE.wireBytes();
        int forceLimitedHz = bytesPerSecond / MessageType.FORCE.wireBytes();
        assertEquals(169, stateLimitedHz);
        assertEquals(338, forceLimitedHz);
        assertEquals(169, Math.min(stateLimitedHz, forceLimitedHz));
        // The highest rate the protocol can select (125·2^i Hz) that fits is 125 Hz.
        assertTrue(125 <= stateLimitedHz && 250 > stateLimitedHz);
    }
}
