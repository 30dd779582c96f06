package org.hapticsd.client;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.ssl.SslContext;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.ScheduledFuture;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.hapticsd.protocol.stream.AckMessage;
import org.hapticsd.protocol.stream.Command;
import org.hapticsd.protocol.stream.CommandMessage;
import org.hapticsd.protocol.stream.EventsMessage;
import org.hapticsd.protocol.stream.HelloMessage;
import org.hapticsd.protocol.stream.SceneMessage;
import org.hapticsd.protocol.stream.StateMessage;
import org.hapticsd.protocol.stream.StreamMessage;
import org.hapticsd.protocol.stream.StreamProtocol;
import org.hapticsd.protocol.stream.SubscribeMessage;

/**
 * A client of the hapticsd visualization stream (docs/stream-protocol.md, docs/stream-client.md): connects over
 * WebSocket ({@code ws://}, {@code wss://}) or raw TCP ({@code tcp://}), decodes what the server sends, hands it to a
 * {@link StreamListener}, keeps the newest STATE, sends commands and matches their ACKs, and reconnects with
 * exponential backoff when the connection is lost.
 *
 * <pre>{@code
 * StreamClient client = StreamClient.builder(URI.create("ws://127.0.0.1:8080/ws"))
 *     .rateHz(30)
 *     .token("s3cret-token")
 *     .listener(new StreamListener() {
 *         @Override
 *         public void onState(StateMessage state) {
 *             System.out.println(state.tick() + " " + state.safetyState());
 *         }
 *     })
 *     .build();
 * client.connect().get(5, TimeUnit.SECONDS);            // the first HELLO
 * AckMessage ack = client.send(new Command.EmergencyStop()).get(5, TimeUnit.SECONDS);
 * StateMessage newest = client.latestState();            // or null before the first STATE
 * client.close();
 * }</pre>
 *
 * <p>Threads: one I/O thread per client (a daemon) does all the work and runs every listener callback; the public
 * methods may be called from any thread. A session is one connection from HELLO until it closes; the rate asked with
 * {@link #subscribe} or {@link Builder#rateHz} is sent again at the start of every session, commands are not (a
 * command pending when the connection drops fails, since whether the server acted on it is unknown).
 */
public final class StreamClient implements AutoCloseable {
    /** Reconnect delays by default: fast enough to catch a server restart, slow enough to cost nothing while down. */
    public static final Duration DEFAULT_RECONNECT_INITIAL = Duration.ofMillis(200);
    public static final Duration DEFAULT_RECONNECT_MAX = Duration.ofSeconds(5);
    /** How long a command waits for its ACK by default; the server answers within a tick or two. */
    public static final Duration DEFAULT_COMMAND_TIMEOUT = Duration.ofSeconds(5);
    /**
     * How a disconnect reason begins when the TLS handshake failed because this client does not trust the server's
     * certificate: it is self-signed or its CA is not in the trust store. {@link Builder#trustCertificate} trusts it.
     */
    public static final String UNTRUSTED_CERTIFICATE = "the server's certificate is not trusted";
    /** The disconnect reason when {@link #close()} ended the connection, or an attempt at one. */
    public static final String CLOSED_BY_CLIENT = "closed by client";

    /** TCP connect and WebSocket handshake timeout by default. */
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(5);

    private final StreamEndpoint endpoint;
    private final String token;
    private final StreamListener listener;
    private final boolean reconnect;
    private final Backoff backoff;
    private final long commandTimeoutNs;
    private final ClientCounters counters = new ClientCounters();
    private final EventLoopGroup group;
    private final EventLoop loop;
    private final Bootstrap bootstrap;
    private final AtomicBoolean started = new AtomicBoolean();
    private final CompletableFuture<HelloMessage> firstSession = new CompletableFuture<>();
    private final AtomicReference<StateMessage> latestState = new AtomicReference<>();
    private volatile SceneMessage latestScene;
    private volatile HelloMessage latestHello;
    private volatile boolean connected;
    private volatile boolean closed;
    private volatile int rateHz;
    private volatile Throwable lastListenerError;

    // Used on the I/O thread only.
    private final PendingCommands pending = new PendingCommands();
    private Channel channel;
    private boolean sessionUp;
    private long sceneRevision = -1;
    private boolean subscriptionOwed;
    /** The server refused the handshake with a 4xx: the same request would be refused again (I/O thread). */
    private boolean refused;
    private ScheduledFuture<?> reconnectTimer;

    private StreamClient(Builder b, StreamEndpoint endpoint, SslContext tls) {
        this.endpoint = endpoint;
        this.token = b.token;
        this.listener = b.listener;
        this.reconnect = b.reconnect;
        this.backoff = new Backoff(b.reconnectInitial.toNanos(), b.reconnectMax.toNanos());
        this.commandTimeoutNs = b.commandTimeout.toNanos();
        this.rateHz = b.rateHz;
        this.group = new NioEventLoopGroup(1, new DefaultThreadFactory("hapticsd-stream-client", true));
        this.loop = group.next();
        int maxMessageBytes = b.maxMessageBytes > 0 ? b.maxMessageBytes : endpoint.defaultMaxMessageBytes();
        this.bootstrap = new Bootstrap()
            .group(group)
            .channel(NioSocketChannel.class)
            .option(ChannelOption.TCP_NODELAY, true)
            .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) b.connectTimeout.toMillis())
            .handler(new StreamClientInitializer(endpoint, tls, maxMessageBytes, b.connectTimeout.toMillis(), this,
                new ByteCounter(counters.bytesReceived)));
    }

    /**
     * A builder for a client of {@code uri}: {@code ws://HOST:PORT/ws[?format=json|binary]},
     * {@code wss://HOST:PORT/ws} or {@code tcp://HOST:PORT}. An empty WebSocket path means {@code /ws}.
     *
     * @throws IllegalArgumentException naming what is wrong with the URI
     */
    public static Builder builder(URI uri) {
        return new Builder(StreamEndpoint.parse(uri));
    }

    /**
     * Starts connecting; returns at once. The future completes with the first session's HELLO, and fails only if
     * reconnecting is off and the first attempt fails, or the client is closed first. With reconnecting on, a server
     * that is down is retried until it is up.
     *
     * @throws IllegalStateException if called twice or after {@link #close}
     */
    public CompletableFuture<HelloMessage> connect() {
        if (closed) {
            throw new IllegalStateException("the client is closed");
        }
        if (!started.compareAndSet(false, true)) {
            throw new IllegalStateException("connect() was already called");
        }
        loop.execute(this::attempt);
        return firstSession;
    }

    /**
     * Asks the server for STATE at {@code rateHz} (0 = every tick), now if connected and at the start of every later
     * session. When the connection cannot take the message yet, it is sent as soon as it can, and only the newest
     * rate is.
     *
     * @throws IllegalArgumentException if the rate is not 0..65535
     */
    public void subscribe(int rateHz) {
        if (rateHz < 0 || rateHz > 0xFFFF) {
            throw new IllegalArgumentException("rate must be 0..65535 Hz (0 = every tick), got " + rateHz);
        }
        this.rateHz = rateHz;
        onLoop(() -> {
            subscriptionOwed = true;
            sendSubscription();
        });
    }

    /**
     * Sends a command with a fresh id and the client's token. The future completes with the server's ACK for it;
     * a refused command completes normally with {@link AckMessage#accepted()} false and the server's reason. It fails
     * with {@link StreamClosedException} if no session is up, the connection cannot take it, or the connection closes
     * before the ACK, and with {@link TimeoutException} when no ACK comes within the command timeout. It is never sent
     * twice.
     */
    public CompletableFuture<AckMessage> send(Command command) {
        Objects.requireNonNull(command, "command");
        CompletableFuture<AckMessage> result = new CompletableFuture<>();
        if (closed) {
            result.completeExceptionally(new StreamClosedException("the client is closed"));
            return result;
        }
        try {
            loop.execute(() -> sendNow(command, result));
        } catch (RejectedExecutionException e) {
            result.completeExceptionally(new StreamClosedException("the client is closed"));
        }
        return result;
    }

    /** The newest STATE received (of the current scene), or null before the first. Conflated: older ones are gone. */
    public StateMessage latestState() {
        return latestState.get();
    }

    /** The last SCENE received, or null before the first. */
    public SceneMessage latestScene() {
        return latestScene;
    }

    /** The last HELLO received, or null before the first session. */
    public HelloMessage latestHello() {
        return latestHello;
    }

    /** A session is up: HELLO was received on a connection that is still open. */
    public boolean isConnected() {
        return connected;
    }

    public boolean isClosed() {
        return closed;
    }

    public StreamClientCounters counters() {
        return counters.snapshot();
    }

    /** The last exception a listener callback threw, or null; the count is in {@link #counters()}. */
    public Throwable lastListenerError() {
        return lastListenerError;
    }

    /**
     * Closes the connection, stops reconnecting, fails pending commands and stops the I/O thread; the listener hears
     * {@code onDisconnected("closed by client")} if a connection was open. Waits up to 5 s for the thread, except
     * when called from a listener callback (on that thread). Idempotent.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        onLoop(() -> {
            if (reconnectTimer != null) {
                reconnectTimer.cancel(false);
            }
            if (channel != null) {
                channel.close();
            } else {
                firstSession.completeExceptionally(new StreamClosedException("the client was closed"));
                if (started.get()) {
                    // Between attempts, or after a final refusal: "closed by client" is still the last callback, as
                    // the docs say (a tester's client after a 4xx got none).
                    notifyListener(l -> l.onDisconnected(CLOSED_BY_CLIENT));
                }
            }
        });
        io.netty.util.concurrent.Future<?> terminated = group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        if (!loop.inEventLoop()) {
            terminated.awaitUninterruptibly(5, TimeUnit.SECONDS);
        }
    }

    private void onLoop(Runnable task) {
        try {
            loop.execute(task);
        } catch (RejectedExecutionException e) {
            // The client is closed and its thread stopped: nothing is left to do.
        }
    }

    private void attempt() {
        reconnectTimer = null;
        if (closed) {
            return;
        }
        ChannelFuture connecting = bootstrap.connect(endpoint.host(), endpoint.port());
        channel = connecting.channel();
        connecting.addListener((ChannelFuture done) -> {
            if (!done.isSuccess()) {
                ended(done.channel(), SessionHandler.describe(done.cause()));
            }
        });
    }

    /** The server refused the handshake for good (4xx): no reconnect (I/O thread). */
    void refusedForGood() {
        refused = true;
    }

    /** A connection, or an attempt at one, has ended (I/O thread). */
    void ended(Channel ch, String reason) {
        if (ch != channel) {
            return;
        }
        channel = null;
        sessionUp = false;
        connected = false;
        sceneRevision = -1;
        pending.failAll(new StreamClosedException("connection closed before the ACK: " + reason));
        notifyListener(l -> l.onDisconnected(reason));
        if (closed || !reconnect || refused) {
            firstSession.completeExceptionally(new StreamClosedException(reason));
            return;
        }
        reconnectTimer = loop.schedule(() -> {
            counters.reconnects.incrementAndGet();
            attempt();
        }, backoff.nextDelayNs(), TimeUnit.NANOSECONDS);
    }

    /** One decoded message from the server (I/O thread). */
    void received(Channel ch, StreamMessage message) {
        if (ch != channel) {
            return;
        }
        counters.received(message.type());
        notifyListener(l -> l.onMessage(message));
        switch (message.type()) {
            case HELLO -> {
                HelloMessage hello = (HelloMessage) message;
                sessionUp = true;
                connected = true;
                latestHello = hello;
                counters.sessions.incrementAndGet();
                backoff.reset();
                notifyListener(l -> l.onConnected(hello));
                firstSession.complete(hello);
                subscriptionOwed = rateHz >= 0;
                sendSubscription();
            }
            case SCENE -> {
                SceneMessage scene = (SceneMessage) message;
                sceneRevision = scene.revision();
                latestScene = scene;
                notifyListener(l -> l.onScene(scene));
            }
            case STATE -> {
                StateMessage state = (StateMessage) message;
                if (state.sceneRevision() != sceneRevision) {
                    counters.statesOfUnknownScene.incrementAndGet();
                    return;
                }
                latestState.set(state);
                notifyListener(l -> l.onState(state));
            }
            case EVENTS -> {
                EventsMessage events = (EventsMessage) message;
                notifyListener(l -> l.onEvents(events));
            }
            case ACK -> {
                if (!pending.acknowledge((AckMessage) message)) {
                    counters.unmatchedAcks.incrementAndGet();
                }
            }
            default -> {
                // SUBSCRIBE and COMMAND travel client → server; the protocol lets a client ignore them.
            }
        }
    }

    void writabilityChanged(Channel ch) {
        if (ch == channel) {
            sendSubscription();
        }
    }

    void countDecodeError() {
        counters.decodeErrors.incrementAndGet();
    }

    private void sendSubscription() {
        if (!subscriptionOwed || !sessionUp || !channel.isWritable()) {
            return;
        }
        subscriptionOwed = false;
        channel.writeAndFlush(new SubscribeMessage(rateHz)).addListener(ChannelFutureListener.CLOSE_ON_FAILURE);
    }

    private void sendNow(Command command, CompletableFuture<AckMessage> result) {
        if (!sessionUp) {
            result.completeExceptionally(new StreamClosedException("not connected"));
            return;
        }
        if (!channel.isWritable()) {
            result.completeExceptionally(new StreamClosedException("the connection is not taking writes (backed up)"));
            return;
        }
        long id = pending.nextId();
        CommandMessage message = new CommandMessage(id, token, command);
        ScheduledFuture<?> timeout = loop.schedule(() -> pending.fail(id, new TimeoutException("no ACK for command "
            + id + " within " + TimeUnit.NANOSECONDS.toMillis(commandTimeoutNs) + " ms")), commandTimeoutNs,
            TimeUnit.NANOSECONDS);
        pending.add(id, result, timeout);
        channel.writeAndFlush(message).addListener((ChannelFuture written) -> {
            if (!written.isSuccess()) {
                pending.fail(id, new StreamClosedException("command " + id + " was not sent: "
                    + SessionHandler.describe(written.cause()), written.cause()));
            }
        });
    }

    private void notifyListener(Consumer<StreamListener> call) {
        try {
            call.accept(listener);
        } catch (RuntimeException e) {
            counters.listenerErrors.incrementAndGet();
            lastListenerError = e;
        }
    }

    /** Options of a {@link StreamClient}; {@link #build} checks them together. */
    public static final class Builder {
        private final StreamEndpoint endpoint;
        private Boolean tls;
        private int rateHz = -1;
        private String token = "";
        private StreamListener listener = new StreamListener() {
        };
        private boolean reconnect = true;
        private Duration reconnectInitial = DEFAULT_RECONNECT_INITIAL;
        private Duration reconnectMax = DEFAULT_RECONNECT_MAX;
        private Duration commandTimeout = DEFAULT_COMMAND_TIMEOUT;
        private Duration connectTimeout = DEFAULT_CONNECT_TIMEOUT;
        private int maxMessageBytes;
        private Path trustCertificate;
        private SslContext sslContext;

        private Builder(StreamEndpoint endpoint) {
            this.endpoint = endpoint;
        }

        /** STATE rate to SUBSCRIBE at the start of every session (0 = every tick). Default: the server's (60 Hz). */
        public Builder rateHz(int hz) {
            if (hz < 0 || hz > 0xFFFF) {
                throw new IllegalArgumentException("rate must be 0..65535 Hz (0 = every tick), got " + hz);
            }
            this.rateHz = hz;
            return this;
        }

        /** The token commands carry (the server's {@code --token}). Default: empty, which the server refuses. */
        public Builder token(String token) {
            if (Objects.requireNonNull(token, "token").getBytes(StandardCharsets.UTF_8).length
                > StreamProtocol.MAX_STRING_BYTES) {
                throw new IllegalArgumentException("a token has at most " + StreamProtocol.MAX_STRING_BYTES
                    + " bytes of UTF-8");
            }
            this.token = token;
            return this;
        }

        public Builder listener(StreamListener listener) {
            this.listener = Objects.requireNonNull(listener, "listener");
            return this;
        }

        /**
         * Reconnect after a lost connection or failed attempt, waiting {@code initialDelay}, doubling per failed
         * attempt up to {@code maxDelay}, back to {@code initialDelay} after a session begins. On by default, 200 ms
         * doubling up to 5 s.
         */
        public Builder reconnect(Duration initialDelay, Duration maxDelay) {
            if (initialDelay.isNegative() || initialDelay.isZero() || maxDelay.compareTo(initialDelay) < 0) {
                throw new IllegalArgumentException("reconnect delays must be 0 < initial <= max, got " + initialDelay
                    + " and " + maxDelay);
            }
            this.reconnect = true;
            this.reconnectInitial = initialDelay;
            this.reconnectMax = maxDelay;
            return this;
        }

        /** One connection only: when it ends (or the first attempt fails) the client stays disconnected. */
        public Builder noReconnect() {
            this.reconnect = false;
            return this;
        }

        /** How long {@link StreamClient#send} waits for the ACK. Default 5 s. */
        public Builder commandTimeout(Duration timeout) {
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("command timeout must be > 0, got " + timeout);
            }
            this.commandTimeout = timeout;
            return this;
        }

        /** TCP connect timeout, and WebSocket handshake timeout. Default 5 s. */
        public Builder connectTimeout(Duration timeout) {
            if (timeout.isNegative() || timeout.isZero() || timeout.toMillis() > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("connect timeout must be 1 ms..24 days, got " + timeout);
            }
            this.connectTimeout = timeout;
            return this;
        }

        /**
         * Largest message accepted from the server; a larger one is a framing error that closes the connection.
         * Default: the protocol's limit, 1 MiB binary, 4 MiB when a WebSocket URL asks for {@code format=json}.
         */
        public Builder maxMessageBytes(int bytes) {
            if (bytes < 16 || bytes > (64 << 20)) {
                throw new IllegalArgumentException("max message size must be 16 B..64 MiB, got " + bytes);
            }
            this.maxMessageBytes = bytes;
            return this;
        }

        /**
         * TLS on a {@code tcp://} connection. A WebSocket URL decides by its scheme ({@code wss://}), so asking for
         * anything else with one is refused.
         */
        public Builder tls(boolean on) {
            if (endpoint.webSocket() && on != endpoint.tls()) {
                throw new IllegalArgumentException("TLS for WebSocket is chosen by the scheme: use "
                    + (on ? "wss://" : "ws://") + ", not tls(" + on + ")");
            }
            this.tls = on;
            return this;
        }

        /**
         * Trust the certificates in this PEM file (the server's self-signed certificate, or its CA) instead of the
         * JVM's default trust store. Needs TLS ({@code wss://}, or {@code tls(true)} for tcp). The host name is
         * checked against the certificate either way.
         */
        public Builder trustCertificate(Path pemFile) {
            this.trustCertificate = Objects.requireNonNull(pemFile, "pemFile");
            return this;
        }

        /** A client TLS context of your own (client certificates, other trust managers); overrides trustCertificate. */
        public Builder sslContext(SslContext context) {
            if (!Objects.requireNonNull(context, "context").isClient()) {
                throw new IllegalArgumentException("the SslContext must be a client context");
            }
            this.sslContext = context;
            return this;
        }

        /**
         * The client, not yet connected ({@link StreamClient#connect}).
         *
         * @throws IllegalArgumentException if TLS options are given without TLS, or the certificate file cannot be
         *                                  read or parsed
         */
        public StreamClient build() {
            StreamEndpoint e = tls == null ? endpoint : endpoint.withTls(tls);
            if (!e.tls() && (trustCertificate != null || sslContext != null)) {
                throw new IllegalArgumentException("a certificate or SslContext was given for " + e.uri()
                    + ", which does not use TLS (use wss://, or tls(true) for tcp://)");
            }
            SslContext context = null;
            if (e.tls()) {
                context = sslContext != null ? sslContext : ClientTls.context(trustCertificate);
            }
            return new StreamClient(this, e, context);
        }
    }
}
