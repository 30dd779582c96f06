package org.hapticsd.server.net;

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
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

/**
 * The HTTP side of the web port: WebSocket upgrade requests on {@code /ws} are checked (Origin, query) and passed
 * on to Netty's WebSocket handshaker; every other GET serves a file of the web page from the classpath
 * ({@code /web/...}). Application logic stays out: the stream itself is {@link WebSocketStreamHandler}'s.
 */
final class HttpRequestHandler extends SimpleChannelInboundHandler<FullHttpRequest> {
    static final String WS_PATH = "/ws";
    static final AttributeKey<Double> RATE_HZ = AttributeKey.valueOf("hapticsd.rateHz");
    static final AttributeKey<Boolean> JSON = AttributeKey.valueOf("hapticsd.json");

    private final List<String> allowedOrigins;

    HttpRequestHandler(List<String> allowedOrigins) {
        super(false);
        this.allowedOrigins = allowedOrigins;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
        QueryStringDecoder uri = new QueryStringDecoder(request.uri());
        if (uri.path().equals(WS_PATH)) {
            String refused = checkUpgrade(request, uri, ctx);
            if (refused != null) {
                respond(ctx, request, HttpResponseStatus.FORBIDDEN, refused + "\n", "text/plain");
                request.release();
                return;
            }
            ctx.fireChannelRead(request);
            return;
        }
        try {
            serveFile(ctx, request, uri.path());
        } finally {
            request.release();
        }
    }

    /** Null when the upgrade may go on; otherwise why not. Stores the query's rate and format on the channel. */
    private String checkUpgrade(FullHttpRequest request, QueryStringDecoder uri, ChannelHandlerContext ctx) {
        String origin = request.headers().get(HttpHeaderNames.ORIGIN);
        if (origin != null && !originAllowed(origin, request.headers().get(HttpHeaderNames.HOST))) {
            return "origin " + origin + " is not allowed (see --allow-origin)";
        }
        double rateHz = 0;
        List<String> rate = uri.parameters().get("rate");
        if (rate != null) {
            try {
                rateHz = Double.parseDouble(rate.get(0));
            } catch (NumberFormatException e) {
                return "rate must be a number of hertz, got " + rate.get(0);
            }
            if (!(rateHz >= 0) || Double.isInfinite(rateHz)) {
                return "rate must be >= 0 Hz (0 = every tick), got " + rate.get(0);
            }
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

    private static void serveFile(ChannelHandlerContext ctx, FullHttpRequest request, String path) {
        if (!request.method().equals(HttpMethod.GET)) {
            respond(ctx, request, HttpResponseStatus.METHOD_NOT_ALLOWED, "only GET\n", "text/plain");
            return;
        }
        String file = path.equals("/") ? "/index.html" : path;
        if (file.contains("..") || !file.matches("/[A-Za-z0-9._/-]+")) {
            respond(ctx, request, HttpResponseStatus.NOT_FOUND, "not found\n", "text/plain");
            return;
        }
        byte[] body;
        try (InputStream in = HttpRequestHandler.class.getResourceAsStream("/web" + file)) {
            if (in == null) {
                respond(ctx, request, HttpResponseStatus.NOT_FOUND, "not found\n", "text/plain");
                return;
            }
            body = in.readAllBytes();
        } catch (IOException e) {
            respond(ctx, request, HttpResponseStatus.INTERNAL_SERVER_ERROR, "cannot read " + file + "\n",
                "text/plain");
            return;
        }
        respond(ctx, request, HttpResponseStatus.OK, body, contentType(file));
    }

    private static String contentType(String file) {
        if (file.endsWith(".html")) {
            return "text/html; charset=utf-8";
        }
        if (file.endsWith(".js")) {
            return "text/javascript; charset=utf-8";
        }
        if (file.endsWith(".css")) {
            return "text/css; charset=utf-8";
        }
        return "application/octet-stream";
    }

    private static void respond(ChannelHandlerContext ctx, FullHttpRequest request, HttpResponseStatus status,
                                String text, String type) {
        respond(ctx, request, status, text.getBytes(StandardCharsets.UTF_8), type);
    }

    private static void respond(ChannelHandlerContext ctx, FullHttpRequest request, HttpResponseStatus status,
                                byte[] body, String type) {
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
            Unpooled.wrappedBuffer(body));
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, type);
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
