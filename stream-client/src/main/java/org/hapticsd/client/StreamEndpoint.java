package org.hapticsd.client;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import org.hapticsd.protocol.stream.StreamJson;
import org.hapticsd.protocol.stream.StreamProtocol;

/**
 * Where a {@link StreamClient} connects, parsed once from its URI: {@code ws://HOST[:PORT][/PATH][?QUERY]},
 * {@code wss://...} (WebSocket over TLS) or {@code tcp://HOST:PORT} (the raw TCP port, length-prefixed binary).
 *
 * @param webSocket true for ws/wss, false for raw TCP
 * @param tls       true for wss (TLS is also turned on for tcp with {@link StreamClient.Builder#tls(boolean)})
 * @param host      host name or address, without brackets
 * @param port      1..65535
 * @param uri       the URI as the WebSocket handshake sends it ({@code /ws} filled in for an empty path)
 * @param json      the query asks for {@code format=json}: the server sends text messages, up to 4 MiB each
 */
record StreamEndpoint(boolean webSocket, boolean tls, String host, int port, URI uri, boolean json) {
    /** The server's WebSocket path (docs/stream-protocol.md 2.1), used when the URI has none. */
    static final String DEFAULT_WS_PATH = "/ws";

    /** Parses and checks the URI; throws {@link IllegalArgumentException} naming what is wrong with it. */
    static StreamEndpoint parse(URI uri) {
        if (uri == null) {
            throw new IllegalArgumentException("no URL given");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        boolean webSocket = scheme.equals("ws") || scheme.equals("wss");
        if (!webSocket && !scheme.equals("tcp")) {
            throw new IllegalArgumentException("URL " + uri + ": scheme must be ws, wss or tcp"
                + (scheme.isEmpty() ? "" : ", not " + scheme));
        }
        String host = uri.getHost();
        if (host == null || host.isEmpty()) {
            throw new IllegalArgumentException("URL " + uri + ": no host (expected " + scheme + "://HOST:PORT"
                + (webSocket ? "/ws" : "") + ")");
        }
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        if (uri.getUserInfo() != null) {
            throw new IllegalArgumentException("URL " + uri + ": user information is not supported");
        }
        if (uri.getFragment() != null) {
            throw new IllegalArgumentException("URL " + uri + ": a fragment (#...) has no meaning here");
        }
        int port = uri.getPort();
        if (port == -1) {
            if (!webSocket) {
                throw new IllegalArgumentException("URL " + uri + ": tcp needs a port (tcp://HOST:PORT)");
            }
            port = scheme.equals("wss") ? 443 : 80;
        }
        if (port < 1 || port > 65_535) {
            throw new IllegalArgumentException("URL " + uri + ": port must be 1..65535, got " + port);
        }
        if (!webSocket) {
            boolean bare = (uri.getRawPath() == null || uri.getRawPath().isEmpty()) && uri.getRawQuery() == null;
            if (!bare) {
                throw new IllegalArgumentException("URL " + uri + ": tcp takes no path or query (the raw TCP port "
                    + "sends binary at 60 Hz until a SUBSCRIBE; use rateHz)");
            }
            return new StreamEndpoint(false, false, host, port, uri, false);
        }
        String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? DEFAULT_WS_PATH : uri.getRawPath();
        URI handshake;
        try {
            handshake = new URI(scheme + "://" + uri.getRawAuthority() + path
                + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery()));
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("URL " + uri + ": " + e.getMessage(), e);
        }
        return new StreamEndpoint(true, scheme.equals("wss"), host, port, handshake, asksForJson(uri.getQuery()));
    }

    /** The largest message this endpoint can carry server → client (docs/stream-protocol.md 2.3). */
    int defaultMaxMessageBytes() {
        return json ? StreamJson.MAX_SERVER_JSON_BYTES : StreamProtocol.MAX_SERVER_MESSAGE_BYTES;
    }

    StreamEndpoint withTls(boolean on) {
        return new StreamEndpoint(webSocket, on, host, port, uri, json);
    }

    private static boolean asksForJson(String query) {
        if (query == null) {
            return false;
        }
        for (String pair : query.split("&")) {
            if (pair.toLowerCase(Locale.ROOT).equals("format=json")) {
                return true;
            }
        }
        return false;
    }
}
