package org.hapticsd.client;

import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.buffer.ByteBufAllocator;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;

/** The client's TLS: which certificates it trusts, and a handler per connection that checks the host name. */
final class ClientTls {
    private ClientTls() {
    }

    /**
     * A client context trusting the certificates in {@code trustedCertificates} (PEM, X.509: the server's own
     * self-signed certificate, or the CA that signed it), or the JVM's default trust store when null.
     */
    static SslContext context(Path trustedCertificates) {
        SslContextBuilder builder = SslContextBuilder.forClient();
        if (trustedCertificates != null) {
            if (!Files.isReadable(trustedCertificates)) {
                throw new IllegalArgumentException("certificate file " + trustedCertificates + " cannot be read");
            }
            builder.trustManager(trustedCertificates.toFile());
        }
        try {
            return builder.build();
        } catch (SSLException | IllegalArgumentException e) {
            throw new IllegalArgumentException("certificate file " + trustedCertificates + ": " + e.getMessage(), e);
        }
    }

    /**
     * A handler for one connection to {@code host:port}. Host name verification is switched on here because Netty's
     * {@code SslContext} leaves it off: without it any certificate the trust store accepts would do for any host.
     */
    static SslHandler handler(SslContext context, ByteBufAllocator alloc, String host, int port) {
        SslHandler handler = context.newHandler(alloc, host, port);
        SSLEngine engine = handler.engine();
        SSLParameters parameters = engine.getSSLParameters();
        parameters.setEndpointIdentificationAlgorithm("HTTPS");
        engine.setSSLParameters(parameters);
        return handler;
    }
}
