package org.hapticsd.server.net;

import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.ChannelFutureListener;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CorruptedWebSocketFrameException;
import io.netty.handler.codec.http.websocketx.WebSocketCloseStatus;
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
    private boolean closing;

    WebSocketStreamHandler(StreamServer server) {
        this.server = server;
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) throws Exception {
        if (event instanceof WebSocketServerProtocolHandler.HandshakeComplete) {
            open(ctx);
            return;
        }
        super.userEventTriggered(ctx, event);
    }

    /**
     * Starts the client's stream: HELLO now, SCENE and STATE from its first run. On the handshake's completion, or
     * on the client's first message when that is read first (a client may send as soon as it has the 101 answer,
     * before the server's handshake listener has run): its first COMMAND must not be lost.
     */
    private void open(ChannelHandlerContext ctx) {
        if (stream != null) {
            return;
        }
        boolean json = Boolean.TRUE.equals(ctx.channel().attr(HttpRequestHandler.JSON).get());
        Double rate = ctx.channel().attr(HttpRequestHandler.RATE_HZ).get();
        stream = server.newStream(ctx.channel(),
            json ? ClientStream.Kind.WEBSOCKET_JSON : ClientStream.Kind.WEBSOCKET_BINARY);
        StreamFrames frames = server.frames();
        // HELLO here; the client's stream sends SCENE on its first run, and again whenever the scene changes.
        ctx.write(json ? new TextWebSocketFrame(frames.helloJson())
            : new BinaryWebSocketFrame(Unpooled.wrappedBuffer(frames.helloBinary())));
        stream.subscribe(rate == null ? server.defaultRateHz() : rate);
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, WebSocketFrame frame) {
        open(ctx);
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

    /**
     * A frame or message the WebSocket layer refused: one close frame, 1009 for a message over the limit, 1002 for
     * any other protocol violation (RFC 6455 7.4.1), then the connection closes. Anything else closes it at once.
     */
    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        server.countClientError(ctx.channel(), cause, null);
        if (!ctx.channel().isActive() || closing) {
            ctx.close();
            return;
        }
        closing = true;
        if (cause instanceof TooLongFrameException || cause instanceof CorruptedWebSocketFrameException) {
            boolean tooBig = cause instanceof TooLongFrameException
                || (cause instanceof CorruptedWebSocketFrameException corrupted
                    && corrupted.closeStatus() == WebSocketCloseStatus.MESSAGE_TOO_BIG);
            ctx.writeAndFlush(new CloseWebSocketFrame(tooBig ? WebSocketCloseStatus.MESSAGE_TOO_BIG
                : WebSocketCloseStatus.PROTOCOL_ERROR)).addListener(ChannelFutureListener.CLOSE);
        } else {
            ctx.close();
        }
    }
}
