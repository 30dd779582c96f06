package org.hapticsd.server.net;

import io.netty.channel.Channel;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.slf4j.LoggerFactory;

/**
 * The server log's line for a client's protocol fault: a message dropped as malformed (once per connection) or a
 * connection closed for a framing or WebSocket violation. Such faults left no trace but the {@code clientErrors}
 * count, so a client whose SUBSCRIBE had a wrong version byte could not learn why nothing changed (a tester). At most
 * one line a second for all clients together, so that a client sending garbage in a loop cannot flood the log; the
 * next line says how many were left out. One for the process: its servers share the log.
 */
final class ClientFaultLog {
    static final ClientFaultLog SHARED =
        new ClientFaultLog(System::nanoTime, LoggerFactory.getLogger(ClientFaultLog.class)::warn);
    private static final long INTERVAL_NS = 1_000_000_000L;
    private final LongSupplier clock;
    private final Consumer<String> out;
    private long lastNs;
    private boolean logged;
    private long leftOut;

    /** @param clock nanoseconds; @param out where a line goes (the server's log at WARN) */
    ClientFaultLog(LongSupplier clock, Consumer<String> out) {
        this.clock = clock;
        this.out = out;
    }

    /** Logs {@code fault} of the client on {@code channel} (null: unknown), unless a line went out in the last second. */
    synchronized void report(Channel channel, String fault) {
        long nowNs = clock.getAsLong();
        if (logged && nowNs - lastNs < INTERVAL_NS) {
            leftOut++;
            return;
        }
        out.accept("stream client " + (channel == null ? "?" : channel.remoteAddress()) + ": " + fault
            + (leftOut == 0 ? "" : " (" + leftOut + " more client faults since the last line, not logged)"));
        logged = true;
        lastNs = nowNs;
        leftOut = 0;
    }

    /** Forgets the last line, so the next fault is logged: for tests that look for a line. */
    synchronized void forget() {
        logged = false;
        leftOut = 0;
    }
}
