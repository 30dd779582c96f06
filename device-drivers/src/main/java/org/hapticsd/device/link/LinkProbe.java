package org.hapticsd.device.link;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.hapticsd.protocol.Frame;
import org.hapticsd.protocol.FrameDecoder;
import org.hapticsd.protocol.FrameEncoder;
import org.hapticsd.protocol.Hello;
import org.hapticsd.protocol.Info;
import org.hapticsd.protocol.Message;
import org.hapticsd.protocol.MessageType;

/**
 * Asks whatever is at the end of a link whether it is a device speaking the device link protocol: the host half of
 * the handshake of spec section 6 and nothing more. It opens the link, sends one 0x00 (ending any partial frame the
 * device holds, spec 2.3) and HELLO offering versions 1 to {@link Frame#LATEST_VERSION} at the device's default
 * rate, resends HELLO every 100 ms as spec 6.1 asks, and stops at the first INFO or at the timeout. It never sends FORCE, so a real device it
 * reaches stays at zero output; the session it opened ends by the device's 500 ms liveness rule.
 *
 * <p>A silent port, a port that sends noise, a port that cannot be opened and a link that fails halfway are all
 * answers, not exceptions: the {@link Result} says what was seen, with the decoder's counts, so a user can tell a
 * wrong baud rate (bytes, no valid frames) from a wrong port (no bytes at all).
 */
public final class LinkProbe {
    /** Spec 6.1: the host resends HELLO every 100 ms until INFO arrives. */
    public static final long HELLO_RETRY_NS = 100_000_000L;
    /** Read timeout of the links {@link #probe(LinkAddress, long)} opens: how late the probe may see its deadline. */
    public static final int READ_TIMEOUT_MS = 20;

    /**
     * What the probe found.
     *
     * @param link                the endpoint probed, as the connector names it
     * @param answered            an INFO arrived (possibly with protocol version 0: no common version)
     * @param deviceName          INFO name, or null
     * @param firmware            "major.minor.patch", or null
     * @param protocolVersion     INFO selectedVersion: 1 or 2, or 0 when the device speaks no version this host does
     * @param sensedDof           INFO sensedDof, 0 when not answered
     * @param actuatedDof         INFO actuatedDof, 0 when not answered
     * @param maxForceN           INFO peak force, 0 when not answered
     * @param maxContinuousForceN INFO continuous force, 0 when not answered
     * @param supportedRatesHz    rates in INFO's supportedRates mask, ascending; empty when not answered
     * @param selectedRateHz      the rate the device chose for "default" (HELLO asked for 0); 0 if none
     * @param bytesReceived       bytes read from the link
     * @param framesDecoded       valid frames of any type among them
     * @param badFrames           CRC errors, malformed, oversize and unsupported-version runs among them
     * @param elapsedNs           from opening the link to the answer or the timeout
     * @param error               why there is no usable answer, or null when answered with a common version
     */
    public record Result(String link, boolean answered, String deviceName, String firmware, int protocolVersion,
                         int sensedDof, int actuatedDof, double maxForceN, double maxContinuousForceN,
                         List<Integer> supportedRatesHz, int selectedRateHz, long bytesReceived, long framesDecoded,
                         long badFrames, long elapsedNs, String error) {

        public Result {
            supportedRatesHz = List.copyOf(supportedRatesHz);
        }

        static Result failed(String link, long bytesReceived, long framesDecoded, long badFrames, long elapsedNs,
                             String error) {
            return new Result(link, false, null, null, 0, 0, 0, 0.0, 0.0, Collections.emptyList(), 0,
                    bytesReceived, framesDecoded, badFrames, elapsedNs, error);
        }
    }

    private LinkProbe() {
    }

    /**
     * Probes {@code address}: a serial port at its baud rate, or a TCP endpoint (connect timeout = the probe
     * timeout), read with {@link #READ_TIMEOUT_MS}.
     */
    public static Result probe(LinkAddress address, long timeoutNs) {
        int connectTimeoutMs = (int) Math.max(1L, Math.min(Integer.MAX_VALUE,
                TimeUnit.NANOSECONDS.toMillis(timeoutNs)));
        return probe(address.connector(connectTimeoutMs, READ_TIMEOUT_MS), timeoutNs, System::nanoTime);
    }

    /**
     * Opens {@code connector}, performs the handshake and closes the link. Waits at most {@code timeoutNs} for
     * INFO, plus at most one read timeout of the link to notice the deadline.
     *
     * @throws IllegalArgumentException if {@code timeoutNs <= 0}
     */
    public static Result probe(LinkConnector connector, long timeoutNs, LongSupplier clockNs) {
        if (timeoutNs <= 0) {
            throw new IllegalArgumentException("probe timeout must be > 0 ns, got " + timeoutNs);
        }
        long startNs = clockNs.getAsLong();
        ByteLink link;
        try {
            link = connector.connect();
        } catch (IOException e) {
            // The link's own message names it and often says "cannot open" already (a serial port's does): said once.
            String message = String.valueOf(e.getMessage());
            String prefix = connector.name() + ": ";
            String why = message.startsWith(prefix) ? message.substring(prefix.length()) : message;
            return Result.failed(connector.name(), 0, 0, 0, clockNs.getAsLong() - startNs,
                    why.startsWith("cannot open") ? why : "cannot open: " + why);
        }
        try (link) {
            return handshake(link, connector.name(), startNs, timeoutNs, clockNs);
        }
    }

    private static Result handshake(ByteLink link, String name, long startNs, long timeoutNs, LongSupplier clockNs) {
        InfoCatcher catcher = new InfoCatcher();
        FrameDecoder decoder = new FrameDecoder(catcher);
        FrameEncoder encoder = new FrameEncoder();
        Hello hello = new Hello().set(Frame.VERSION_1, Frame.LATEST_VERSION, 0);
        byte[] tx = new byte[1 + MessageType.HELLO.wireBytes(Frame.VERSION_1)];
        byte[] rx = new byte[1024];
        long deadlineNs = startNs + timeoutNs;
        long bytes = 0;
        int sequence = 0;
        try {
            tx[0] = Frame.DELIMITER;
            int n = encoder.encode(hello, sequence++, tx, 1);
            link.write(tx, 0, 1 + n);
            long nextHelloNs = clockNs.getAsLong() + HELLO_RETRY_NS;
            while (catcher.info == null) {
                long nowNs = clockNs.getAsLong();
                if (nowNs - deadlineNs >= 0) {
                    break;
                }
                if (nowNs - nextHelloNs >= 0) {
                    n = encoder.encode(hello, sequence++, tx, 0);
                    link.write(tx, 0, n);
                    nextHelloNs += HELLO_RETRY_NS;
                }
                int read = link.read(rx, 0, rx.length);
                bytes += read;
                decoder.feed(rx, 0, read);
            }
        } catch (IOException e) {
            return Result.failed(name, bytes, decoder.framesDecoded(), badFrames(decoder),
                    clockNs.getAsLong() - startNs, "link failed after " + bytes + " bytes: " + e.getMessage());
        }
        long elapsedNs = clockNs.getAsLong() - startNs;
        Info info = catcher.info;
        if (info == null) {
            return Result.failed(name, bytes, decoder.framesDecoded(), badFrames(decoder), elapsedNs,
                    silence(timeoutNs, bytes, decoder));
        }
        String error = info.selectedVersion() == 0
                ? "no common protocol version: the device speaks none of " + Frame.VERSION_1 + ".."
                    + Frame.LATEST_VERSION
                : null;
        return new Result(name, true, catcher.name,
                info.firmwareMajor() + "." + info.firmwareMinor() + "." + info.firmwarePatch(),
                info.selectedVersion(), info.sensedDof(), info.actuatedDof(), info.maxForceN(),
                info.maxContinuousForceN(), ratesHz(info.supportedRates()), info.selectedRateHz(), bytes,
                decoder.framesDecoded(), badFrames(decoder), elapsedNs, error);
    }

    /** Distinguishes silence from noise from another protocol's valid-looking frames, for the user. */
    private static String silence(long timeoutNs, long bytes, FrameDecoder decoder) {
        String within = "no answer in " + TimeUnit.NANOSECONDS.toMillis(timeoutNs) + " ms";
        if (bytes == 0) {
            return within + " (0 bytes received)";
        }
        if (decoder.framesDecoded() == 0) {
            return String.format(Locale.ROOT, "%s: %d bytes received but no valid frame (%d CRC errors, %d malformed,"
                    + " %d oversize); wrong baud rate or not a hapticsd device?", within, bytes, decoder.crcErrors(),
                    decoder.malformedFrames(), decoder.oversizeFrames());
        }
        return within + ": " + decoder.framesDecoded() + " valid frames but no INFO";
    }

    private static long badFrames(FrameDecoder decoder) {
        return decoder.crcErrors() + decoder.malformedFrames() + decoder.oversizeFrames()
                + decoder.unsupportedVersionFrames();
    }

    /** The rates of an INFO supportedRates mask: bit i = 125·2^i Hz (spec 4.2). */
    static List<Integer> ratesHz(int supportedRates) {
        List<Integer> rates = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            if ((supportedRates & (1 << i)) != 0) {
                rates.add(125 << i);
            }
        }
        return rates;
    }

    /** Keeps the first INFO; the decoder's instance is reused, so it is copied field by field. */
    private static final class InfoCatcher implements org.hapticsd.protocol.FrameHandler {
        Info info;
        String name;

        @Override
        public void onMessage(Message message) {
            if (info != null || message.type() != MessageType.INFO) {
                return;
            }
            Info received = (Info) message;
            info = new Info()
                    .setVersionAndDof(received.selectedVersion(), received.sensedDof(), received.actuatedDof())
                    .setSelectedRateIndex(received.selectedRateIndex())
                    .setFirmware(received.firmwareMajor(), received.firmwareMinor(), received.firmwarePatch())
                    .setRatings(received.maxForceN(), received.maxContinuousForceN(),
                            received.nominalStiffnessNpm(), received.nominalDampingNspm())
                    .setSupportedRates(received.supportedRates());
            name = printable(received.name());
        }

        /**
         * The decoder does not check that the name is printable ASCII (spec 4.2 makes it the sender's
         * obligation), and a terminal must not receive a stranger's control bytes: they become '?'.
         */
        private static String printable(String text) {
            StringBuilder clean = new StringBuilder(text.length());
            for (int i = 0; i < text.length(); i++) {
                char c = text.charAt(i);
                clean.append(c >= 0x20 && c <= 0x7E ? c : '?');
            }
            return clean.toString();
        }
    }
}
