package org.hapticsd.client;

import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToMessageCodec;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import java.util.List;
import org.hapticsd.protocol.stream.StreamCodec;
import org.hapticsd.protocol.stream.StreamJson;
import org.hapticsd.protocol.stream.StreamMessage;

/**
 * WebSocket, after the frame aggregator: one binary WebSocket message ↔ one binary stream message, one text message →
 * one JSON stream message (docs/stream-protocol.md 2.1). The client always sends binary; the server accepts both
 * and answers in the connection's format. Control frames never get here: the protocol handler answers them.
 */
@Sharable
final class WebSocketMessageCodec extends MessageToMessageCodec<WebSocketFrame, StreamMessage> {
    static final WebSocketMessageCodec INSTANCE = new WebSocketMessageCodec();

    private WebSocketMessageCodec() {
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, StreamMessage message, List<Object> out) {
        out.add(new BinaryWebSocketFrame(Unpooled.wrappedBuffer(StreamCodec.encode(message))));
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, WebSocketFrame frame, List<Object> out) {
        if (frame instanceof BinaryWebSocketFrame) {
            out.add(StreamCodec.decode(ByteBufUtil.getBytes(frame.content())));
        } else if (frame instanceof TextWebSocketFrame text) {
            out.add(StreamJson.decodeJson(text.text()));
        }
    }
}
