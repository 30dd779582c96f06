package org.hapticsd.server.loop;

import org.agrona.concurrent.NanoClock;

/**
 * How the loop thread waits for its next absolute deadline. Chosen by name ({@link WaitStrategies#named}).
 * Implementations never allocate.
 */
public interface WaitStrategy {

    /** Returns once {@code clock} has reached {@code deadlineNs} (possibly a little after). */
    void waitUntil(long deadlineNs, NanoClock clock);

    /** The name this strategy is selected by on the command line. */
    String name();
}
