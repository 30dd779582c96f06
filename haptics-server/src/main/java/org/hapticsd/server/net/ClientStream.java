package org.hapticsd.server.net;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.NanoClock;
import org.hapticsd.server.loop.LoopSnapshot;

/**
 * Sends one client the loop's newest state at the client's own rate, on the client's Netty event loop. The loop is
 * never involved: each run copies the latest snapshot out of the sequence lock (the loop never waits for it) and
 * writes one frame. A client that cannot keep up is conflated, not queued: while its channel is unwritable
 * (Netty's high water mark) a run sends nothing, and when it drains it gets the newest state, never a backlog. One
 * that stays unwritable for the configured time is closed.
 *
 * <p>Runs are scheduled at absolute deadlines; after a stall the next run is one period from now, so a slow
 * event loop never bursts missed frames (the rejected alternative, {@code scheduleAtFixedRate}, does burst).
 */
final class ClientStream implements Runnable {
    /** Transport and format of the frames this client gets. */
    enum Kind { WEBSOCKET_BINARY, WEBSOCKET_JSON, TCP }

    private final Channel channel;
    private final StreamSource source;
    private final Kind kind;
    private final EventLog.Receiver events;
    private final long loopPeriodNs;
    private final long unwritableCloseNs;
    private final NanoClock clock;

    // The scene this client was last sent, and a snapshot sized for it.
    private StreamEpoch epoch;
    private LoopSnapshot snapshot;
    private long periodNs;
    private long nextNs;
    private long lastTick = -1;
    private long unwritableSinceNs;
    private boolean running;

    ClientStream(Channel channel, StreamSource source, Kind kind, long loopPeriodNs, long unwritableCloseNs,
                 EventLog.Receiver events, NanoClock clock) {
        this.events = events;
        this.clock = clock;
        this.channel = channel;
        this.source = source;
        this.kind = kind;
        this.loopPeriodNs = loopPeriodNs;
        this.unwritableCloseNs = unwritableCloseNs;
    }

    /**
     * Starts or changes the rate; event loop only. 0 or a rate above the loop's means every tick.
     *
     * @return the period used, ns
     */
    long subscribe(double rateHz) {
        periodNs = rateHz <= 0 ? loopPeriodNs : Math.max(loopPeriodNs, Math.round(1e9 / rateHz));
        if (!running) {
            running = true;
            nextNs = clock.nanoTime();
            run();
        }
        return periodNs;
    }

    /** Told by the handler; the clock of the unwritable timeout starts here. */
    void writabilityChanged(boolean writable) {
        unwritableSinceNs = writable ? 0 : clock.nanoTime();
    }

    @Override
    public void run() {
        if (!channel.isActive()) {
            running = false;
            return;
        }
        long nowNs = clock.nanoTime();
        if (channel.isWritable()) {
            unwritableSinceNs = 0;
            StreamEpoch now = source.current();
            if (now != epoch) {
                // First run, or the loop replaced its scene: the SCENE goes before any STATE that uses its ids.
                epoch = now;
                snapshot = now.exchange().newSnapshot();
                channel.write(wrap(kind == Kind.WEBSOCKET_JSON ? now.frames().sceneJson() : now.frames().sceneBinary()),
                    channel.voidPromise());
            }
            StreamFrames frames = epoch.frames();
            if (events != null) {
                Object eventsFrame = frames.eventsFrame(events, kind == Kind.WEBSOCKET_JSON);
                if (eventsFrame != null) {
                    channel.write(wrap(eventsFrame), channel.voidPromise());
                }
            }
            if (epoch.exchange().read(snapshot) != 0 && snapshot.tick != lastTick) {
                lastTick = snapshot.tick;
                channel.writeAndFlush(stateFrame(), channel.voidPromise());
            } else {
                channel.flush();
            }
        } else {
            if (unwritableSinceNs == 0) {
                unwritableSinceNs = nowNs;
            } else if (nowNs - unwritableSinceNs > unwritableCloseNs) {
                channel.close();
                running = false;
                return;
            }
        }
        nextNs += periodNs;
        if (nextNs - nowNs <= 0) {
            nextNs = nowNs + periodNs;
        }
        channel.eventLoop().schedule(this, nextNs - nowNs, TimeUnit.NANOSECONDS);
    }

    /** A whole message from {@link StreamFrames}: byte[] for binary kinds, String for JSON. */
    private Object wrap(Object frame) {
        return switch (kind) {
            case WEBSOCKET_BINARY -> new BinaryWebSocketFrame(Unpooled.wrappedBuffer((byte[]) frame));
            case WEBSOCKET_JSON -> new TextWebSocketFrame((String) frame);
            case TCP -> Unpooled.wrappedBuffer((byte[]) frame);
        };
    }

    private Object stateFrame() {
        return switch (kind) {
            case WEBSOCKET_BINARY -> new BinaryWebSocketFrame(Unpooled.wrappedBuffer(
                epoch.frames().stateBinary(snapshot)));
            case WEBSOCKET_JSON -> new TextWebSocketFrame(epoch.frames().stateJson(snapshot));
            case TCP -> Unpooled.wrappedBuffer(epoch.frames().stateBinary(snapshot));
        };
    }
}
