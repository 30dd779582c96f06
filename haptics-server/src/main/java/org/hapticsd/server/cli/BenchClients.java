package org.hapticsd.server.cli;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.codec.LengthFieldPrepender;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketClientHandshakerFactory;
import io.netty.handler.codec.http.websocketx.WebSocketClientProtocolHandler;
import io.netty.handler.codec.http.websocketx.WebSocketVersion;
import java.net.URI;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.hapticsd.protocol.stream.StreamCodec;
import org.hapticsd.protocol.stream.StreamMessageType;
import org.hapticsd.protocol.stream.SubscribeMessage;

/**
 * The stream benchmark's clients: Netty clients in this process on their own event loop threads (named
 * {@link #THREAD_NAME_PREFIX}, so their CPU time is measured apart from the server's), each counting the STATE
 * messages it receives. They read everything as it arrives, as a viewer would, and only look at the message type:
 * the cost measured is the server's, not a decoder's.
 *
 * <p>In-process rather than in a child JVM: one process is simpler to start and stop, and on this 2-core machine a
 * child JVM would compete for the same cores anyway; the clients' CPU time is reported so the reader can see how
 * much of the machine they took.
 */
final class BenchClients implements AutoCloseable {
    static final String THREAD_NAME_PREFIX = "bench-client";
    /** Largest message a client accepts: the protocol's JSON limit (a SCENE can be large). */
    private static final int MAX_MESSAGE_BYTES = 4 << 20;
    private static final ByteBuf JSON_STATE_MARKER = Unpooled.unreleasableBuffer(
        Unpooled.copiedBuffer("\"type\":\"STATE\"", StandardCharsets.US_ASCII));

    /** How a client connects and which form it asks for. */
    enum Kind {
        TCP("tcp"), WEBSOCKET_BINARY("ws-binary"), WEBSOCKET_JSON("ws-json");

        final String label;

        Kind(String label) {
            this.label = label;
        }
    }

    /** One connected client and its count of STATE messages, written by its event loop and read by anyone. */
    static final class Client {
        final Kind kind;
        /** Requested STATE rate; 0 = every tick. */
        final int rateHz;
        final AtomicLong states = new AtomicLong();
        volatile Channel channel;

        Client(Kind kind, int rateHz) {
            this.kind = kind;
            this.rateHz = rateHz;
        }
    }

    private final EventLoopGroup group;
    private final List<Client> clients = new ArrayList<>();

    BenchClients(int threads) {
        AtomicLong count = new AtomicLong();
        group = new NioEventLoopGroup(threads, runnable -> {
            Thread thread = new Thread(runnable, THREAD_NAME_PREFIX + "-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
    }

    /** Connects one client; returns once its TCP connection is up (the WebSocket handshake follows). */
    Client connect(Kind kind, int rateHz, String host, int httpPort, int tcpPort) throws InterruptedException {
        Client client = new Client(kind, rateHz);
        Bootstrap bootstrap = new Bootstrap().group(group).channel(NioSocketChannel.class)
            .option(ChannelOption.TCP_NODELAY, true)
            .handler(new ChannelInitializer<SocketChannel>() {
                @Override
                protected void initChannel(SocketChannel ch) {
                    if (kind == Kind.TCP) {
                        ch.pipeline()
                            .addLast(new LengthFieldBasedFrameDecoder(ByteOrder.LITTLE_ENDIAN, MAX_MESSAGE_BYTES,
                                0, 4, 0, 4, true))
                            .addLast(new LengthFieldPrepender(ByteOrder.LITTLE_ENDIAN, 4, 0, false))
                            .addLast(new Counter(client));
                    } else {
                        URI uri = URI.create("ws://" + host + ":" + httpPort + "/ws?format="
                            + (kind == Kind.WEBSOCKET_JSON ? "json" : "binary") + "&rate=" + rateHz);
                        ch.pipeline()
                            .addLast(new HttpClientCodec())
                            .addLast(new HttpObjectAggregator(64 * 1024))
                            .addLast(new WebSocketClientProtocolHandler(WebSocketClientHandshakerFactory.newHandshaker(
                                uri, WebSocketVersion.V13, null, false, EmptyHttpHeaders.INSTANCE,
                                MAX_MESSAGE_BYTES)))
                            .addLast(new Counter(client));
                    }
                }
            });
        client.channel = bootstrap.connect(host, kind == Kind.TCP ? tcpPort : httpPort).sync().channel();
        clients.add(client);
        return client;
    }

    List<Client> clients() {
        return clients;
    }

    /** Waits until every client has received at least one STATE; false if some had none by the deadline. */
    boolean awaitFirstStates(long timeoutMs) throws InterruptedException {
        long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (System.nanoTime() - deadlineNs < 0) {
            if (clients.stream().allMatch(c -> c.states.get() > 0)) {
                return true;
            }
            Thread.sleep(20);
        }
        return clients.stream().allMatch(c -> c.states.get() > 0);
    }

    /** Closes every connection and stops the client threads; waits at most 2 s. */
    @Override
    public void close() {
        for (Client client : clients) {
            Channel channel = client.channel;
            if (channel != null) {
                channel.close();
            }
        }
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }

    /** Counts STATE messages; a TCP client subscribes to its rate first (a WebSocket client asked in its URI). */
    private static final class Counter extends SimpleChannelInboundHandler<Object> {
        private final Client client;

        Counter(Client client) {
            this.client = client;
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) throws Exception {
            if (client.kind == Kind.TCP) {
                ctx.writeAndFlush(Unpooled.wrappedBuffer(StreamCodec.encode(new SubscribeMessage(client.rateHz))));
            }
            super.channelActive(ctx);
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, Object message) {
            boolean state;
            if (message instanceof BinaryWebSocketFrame frame) {
                state = isBinaryState(frame.content());
            } else if (message instanceof TextWebSocketFrame frame) {
                state = isJsonState(frame.content());
            } else if (message instanceof ByteBuf frame) {
                state = isBinaryState(frame);
            } else {
                state = false;
            }
            if (state) {
                client.states.incrementAndGet();
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }

        /** The header's type byte (docs/stream-protocol.md, section 3). */
        private static boolean isBinaryState(ByteBuf message) {
            return message.readableBytes() >= 2
                && message.getByte(message.readerIndex() + 1) == (byte) StreamMessageType.STATE.code();
        }

        /** The writer puts {@code "type"} first; looking within the first bytes is enough to tell STATE apart. */
        private static boolean isJsonState(ByteBuf message) {
            int head = Math.min(message.readableBytes(), 32);
            return ByteBufUtil.indexOf(JSON_STATE_MARKER, message.slice(message.readerIndex(), head)) >= 0;
        }
    }
}
