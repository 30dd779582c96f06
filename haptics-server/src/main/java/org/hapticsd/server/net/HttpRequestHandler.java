package org.hapticsd.server.net;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.util.AttributeKey;
import io.netty.util.NetUtil;
import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import org.hapticsd.protocol.stream.StreamProtocol;

/**
 * The HTTP side of the web port: WebSocket upgrade requests on {@code /ws} are checked (Origin, query) and passed
 * on to Netty's WebSocket handshaker; {@code /api/session} and {@code /api/status} answer small JSON documents for
 * the page, {@code /api/parameters} what SET_PARAMETER accepts now, {@code /api/scenes} what LOAD_SCENE may load and
 * {@code /api/warnings} the current scene's build warnings;
 * every other GET serves a file of the web page or of three.js from the classpath ({@link WebResources}).
 * Application logic stays out: the stream itself is {@link WebSocketStreamHandler}'s.
 */
final class HttpRequestHandler extends SimpleChannelInboundHandler<FullHttpRequest> {
    static final String WS_PATH = "/ws";
    static final String SESSION_PATH = "/api/session";
    static final String STATUS_PATH = "/api/status";
    static final String PARAMETERS_PATH = "/api/parameters";
    static final String SCENES_PATH = "/api/scenes";
    static final String WARNINGS_PATH = "/api/warnings";
    static final AttributeKey<Double> RATE_HZ = AttributeKey.valueOf("hapticsd.rateHz");
    static final AttributeKey<Boolean> JSON = AttributeKey.valueOf("hapticsd.json");
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final StreamServer server;
    private final List<String> allowedOrigins;
    private final boolean boundToLoopback;
    private final long loopRateHz;

    /**
     * @param server       for its configuration (token, bind address, allowed origins) and connection counts
     * @param loopPeriodNs the loop's tick period; the page is told the rate it stands for
     */
    HttpRequestHandler(StreamServer server, long loopPeriodNs) {
        super(false);
        this.server = server;
        this.allowedOrigins = server.config().allowedOrigins();
        this.boundToLoopback = StreamServerConfig.isLoopback(server.config().bindAddress());
        // The period is floor(1e9 / rate) ns; for the loop's 250..4000 Hz rounding the inverse gives the rate back.
        this.loopRateHz = Math.round(1e9 / loopPeriodNs);
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
        QueryStringDecoder uri = new QueryStringDecoder(request.uri());
        if (uri.path().equals(WS_PATH)) {
            String refused = checkOrigin(request);
            HttpResponseStatus status = HttpResponseStatus.FORBIDDEN;
            if (refused == null) {
                refused = checkQuery(uri, ctx);
                status = HttpResponseStatus.BAD_REQUEST;
            }
            if (refused != null) {
                respond(ctx, request, status, refused + "\n", "text/plain");
                request.release();
                return;
            }
            ctx.fireChannelRead(request);
            return;
        }
        try {
            if (!request.method().equals(HttpMethod.GET) && !request.method().equals(HttpMethod.HEAD)) {
                respond(ctx, request, HttpResponseStatus.METHOD_NOT_ALLOWED, "only GET and HEAD\n", "text/plain");
            } else if (uri.path().equals(SESSION_PATH)) {
                respondJson(ctx, request, session(request));
            } else if (uri.path().equals(STATUS_PATH)) {
                respondJson(ctx, request, status());
            } else if (uri.path().equals(PARAMETERS_PATH)) {
                respondJson(ctx, request, parameters());
            } else if (uri.path().equals(SCENES_PATH)) {
                respondJson(ctx, request, scenes());
            } else if (uri.path().equals(WARNINGS_PATH)) {
                respondJson(ctx, request, warnings());
            } else {
                serveFile(ctx, request, uri.path());
            }
        } finally {
            request.release();
        }
    }

    /** Null when the page asking may connect; otherwise why not (HTTP 403). */
    private String checkOrigin(FullHttpRequest request) {
        String origin = request.headers().get(HttpHeaderNames.ORIGIN);
        String host = request.headers().get(HttpHeaderNames.HOST);
        if (origin != null && !originAllowed(origin, host)) {
            return "origin " + origin + " is not allowed (see --allow-origin)";
        }
        return origin == null ? null : hostRefusal(host, origin);
    }

    /**
     * Why a page of {@code origin} reached by the name {@code host} may not stream, or null. A page on another name
     * that resolves to 127.0.0.1 (DNS rebinding) has Origin == Host; a server that listens on loopback only ever has
     * loopback names for its own page.
     */
    private String hostRefusal(String host, String origin) {
        if (boundToLoopback && !allowedOrigins.contains(origin) && (host == null || !isLoopbackHost(host))) {
            return "host " + host + " is not a loopback name; this server listens on loopback only";
        }
        return null;
    }

    /**
     * What the server's own page, loaded by the name {@code host}, would be told on its WebSocket upgrade (null when
     * it may stream): a browser does not let a page read the 403's text, so {@code /api/session} carries it, with
     * what to do about it.
     */
    private String pageStreamRefusal(String host) {
        String refused = hostRefusal(host, "http://" + host);
        if (refused == null || hostRefusal(host, "https://" + host) == null) {
            return null;
        }
        if (host == null) {
            return refused;
        }
        String port = host.lastIndexOf(':') <= host.lastIndexOf(']') ? ""
            : host.substring(host.lastIndexOf(':'));
        return refused + ": open the page as http://127.0.0.1" + port + "/ or http://localhost" + port
            + "/, or start hapticsd with --allow-origin http://" + host;
    }

    /**
     * Null when the query is good (HTTP 400 otherwise): only {@code rate}, a whole number of hertz 0..65535, as
     * SUBSCRIBE's u16 takes it, and {@code format}, binary or json, each at most once. Stores them on the channel.
     */
    private String checkQuery(QueryStringDecoder uri, ChannelHandlerContext ctx) {
        // Strict, as the scene files are: `?Rate=5` streamed at the default 60 Hz without a word, and of
        // `rate=5&rate=200` the first won (a tester).
        for (java.util.Map.Entry<String, List<String>> parameter : uri.parameters().entrySet()) {
            if (!parameter.getKey().equals("rate") && !parameter.getKey().equals("format")) {
                return "unknown query parameter '" + parameter.getKey() + "' (expected rate and format)";
            }
            if (parameter.getValue().size() > 1) {
                return "query parameter '" + parameter.getKey() + "' given " + parameter.getValue().size()
                    + " times; give it once";
            }
        }
        double rateHz = 0;
        List<String> rate = uri.parameters().get("rate");
        if (rate != null) {
            String given = rate.get(0);
            if (!given.matches("[0-9]{1,5}") || Integer.parseInt(given) > 65_535) {
                return "rate must be a whole number of hertz, 0..65535 (0 = every tick), got '" + given + "'";
            }
            rateHz = Integer.parseInt(given);
        }
        List<String> format = uri.parameters().get("format");
        String f = format == null ? "binary" : format.get(0).toLowerCase(Locale.ROOT);
        if (!f.equals("binary") && !f.equals("json")) {
            return "format must be binary or json, got " + format.get(0);
        }
        ctx.channel().attr(RATE_HZ).set(rate == null ? null : rateHz);
        ctx.channel().attr(JSON).set(f.equals("json"));
        return null;
    }

    /**
     * The server's own page (same host) and the configured origins. A browser sends Origin on every WebSocket
     * handshake; programs usually send none, and they are accepted (they are not a confused-deputy risk).
     */
    private boolean originAllowed(String origin, String host) {
        if (allowedOrigins.contains(origin)) {
            return true;
        }
        return host != null && (origin.equals("http://" + host) || origin.equals("https://" + host));
    }

    /**
     * What the page needs before it connects. The token is handed out only to a page on this machine: the server
     * listens on loopback, the request names a loopback host (a DNS-rebinding page, whose Host is its own name,
     * gets none even though its requests reach 127.0.0.1) and carries no Origin but the server's own (a browser
     * sends a foreign page's Origin, and without CORS headers such a page could not read the answer anyway).
     * Anywhere else the page asks its user for the token that {@code run} prints.
     */
    private ObjectNode session(FullHttpRequest request) {
        ObjectNode json = MAPPER.createObjectNode();
        // Every COMMAND needs the token, whatever the bind address (CommandGate).
        json.put("tokenRequired", true);
        json.put("token", tokenForPage(request));
        json.put("loopRateHz", loopRateHz);
        json.put("protocolVersion", StreamProtocol.VERSION);
        json.put("webSocketPath", WS_PATH);
        json.put("threeVersion", WebResources.threeVersion());
        json.put("streamRefused", pageStreamRefusal(request.headers().get(HttpHeaderNames.HOST)));
        return json;
    }

    private String tokenForPage(FullHttpRequest request) {
        String host = request.headers().get(HttpHeaderNames.HOST);
        if (!boundToLoopback || host == null || !isLoopbackHost(host)) {
            return null;
        }
        String origin = request.headers().get(HttpHeaderNames.ORIGIN);
        if (origin != null && !origin.equals("http://" + host) && !origin.equals("https://" + host)) {
            return null;
        }
        return server.config().token();
    }

    /**
     * Whether a Host header names this machine by a loopback literal or {@code localhost}. Names are not resolved:
     * resolving is exactly what a DNS-rebinding attacker controls.
     */
    static boolean isLoopbackHost(String host) {
        String name;
        if (host.startsWith("[")) {
            int end = host.indexOf(']');
            if (end < 0) {
                return false;
            }
            name = host.substring(1, end);
        } else {
            int colon = host.lastIndexOf(':');
            name = colon < 0 ? host : host.substring(0, colon);
        }
        if (name.equalsIgnoreCase("localhost")) {
            return true;
        }
        byte[] address = NetUtil.createByteArrayFromIpAddressString(name);
        if (address == null) {
            return false;
        }
        try {
            return InetAddress.getByAddress(address).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }

    private ObjectNode status() {
        ObjectNode json = MAPPER.createObjectNode();
        json.put("clients", server.clients());
        json.put("refusedConnections", server.refusedConnections());
        json.put("clientErrors", server.clientErrors());
        return json;
    }

    /**
     * What SET_PARAMETER accepts now, for the page's parameter panel and for scripts: no token needed, as the values
     * are no more private than the STATEs any client may read, and reading them changes nothing.
     */
    private ObjectNode parameters() {
        ParameterTable table = server.requests().commands().parameters();
        ObjectNode json = MAPPER.createObjectNode();
        json.put("sceneRevision", table.sceneRevision());
        ArrayNode list = json.putArray("parameters");
        for (SettableParameter p : table.parameters()) {
            ObjectNode entry = list.addObject();
            entry.put("name", p.name());
            entry.put("unit", p.unit());
            entry.put("value", p.value());
            entry.put("loaded", p.loaded());
            entry.put("min", p.min());
            entry.put("minIncluded", p.minIncluded());
            if (p.max() == Double.POSITIVE_INFINITY) {
                entry.putNull("max");
            } else {
                entry.put("max", p.max());
            }
            entry.put("wholeNumber", p.wholeNumber());
            entry.put("limits", p.limits());
        }
        return json;
    }

    /** The scenes LOAD_SCENE may load by name, for the page's scene menu. No token needed, as for the parameters. */
    private ObjectNode scenes() {
        SceneCatalog catalog = server.requests().commands().scenes();
        ObjectNode json = MAPPER.createObjectNode();
        json.put("loading", catalog.loading());
        ArrayNode names = json.putArray("scenes");
        catalog.names().forEach(names::add);
        return json;
    }

    /** The current scene's build warnings, for the page (a scene loaded from afar warns only in the server's log). */
    private ObjectNode warnings() {
        SceneWarnings current = server.requests().commands().warnings();
        ObjectNode json = MAPPER.createObjectNode();
        json.put("sceneRevision", current.sceneRevision());
        ArrayNode lines = json.putArray("warnings");
        current.warnings().forEach(lines::add);
        return json;
    }

    private static void serveFile(ChannelHandlerContext ctx, FullHttpRequest request, String path) {
        String resource = WebResources.resourceFor(path);
        byte[] body;
        try {
            body = resource == null ? null : WebResources.read(resource);
        } catch (IOException e) {
            respond(ctx, request, HttpResponseStatus.INTERNAL_SERVER_ERROR, "cannot read " + path + "\n",
                "text/plain");
            return;
        }
        if (body == null) {
            respond(ctx, request, HttpResponseStatus.NOT_FOUND, "not found\n", "text/plain");
            return;
        }
        // The WebJar's files change only with its version, which is then the validator: a reload costs a 304
        // rather than three.js's 2 MB. The page's own files are small and always fetched fresh.
        if (path.startsWith(WebResources.THREE_PREFIX)) {
            String etag = "\"three-" + WebResources.threeVersion() + "\"";
            if (etag.equals(request.headers().get(HttpHeaderNames.IF_NONE_MATCH))) {
                respond(ctx, request, HttpResponseStatus.NOT_MODIFIED, new byte[0], WebResources.contentType(resource),
                    "no-cache", etag);
                return;
            }
            respond(ctx, request, HttpResponseStatus.OK, body, WebResources.contentType(resource), "no-cache", etag);
            return;
        }
        respond(ctx, request, HttpResponseStatus.OK, body, WebResources.contentType(resource), "no-cache", null);
    }

    private static void respondJson(ChannelHandlerContext ctx, FullHttpRequest request, ObjectNode json) {
        byte[] body;
        try {
            body = MAPPER.writeValueAsBytes(json);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a tree of plain values always serialises", e);
        }
        respond(ctx, request, HttpResponseStatus.OK, body, "application/json", "no-store", null);
    }

    private static void respond(ChannelHandlerContext ctx, FullHttpRequest request, HttpResponseStatus status,
                                String text, String type) {
        respond(ctx, request, status, text.getBytes(StandardCharsets.UTF_8), type, "no-store", null);
    }

    private static void respond(ChannelHandlerContext ctx, FullHttpRequest request, HttpResponseStatus status,
                                byte[] body, String type, String cacheControl, String etag) {
        // HEAD: GET's headers, Content-Length included, without the body (curl -I got 405 on every path; a tester).
        boolean head = request.method().equals(HttpMethod.HEAD);
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
            head ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(body));
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, type);
        if (status.equals(HttpResponseStatus.METHOD_NOT_ALLOWED)) {
            response.headers().set(HttpHeaderNames.ALLOW, "GET, HEAD");
        }
        response.headers().set(HttpHeaderNames.CACHE_CONTROL, cacheControl);
        response.headers().set("X-Content-Type-Options", "nosniff");
        if (etag != null) {
            response.headers().set(HttpHeaderNames.ETAG, etag);
        }
        HttpUtil.setContentLength(response, body.length);
        boolean keepAlive = HttpUtil.isKeepAlive(request) && status.code() < 400;
        HttpUtil.setKeepAlive(response, keepAlive);
        if (keepAlive) {
            ctx.writeAndFlush(response);
        } else {
            ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
        }
    }
}
