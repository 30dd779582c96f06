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
        assertEquals(56, MessageType.STATE.wireBytes());
        assertEquals(34, MessageType.FORCE.wireBytes());
        assertEquals(92, MessageType.INFO.wireBytes());
        assertEquals(12, MessageType.HOST_HEARTBEAT.wireBytes());
        assertEquals(16, MessageType.STATUS.wireBytes());
    }

    @Test
    void shouldFitOneStateAndOneForcePerTickAt1kHzOn1MbaudWithRoomToSpare() {
        int rateHz = 1000;
        int baud = 1_000_000;
        double stateShare = (double) MessageType.STATE.wireBytes() * BITS_PER_BYTE_ON_WIRE * rateHz / baud;
        double forceShare = (double) MessageType.FORCE.wireBytes() * BITS_PER_BYTE_ON_WIRE * rateHz / baud;
        // Full duplex: each direction has the whole baud rate. "Room to spare" = at most 60% of either.
        assertEquals(0.56, stateShare, 1e-12);
        assertEquals(0.34, forceShare, 1e-12);
        assertTrue(stateShare <= 0.60 && forceShare <= 0.60);
    }

    @Test
    void shouldAllow205HzAt115200Baud() {
        int bytesPerSecond = 115_200 / BITS_PER_BYTE_ON_WIRE;
        int stateLimitedHz = bytesPerSecond / MessageType.STATE.wireBytes();
        int forceLimitedHz = bytesPerSecond / MessageType.FORCE.wireBytes();
        assertEquals(205, stateLimitedHz);
        assertEquals(338, forceLimitedHz);
        assertEquals(205, Math.min(stateLimitedHz, forceLimitedHz));
    }
}
