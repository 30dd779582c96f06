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

    /** What SET_PARAMETER accepts now ({@link CommandExecutor#parameters()}), for {@code /api/parameters}. */
    default ParameterTable parameters() {
        return ParameterTable.NONE;
    }

    /** The current scene's build warnings ({@link CommandExecutor#warnings()}), for {@code /api/warnings}. */
    default SceneWarnings warnings() {
        return SceneWarnings.NONE;
    }

    /** What LOAD_SCENE may load ({@link CommandExecutor#scenes()}), for {@code /api/scenes}. */
    default SceneCatalog scenes() {
        return SceneCatalog.NONE;
    }
}
