package org.hapticsd.server.net;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * First in every pipeline: counts open connections on both ports and closes a new one beyond the cap before it
 * costs anything else. Shared by all channels, hence {@link ChannelHandler.Sharable}.
 */
@ChannelHandler.Sharable
final class ConnectionLimit extends ChannelInboundHandlerAdapter {
    private final int maxClients;
    private final AtomicInteger open = new AtomicInteger();
    private final AtomicInteger refused = new AtomicInteger();

    ConnectionLimit(int maxClients) {
        this.maxClients = maxClients;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        if (open.incrementAndGet() > maxClients) {
            open.decrementAndGet();
            refused.incrementAndGet();
            ctx.pipeline().remove(this);
            ctx.close();
            return;
        }
        super.channelActive(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        open.decrementAndGet();
        super.channelInactive(ctx);
    }

    int open() {
        return open.get();
    }

    int refused() {
        return refused.get();
    }
}
