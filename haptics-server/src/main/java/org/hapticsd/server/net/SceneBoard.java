package org.hapticsd.server.net;

import java.util.Objects;

/**
 * The current {@link StreamEpoch}, written by the loop thread when it swaps its scene and read by the stream's
 * threads. A volatile reference: the loop writes it once per scene change, never per tick.
 */
public final class SceneBoard implements StreamSource {
    private volatile StreamEpoch current;

    public SceneBoard(StreamEpoch first) {
        this.current = Objects.requireNonNull(first, "first");
    }

    @Override
    public StreamEpoch current() {
        return current;
    }

    /** Called on the loop thread, in the tick that starts publishing into {@code epoch}'s exchange. */
    public void publish(StreamEpoch epoch) {
        current = Objects.requireNonNull(epoch, "epoch");
    }
}
