package org.hapticsd.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;

import org.junit.jupiter.api.Test;

/**
 * The primer resolves a class's string constants ahead: the interpreter's first {@code ldc} of a string, which
 * resolves it as C2's compile request does, then allocates nothing; the same first use in a class left unprimed
 * allocates the string (the control, which shows the measurement can see it).
 */
class JitPrimerTest {
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    @Test
    void shouldCountEveryStringConstantOfAClass() {
        assertEquals(3, JitPrimer.primeClass(ThreeStrings.class));
        assertEquals(0, JitPrimer.primeClass(NoStrings.class));
    }

    @Test
    void shouldLeaveTheFirstUseOfAPrimedStringAllocationFree() {
        THREADS.setThreadAllocatedMemoryEnabled(true);
        THREADS.getCurrentThreadAllocatedBytes(); // its own first call, out of the way
        JitPrimer.primeClass(Primed.class);

        long primedBytes = firstUseBytes(Primed::text);
        long unprimedBytes = firstUseBytes(Unprimed::text);

        assertEquals(0L, primedBytes, "bytes allocated by the first use of a primed string");
        assertTrue(unprimedBytes >= 24, "the unprimed string's first use allocated " + unprimedBytes + " bytes");
    }

    @Test
    void shouldPrimeEveryClassBesideAnAnchorOnce() {
        // This module's test classes: the fixtures' four strings, and this test's own messages.
        assertTrue(JitPrimer.prime(JitPrimerTest.class) >= 3 + 1 + 1 + 1);
        assertEquals(0, JitPrimer.prime(JitPrimerTest.class), "primed again");
        assertThrows(IllegalArgumentException.class, () -> JitPrimer.prime(String.class));
    }

    private static long firstUseBytes(java.util.function.IntSupplier use) {
        long before = THREADS.getCurrentThreadAllocatedBytes();
        int length = use.getAsInt();
        long bytes = THREADS.getCurrentThreadAllocatedBytes() - before;
        assertTrue(length > 0);
        return bytes;
    }

    private static final class ThreeStrings {
        static String join(int which) {
            return which == 0 ? "first" : which == 1 ? "second" : "third";
        }
    }

    private static final class NoStrings {
        static int twice(int x) {
            return 2 * x;
        }
    }

    private static final class Primed {
        static int text() {
            return "a primed string that appears nowhere else".length();
        }
    }

    private static final class Unprimed {
        static int text() {
            return "an unprimed string that appears nowhere else".length();
        }
    }
}
