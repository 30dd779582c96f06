package org.hapticsd.client;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.util.AttributeKey;
import java.nio.charset.StandardCharsets;

/**
 * Keeps the body of a refused WebSocket handshake, which says why (docs/stream-protocol.md 2.1: "the body says
 * why"). Netty's handshake exception carries the status and headers only, so without this the client could name
 * the status and then only guess at the cause. Sits between the HTTP aggregator and the WebSocket handshaker, and
 * passes every message on unchanged.
 */
final class HandshakeRefusal extends ChannelInboundHandlerAdapter {
    /** The refusal's body, one line, at most {@value #MAX_CHARS} characters; absent until a refusal arrives. */
    static final AttributeKey<String> BODY = AttributeKey.valueOf("hapticsd.handshakeRefusalBody");
    static final int MAX_CHARS = 300;

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof FullHttpResponse response && response.status().code() / 100 == 4) {
            String body = oneLine(response.content().toString(StandardCharsets.UTF_8));
            if (!body.isEmpty()) {
                ctx.channel().attr(BODY).set(body);
            }
        }
        ctx.fireChannelRead(msg);
    }

    /** Control characters (line breaks included) as spaces, trimmed and cut: the reason is printed as one line. */
    static String oneLine(String text) {
        StringBuilder line = new StringBuilder(Math.min(text.length(), MAX_CHARS));
        for (int i = 0; i < text.length() && line.length() < MAX_CHARS; i++) {
            char c = text.charAt(i);
            line.append(Character.isISOControl(c) ? ' ' : c);
        }
        return line.toString().strip();
    }
}
