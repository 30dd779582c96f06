package org.hapticsd.server.net;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.NanoClock;
import org.hapticsd.server.loop.LoopSnapshot;
import org.hapticsd.server.loop.SnapshotExchange;

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
    /** Whether a malformed message came on this connection; the channel's event loop reads and writes it. */
    private boolean malformedSeen;
    private final StreamSource source;
    private final Kind kind;
    private final EventLog.Receiver events;
    private final long loopPeriodNs;
    private final long unwritableCloseNs;
    private final NanoClock clock;

    // The scene this client was last sent, and a snapshot sized for it.
    private StreamEpoch epoch;
    private LoopSnapshot snapshot;
    private final StateBuffer stateBuffer = new StateBuffer();
    private long periodNs;
    private long nextNs;
    private long lastTick = -1;
    /** The exchange's number of the last STATE sent ({@link SnapshotExchange#published()}); 0 before the first. */
    private long lastPublish;
    /** The scene and its exchange's newest publish when the last ACK was written: no STATE before it since. */
    private StreamEpoch ackedEpoch;
    private long ackedPublish;
    private long unwritableSinceNs;
    private boolean running;
    private long lastSentNs;
    /** The last ACK queued, done once it has been sent. */
    private java.util.concurrent.CompletableFuture<Void> acks = java.util.concurrent.CompletableFuture.completedFuture(null);
    private java.util.concurrent.ScheduledFuture<?> scheduled;

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
     * Starts or changes the rate; event loop only. 0 or a rate above the loop's means every tick. A change applies
     * from the next STATE: it is due one new period after the last one sent (at once when that has passed), not at
     * the old schedule's next run, which at 1 Hz could be a second away, or, for a slower rate, a few milliseconds
     * (a tester saw a STATE 17 ms after asking for 1 Hz).
     *
     * @return the period used, ns
     */
    long subscribe(double rateHz) {
        periodNs = rateHz <= 0 ? loopPeriodNs : Math.max(loopPeriodNs, Math.round(1e9 / rateHz));
        if (!running) {
            running = true;
            nextNs = clock.nanoTime();
            run();
        } else if (lastSentNs != 0 && lastSentNs + periodNs != nextNs && scheduled != null
                && scheduled.cancel(false)) {
            nextNs = lastSentNs + periodNs;
            long waitNs = nextNs - clock.nanoTime();
            if (waitNs <= 0) {
                // Due already: this STATE goes before anything this client's message is answered with.
                run();
            } else {
                scheduled = channel.eventLoop().schedule(this, waitNs, TimeUnit.NANOSECONDS);
            }
        }
        return periodNs;
    }

    /**
     * Sends {@code ack} with {@code send} once it completes and every ACK queued before it has been handed on: the
     * client's ACKs follow the order of its COMMANDs. Each send is a task on the channel's event loop, even when it
     * completes there: an ACK completed on another thread is a queued task, and one written directly from the event
     * loop would overtake it. Event loop only (where its COMMANDs are read).
     */
    void queueAck(java.util.concurrent.CompletionStage<org.hapticsd.protocol.stream.AckMessage> ack,
                  java.util.function.Consumer<org.hapticsd.protocol.stream.AckMessage> send) {
        acks = acks.thenCombine(ack, (previous, message) -> {
            channel.eventLoop().execute(() -> {
                try {
                    noStateBeforeNow();
                    send.accept(message);
                } catch (RuntimeException e) {
                    channel.close();
                }
            });
            return null;
        });
    }

    /**
     * An ACK follows its command's effect (stream-protocol.md 3.1), so no STATE after it may be older than the newest
     * publish now, which holds the effect: an every-tick client's catching up on the exchange's history would send
     * one (a tester's PAUSE was acknowledged, then a STATE not paused came). Event loop only, as the ACK is written.
     */
    private void noStateBeforeNow() {
        StreamEpoch now = source.current();
        ackedEpoch = now;
        ackedPublish = now.exchange().published();
    }

    /** The transport and form of this client's messages: its ACKs take the same form. */
    Kind kind() {
        return kind;
    }

    /** True the first time it is asked on this connection: its first malformed message is logged, not the rest. */
    boolean firstMalformed() {
        boolean first = !malformedSeen;
        malformedSeen = true;
        return first;
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
                lastPublish = 0;
                channel.write(wrap(kind == Kind.WEBSOCKET_JSON ? now.frames().sceneJson() : now.frames().sceneBinary()),
                    channel.voidPromise());
            }
            StreamFrames frames = epoch.frames();
            SnapshotExchange exchange = epoch.exchange();
            long newest = exchange.published();
            // An every-tick client gets each publish since its last STATE while the exchange still holds them: its
            // runs come in whole milliseconds (NIO's timers), so one run in four or five found two new ticks and
            // sent only the newer. Further behind (a stall, a client that could not take more), only the newest.
            long first = newest;
            if (periodNs == loopPeriodNs && lastPublish > 0 && newest - lastPublish < SnapshotExchange.HISTORY) {
                first = lastPublish + 1;
            }
            if (epoch == ackedEpoch) {
                first = Math.max(first, ackedPublish);
            }
            boolean sent = false;
            for (long publish = first; publish <= newest && publish > lastPublish; publish++) {
                // Its slot taken meanwhile (the loop ran on): the next one, or for the last the newest there is.
                long read = exchange.read(publish, snapshot) ? publish
                    : publish == newest ? exchange.read(snapshot) / 2 : 0;
                if (read == 0 || snapshot.tick <= lastTick) {
                    continue;
                }
                if (!sent && events != null) {
                    if (lastTick < 0) {
                        // The first STATE: what happened before it is the past, not this client's news.
                        events.skipThrough(snapshot.tick);
                    }
                    writeEvents(frames);
                }
                lastTick = snapshot.tick;
                lastPublish = read;
                sent = true;
                channel.write(stateFrame(), channel.voidPromise());
            }
            if (sent) {
                lastSentNs = nowNs;
            } else if (events != null) {
                writeEvents(frames);
            }
            channel.flush();
        } else {
            if (unwritableSinceNs == 0) {
                unwritableSinceNs = nowNs;
            } else if (nowNs - unwritableSinceNs > unwritableCloseNs) {
                abort(channel);
                running = false;
                return;
            }
        }
        nextNs += periodNs;
        if (nextNs - nowNs <= 0) {
            nextNs = nowNs + periodNs;
        }
        scheduled = channel.eventLoop().schedule(this, nextNs - nowNs, TimeUnit.NANOSECONDS);
    }

    /** The events not yet sent to this client, before the STATEs of this run. */
    private void writeEvents(StreamFrames frames) {
        for (Object eventsFrame : frames.eventsFrames(events, kind == Kind.WEBSOCKET_JSON)) {
            channel.write(wrap(eventsFrame), channel.voidPromise());
        }
    }

    Channel channel() {
        return channel;
    }

    /**
     * Closes the connection at once, from the head of the pipeline: no handler sees the close, so a WebSocket gets no
     * close frame. A client that does not read would never take that frame, and Netty's WebSocket handler waits 10 s
     * for it before closing: a tester's stuck WebSocket clients held their connection slots 15 s, not the 5 s
     * documented.
     */
    static void abort(Channel channel) {
        io.netty.channel.ChannelHandlerContext first = channel.pipeline().firstContext();
        if (first != null) {
            first.close();
        } else {
            channel.close();
        }
    }

    /**
     * The last run, once the loop has stopped: the newest STATE and the events still pending, flushed, for a client
     * that subscribed (one that has not has nothing due), then a WebSocket's close frame (1001, going away). Event
     * loop only.
     */
    void flushNow() {
        if (!running || scheduled == null || !scheduled.cancel(false)) {
            return;
        }
        run();
        scheduled.cancel(false);
        running = false;
        if (kind != Kind.TCP && channel.isActive()) {
            // 1001, going away: a browser can tell a server that stopped from a network failure (1006, no frame).
            channel.writeAndFlush(new io.netty.handler.codec.http.websocketx.CloseWebSocketFrame(
                io.netty.handler.codec.http.websocketx.WebSocketCloseStatus.ENDPOINT_UNAVAILABLE));
        }
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
            case WEBSOCKET_BINARY -> new BinaryWebSocketFrame(stateBytes());
            case WEBSOCKET_JSON -> new TextWebSocketFrame(epoch.frames().stateJson(snapshot));
            case TCP -> stateBytes();
        };
    }

    /**
     * The binary STATE, written into this client's buffer and copied into one of the channel's pooled buffers: at
     * 1 kHz a STATE array per message was most of what the process allocated.
     */
    private ByteBuf stateBytes() {
        epoch.frames().stateBinary(snapshot, stateBuffer);
        return channel.alloc().buffer(stateBuffer.length()).writeBytes(stateBuffer.bytes(), 0, stateBuffer.length());
    }
}
