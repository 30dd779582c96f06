package org.hapticsd.client;

/**
 * Reconnect delays: {@code initialNs}, doubling after each attempt that did not reach HELLO, capped at
 * {@code maxNs}; back to {@code initialNs} once a session begins. No random jitter: a visualization server has a
 * handful of clients, not the thousands whose synchronized retries jitter is meant to spread.
 */
final class Backoff {
    private final long initialNs;
    private final long maxNs;
    private long nextNs;

    Backoff(long initialNs, long maxNs) {
        if (initialNs <= 0 || maxNs < initialNs) {
            throw new IllegalArgumentException("reconnect delays must be 0 < initial <= max, got initial "
                + initialNs + " ns, max " + maxNs + " ns");
        }
        this.initialNs = initialNs;
        this.maxNs = maxNs;
        this.nextNs = initialNs;
    }

    /** The delay before the next attempt; doubles the one after it. */
    long nextDelayNs() {
        long delay = nextNs;
        nextNs = delay > maxNs / 2 ? maxNs : delay * 2;
        return delay;
    }

    void reset() {
        nextNs = initialNs;
    }
}
