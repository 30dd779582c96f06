package org.hapticsd.protocol.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Seeded fuzzing of both decoders (a failure reproduces). Whatever the input, a decoder returns a message or throws
 * {@link StreamFormatException}, never anything else; a message it does return re-encodes and decodes to itself.
 *
 * <p>No input may take the decoder long: each is held to {@link #MAX_CPU_NS_PER_INPUT} of this thread's CPU time.
 * CPU time, not the wall clock: a 60 s wall-clock timeout on the whole loop (about 4 s of work) failed a CI run on
 * a machine loaded 11 deep by other processes, where the JSON fuzz took over 60 s without any input being slow. The
 * wall-clock timeout left ({@value #HANG_GUARD_MINUTES} min) only catches a decoder that never returns.
 */
class StreamDecoderFuzzTest {
    private static final int BINARY_INPUTS = 300_000;
    private static final int JSON_INPUTS = 100_000;
    /** An input whose decoding takes more CPU than this nearly hangs the decoder (each takes microseconds). */
    private static final long MAX_CPU_NS_PER_INPUT = 1_000_000_000L;
    static final int HANG_GUARD_MINUTES = 10;
    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();

    private final List<byte[]> valid = StreamSamples.all().stream().map(StreamCodec::encode).toList();
    private final List<String> validJson = StreamSamples.all().stream().map(StreamJson::encodeJson).toList();

    @Test
    void shouldRefuseEveryProperPrefixOfEveryMessage() {
        // Every layout ends with a required field and lists are counted, so no prefix is a whole message.
        int prefixes = 0;
        for (byte[] m : valid) {
            for (int n = 0; n < m.length; n++) {
                byte[] prefix = java.util.Arrays.copyOf(m, n);
                try {
                    StreamCodec.decode(prefix);
                    fail("a " + n + "-byte prefix of a " + m.length + "-byte message decoded");
                } catch (StreamFormatException expected) {
                    prefixes++;
                }
            }
        }
        assertTrue(prefixes > 1000, "prefixes tried: " + prefixes);
    }

    @Test
    @Timeout(value = HANG_GUARD_MINUTES, unit = java.util.concurrent.TimeUnit.MINUTES)
    void shouldOnlyEverThrowStreamFormatExceptionOnRandomTruncatedAndMutatedBinary() {
        Random random = new Random(0x57EA4);
        byte[] noise = new byte[512];
        int decoded = 0;
        int refused = 0;
        for (int i = 0; i < BINARY_INPUTS; i++) {
            byte[] input;
            int kind = random.nextInt(4);
            byte[] base = valid.get(random.nextInt(valid.size()));
            if (kind == 0) {
                // Random bytes behind a valid header, so the fuzz reaches the payload decoders.
                input = new byte[random.nextInt(noise.length)];
                random.nextBytes(input);
                if (input.length >= 2) {
                    input[0] = (byte) StreamProtocol.VERSION;
                    input[1] = base[1];
                }
            } else if (kind == 1) {
                input = java.util.Arrays.copyOf(base, random.nextInt(base.length + 8));
            } else {
                input = base.clone();
                int changes = 1 + random.nextInt(kind == 2 ? 2 : 8);
                for (int k = 0; k < changes; k++) {
                    input[random.nextInt(input.length)] = (byte) random.nextInt(256);
                }
            }
            long cpuBeforeNs = threads.getCurrentThreadCpuTime();
            try {
                StreamMessage m = StreamCodec.decode(input);
                assertEquals(m, StreamCodec.decode(StreamCodec.encode(m)), "input " + i);
                decoded++;
            } catch (StreamFormatException expected) {
                refused++;
            } catch (RuntimeException | Error e) {
                throw new AssertionError("input " + i + " (" + StreamSamples.hex(input) + ") threw " + e, e);
            }
            requireQuick(cpuBeforeNs, i, StreamSamples.hex(input));
        }
        assertEquals(BINARY_INPUTS, decoded + refused);
        // Both outcomes must be common, or the fuzz is not exercising the decoder: mutations of floats decode,
        // truncations and random payloads do not.
        assertTrue(decoded > BINARY_INPUTS / 20 && refused > BINARY_INPUTS / 4, decoded + " decoded, " + refused
            + " refused");
    }

    @Test
    @Timeout(value = HANG_GUARD_MINUTES, unit = java.util.concurrent.TimeUnit.MINUTES)
    void shouldOnlyEverThrowStreamFormatExceptionOnMutatedJson() {
        Random random = new Random(0x15017);
        String alphabet = "{}[]\":,0123456789.-eE+ntrufalsNIy\\ abcxyzMN";
        int decoded = 0;
        int refused = 0;
        for (int i = 0; i < JSON_INPUTS; i++) {
            StringBuilder s = new StringBuilder(validJson.get(random.nextInt(validJson.size())));
            int kind = random.nextInt(3);
            if (kind == 0) {
                s.setLength(random.nextInt(s.length() + 1));
            } else {
                int changes = 1 + random.nextInt(kind == 1 ? 2 : 6);
                for (int k = 0; k < changes; k++) {
                    int at = random.nextInt(s.length());
                    char c = alphabet.charAt(random.nextInt(alphabet.length()));
                    switch (random.nextInt(3)) {
                        case 0 -> s.setCharAt(at, c);
                        case 1 -> s.insert(at, c);
                        default -> s.deleteCharAt(at);
                    }
                    if (s.length() == 0) {
                        break;
                    }
                }
            }
            String input = s.toString();
            long cpuBeforeNs = threads.getCurrentThreadCpuTime();
            try {
                StreamMessage m = StreamJson.decodeJson(input);
                assertEquals(m, StreamJson.decodeJson(StreamJson.encodeJson(m)), "input " + i);
                decoded++;
            } catch (StreamFormatException expected) {
                refused++;
            } catch (RuntimeException | Error e) {
                throw new AssertionError("input " + i + " (" + input + ") threw " + e, e);
            }
            requireQuick(cpuBeforeNs, i, input);
        }
        assertEquals(JSON_INPUTS, decoded + refused);
        assertTrue(decoded > JSON_INPUTS / 100 && refused > JSON_INPUTS / 2, decoded + " decoded, " + refused
            + " refused");
    }

    private void requireQuick(long cpuBeforeNs, int i, String input) {
        long spentNs = threads.getCurrentThreadCpuTime() - cpuBeforeNs;
        if (spentNs > MAX_CPU_NS_PER_INPUT) {
            fail("input " + i + " (" + input + ") took " + spentNs / 1_000_000L + " ms of CPU to decode");
        }
    }
}
