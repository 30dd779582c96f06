package org.hapticsd.client;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToMessageCodec;
import java.util.List;
import org.hapticsd.protocol.stream.StreamCodec;
import org.hapticsd.protocol.stream.StreamMessage;

/**
 * Raw TCP, after the length-prefix framing: one frame ↔ one binary stream message (docs/stream-protocol.md 2.2).
 * A frame that does not decode raises the decoder's {@link org.hapticsd.protocol.stream.StreamFormatException}
 * (wrapped by Netty in a {@code DecoderException}); what to do about it is the session handler's business.
 */
@Sharable
final class BinaryMessageCodec extends MessageToMessageCodec<ByteBuf, StreamMessage> {
    static final BinaryMessageCodec INSTANCE = new BinaryMessageCodec();

    private BinaryMessageCodec() {
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, StreamMessage message, List<Object> out) {
        out.add(Unpooled.wrappedBuffer(StreamCodec.encode(message)));
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf frame, List<Object> out) {
        out.add(StreamCodec.decode(ByteBufUtil.getBytes(frame)));
    }
}
