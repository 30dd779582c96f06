package org.hapticsd.server.cli;

import java.util.ArrayList;
import java.util.List;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * Ctrl-C (SIGINT) and SIGTERM taken as a request to stop, handled by the command instead of by JVM shutdown.
 *
 * <p>Why not a shutdown hook alone: at JVM shutdown every hook runs at once, and jSerialComm's own hook uninitialises
 * its native library. A serial link may then fail its next write, so the closing FORCE of zero with outputEnable = 0
 * (docs/device-protocol.md, section 11) does not reach the device: a device on a pty pair saw, after Ctrl-C, a last
 * FORCE with output enabled and a link error on the host (the cause read from jSerialComm's hook, not isolated by a
 * measurement). With this handler the command
 * stops its loop and closes the device while the JVM is still whole, then returns 128 + the signal's number (130, 143);
 * the hooks run only after that. A second signal while closing exits at once (the hooks still run).
 *
 * <p>Where the JVM does not let a signal be handled, nothing is installed and the shutdown hook stays the fallback.
 */
final class SignalStop implements AutoCloseable {

    private final List<Signal> signals = new ArrayList<>();
    private final List<SignalHandler> previous = new ArrayList<>();
    private volatile boolean received;
    private volatile int number;
    /** Signals so far; each is handled on a thread of its own. */
    private final java.util.concurrent.atomic.AtomicInteger count = new java.util.concurrent.atomic.AtomicInteger();

    private SignalStop() {
    }

    /** Installs the handler for INT and TERM; {@code onSignal} runs on the JVM's signal thread at the first one. */
    static SignalStop install(Runnable onSignal) {
        return install(onSignal, 2, null);
    }

    /**
     * As {@link #install(Runnable)}, exiting at once only at the {@code exitAt}-th signal; the ones between print
     * {@code patience} on standard error. For {@code test}, whose stop writes the results of the scripts that ran: a
     * tester's second Ctrl-C 0.15 s after the first lost the summary and the JUnit file.
     */
    static SignalStop install(Runnable onSignal, int exitAt, String patience) {
        SignalStop stop = new SignalStop();
        for (String name : new String[] {"INT", "TERM"}) {
            try {
                Signal signal = new Signal(name);
                SignalHandler old = Signal.handle(signal, s -> {
                    int nth = stop.count.incrementAndGet();
                    if (nth >= 2 && nth >= exitAt) {
                        System.exit(128 + s.getNumber());
                    }
                    if (nth >= 2) {
                        System.err.println("hapticsd: " + patience);
                        return;
                    }
                    stop.number = s.getNumber();
                    stop.received = true;
                    onSignal.run();
                });
                stop.signals.add(signal);
                stop.previous.add(old);
            } catch (IllegalArgumentException | UnsupportedOperationException unavailable) {
                // This JVM or platform keeps the signal to itself: the shutdown hook handles it.
            }
        }
        return stop;
    }

    /** Whether a signal asked the command to stop. */
    boolean received() {
        return received;
    }

    /**
     * The shell's code for a command stopped by the signal received: 128 + its number, 130 for SIGINT and 143 for
     * SIGTERM (SIGTERM used to give 130 as well); {@link Main#EXIT_INTERRUPTED} if the number is unknown.
     */
    int exitCode() {
        return number > 0 ? 128 + number : Main.EXIT_INTERRUPTED;
    }

    /** Puts the previous handlers back. */
    @Override
    public void close() {
        for (int i = 0; i < signals.size(); i++) {
            Signal.handle(signals.get(i), previous.get(i));
        }
    }
}
