package org.hapticsd.server.net;

import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolHandler;

/**
 * A WebSocket client of the stream, after the handshake: HELLO and SCENE first, then STATE at the rate of the
 * {@code rate} query parameter (or the default) in the {@code format} it asked for; its own messages (SUBSCRIBE,
 * COMMAND) go to {@link StreamRequests}.
 */
final class WebSocketStreamHandler extends SimpleChannelInboundHandler<WebSocketFrame> {
    private final StreamServer server;
    private ClientStream stream;

    WebSocketStreamHandler(StreamServer server) {
        this.server = server;
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) throws Exception {
        if (event instanceof WebSocketServerProtocolHandler.HandshakeComplete) {
            boolean json = Boolean.TRUE.equals(ctx.channel().attr(HttpRequestHandler.JSON).get());
            Double rate = ctx.channel().attr(HttpRequestHandler.RATE_HZ).get();
            stream = server.newStream(ctx.channel(),
                json ? ClientStream.Kind.WEBSOCKET_JSON : ClientStream.Kind.WEBSOCKET_BINARY);
            StreamFrames frames = server.frames();
            // HELLO here; the client's stream sends SCENE on its first run, and again whenever the scene changes.
            ctx.write(json ? new TextWebSocketFrame(frames.helloJson())
                : new BinaryWebSocketFrame(Unpooled.wrappedBuffer(frames.helloBinary())));
            stream.subscribe(rate == null ? server.defaultRateHz() : rate);
            return;
        }
        super.userEventTriggered(ctx, event);
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, WebSocketFrame frame) {
        if (stream == null) {
            return;
        }
        if (frame instanceof TextWebSocketFrame text) {
            server.requests().onJson(stream, text.text(), ctx.channel());
        } else if (frame instanceof BinaryWebSocketFrame binary) {
            server.requests().onBinary(stream, ByteBufUtil.getBytes(binary.content()), ctx.channel());
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
        if (stream != null) {
            stream.writabilityChanged(ctx.channel().isWritable());
        }
        super.channelWritabilityChanged(ctx);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        server.countClientError(cause);
        ctx.close();
    }
}
