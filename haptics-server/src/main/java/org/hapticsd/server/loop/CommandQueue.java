package org.hapticsd.server.loop;

import java.util.function.Consumer;
import org.agrona.concurrent.ManyToOneConcurrentArrayQueue;

/**
 * Bounded lock-free queue of {@link LoopCommand}s: any thread offers, the loop drains a bounded number per tick.
 * Agrona's many-to-one array queue: no allocation on either side, no locks.
 */
public final class CommandQueue {
    public static final int DEFAULT_CAPACITY = 1024;
    /** Bounds the work a burst of commands can add to one tick. */
    public static final int MAX_PER_TICK = 16;

    private final ManyToOneConcurrentArrayQueue<LoopCommand> queue;

    public CommandQueue(int capacity) {
        this.queue = new ManyToOneConcurrentArrayQueue<>(capacity);
    }

    public CommandQueue() {
        this(DEFAULT_CAPACITY);
    }

    /** Any thread. {@code false} when the queue is full: the command was not accepted. */
    public boolean offer(LoopCommand command) {
        return queue.offer(command);
    }

    /** Loop thread only. */
    int drain(Consumer<LoopCommand> handler) {
        return queue.drain(handler, MAX_PER_TICK);
    }
}
