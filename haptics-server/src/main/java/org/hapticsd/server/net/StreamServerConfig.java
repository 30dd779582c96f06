package org.hapticsd.server.net;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;

/**
 * Where and how the stream server listens, and its limits. Safe by default: loopback only, and a token always
 * exists (given, or generated and printed at start), so no address is ever bound without one; commands always
 * need it.
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
 * @param tls                certificate and key for TLS on both ports (https/wss and TLS over raw TCP), or null
 */
public record StreamServerConfig(String bindAddress, int httpPort, int tcpPort, String token, boolean tokenGenerated,
                                 List<String> allowedOrigins, int maxClients, int maxInboundBytes,
                                 int idleTimeoutS, int unwritableCloseS, Tls tls) {
    public static final String LOOPBACK = "127.0.0.1";
    public static final int DEFAULT_HTTP_PORT = 8080;
    public static final int DEFAULT_TCP_PORT = 8081;
    public static final int DEFAULT_MAX_CLIENTS = 128;
    /** Commands are small; the largest legitimate inbound message is a scene name in a command. */
    public static final int DEFAULT_MAX_INBOUND_BYTES = 64 * 1024;
    public static final int DEFAULT_IDLE_TIMEOUT_S = 60;
    public static final int DEFAULT_UNWRITABLE_CLOSE_S = 5;
    private static final int TOKEN_BYTES = 16;

    /**
     * PEM files for TLS.
     *
     * @param certificateChain the server certificate first, then its chain
     * @param privateKey       the certificate's key, PKCS#8 PEM ({@code BEGIN PRIVATE KEY}), unencrypted
     */
    public record Tls(Path certificateChain, Path privateKey) {
    }

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
        if (maxClients < 1 || maxInboundBytes < 256 || idleTimeoutS < 1 || unwritableCloseS < 1) {
            throw new IllegalArgumentException("maxClients >= 1, maxInboundBytes >= 256, idle and unwritable "
                + "timeouts >= 1 s");
        }
        allowedOrigins = List.copyOf(allowedOrigins);
    }

    /** Loopback, default ports and limits, a fresh random token, no TLS. */
    public static StreamServerConfig defaults() {
        return new StreamServerConfig(LOOPBACK, DEFAULT_HTTP_PORT, DEFAULT_TCP_PORT, newToken(), true, List.of(),
            DEFAULT_MAX_CLIENTS, DEFAULT_MAX_INBOUND_BYTES, DEFAULT_IDLE_TIMEOUT_S, DEFAULT_UNWRITABLE_CLOSE_S, null);
    }

    public StreamServerConfig withPorts(int http, int tcp) {
        return new StreamServerConfig(bindAddress, http, tcp, token, tokenGenerated, allowedOrigins, maxClients,
            maxInboundBytes, idleTimeoutS, unwritableCloseS, tls);
    }

    /** Another address; {@code givenToken} replaces the generated token, null keeps the current one. */
    public StreamServerConfig withBind(String address, String givenToken) {
        return givenToken == null
            ? new StreamServerConfig(address, httpPort, tcpPort, token, tokenGenerated, allowedOrigins, maxClients,
                maxInboundBytes, idleTimeoutS, unwritableCloseS, tls)
            : new StreamServerConfig(address, httpPort, tcpPort, givenToken, false, allowedOrigins, maxClients,
                maxInboundBytes, idleTimeoutS, unwritableCloseS, tls);
    }

    public StreamServerConfig withLimits(int clients, int inboundBytes, int idleS, int unwritableS) {
        return new StreamServerConfig(bindAddress, httpPort, tcpPort, token, tokenGenerated, allowedOrigins, clients,
            inboundBytes, idleS, unwritableS, tls);
    }

    public StreamServerConfig withAllowedOrigins(List<String> origins) {
        return new StreamServerConfig(bindAddress, httpPort, tcpPort, token, tokenGenerated, origins, maxClients,
            maxInboundBytes, idleTimeoutS, unwritableCloseS, tls);
    }

    /** TLS on both ports with these PEM files, or none when {@code files} is null. */
    public StreamServerConfig withTls(Tls files) {
        return new StreamServerConfig(bindAddress, httpPort, tcpPort, token, tokenGenerated, allowedOrigins,
            maxClients, maxInboundBytes, idleTimeoutS, unwritableCloseS, files);
    }

    /** Whether the server listens on loopback only. */
    public boolean loopbackOnly() {
        return isLoopback(bindAddress);
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
