package org.hapticsd.server.net;

import org.hapticsd.server.loop.SnapshotExchange;

/**
 * One scene as the stream serves it: where the loop publishes its snapshots, and the messages (SCENE with its
 * revision, STATE) made from them. A scene replaced by RESET_SCENE or LOAD_SCENE is a new epoch; each client sends
 * the new SCENE before its first STATE of the new epoch.
 */
public record StreamEpoch(SnapshotExchange exchange, StreamFrames frames) {
}
