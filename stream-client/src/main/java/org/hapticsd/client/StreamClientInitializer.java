package org.hapticsd.client;

import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.codec.LengthFieldPrepender;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.websocketx.WebSocketClientProtocolConfig;
import io.netty.handler.codec.http.websocketx.WebSocketClientProtocolHandler;
import io.netty.handler.codec.http.websocketx.WebSocketFrameAggregator;
import io.netty.handler.codec.http.websocketx.WebSocketVersion;
import io.netty.handler.ssl.SslContext;
import java.net.URI;
import java.nio.ByteOrder;
import org.hapticsd.protocol.stream.StreamProtocol;

/**
 * Builds each connection's pipeline, the Netty way: byte counter → TLS (wss, or tcp with TLS) → framing → codec →
 * session handler. Framing is Netty's own: the u32 little-endian length prefix for raw TCP, the HTTP upgrade and
 * WebSocket frame codec (with continuation frames reassembled) for WebSocket.
 */
final class StreamClientInitializer extends ChannelInitializer<SocketChannel> {
    /** The handshake response is headers and, when refused, one line of text. */
    private static final int MAX_HANDSHAKE_RESPONSE_BYTES = 64 * 1024;

    private final StreamEndpoint endpoint;
    private final SslContext tls;
    private final int maxMessageBytes;
    private final long handshakeTimeoutMs;
    private final StreamClient client;
    private final ByteCounter byteCounter;

    /**
     * @param tls             the TLS context, or null for plain connections
     * @param maxMessageBytes largest message accepted from the server; a larger one is a framing error
     */
    StreamClientInitializer(StreamEndpoint endpoint, SslContext tls, int maxMessageBytes, long handshakeTimeoutMs,
                            StreamClient client, ByteCounter byteCounter) {
        this.endpoint = endpoint;
        this.tls = tls;
        this.maxMessageBytes = maxMessageBytes;
        this.handshakeTimeoutMs = handshakeTimeoutMs;
        this.client = client;
        this.byteCounter = byteCounter;
    }

    @Override
    protected void initChannel(SocketChannel ch) {
        ChannelPipeline p = ch.pipeline();
        p.addLast(byteCounter);
        if (tls != null) {
            p.addLast(ClientTls.handler(tls, ch.alloc(), endpoint.host(), endpoint.port()));
        }
        if (endpoint.webSocket()) {
            addWebSocketFraming(p, endpoint.uri(), maxMessageBytes, handshakeTimeoutMs);
        } else {
            addTcpFraming(p, maxMessageBytes);
        }
        p.addLast(new SessionHandler(client));
    }

    /** Raw TCP: the u32 little-endian length prefix both ways, then the binary codec. */
    static void addTcpFraming(ChannelPipeline p, int maxMessageBytes) {
        p.addLast(new LengthFieldBasedFrameDecoder(ByteOrder.LITTLE_ENDIAN,
                StreamProtocol.TCP_LENGTH_PREFIX_BYTES + maxMessageBytes, 0, StreamProtocol.TCP_LENGTH_PREFIX_BYTES,
                0, StreamProtocol.TCP_LENGTH_PREFIX_BYTES, true))
            .addLast(new LengthFieldPrepender(ByteOrder.LITTLE_ENDIAN, StreamProtocol.TCP_LENGTH_PREFIX_BYTES, 0,
                false))
            .addLast(BinaryMessageCodec.INSTANCE);
    }

    /** WebSocket: HTTP upgrade, then WebSocket frames reassembled into messages, then the message codec. */
    static void addWebSocketFraming(ChannelPipeline p, URI uri, int maxMessageBytes, long handshakeTimeoutMs) {
        p.addLast(new HttpClientCodec())
            .addLast(new HttpObjectAggregator(MAX_HANDSHAKE_RESPONSE_BYTES))
            .addLast(new HandshakeRefusal())
            .addLast(new WebSocketClientProtocolHandler(WebSocketClientProtocolConfig.newBuilder()
                .webSocketUri(uri)
                .version(WebSocketVersion.V13)
                .maxFramePayloadLength(maxMessageBytes)
                .handshakeTimeoutMillis(handshakeTimeoutMs)
                .build()));
        addWebSocketMessages(p, maxMessageBytes);
    }

    /** After the handshake: continuation frames joined (up to the size limit), then the message codec. */
    static void addWebSocketMessages(ChannelPipeline p, int maxMessageBytes) {
        p.addLast(new WebSocketFrameAggregator(maxMessageBytes))
            .addLast(WebSocketMessageCodec.INSTANCE);
    }
}
