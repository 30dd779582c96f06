package org.hapticsd.server.cli;

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
        description = "Address both stream ports listen on. Anything but loopback needs --token. "
            + "Default: ${DEFAULT-VALUE}.")
    String bind;

    @Option(names = "--token", paramLabel = "TOKEN",
        description = "Secret that stream commands must carry (at least 8 characters). Default: a random one, "
            + "printed at start.")
    String token;

    @Option(names = "--allow-origin", paramLabel = "ORIGIN",
        description = "A web origin (e.g. http://viewer.lab:3000) whose pages may open the WebSocket; repeatable. "
            + "The server's own page is always allowed.")
    List<String> origins = new ArrayList<>();

    /** The server's configuration, or a {@link UsageException} naming the option that is wrong. */
    StreamServerConfig config() {
        try {
            StreamServerConfig base = StreamServerConfig.defaults();
            return base.withPorts(httpPort, tcpPort).withBind(bind, token).withAllowedOrigins(origins);
        } catch (IllegalArgumentException e) {
            throw new UsageException("stream: " + e.getMessage());
        }
    }
}
