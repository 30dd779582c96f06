package org.hapticsd.server.net;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.hapticsd.server.loop.CommandQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Netty's direct memory stays bounded with many clients, slow ones that never read among them, and returns to its
 * baseline when they leave. A fake loop publishes a tick per millisecond and every STATE is 8 KiB, so the clients that
 * never read (subscribed to every tick) are offered 8 MB/s each: the server writes a heap frame, Netty copies it into a
 * pooled direct buffer for the socket, and whatever the client does not take waits there. The bound holds only because
 * the server stops writing to a channel above its high water mark (64 KiB) and conflates.
 *
 * <p>Measured through the allocator the server uses ({@code ByteBufAllocator.DEFAULT}, pooled): pinned memory is
 * the bytes of live buffers; used memory is the arenas' chunks (4 MiB each), which the pool keeps for reuse.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StreamDirectMemoryTest {
    private static final int STATE_BYTES = 8192;
    private static final int READERS = 24;
    private static final int NON_READERS = 12;
    private static final long KIB = 1024;
    private static final long MIB = 1024 * KIB;
    /** StreamServer's high water mark per channel. */
    private static final long HIGH_WATER_BYTES = 64 * KIB;
    private static final long HANG_GUARD_MS = 15_000;

    @Test
    void shouldKeepDirectMemoryBoundedWithSlowClientsAndReturnToBaselineAfterTheyLeave() throws Exception {
        assertTrue(ByteBufAllocator.DEFAULT instanceof PooledByteBufAllocator,
            "the server's allocator is Netty's pooled one: " + ByteBufAllocator.DEFAULT);
        PooledByteBufAllocator allocator = (PooledByteBufAllocator) ByteBufAllocator.DEFAULT;
        // Clients that never read stay connected for the whole test (closed only after 30 s unwritable).
        StreamServerConfig config = StreamServerConfig.defaults().withPorts(0, 0).withLimits(64, 64 * 1024, 60, 30);
        try (FakeLoop loop = new FakeLoop();
             StreamServer server = new StreamServer(config, loop.exchange, new TickFrames(STATE_BYTES),
                 new CommandGate(config.token(), new CommandQueue()), null, 1_000_000L).start()) {
            Thread.sleep(200);
            long pinnedBaseline = allocator.pinnedDirectMemory();
            long usedBaseline = allocator.metric().usedDirectMemory();

            long pinnedPeak = 0;
            long usedPeak = 0;
            try (StreamClients clients = new StreamClients(server)) {
                for (int i = 0; i < READERS; i++) {
                    if (i % 2 == 0) {
                        clients.webSocketReader(i % 4 == 0 ? 0 : 60);
                    } else {
                        clients.tcpReader(i % 4 == 1 ? 0 : 60);
                    }
                }
                for (int i = 0; i < NON_READERS; i++) {
                    clients.tcpNonReader(0);
                }
                awaitTrue(() -> server.clients() == READERS + NON_READERS,
                    () -> "clients connected: " + server.clients());
                // 4 s at up to 8 MB/s for each client that never reads: over 20 MB offered to each, 250 MB in all, so
                // an unbounded queue would show; each one's kernel buffers (up to 4 MiB) are full within a second. A
                // busy machine offers less in the same 4 s; the bounds below do not depend on how much.
                long endNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(4);
                while (System.nanoTime() - endNs < 0) {
                    Thread.sleep(50);
                    pinnedPeak = Math.max(pinnedPeak, allocator.pinnedDirectMemory());
                    usedPeak = Math.max(usedPeak, allocator.metric().usedDirectMemory());
                }
                assertTrue(server.clients() == READERS + NON_READERS, "clients connected: " + server.clients());
            }
            awaitTrue(() -> server.clients() == 0, () -> "clients still connected: " + server.clients());
            // After everyone left the live buffers are gone, but for what the event loops' thread-local caches and
            // a closing channel may still hold: 256 KiB. Waited for, not slept on: the event loops release a closed
            // channel's buffers when they next run.
            long pinnedAfterBound = pinnedBaseline + 256 * KIB;
            awaitTrue(() -> allocator.pinnedDirectMemory() <= pinnedAfterBound,
                () -> "pinned after the clients left: " + allocator.pinnedDirectMemory() / KIB + " KiB, baseline "
                    + pinnedBaseline / KIB + " KiB");
            long pinnedAfter = allocator.pinnedDirectMemory();
            long usedAfter = allocator.metric().usedDirectMemory();
            String report = String.format("pinned %d KiB at start, peak %d KiB, %d KiB after; arenas' chunks %d MiB "
                    + "at start, peak %d MiB, %d MiB after; JVM direct pool %d KiB", pinnedBaseline / KIB,
                pinnedPeak / KIB, pinnedAfter / KIB, usedBaseline / MIB, usedPeak / MIB, usedAfter / MIB,
                jvmDirectBytes() / KIB);

            // Live buffers: each channel holds at most its high water mark plus the frame that crossed it (8 KiB),
            // and a reader's outbound is usually empty. Twice that for every client, in case a channel's buffer is
            // counted while a copy of it is being made for the socket.
            long clientCount = READERS + NON_READERS;
            long pinnedBound = pinnedBaseline + 2 * clientCount * (HIGH_WATER_BYTES + STATE_BYTES + 4);
            assertTrue(pinnedPeak <= pinnedBound, "pinned over " + pinnedBound / KIB + " KiB: " + report);
            // Chunks: the live buffers above, rounded up to whole 4 MiB chunks in each arena the server's three
            // event loop threads use (accept, two workers), plus one chunk of each for fragmentation.
            long chunk = (long) allocator.metric().chunkSize();
            long usedBound = usedBaseline + pinnedBound - pinnedBaseline + 6 * chunk;
            assertTrue(usedPeak <= usedBound, "chunks over " + usedBound / MIB + " MiB: " + report);
            assertTrue(pinnedAfter <= pinnedAfterBound, "pinned after the clients left: " + report);
            System.out.println("StreamDirectMemoryTest: " + report);
        }
    }

    /** Waits for {@code condition}; fails naming {@code what} after {@link #HANG_GUARD_MS}, which is no speed claim. */
    private static void awaitTrue(BooleanSupplier condition, Supplier<String> what) throws InterruptedException {
        long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(HANG_GUARD_MS);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() - deadlineNs < 0, "hung for " + HANG_GUARD_MS + " ms: " + what.get());
            Thread.sleep(20);
        }
    }

    private static long jvmDirectBytes() {
        for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
            if (pool.getName().equals("direct")) {
                return pool.getMemoryUsed();
            }
        }
        return -1;
    }
}
