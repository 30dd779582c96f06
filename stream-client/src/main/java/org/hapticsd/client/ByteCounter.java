package org.hapticsd.client;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.util.concurrent.atomic.AtomicLong;

/** The head of each pipeline: counts the bytes read from the socket and passes them on untouched. */
@Sharable
final class ByteCounter extends ChannelInboundHandlerAdapter {
    private final AtomicLong bytes;

    ByteCounter(AtomicLong bytes) {
        this.bytes = bytes;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof ByteBuf buf) {
            bytes.addAndGet(buf.readableBytes());
        }
        ctx.fireChannelRead(msg);
    }
}
