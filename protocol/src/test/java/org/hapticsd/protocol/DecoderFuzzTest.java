package org.hapticsd.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * 10^6 seeded random inputs of three kinds: raw random chunks (zeros included), valid frames after random
 * garbage, and frames with one payload byte changed. The decoder must never throw, must keep the very arrays it
 * was built with, must decode every valid frame that follows garbage, and must count every corrupted frame as
 * exactly one CRC error. Seeded, so a failure reproduces.
 */
class DecoderFuzzTest {
    private static final int INPUTS = 1_000_000;

    private MessageType lastType;
    private int lastSequence;
    private long delivered;

    /**
     * Bounded by this thread's CPU time, not the wall clock (a 60 s wall-clock timeout is what a machine loaded by
     * other processes breaks); the wall-clock timeout left only catches a decoder that never returns.
     */
    @Test
    @Timeout(value = 10, unit = java.util.concurrent.TimeUnit.MINUTES)
    void shouldSurviveAMillionRandomAndCorruptedInputs() throws IllegalAccessException {
        java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        long cpuStartNs = threads.getCurrentThreadCpuTime();
        Random random = new Random(0x5EED);
        FrameDecoder decoder = new FrameDecoder(m -> {
            lastType = m.type();
            lastSequence = m.sequence();
            delivered++;
        });
        List<Object> arraysAtStart = arrayFields(decoder);
        int bufferBytesAtStart = decoder.bufferBytes();

        Message[] samples = {Samples.hello(), Samples.info(), Samples.state(), Samples.force(),
            Samples.hostHeartbeat(), Samples.deviceHeartbeat(), Samples.status(), Samples.homingRequest(),
            Samples.homingProgress()};
        FrameEncoder encoder = new FrameEncoder();
        byte[] wire = new byte[Frame.MAX_WIRE_BYTES];
        byte[] frame = new byte[Frame.MAX_WIRE_BYTES];
        byte[] chunk = new byte[400];
        long validAfterGarbage = 0;
        long corrupted = 0;

        for (int i = 0; i < INPUTS; i++) {
            int kind = random.nextInt(10);
            if (kind < 4) {
                int n = 1 + random.nextInt(64);
                random.nextBytes(chunk);
                decoder.feed(chunk, 0, n);
            } else if (kind < 7) {
                Message m = samples[random.nextInt(samples.length)];
                int sequence = random.nextInt(65536);
                int garbage = random.nextInt(300);
                random.nextBytes(chunk);
                decoder.feed(chunk, 0, garbage);
                int n = encoder.encode(m, sequence, wire, 0);
                long before = delivered;
                decoder.feed(wire, 0, n);
                assertEquals(before + 1, delivered, "input " + i);
                assertSame(m.type(), lastType, "input " + i);
                assertEquals(sequence, lastSequence, "input " + i);
                validAfterGarbage++;
            } else {
                Message m = samples[random.nextInt(samples.length)];
                int n = encoder.encode(m, random.nextInt(65536), wire, 0);
                int frameBytes = Cobs.decode(wire, 0, n - 1, frame, 0);
                // One payload byte changed to any other value: a burst of at most 8 bits, which CRC-16 always
                // detects, and the frame is re-stuffed so COBS stays valid and the CRC is what rejects it.
                int at = Frame.HEADER_BYTES + random.nextInt(frameBytes - Frame.HEADER_BYTES - Frame.CRC_BYTES);
                frame[at] ^= (byte) (1 + random.nextInt(255));
                wire[0] = Frame.DELIMITER;
                int encoded = Cobs.encode(frame, 0, frameBytes, wire, 1);
                wire[1 + encoded] = Frame.DELIMITER;
                decoder.feed(wire, 0, 1);
                long crcBefore = decoder.crcErrors();
                long deliveredBefore = delivered;
                decoder.feed(wire, 1, encoded + 1);
                assertEquals(crcBefore + 1, decoder.crcErrors(), "input " + i);
                assertEquals(deliveredBefore, delivered, "input " + i);
                corrupted++;
            }
        }

        assertEquals(bufferBytesAtStart, decoder.bufferBytes());
        List<Object> arraysAtEnd = arrayFields(decoder);
        assertEquals(arraysAtStart.size(), arraysAtEnd.size());
        for (int k = 0; k < arraysAtStart.size(); k++) {
            assertSame(arraysAtStart.get(k), arraysAtEnd.get(k), "decoder replaced one of its arrays");
        }
        assertTrue(validAfterGarbage > INPUTS / 4 && corrupted > INPUTS / 4,
            "each kind ran about 30% of the time: " + validAfterGarbage + ", " + corrupted);
        // About 2 s of CPU on the machine of docs/performance.md: 60 s would be a decoder gone quadratic.
        long cpuNs = threads.getCurrentThreadCpuTime() - cpuStartNs;
        assertTrue(cpuNs < 60_000_000_000L, "a million inputs took " + cpuNs / 1_000_000L + " ms of CPU");
    }

    /** Every array the decoder holds: the same instances before and after means its memory did not grow. */
    private static List<Object> arrayFields(FrameDecoder decoder) throws IllegalAccessException {
        List<Object> arrays = new ArrayList<>();
        for (Field f : FrameDecoder.class.getDeclaredFields()) {
            if (f.getType().isArray() && !Modifier.isStatic(f.getModifiers())) {
                f.setAccessible(true);
                arrays.add(f.get(decoder));
            }
        }
        assertTrue(arrays.size() >= 3);
        return arrays;
    }
}
