package org.hapticsd.server.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.hapticsd.server.net.StreamServerConfig;
import picocli.CommandLine.Option;

/** The stream server's options on {@code run}: ports, bind address, token, allowed origins, limits. */
final class StreamOptions {
    @Option(names = "--no-stream", description = "Do not start the stream server (web page, WebSocket, TCP).")
    boolean disabled;

    @Option(names = "--http-port", paramLabel = "PORT", defaultValue = "8080",
        description = "Web page and WebSocket (/ws) port; 0 picks a free one. Default: ${DEFAULT-VALUE}.")
    int httpPort;

    @Option(names = "--tcp-port", paramLabel = "PORT", defaultValue = "8081",
        description = "Raw TCP stream port (length-prefixed binary frames); 0 picks a free one, -1 turns it off. "
            + "Default: ${DEFAULT-VALUE}.")
    int tcpPort;

    @Option(names = "--bind", paramLabel = "ADDRESS", defaultValue = StreamServerConfig.LOOPBACK,
        description = "Address both stream ports listen on (0.0.0.0: every interface). Commands always need the "
            + "token; off loopback the web page asks for it. Default: ${DEFAULT-VALUE}.")
    String bind;

    @Option(names = "--token", paramLabel = "TOKEN",
        description = "Secret that stream commands must carry (at least 8 characters). Default: a random one, "
            + "printed at start.")
    String token;

    @Option(names = "--allow-origin", paramLabel = "ORIGIN",
        description = "A web origin (e.g. http://viewer.lab:3000) whose pages may open the WebSocket; repeatable. "
            + "The server's own page is always allowed.")
    List<String> origins = new ArrayList<>();

    @Option(names = "--tls-cert", paramLabel = "FILE",
        description = "Serve both stream ports over TLS (https/wss) with this PEM certificate chain; needs --tls-key.")
    Path tlsCert;

    @Option(names = "--tls-key", paramLabel = "FILE",
        description = "The TLS certificate's private key: unencrypted PKCS#8 PEM (BEGIN PRIVATE KEY).")
    Path tlsKey;

    @Option(names = "--scene-dir", paramLabel = "DIR",
        description = "Directory whose scene files stream clients may load by name (LOAD_SCENE). Default: none, "
            + "LOAD_SCENE is refused.")
    Path sceneDir;

    /** The server's configuration, or a {@link UsageException} naming the option that is wrong. */
    StreamServerConfig config() {
        if ((tlsCert == null) != (tlsKey == null)) {
            throw new UsageException("stream: --tls-cert and --tls-key go together; got only "
                + (tlsCert == null ? "--tls-key" : "--tls-cert"));
        }
        for (Path file : tlsCert == null ? new Path[0] : new Path[] {tlsCert, tlsKey}) {
            if (!Files.isReadable(file)) {
                throw new UsageException("stream: TLS file " + file + " does not exist or cannot be read");
            }
        }
        for (String origin : origins) {
            // An origin is scheme://host[:port], exactly what a browser sends: anything else would never match.
            if (!origin.matches("(?i)https?://[A-Za-z0-9.\\-\\[\\]:]+")) {
                throw new UsageException("stream: --allow-origin " + origin + ": an origin is scheme://host[:port] "
                    + "as a browser sends it, e.g. http://viewer.lab:3000 (no path, no trailing slash)");
            }
        }
        if (httpPort == tcpPort && httpPort != 0) {
            throw new UsageException("stream: --http-port and --tcp-port are both " + httpPort
                + ": the web/WebSocket port and the raw TCP port need two ports");
        }
        if (sceneDir != null && !Files.isDirectory(sceneDir)) {
            throw new UsageException("stream: --scene-dir " + sceneDir + " is not a directory");
        }
        try {
            StreamServerConfig base = StreamServerConfig.defaults();
            return base.withPorts(httpPort, tcpPort).withBind(bind, token).withAllowedOrigins(origins)
                .withTls(tlsCert == null ? null : new StreamServerConfig.Tls(tlsCert, tlsKey));
        } catch (IllegalArgumentException e) {
            throw new UsageException("stream: " + e.getMessage());
        }
    }
}
