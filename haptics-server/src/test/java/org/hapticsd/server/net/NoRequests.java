package org.hapticsd.server.net;

import io.netty.channel.Channel;
import java.util.concurrent.atomic.AtomicInteger;

/** Counts what clients send; answers nothing. */
final class NoRequests implements StreamRequests {
    final AtomicInteger received = new AtomicInteger();

    @Override
    public void onBinary(ClientStream stream, byte[] message, Channel channel) {
        received.incrementAndGet();
    }

    @Override
    public void onJson(ClientStream stream, String message, Channel channel) {
        received.incrementAndGet();
    }
}
