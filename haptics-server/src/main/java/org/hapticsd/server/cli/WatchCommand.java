package org.hapticsd.server.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.hapticsd.client.StreamClient;
import org.hapticsd.client.StreamClientCounters;
import org.hapticsd.client.StreamRecordingWriter;
import org.hapticsd.protocol.stream.StateMessage;
import org.hapticsd.protocol.stream.Vec3;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code hapticsd watch}: connects to a running server's stream with the stream client, prints a status line a second
 * and, with {@code --record}, writes every message it receives to a file in the raw TCP port's framing
 * (docs/stream-client.md). Runs until {@code --seconds} or Ctrl-C; reconnects when the server goes away.
 *
 * <p>Exit 0 when a session was established, 1 when none ever was (the server was never reached, so the output holds
 * nothing) or the recording could not be written, 2 for misuse.
 */
@Command(name = "watch", mixinStandardHelpOptions = true,
    description = "Connect to a running hapticsd stream, print rates, the newest tick, loop and safety state once a "
        + "second; optionally record every message (docs/stream-client.md).")
final class WatchCommand implements Callable<Integer> {
    static final String DEFAULT_URL = "ws://127.0.0.1:8080/ws";

    @ParentCommand
    HapticsdCommand parent;

    @Option(names = "--url", paramLabel = "URL", defaultValue = DEFAULT_URL,
        description = "Stream to watch: ws://HOST:PORT/ws[?format=json], wss://... or tcp://HOST:PORT. "
            + "Default: ${DEFAULT-VALUE}.")
    String url;

    @Option(names = "--record", paramLabel = "FILE",
        description = "Write every message received to FILE: u32 little-endian length + binary message each "
            + "(the raw TCP framing; JSON is re-encoded).")
    Path recordFile;

    @Option(names = "--rate", paramLabel = "HZ",
        description = "STATE rate to subscribe to, 0..65535 (0 = every tick). Default: the server's (60 Hz).")
    Integer rateHz;

    @Option(names = "--seconds", paramLabel = "S", description = "Stop after S seconds. Default: run until Ctrl-C.")
    Double seconds;

    @Option(names = "--token", paramLabel = "T",
        description = "The server's command token, given to the client for commands (watch itself sends none).")
    String token;

    @Option(names = "--trust-cert", paramLabel = "PEM",
        description = "For wss:// (or tcp:// with --tls): trust the certificate(s) in this PEM file instead of the "
            + "JVM's trust store.")
    Path trustCert;

    @Option(names = "--events", description = "Print each stream event as it comes (contacts, impacts, safety, "
        + "device, physics budget, impulse collisions), its bodies by name.")
    boolean events;

    @Option(names = "--tls", description = "For tcp://: connect over TLS (a server run with --tls-cert serves TLS on "
        + "both ports). WebSocket chooses by its scheme, wss://.")
    boolean tls;

    @Override
    public Integer call() {
        PrintWriter out = parent.out();
        double limitS = seconds == null ? Double.POSITIVE_INFINITY : LoopOptions.positiveSeconds("--seconds", seconds);
        if (rateHz != null && (rateHz < 0 || rateHz > 0xFFFF)) {
            throw new UsageException("--rate must be 0..65535 Hz (0 = every tick), got " + rateHz);
        }
        StreamClient.Builder builder = builder(url, token, tls, trustCert);
        if (rateHz != null) {
            builder.rateHz(rateHz);
        }
        StreamRecordingWriter recording = openRecording();
        WatchListener listener = new WatchListener(out, recording, events);
        StreamClient client;
        try {
            client = build(builder.listener(listener));
        } catch (UsageException e) {
            closeQuietly(recording);
            throw e;
        }

        CountDownLatch stopRequested = new CountDownLatch(1);
        CountDownLatch finished = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            stopRequested.countDown();
            StatusClock.awaitQuietly(finished, 3);
        }, "hapticsd-watch-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        long startNs = System.nanoTime();
        String failure;
        try {
            out.println("watch: " + url + (recordFile == null ? "" : ", recording to " + recordFile));
            out.flush();
            // With reconnecting on, the first session fails only for good (a 4xx to the handshake): stop at once.
            client.connect().whenComplete((hello, error) -> {
                if (error != null) {
                    stopRequested.countDown();
                }
            });
            statusLoop(out, client, stopRequested, startNs, limitS);
        } finally {
            client.close();
            String recordingError = listener.recordingError();
            if (recording != null) {
                try {
                    recording.close();
                } catch (IOException e) {
                    recordingError = recordingError == null ? e.getMessage() : recordingError;
                }
            }
            summary(out, client.counters(), (System.nanoTime() - startNs) * 1e-9, recording);
            // Before the hook is released: on Ctrl-C the JVM ends as soon as it is, and a tester's watch that never
            // connected then ended without the line saying why.
            failure = recordingError != null ? "hapticsd: --record " + recordFile + ": " + recordingError
                : client.counters().sessions() == 0 ? "hapticsd: watch: never connected to " + url + ": "
                    + listener.lastDisconnect()
                    + hint(listener.lastDisconnect(), url, tls, trustCert, client.counters().bytesReceived())
                : null;
            if (failure != null) {
                parent.err().println(failure);
                parent.err().flush();
            }
            finished.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // Ctrl-C: the hook is running and waits for the summary above.
            }
        }
        return failure != null ? Main.EXIT_FAILURE : Main.EXIT_OK;
    }

    /**
     * What to do about never having connected, when this command line has a remedy, or "". A raw TCP connection
     * that the server accepted but never wrote to is what a TLS port does to a client that does not start TLS: the
     * server waits for the client's handshake, the client for the HELLO, until one of them gives up. That is the
     * likeliest cause, not the only one, so it is offered as a guess.
     */
    static String hint(String reason, String url, boolean tls, Path trustCert, long bytesReceived) {
        if (reason.startsWith(StreamClient.UNTRUSTED_CERTIFICATE)) {
            return trustCert == null
                ? "; to trust a self-signed certificate (run --tls-cert), give it with --trust-cert FILE"
                : "; " + trustCert + " is neither that certificate nor the CA that signed it";
        }
        boolean ended = reason.equals(StreamClient.CLOSED_BY_CLIENT) || reason.equals("closed by server");
        if (ended && url.startsWith("tcp:") && !tls && bytesReceived == 0) {
            return "; the server accepted the connection but sent nothing, not even its HELLO: if it serves TLS on "
                + "this port (run --tls-cert), connect with --tls";
        }
        if (reason.equals("closed by server") && url.startsWith("ws:") && bytesReceived == 0) {
            // What a TLS web port does to a plain WebSocket handshake (a tester).
            return "; the server closed the connection without answering the WebSocket handshake: if it serves TLS "
                + "(run --tls-cert), use wss://";
        }
        if (reason.equals(StreamClient.CLOSED_BY_CLIENT)) {
            // Found on a loaded machine: the first TLS handshake took longer than --seconds 2.
            return "; watch stopped before its first attempt finished: give it more --seconds";
        }
        return "";
    }

    /**
     * The client builder for {@code --url} with {@code --token}, {@code --tls} and {@code --trust-cert} (each null or
     * false when not given), or a {@link UsageException} saying what is wrong with them.
     */
    static StreamClient.Builder builder(String url, String token, boolean tls, Path trustCert) {
        StreamClient.Builder builder = builder(url);
        if (token != null) {
            try {
                builder.token(token);
            } catch (IllegalArgumentException e) {
                throw new UsageException("--token: " + e.getMessage());
            }
        }
        if (tls) {
            try {
                builder.tls(true);
            } catch (IllegalArgumentException e) {
                throw new UsageException("--tls is for tcp:// URLs; " + url + " chooses TLS by its scheme (wss://)");
            }
        }
        if (trustCert != null) {
            builder.trustCertificate(trustCert);
        }
        return builder;
    }

    /** The client, or a {@link UsageException} for a {@code --trust-cert} it cannot use. */
    static StreamClient build(StreamClient.Builder builder) {
        try {
            return builder.build();
        } catch (IllegalArgumentException e) {
            // The library names its builder method; on the command line that is --tls.
            throw new UsageException("--trust-cert: " + e.getMessage().replace("tls(true)", "--tls"));
        }
    }

    /** The client builder for {@code --url}, or a {@link UsageException} saying what is wrong with it. */
    static StreamClient.Builder builder(String url) {
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            throw new UsageException("--url '" + url + "' is not a URL: " + e.getMessage());
        }
        try {
            return StreamClient.builder(uri);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--url: " + e.getMessage());
        }
    }

    private StreamRecordingWriter openRecording() {
        if (recordFile == null) {
            return null;
        }
        try {
            return new StreamRecordingWriter(recordFile);
        } catch (IOException e) {
            throw new UsageException("--record " + recordFile + ": cannot write: "
                + org.hapticsd.device.link.IoReason.of(e));
        }
    }

    private static void statusLoop(PrintWriter out, StreamClient client, CountDownLatch stopRequested, long startNs,
                                   double limitS) {
        StreamClientCounters last = client.counters();
        long lastNs = startNs;
        while (StatusClock.awaitNextSecond(stopRequested, startNs, limitS)) {
            long nowNs = System.nanoTime();
            StreamClientCounters now = client.counters();
            out.println(statusLine((nowNs - startNs) * 1e-9, last, now, (nowNs - lastNs) * 1e-9,
                client.latestState()));
            out.flush();
            last = now;
            lastNs = nowNs;
        }
    }

    /** One status line: rates over the last interval, then the newest STATE's contents. */
    static String statusLine(double atS, StreamClientCounters before, StreamClientCounters now, double intervalS,
                             StateMessage state) {
        String rates = String.format(Locale.ROOT, "[%6.1f s] ticks/s %6.1f  frames/s %6.1f  bytes/s %8.1f kB",
            atS, (now.stateMessages() - before.stateMessages()) / intervalS,
            (now.messages() - before.messages()) / intervalS,
            (now.bytesReceived() - before.bytesReceived()) / intervalS / 1e3);
        String tail = String.format(Locale.ROOT, "  reconnects %d%s", now.reconnects(),
            now.decodeErrors() == 0 ? "" : "  decode errors " + now.decodeErrors());
        if (state == null) {
            return rates + "  no state yet" + tail;
        }
        return rates + String.format(Locale.ROOT,
            "  tick %d  loop %7.1f Hz  period error p99 %7.1f us  safety %s%s  contacts %d  force %6.3f N",
            state.tick(), state.loop().achievedRateHz(), state.loop().periodErrorP99Ns() / 1e3, state.safetyState(),
            state.safetyFault().name().equals("NONE") ? "" : " (" + state.safetyFault() + ")",
            state.contacts().size(), magnitude(state.renderedForceN()))
            + (state.loop().physicsOverBudget()
                ? "  PHYSICS OVER BUDGET (step p99 " + loadPercent(state.loop().physicsLoadPercent()) + " of the tick)"
                : "") + tail;
    }

    /**
     * The STATE's load byte as a percentage. The byte saturates, so 255 means that or more (stream-protocol.md);
     * words rather than "≥", which a terminal in the C locale would print as "?".
     */
    static String loadPercent(int physicsLoadPercent) {
        return physicsLoadPercent + (physicsLoadPercent >= 0xFF ? "% or more" : "%");
    }

    private static double magnitude(Vec3 v) {
        return Math.sqrt((double) v.x() * v.x() + (double) v.y() * v.y() + (double) v.z() * v.z());
    }

    private static void summary(PrintWriter out, StreamClientCounters c, double elapsedS,
                                StreamRecordingWriter recording) {
        out.printf(Locale.ROOT, "watch: %.1f s, %d messages (%d HELLO, %d SCENE, %d STATE, %d EVENTS, %d ACK), "
                + "%d bytes, %d session(s), %d reconnect(s), %d decode error(s)%s%n", elapsedS, c.messages(),
            c.helloMessages(), c.sceneMessages(), c.stateMessages(), c.eventsMessages(), c.ackMessages(),
            c.bytesReceived(), c.sessions(), c.reconnects(), c.decodeErrors(),
            recording == null ? "" : "; recorded " + recording.messages() + " messages, " + recording.bytes()
                + " bytes");
        out.flush();
    }

    private static void closeQuietly(StreamRecordingWriter recording) {
        if (recording != null) {
            try {
                recording.close();
            } catch (IOException e) {
                // Already failing with a usage error; the empty file is all that is lost.
            }
        }
    }

}
