package org.hapticsd.client;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.codec.LengthFieldPrepender;
import io.netty.handler.ssl.SslContext;
import java.net.InetSocketAddress;
import java.nio.ByteOrder;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.hapticsd.protocol.stream.FaultCode;
import org.hapticsd.protocol.stream.HelloMessage;
import org.hapticsd.protocol.stream.LoopStats;
import org.hapticsd.protocol.stream.SafetyCode;
import org.hapticsd.protocol.stream.SceneMessage;
import org.hapticsd.protocol.stream.StateMessage;
import org.hapticsd.protocol.stream.StreamCodec;
import org.hapticsd.protocol.stream.StreamMessage;
import org.hapticsd.protocol.stream.StreamProtocol;
import org.hapticsd.protocol.stream.Vec3;

/**
 * A stand-in for the hapticsd raw TCP port on 127.0.0.1, driven by the test: greets each connection with HELLO and a
 * SCENE of revision {@link #SCENE_REVISION}, queues what clients send, and sends messages or raw frames, or drops the
 * connection, when told. Optionally over TLS.
 */
final class TestStreamServer implements AutoCloseable {
    static final long SCENE_REVISION = 7;
    static final HelloMessage HELLO = new HelloMessage(StreamProtocol.VERSION, 1000, "test");
    static final SceneMessage SCENE = new SceneMessage(SCENE_REVISION, "empty", 0.005f, List.of());

    /** What the clients sent, decoded, in order. */
    final BlockingQueue<StreamMessage> received = new LinkedBlockingQueue<>();
    /** Every accepted connection, in order. */
    final BlockingQueue<Channel> connections = new LinkedBlockingQueue<>();
    private final EventLoopGroup group = new NioEventLoopGroup(1);
    private final Channel listening;
    private volatile Channel current;

    TestStreamServer(SslContext tls) throws InterruptedException {
        listening = new ServerBootstrap()
            .group(group)
            .channel(NioServerSocketChannel.class)
            .childHandler(new ChannelInitializer<SocketChannel>() {
                @Override
                protected void initChannel(SocketChannel ch) {
                    if (tls != null) {
                        ch.pipeline().addLast(tls.newHandler(ch.alloc()));
                    }
                    ch.pipeline()
                        .addLast(new LengthFieldBasedFrameDecoder(ByteOrder.LITTLE_ENDIAN, 1 << 16, 0, 4, 0, 4, true))
                        .addLast(new LengthFieldPrepender(ByteOrder.LITTLE_ENDIAN, 4, 0, false))
                        .addLast(new SimpleChannelInboundHandler<ByteBuf>() {
                            @Override
                            public void channelActive(ChannelHandlerContext ctx) {
                                current = ctx.channel();
                                connections.add(ctx.channel());
                                ctx.write(frame(HELLO));
                                ctx.writeAndFlush(frame(SCENE));
                            }

                            @Override
                            protected void channelRead0(ChannelHandlerContext ctx, ByteBuf frame) {
                                received.add(StreamCodec.decode(ByteBufUtil.getBytes(frame)));
                            }
                        });
                }
            })
            .bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
    }

    static ByteBuf frame(StreamMessage message) {
        return Unpooled.wrappedBuffer(StreamCodec.encode(message));
    }

    static StateMessage state(long tick, long sceneRevision) {
        return new StateMessage(tick, tick * 1_000_000L, sceneRevision, SafetyCode.ACTIVE, FaultCode.NONE, true,
            false, Vec3.ZERO, Vec3.ZERO, new Vec3(0f, 0f, 1.5f), Vec3.ZERO, new LoopStats(1000f, 0, 0, 0), List.of(),
            List.of());
    }

    int port() {
        return ((InetSocketAddress) listening.localAddress()).getPort();
    }

    /** Sends to the newest connection and waits until written. */
    void send(StreamMessage message) {
        current.writeAndFlush(frame(message)).syncUninterruptibly();
    }

    /** Sends bytes as one length-prefixed frame, whatever they are. */
    void sendFrame(byte[] bytes) {
        current.writeAndFlush(Unpooled.wrappedBuffer(bytes)).syncUninterruptibly();
    }

    /** Closes the newest connection, as a server that restarts or gives up on a client does. */
    void drop() {
        current.close().syncUninterruptibly();
    }

    /** The next message a client sent, or null after {@code timeoutMs}. */
    StreamMessage nextReceived(long timeoutMs) throws InterruptedException {
        return received.poll(timeoutMs, TimeUnit.MILLISECONDS);
    }

    Channel nextConnection(long timeoutMs) throws InterruptedException {
        return connections.poll(timeoutMs, TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() {
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
