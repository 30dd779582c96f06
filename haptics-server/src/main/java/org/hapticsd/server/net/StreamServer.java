package org.hapticsd.server.net;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.codec.LengthFieldPrepender;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.websocketx.WebSocketDecoderConfig;
import io.netty.handler.codec.http.websocketx.WebSocketFrameAggregator;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolConfig;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolHandler;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.timeout.IdleStateHandler;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLException;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;
import org.hapticsd.protocol.stream.StreamProtocol;
import org.hapticsd.server.loop.SnapshotExchange;

/**
 * Publishes the loop's state to visualization clients: one port for the web page and WebSocket ({@code /ws}),
 * one for raw TCP with length-prefixed frames. Each pipeline is built the Netty way, framing → codec →
 * application handler, with the connection cap first and the idle timeout next.
 *
 * <p>The loop never sees a client: each client's {@link ClientStream} reads the loop's latest-value snapshot on
 * the client's event loop at the client's rate, and conflates when the client cannot keep up. Two event loop
 * threads at most: on a 2-core machine running a 1 kHz loop, more would only compete with it.
 */
public final class StreamServer implements AutoCloseable {
    /** STATE rate for a client that asked for none: smooth on a 60 Hz display, light on the network. */
    public static final double DEFAULT_RATE_HZ = 60.0;
    /** Every thread of the server starts with this name (accept and event loops), for measuring their CPU time. */
    public static final String THREAD_NAME_PREFIX = "hapticsd-net";
    /**
     * Per-client outbound buffer before the channel turns unwritable, and the socket's send buffer (the kernel books
     * twice what is asked). Small on purpose: what a client that stopped reading can find waiting is these plus its
     * own receive buffer, tens of kilobytes, a few hundred 100-byte STATEs, not the megabytes Linux's send-buffer
     * autotuning would grow to (a 20 s stall left 15,000 stale STATEs queued with 64 KiB and autotuning). A client
     * that drains gets the newest state; one that stays full is closed after the unwritable timeout (spec 3.1).
     */
    static final int LOW_WATER_BYTES = 4 * 1024;
    static final int HIGH_WATER_BYTES = 8 * 1024;
    static final int SEND_BUFFER_BYTES = 8 * 1024;
    private static final int LENGTH_PREFIX_BYTES = StreamProtocol.TCP_LENGTH_PREFIX_BYTES;

    private final StreamServerConfig config;
    private final StreamSource source;
    private final StreamRequests requests;
    private final EventLog events;
    private final java.util.concurrent.atomic.AtomicBoolean closed = new java.util.concurrent.atomic.AtomicBoolean();
    /** The clients streamed to, for the last flush. */
    private final java.util.Set<ClientStream> streams = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final long loopPeriodNs;
    private final NanoClock clock;
    private final ConnectionLimit limit;
    private final IdleCloser idleCloser = new IdleCloser();
    private final AtomicLong clientErrors = new AtomicLong();
    private final AtomicLong streamsOpened = new AtomicLong();
    private SslContext tls;
    private EventLoopGroup boss;
    private EventLoopGroup workers;
    private Channel http;
    private Channel tcp;

    /** A server for a scene that never changes. */
    public StreamServer(StreamServerConfig config, SnapshotExchange exchange, StreamFrames frames,
                        StreamRequests requests, EventLog events, long loopPeriodNs) {
        this(config, StreamSource.fixed(new StreamEpoch(exchange, frames)), requests, events, loopPeriodNs);
    }

    /**
     * @param source the scene served now (a {@link SceneBoard} when commands may replace it)
     * @param events the loop's event log (its tick sink), or null to send no EVENTS
     */
    public StreamServer(StreamServerConfig config, StreamSource source, StreamRequests requests, EventLog events,
                        long loopPeriodNs) {
        this(config, source, requests, events, loopPeriodNs, SystemNanoClock.INSTANCE);
    }

    /**
     * @param clock the time of each client's schedule and of its unwritable timeout. Tests pass a simulated clock
     *              that they advance together with an {@code EmbeddedChannel}'s event loop, so that rates and
     *              timeouts are checked exactly instead of against this machine's wall clock.
     */
    StreamServer(StreamServerConfig config, StreamSource source, StreamRequests requests, EventLog events,
                 long loopPeriodNs, NanoClock clock) {
        this.config = config;
        this.events = events;
        this.source = source;
        this.requests = requests;
        this.loopPeriodNs = loopPeriodNs;
        this.clock = clock;
        this.limit = new ConnectionLimit(config.maxClients());
    }

    /** Binds both ports; throws naming the address and port when one is taken or not allowed. */
    public StreamServer start() throws IOException {
        tls = config.tls() == null ? null : tlsContext(config.tls());
        boss = new NioEventLoopGroup(1, daemonThreads(THREAD_NAME_PREFIX + "-accept"));
        workers = new NioEventLoopGroup(2, daemonThreads(THREAD_NAME_PREFIX));
        try {
            http = bind(config.httpPort(), new ChannelInitializer<SocketChannel>() {
                @Override
                protected void initChannel(SocketChannel ch) {
                    initWebPipeline(ch);
                }
            });
            if (config.tcpPort() >= 0) {
                tcp = bind(config.tcpPort(), new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        initTcpPipeline(ch);
                    }
                });
            }
        } catch (IOException | RuntimeException e) {
            close();
            throw e;
        }
        return this;
    }

    /**
     * The web port's pipeline: HTTP, the page and the WebSocket upgrade on {@code /ws}, then the stream. Package
     * access so the codec tests build the same pipeline on an {@code EmbeddedChannel}.
     */
    void initWebPipeline(Channel ch) {
        guard(ch)
            .addLast(new HttpServerCodec())
            .addLast(new HttpObjectAggregator(config.maxInboundBytes()))
            .addLast(new HttpRequestHandler(this, loopPeriodNs))
            .addLast(new WebSocketServerProtocolHandler(WebSocketServerProtocolConfig.newBuilder()
                .websocketPath(HttpRequestHandler.WS_PATH)
                .checkStartsWith(true)
                // The stream handler answers a violation with the one close frame (1002, or 1009 for too big).
                .decoderConfig(WebSocketDecoderConfig.newBuilder()
                    .maxFramePayloadLength(config.maxInboundBytes())
                    .closeOnProtocolViolation(false)
                    .build())
                .build()))
            // Fragmented messages are messages (RFC 6455 5.4; spec 2.1): whole before the stream sees them, and
            // refused as a whole when their fragments together pass the limit.
            .addLast(new WebSocketFrameAggregator(config.maxInboundBytes()))
            .addLast(new WebSocketStreamHandler(this));
    }

    /** The raw TCP port's pipeline: 4-byte little-endian length prefix in and out, then the stream. */
    void initTcpPipeline(Channel ch) {
        guard(ch)
            // maxFrameLength counts the prefix too: the spec's limit is on the message alone.
            .addLast(new LengthFieldBasedFrameDecoder(ByteOrder.LITTLE_ENDIAN,
                config.maxInboundBytes() + LENGTH_PREFIX_BYTES, 0, LENGTH_PREFIX_BYTES, 0, LENGTH_PREFIX_BYTES, true))
            .addLast(new LengthFieldPrepender(ByteOrder.LITTLE_ENDIAN, LENGTH_PREFIX_BYTES, 0, false))
            .addLast(new TcpStreamHandler(this));
    }

    /** The head of both pipelines: the connection cap first, then the idle timeout, then TLS when configured. */
    private ChannelPipeline guard(Channel ch) {
        ChannelPipeline pipeline = ch.pipeline()
            .addLast(limit)
            .addLast(new IdleStateHandler(0, 0, config.idleTimeoutS(), TimeUnit.SECONDS))
            .addLast(idleCloser);
        if (tls != null) {
            pipeline.addLast(tls.newHandler(ch.alloc()));
        }
        return pipeline;
    }

    /** The server's TLS context from PEM files; names the file and the reason when it cannot be read. */
    private static SslContext tlsContext(StreamServerConfig.Tls files) throws IOException {
        for (Path file : new Path[] {files.certificateChain(), files.privateKey()}) {
            if (!Files.isReadable(file)) {
                throw new IOException("TLS file " + file + " does not exist or cannot be read");
            }
        }
        try {
            SslContext context = SslContextBuilder.forServer(files.certificateChain().toFile(),
                files.privateKey().toFile()).build();
            requireKeyOfCertificate(files);
            return context;
        } catch (SSLException | IllegalArgumentException e) {
            throw new IOException("cannot use TLS certificate " + files.certificateChain() + " with key "
                + files.privateKey() + ": " + e.getMessage() + " (PEM certificate chain, unencrypted PKCS#8 PEM key)",
                e);
        }
    }

    /**
     * Netty builds a context from any certificate and any key; a pair that does not belong together then fails
     * every handshake, with nothing in the server's log. So the key signs a challenge and the certificate's public
     * key must verify it. A key not in PKCS#8 PEM (what Netty's JDK provider reads) is left to Netty.
     */
    private static void requireKeyOfCertificate(StreamServerConfig.Tls files) throws IOException {
        java.security.cert.X509Certificate certificate;
        try (java.io.InputStream in = Files.newInputStream(files.certificateChain())) {
            certificate = (java.security.cert.X509Certificate) java.security.cert.CertificateFactory
                .getInstance("X.509").generateCertificate(in);
        } catch (java.security.GeneralSecurityException e) {
            throw new IOException("TLS certificate " + files.certificateChain() + ": " + e.getMessage(), e);
        }
        String pem = Files.readString(files.privateKey(), java.nio.charset.StandardCharsets.US_ASCII);
        int begin = pem.indexOf("-----BEGIN PRIVATE KEY-----");
        int end = pem.indexOf("-----END PRIVATE KEY-----");
        if (begin < 0 || end < begin) {
            return;
        }
        String algorithm = certificate.getPublicKey().getAlgorithm();
        String signature = switch (algorithm) {
            case "RSA" -> "SHA256withRSA";
            case "EC" -> "SHA256withECDSA";
            case "Ed25519", "EdDSA" -> "Ed25519";
            default -> null;
        };
        if (signature == null) {
            return;
        }
        byte[] der = java.util.Base64.getMimeDecoder().decode(pem.substring(begin + 27, end));
        boolean matches;
        try {
            java.security.PrivateKey key = java.security.KeyFactory.getInstance(algorithm)
                .generatePrivate(new java.security.spec.PKCS8EncodedKeySpec(der));
            byte[] challenge = "hapticsd: does this key belong to this certificate?".getBytes(
                java.nio.charset.StandardCharsets.US_ASCII);
            java.security.Signature signer = java.security.Signature.getInstance(signature);
            signer.initSign(key);
            signer.update(challenge);
            byte[] signed = signer.sign();
            java.security.Signature verifier = java.security.Signature.getInstance(signature);
            verifier.initVerify(certificate.getPublicKey());
            verifier.update(challenge);
            matches = verifier.verify(signed);
        } catch (java.security.GeneralSecurityException e) {
            // A key of another algorithm than the certificate's, or unreadable as one: it cannot be this one's.
            matches = false;
        }
        if (!matches) {
            throw new IOException("TLS key " + files.privateKey() + " does not belong to certificate "
                + files.certificateChain() + " (" + certificate.getSubjectX500Principal().getName() + "): every "
                + "handshake would fail; give the key the certificate was made for");
        }
    }

    private Channel bind(int port, ChannelInitializer<SocketChannel> initializer) throws IOException {
        ServerBootstrap bootstrap = new ServerBootstrap()
            .group(boss, workers)
            .channel(NioServerSocketChannel.class)
            .childOption(ChannelOption.TCP_NODELAY, true)
            .childOption(ChannelOption.SO_SNDBUF, SEND_BUFFER_BYTES)
            .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK,
                new WriteBufferWaterMark(LOW_WATER_BYTES, HIGH_WATER_BYTES))
            .childHandler(initializer);
        try {
            return bootstrap.bind(new InetSocketAddress(config.bindAddress(), port)).sync().channel();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while binding " + config.bindAddress() + ":" + port, e);
        } catch (Exception e) {
            // An address that does not resolve (256.1.1.1, a misspelt host) fails without a message: say what it is.
            String why = e instanceof java.nio.channels.UnresolvedAddressException
                ? "unknown address '" + config.bindAddress() + "'"
                : e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
            throw new IOException("cannot listen on " + config.bindAddress() + ":" + port + ": " + why, e);
        }
    }

    private static java.util.concurrent.ThreadFactory daemonThreads(String name) {
        AtomicLong count = new AtomicLong();
        return runnable -> {
            Thread thread = new Thread(runnable, name + "-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }

    ClientStream newStream(Channel channel, ClientStream.Kind kind) {
        streamsOpened.incrementAndGet();
        ClientStream stream = new ClientStream(channel, source, kind, loopPeriodNs,
            TimeUnit.SECONDS.toNanos(config.unwritableCloseS()), events == null ? null : events.newClientReceiver(),
            clock);
        streams.add(stream);
        channel.closeFuture().addListener(closed -> streams.remove(stream));
        return stream;
    }

    /**
     * The loop has stopped: every subscribed client gets, on its own event loop, what is left to send (the last
     * STATE, the events still pending, such as {@link EventLog#finish()}'s), before {@link #close()} closes the
     * connections. Waits at most {@code timeoutMs} in all.
     */
    public void flushClients(long timeoutMs) {
        long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        java.util.List<io.netty.util.concurrent.Future<?>> sent = new java.util.ArrayList<>();
        for (ClientStream stream : streams) {
            sent.add(stream.channel().eventLoop().submit(stream::flushNow));
        }
        for (io.netty.util.concurrent.Future<?> f : sent) {
            long leftNs = deadlineNs - System.nanoTime();
            if (leftNs <= 0 || !f.awaitUninterruptibly(leftNs, TimeUnit.NANOSECONDS)) {
                return;
            }
        }
    }

    /** The messages of the scene served now (HELLO is the same for every scene). */
    StreamFrames frames() {
        return source.current().frames();
    }

    StreamRequests requests() {
        return requests;
    }

    double defaultRateHz() {
        return DEFAULT_RATE_HZ;
    }

    /**
     * Counts a connection closed for a protocol error. A socket error (a reset: the client closed with data unread)
     * is how connections end, not an error of the client's; a TLS failure is one.
     */
    void countClientError(Channel channel, Throwable cause, String fault) {
        if (cause instanceof java.io.IOException && !(cause instanceof javax.net.ssl.SSLException)) {
            return;
        }
        clientErrors.incrementAndGet();
        ClientFaultLog.SHARED.report(channel, "connection closed: " + (fault != null ? fault
            : cause == null ? "protocol error" : cause.getMessage() == null ? cause.getClass().getSimpleName()
            : cause.getMessage()));
    }

    /** The bound web/WebSocket port (the real one when 0 was asked for). */
    public int httpPort() {
        return ((InetSocketAddress) http.localAddress()).getPort();
    }

    /** The bound raw TCP port, or -1 when disabled. */
    public int tcpPort() {
        return tcp == null ? -1 : ((InetSocketAddress) tcp.localAddress()).getPort();
    }

    /** Open connections on both ports. */
    public int clients() {
        return limit.open();
    }

    /** Connections closed at once because the cap was reached. */
    public int refusedConnections() {
        return limit.refused();
    }

    /** Connections closed because of an error (bad frame, oversized frame, protocol error). */
    public long clientErrors() {
        return clientErrors.get();
    }

    public StreamServerConfig config() {
        return config;
    }

    /** Closes both ports and every connection; waits at most 2 s. A second call does nothing. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        // Stop accepting first, then the acceptor, then the connections: with the workers shut down while the
        // listening sockets still accepted, every connection arriving meanwhile was handed to a dead event loop
        // and logged a RejectedExecutionException with its stack trace.
        for (Channel listening : new Channel[] {http, tcp}) {
            if (listening != null) {
                listening.close().syncUninterruptibly();
            }
        }
        if (boss != null) {
            boss.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        }
        if (workers != null) {
            workers.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }
}
