package org.hapticsd.server.net;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;

/**
 * Where and how the stream server listens, and its limits. Safe by default: loopback only; binding any other
 * address needs a token, which commands always need.
 *
 * @param bindAddress        address for both ports; {@code 127.0.0.1} by default
 * @param httpPort           web page and WebSocket ({@code /ws}); 0 picks a free port
 * @param tcpPort            raw TCP stream with length-prefixed frames; 0 picks a free port, -1 disables it
 * @param token              the secret commands must carry; never null (generated when not given)
 * @param tokenGenerated     whether {@link #token} was generated here rather than given by the user
 * @param allowedOrigins     WebSocket {@code Origin} values accepted besides the server's own page; a browser page
 *                           from any other site is refused, so it cannot drive the device through a user's browser
 * @param maxClients         connections on both ports together; more are closed at once
 * @param maxInboundBytes    largest frame or HTTP request accepted; a larger one closes the connection
 * @param idleTimeoutS       a connection that sends and receives nothing for this long is closed
 * @param unwritableCloseS   a client that stays unwritable (not reading) for this long is closed
 */
public record StreamServerConfig(String bindAddress, int httpPort, int tcpPort, String token, boolean tokenGenerated,
                                 List<String> allowedOrigins, int maxClients, int maxInboundBytes,
                                 int idleTimeoutS, int unwritableCloseS) {
    public static final String LOOPBACK = "127.0.0.1";
    public static final int DEFAULT_HTTP_PORT = 8080;
    public static final int DEFAULT_TCP_PORT = 8081;
    public static final int DEFAULT_MAX_CLIENTS = 128;
    /** Commands are small; the largest legitimate inbound message is a scene name in a command. */
    public static final int DEFAULT_MAX_INBOUND_BYTES = 64 * 1024;
    public static final int DEFAULT_IDLE_TIMEOUT_S = 60;
    public static final int DEFAULT_UNWRITABLE_CLOSE_S = 5;
    private static final int TOKEN_BYTES = 16;

    public StreamServerConfig {
        if (bindAddress == null || bindAddress.isBlank()) {
            throw new IllegalArgumentException("bind address is empty");
        }
        if (httpPort < 0 || httpPort > 65_535) {
            throw new IllegalArgumentException("HTTP port must be 0..65535, got " + httpPort);
        }
        if (tcpPort < -1 || tcpPort > 65_535) {
            throw new IllegalArgumentException("TCP port must be -1 (off) or 0..65535, got " + tcpPort);
        }
        if (token == null || token.length() < 8) {
            throw new IllegalArgumentException("a token must have at least 8 characters");
        }
        if (!isLoopback(bindAddress) && tokenGenerated) {
            throw new IllegalArgumentException("binding " + bindAddress + " (not loopback) needs a token given "
                + "with --token: anyone who can reach the port could otherwise watch and command the device");
        }
        if (maxClients < 1 || maxInboundBytes < 256 || idleTimeoutS < 1 || unwritableCloseS < 1) {
            throw new IllegalArgumentException("maxClients >= 1, maxInboundBytes >= 256, idle and unwritable "
                + "timeouts >= 1 s");
        }
        allowedOrigins = List.copyOf(allowedOrigins);
    }

    /** Loopback, default ports and limits, a fresh random token. */
    public static StreamServerConfig defaults() {
        return new StreamServerConfig(LOOPBACK, DEFAULT_HTTP_PORT, DEFAULT_TCP_PORT, newToken(), true, List.of(),
            DEFAULT_MAX_CLIENTS, DEFAULT_MAX_INBOUND_BYTES, DEFAULT_IDLE_TIMEOUT_S, DEFAULT_UNWRITABLE_CLOSE_S);
    }

    public StreamServerConfig withPorts(int http, int tcp) {
        return new StreamServerConfig(bindAddress, http, tcp, token, tokenGenerated, allowedOrigins, maxClients,
            maxInboundBytes, idleTimeoutS, unwritableCloseS);
    }

    public StreamServerConfig withBind(String address, String givenToken) {
        return givenToken == null
            ? new StreamServerConfig(address, httpPort, tcpPort, token, tokenGenerated, allowedOrigins, maxClients,
                maxInboundBytes, idleTimeoutS, unwritableCloseS)
            : new StreamServerConfig(address, httpPort, tcpPort, givenToken, false, allowedOrigins, maxClients,
                maxInboundBytes, idleTimeoutS, unwritableCloseS);
    }

    public StreamServerConfig withLimits(int clients, int inboundBytes, int idleS, int unwritableS) {
        return new StreamServerConfig(bindAddress, httpPort, tcpPort, token, tokenGenerated, allowedOrigins, clients,
            inboundBytes, idleS, unwritableS);
    }

    public StreamServerConfig withAllowedOrigins(List<String> origins) {
        return new StreamServerConfig(bindAddress, httpPort, tcpPort, token, tokenGenerated, origins, maxClients,
            maxInboundBytes, idleTimeoutS, unwritableCloseS);
    }

    /** 128 random bits from the system's secure generator, as 32 hex digits. */
    public static String newToken() {
        byte[] bytes = new byte[TOKEN_BYTES];
        new SecureRandom().nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    /** Whether {@code address} is a loopback address; a name that does not resolve is not. */
    public static boolean isLoopback(String address) {
        try {
            return InetAddress.getByName(address).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }
}
