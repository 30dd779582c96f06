package org.hapticsd.client;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.TooLongFrameException;
import java.security.cert.CertPathBuilderException;
import java.security.cert.CertPathValidatorException;
import org.hapticsd.protocol.stream.StreamFormatException;
import org.hapticsd.protocol.stream.StreamMessage;

/**
 * The application end of one connection's pipeline: passes decoded messages to the {@link StreamClient}, and turns
 * every way the connection can end into one reason. A malformed message or frame closes the connection (the client
 * then reconnects and starts again from HELLO and SCENE) rather than being skipped: a server that sends one is out of
 * step with this client, and a fresh session is the one state both sides agree on.
 */
final class SessionHandler extends SimpleChannelInboundHandler<StreamMessage> {
    private final StreamClient client;
    private String reason;

    SessionHandler(StreamClient client) {
        this.client = client;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, StreamMessage message) {
        client.received(ctx.channel(), message);
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
        client.writabilityChanged(ctx.channel());
        super.channelWritabilityChanged(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        io.netty.handler.ssl.SslHandler tls = ctx.pipeline().get(io.netty.handler.ssl.SslHandler.class);
        String why = reason != null ? reason : client.isClosed() ? StreamClient.CLOSED_BY_CLIENT
            : tls != null && !tls.handshakeFuture().isSuccess()
                // --tls against a plain port: the server read the ClientHello as a bad frame and closed (a tester
                // read only "closed by server").
                ? "closed by server during the TLS handshake (does this port speak TLS? the server's plain TCP port "
                    + "does not: drop --tls, or start the server with TLS)"
                : "closed by server";
        client.ended(ctx.channel(), why);
        super.channelInactive(ctx);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        // After close() the failures are the close's own (a handshake cut short: "SSLEngine closed already").
        if (reason == null && !client.isClosed()) {
            Throwable malformed = malformed(cause);
            io.netty.handler.codec.http.HttpResponseStatus refusal = refusal(cause);
            if (refusal != null) {
                // 4xx: the server refuses this request as asked (a bad rate or format in the URL, a foreign
                // Origin, a wrong path); asking again would get the same answer, so it is final.
                String why = ctx.channel().attr(HandshakeRefusal.BODY).get();
                reason = "the server refused the WebSocket handshake: " + refusal + (why != null ? ": " + why
                    : " (the URL's query or path, or this client's Origin)");
                client.refusedForGood();
            } else if (malformed != null) {
                client.countDecodeError();
                reason = "malformed message from server: " + malformed.getMessage();
            } else {
                reason = describe(cause);
            }
        }
        ctx.close();
    }

    /** Why the connection ended, once it has; null before (tests). */
    String reason() {
        return reason;
    }

    /** The 4xx status of a refused WebSocket handshake behind {@code cause}, or null. */
    static io.netty.handler.codec.http.HttpResponseStatus refusal(Throwable cause) {
        for (Throwable t = cause; t != null; t = t.getCause()) {
            if (t instanceof io.netty.handler.codec.http.websocketx.WebSocketClientHandshakeException handshake
                && handshake.response() != null && handshake.response().status().code() / 100 == 4) {
                return handshake.response().status();
            }
        }
        return null;
    }

    /** The stream or framing error behind {@code cause}, or null if it is an I/O or TLS failure. */
    static Throwable malformed(Throwable cause) {
        for (Throwable t = cause; t != null; t = t.getCause()) {
            if (t instanceof StreamFormatException || t instanceof TooLongFrameException
                || t instanceof CorruptedFrameException) {
                return t;
            }
        }
        return null;
    }

    /**
     * The innermost message, which names the real problem ("Connection refused", "certificate_unknown"); a
     * certificate this client does not trust (no certification path to a trusted one: self-signed, or signed by a CA
     * outside the trust store) starts with {@link StreamClient#UNTRUSTED_CERTIFICATE}.
     */
    static String describe(Throwable cause) {
        for (Throwable t = cause; t != null; t = t.getCause()) {
            if (t instanceof CertPathBuilderException || t instanceof CertPathValidatorException) {
                return StreamClient.UNTRUSTED_CERTIFICATE + " (" + innermost(cause) + ")";
            }
            if (t instanceof io.netty.handler.ssl.NotSslRecordException) {
                // wss:// against a plain server: Netty's message is a hex dump of the server's HTTP answer.
                return "the server answered without TLS (a plain ws:// or tcp:// server): use ws://, or tcp:// "
                    + "without --tls, or start the server with TLS";
            }
        }
        return innermost(cause);
    }

    private static String innermost(Throwable cause) {
        Throwable root = cause;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage();
        return message == null || message.isBlank() ? root.getClass().getSimpleName() : message;
    }
}
