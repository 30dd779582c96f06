package org.hapticsd.server.net;

import io.netty.channel.Channel;

/**
 * What clients send (SUBSCRIBE, COMMAND), decoded and acted on: a rate change goes to the client's
 * {@link ClientStream}, a command is checked (token, local limits) and enqueued for the loop, and every command is
 * acknowledged or refused with a reason on {@code channel}. Called on the client's event loop.
 */
public interface StreamRequests {
    void onBinary(ClientStream stream, byte[] message, Channel channel);

    void onJson(ClientStream stream, String message, Channel channel);

    /**
     * What carries the commands out, for what the web port's API reads of it ({@code /api/parameters},
     * {@code /api/scenes}, {@code /api/warnings}): by default one that serves no scene commands.
     */
    default CommandExecutor commands() {
        return command -> java.util.concurrent.CompletableFuture.completedFuture(
            "UNSUPPORTED: this server carries out no commands");
    }
}
