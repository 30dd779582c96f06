package org.hapticsd.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The link budget of docs/device-protocol.md, recomputed from the message sizes so the two cannot drift. */
class ByteBudgetTest {
    /** 8N1: a start bit, 8 data bits, a stop bit. */
    private static final int BITS_PER_BYTE_ON_WIRE = 10;
    private static final int V1 = Frame.VERSION_1;
    private static final int V2 = Frame.VERSION_2;

    @Test
    void shouldMatchTheWireSizesInTheSpec() {
        assertEquals(68, MessageType.STATE.wireBytes(V1));
        assertEquals(72, MessageType.STATE.wireBytes(V2));
        assertEquals(34, MessageType.FORCE.wireBytes(V1));
        assertEquals(34, MessageType.FORCE.wireBytes(V2));
        assertEquals(92, MessageType.INFO.wireBytes(V1));
        assertEquals(12, MessageType.HOST_HEARTBEAT.wireBytes(V1));
        assertEquals(16, MessageType.STATUS.wireBytes(V1));
        assertEquals(18, MessageType.STATUS.wireBytes(V2));
        assertEquals(12, MessageType.PING.wireBytes(V1));
        assertEquals(16, MessageType.PONG.wireBytes(V1));
        for (MessageType type : MessageType.values()) {
            if (type != MessageType.STATE && type != MessageType.STATUS) {
                assertEquals(type.wireBytes(V1), type.wireBytes(V2), type + " is the same in both versions");
            }
        }
    }

    @Test
    void shouldFitOneStateAndOneForcePerTickAt1kHzOn1MbaudWithRoomToSpare() {
        int rateHz = 1000;
        int baud = 1_000_000;
        // Full duplex: each direction has the whole baud rate.
        assertEquals(0.68, share(MessageType.STATE.wireBytes(V1), rateHz, baud), 1e-12);
        assertEquals(0.72, share(MessageType.STATE.wireBytes(V2), rateHz, baud), 1e-12);
        assertEquals(0.34, share(MessageType.FORCE.wireBytes(V2), rateHz, baud), 1e-12);
        // "Room to spare": besides its STATE, each tick carries the largest other frame the device may owe (a
        // STATUS on a state change or a PONG), and besides the FORCE the host's PING, with at least 10 % of the
        // tick still free. A second extra frame due in the same tick waits one tick (spec section 8).
        int byteTimesPerTick = baud / BITS_PER_BYTE_ON_WIRE / rateHz;
        assertEquals(100, byteTimesPerTick);
        for (int version = V1; version <= Frame.LATEST_VERSION; version++) {
            int largestExtra = Math.max(MessageType.STATUS.wireBytes(version),
                Math.max(MessageType.PONG.wireBytes(version), MessageType.HOMING_PROGRESS.wireBytes(version)));
            int deviceWorstTick = MessageType.STATE.wireBytes(version) + largestExtra;
            int hostWorstTick = MessageType.FORCE.wireBytes(version) + MessageType.PING.wireBytes(version);
            assertTrue(deviceWorstTick <= 0.9 * byteTimesPerTick, "v" + version + " device worst " + deviceWorstTick);
            assertTrue(hostWorstTick <= 0.9 * byteTimesPerTick, "v" + version + " host worst tick " + hostWorstTick);
        }
    }

    @Test
    void shouldAllow169HzAt115200BaudInVersion1And160HzInVersion2() {
        int bytesPerSecond = 115_200 / BITS_PER_BYTE_ON_WIRE;
        assertEquals(169, bytesPerSecond / MessageType.STATE.wireBytes(V1));
        assertEquals(160, bytesPerSecond / MessageType.STATE.wireBytes(V2));
        assertEquals(338, bytesPerSecond / MessageType.FORCE.wireBytes(V2));
        // The highest rate the protocol can select (125·2^i Hz) that fits is 125 Hz in both versions.
        for (int version = V1; version <= Frame.LATEST_VERSION; version++) {
            int stateLimitedHz = bytesPerSecond / MessageType.STATE.wireBytes(version);
            assertTrue(125 <= stateLimitedHz && 250 > stateLimitedHz);
        }
    }

    private static double share(int wireBytes, int rateHz, int baud) {
        return (double) wireBytes * BITS_PER_BYTE_ON_WIRE * rateHz / baud;
    }
}
