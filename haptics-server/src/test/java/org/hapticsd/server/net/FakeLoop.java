package org.hapticsd.server.net;

import java.util.concurrent.locks.LockSupport;
import org.hapticsd.server.loop.LoopSnapshot;
import org.hapticsd.server.loop.SnapshotExchange;

/** Publishes a snapshot with an increasing tick every millisecond, as the loop does. */
final class FakeLoop implements AutoCloseable {
    final SnapshotExchange exchange = new SnapshotExchange(1);
    private final Thread thread;
    private volatile boolean running = true;
    private volatile long ticks;

    FakeLoop() {
        thread = new Thread(() -> {
            LoopSnapshot s = exchange.newSnapshot();
            long next = System.nanoTime();
            while (running) {
                s.tick++;
                exchange.publish(s);
                ticks = s.tick;
                next += 1_000_000L;
                LockSupport.parkNanos(next - System.nanoTime());
            }
        }, "fake-loop");
        thread.setDaemon(true);
        thread.start();
    }

    long ticks() {
        return ticks;
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.join();
    }
}
