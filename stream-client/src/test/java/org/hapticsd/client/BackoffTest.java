package org.hapticsd.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class BackoffTest {
    @Test
    void shouldDoubleUpToTheCapAndStartOverAfterReset() {
        Backoff b = new Backoff(100, 1000);
        assertEquals(100, b.nextDelayNs());
        assertEquals(200, b.nextDelayNs());
        assertEquals(400, b.nextDelayNs());
        assertEquals(800, b.nextDelayNs());
        assertEquals(1000, b.nextDelayNs());
        assertEquals(1000, b.nextDelayNs());
        b.reset();
        assertEquals(100, b.nextDelayNs());
    }

    @Test
    void shouldNotOverflowNearLongMax() {
        Backoff b = new Backoff(Long.MAX_VALUE / 2 + 1, Long.MAX_VALUE);
        b.nextDelayNs();
        assertEquals(Long.MAX_VALUE, b.nextDelayNs());
    }

    @Test
    void shouldRefuseAMaxBelowTheInitialDelay() {
        assertThrows(IllegalArgumentException.class, () -> new Backoff(200, 100));
    }
}
