package org.hapticsd.server.net;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import org.hapticsd.protocol.stream.StreamProtocol;

/**
 * A raw TCP client of the stream: frames are already cut by the length-prefix decoder. HELLO and SCENE on connect,
 * then STATE at the default rate until the client SUBSCRIBEs; binary format only.
 */
final class TcpStreamHandler extends SimpleChannelInboundHandler<ByteBuf> {
    private final StreamServer server;
    private ClientStream stream;

    TcpStreamHandler(StreamServer server) {
        this.server = server;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        stream = server.newStream(ctx.channel(), ClientStream.Kind.TCP);
        // HELLO here; the client's stream sends SCENE on its first run, and again whenever the scene changes.
        ctx.write(Unpooled.wrappedBuffer(server.frames().helloBinary()));
        stream.subscribe(server.defaultRateHz());
        super.channelActive(ctx);
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, ByteBuf frame) {
        if (frame.readableBytes() < StreamProtocol.HEADER_BYTES) {
            // Spec 2.2: a length below the header is a framing error; the next boundary cannot be trusted.
            server.countClientError(ctx.channel(), null, "a frame's length field of " + frame.readableBytes()
                + " bytes, below the " + StreamProtocol.HEADER_BYTES + "-byte header (docs/stream-protocol.md 2.2)");
            ctx.close();
            return;
        }
        server.requests().onBinary(stream, ByteBufUtil.getBytes(frame), ctx.channel());
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
        server.countClientError(ctx.channel(), cause, null);
        ctx.close();
    }
}
