package org.hapticsd.device.link;

/**
 * Where a device link goes, as written on a command line or in a script: {@code serial:PORT[:BAUD]} or
 * {@code tcp:HOST:PORT}. Parsing is strict and every error names the part that is wrong.
 *
 * @param kind     serial port or TCP
 * @param target   the port name (serial) or host (TCP)
 * @param number   baud rate (serial) or TCP port
 */
public record LinkAddress(Kind kind, String target, int number) {
    public enum Kind { SERIAL, TCP }

    public static final String SERIAL_PREFIX = "serial:";
    public static final String TCP_PREFIX = "tcp:";
    /** 1 Mbaud: one STATE and one FORCE per tick at 1 kHz with a third of the link to spare (spec section 8). */
    public static final int DEFAULT_BAUD = 1_000_000;

    public LinkAddress {
        if (target == null || target.isEmpty()) {
            throw new IllegalArgumentException("empty " + (kind == Kind.SERIAL ? "port name" : "host"));
        }
        if (kind == Kind.TCP && (number < 1 || number > 65_535)) {
            throw new IllegalArgumentException("TCP port must be 1..65535, got " + number);
        }
        if (kind == Kind.SERIAL && number <= 0) {
            throw new IllegalArgumentException("baud rate must be > 0, got " + number);
        }
    }

    public static boolean isLinkAddress(String text) {
        return text != null && (text.startsWith(SERIAL_PREFIX) || text.startsWith(TCP_PREFIX));
    }

    /**
     * Parses {@code serial:PORT[:BAUD]} or {@code tcp:HOST:PORT} ({@code tcp://HOST:PORT} too); the message says what
     * is wrong.
     */
    public static LinkAddress parse(String text) {
        if (text == null) {
            throw new IllegalArgumentException("no address");
        }
        if (text.startsWith(SERIAL_PREFIX)) {
            String rest = text.substring(SERIAL_PREFIX.length());
            int colon = rest.lastIndexOf(':');
            // A last segment without a '/' after the port is a baud rate (port paths are /dev/..., COM3 has no
            // colon), so serial:/dev/ttyUSB0:abc is a bad baud rate, not a port named "/dev/ttyUSB0:abc".
            if (colon > 0 && rest.indexOf('/', colon) < 0 && rest.indexOf('\\', colon) < 0) {
                String baud = rest.substring(colon + 1);
                if (baud.isEmpty() || !baud.chars().allMatch(Character::isDigit)) {
                    throw new IllegalArgumentException("baud rate must be a whole number > 0, got '" + baud
                            + "' in '" + text + "'");
                }
                return new LinkAddress(Kind.SERIAL, rest.substring(0, colon),
                        parseNumber(baud, "baud rate", text));
            }
            return new LinkAddress(Kind.SERIAL, rest, DEFAULT_BAUD);
        }
        if (text.startsWith(TCP_PREFIX)) {
            String rest = text.substring(TCP_PREFIX.length());
            // tcp://HOST:PORT, as watch --url spells a stream, is the same place: a tester's --device
            // tcp://127.0.0.1:1 was taken for a host named "//127.0.0.1" ("Failed to select a proxy", exit 1).
            if (rest.startsWith("//")) {
                rest = rest.substring(2);
            }
            int colon = rest.lastIndexOf(':');
            if (colon <= 0 || colon == rest.length() - 1) {
                throw new IllegalArgumentException("expected tcp:HOST:PORT, got '" + text + "'");
            }
            String host = rest.substring(0, colon);
            if (host.indexOf('/') >= 0 || host.indexOf('\\') >= 0) {
                throw new IllegalArgumentException("host '" + host + "' in '" + text
                        + "' is not a host name or address (expected tcp:HOST:PORT, no path)");
            }
            return new LinkAddress(Kind.TCP, host, parseNumber(rest.substring(colon + 1), "TCP port", text));
        }
        throw new IllegalArgumentException("expected serial:PORT[:BAUD] or tcp:HOST:PORT, got '" + text + "'");
    }

    private static int parseNumber(String digits, String what, String text) {
        try {
            return Integer.parseInt(digits);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(what + " '" + digits + "' in '" + text + "' is not a number");
        }
    }

    /** A connector for the host side: opens the serial port, or connects to the TCP server. */
    public LinkConnector connector(int connectTimeoutMs, int readTimeoutMs) {
        return kind == Kind.SERIAL
                ? SerialByteLink.connector(target, number, readTimeoutMs)
                : TcpByteLink.connector(target, number, connectTimeoutMs, readTimeoutMs);
    }

    @Override
    public String toString() {
        return kind == Kind.SERIAL ? SERIAL_PREFIX + target + ":" + number : TCP_PREFIX + target + ":" + number;
    }
}
