package org.hapticsd.server.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;
import org.agrona.concurrent.SystemNanoClock;
import org.hapticsd.server.JitWarmUp;
import org.hapticsd.server.LoopAssembly;
import org.hapticsd.server.loop.CommandQueue;
import org.hapticsd.server.loop.LoopRunner;
import org.hapticsd.server.loop.LoopSnapshot;
import org.hapticsd.server.loop.LoopStats;
import org.hapticsd.server.loop.SnapshotExchange;
import org.hapticsd.server.loop.WaitStrategies;
import org.hapticsd.server.scene.BuiltScene;
import org.hapticsd.server.scene.SceneBuilder;
import org.hapticsd.server.scene.SceneLoader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The loop does not pay for its clients: the real loop (default scene, simulated stylus, 1 kHz, hybrid wait) and
 * the stream server as {@code run} starts them, with the loop's tick statistics compared between a window with
 * clients on the loop's server (readers and a client that never reads) and windows with the very same clients on a
 * twin server.
 *
 * <p>Publishing happens on the clients' event loops, which read the loop's snapshot through the sequence lock; the
 * loop's only publishing work is one snapshot copy whatever the number of clients. If it wrote to the clients
 * itself, its tick time would grow by an encode and a write per client per tick (tens of microseconds for the
 * every-tick readers here), and a blocking write to the client that never reads would stop it outright.
 *
 * <p>Why a twin: on this 2-vCPU machine the clients' own work (their reader threads, the JDK's WebSocket client,
 * the server's event loops) competes for the cores with the loop's thread and delays its wake-ups whichever server
 * they read from; with one core busy elsewhere, baselines without clients measured 0.04-0.4 ms period error p99
 * against about 2 ms with them. So the baselines here carry the same clients, connected to a twin server that serves
 * a copy of the loop's snapshots (a mirror thread copies the newest one each millisecond and feeds the twin's event
 * log): the same threads, frames and bytes, and the only difference left is whether the clients are the loop's.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LoopPublishingIsolationTest {
    private static final long US = 1_000L;
    private static final long MS = 1_000_000L;
    /** Windows with the clients on the twin, before and after: the baseline is the worse of the two (hosts drift). */
    private static final long BASELINE_WINDOW_MS = 3_000;
    /**
     * With the clients on the loop's server. The client that never reads fills its 8 KiB socket and Netty buffers
     * within a second and then gets nothing more; it is not closed inside the window (its timeout is 600 s here).
     */
    private static final long CLIENT_WINDOW_MS = 5_000;
    /** Settle after the clients connect: the JIT compiles the server's and the clients' paths here, not in a window. */
    private static final long SETTLE_MS = 1_500;
    /** How long connecting may take before the test fails as hung; never a statement about speed. */
    private static final long HANG_GUARD_MS = 20_000;

    private LoopAssembly assembly;
    private LoopRunner runner;
    private StreamServer server;
    private SnapshotMirror mirror;
    private StreamServer twin;

    @BeforeEach
    void start() throws Exception {
        SceneLoader loader = new SceneLoader();
        BuiltScene scene = SceneBuilder.build(loader.loadEmbedded());
        // As run does: the tick compiled before it has deadlines, so C2 does not compile it inside a window.
        JitWarmUp.run(SceneBuilder.build(loader.loadEmbedded()), 1000, JitWarmUp.DEFAULT_TICKS, true);
        org.hapticsd.device.sim.SimulatedDevice device = scene.newSimulatedDevice();
        device.open();
        assembly = new LoopAssembly(scene, device, 1000, SystemNanoClock.INSTANCE);
        EventLog events = new EventLog(assembly.loop().periodNs());
        assembly.loop().setTickSink(events);
        // The client that never reads stays connected through the windows: its unwritable timeout is set beyond them
        // (the spec's 5 s close is StreamConformanceTest's).
        StreamServerConfig config = StreamServerConfig.defaults().withPorts(0, 0).withLimits(
            StreamServerConfig.DEFAULT_MAX_CLIENTS, StreamServerConfig.DEFAULT_MAX_INBOUND_BYTES,
            StreamServerConfig.DEFAULT_IDLE_TIMEOUT_S, 600);
        server = new StreamServer(config, assembly.snapshots(),
            new ProtocolStreamFrames(scene, 1000, new LoopStatsBoard()),
            new CommandGate(config.token(), assembly.commands()), events, assembly.loop().periodNs()).start();
        mirror = new SnapshotMirror(assembly.snapshots(), scene.haptic().world().bodyCount(),
            new EventLog(assembly.loop().periodNs()));
        // Its commands go to a queue nobody drains: the clients here send SUBSCRIBE only.
        twin = new StreamServer(config, mirror.exchange, new ProtocolStreamFrames(scene, 1000, new LoopStatsBoard()),
            new CommandGate(config.token(), new CommandQueue()), mirror.events, assembly.loop().periodNs()).start();
        runner = new LoopRunner(assembly.loop(), 1000, WaitStrategies.HYBRID, SystemNanoClock.INSTANCE);
        runner.start();
    }

    @AfterEach
    void stop() throws InterruptedException {
        runner.close();
        server.close();
        twin.close();
        mirror.close();
    }

    /**
     * Copies the loop's newest snapshot into an exchange of its own once a millisecond, as a second loop would publish
     * it, and runs its own event log on the copies. A deadline it missed is skipped, not caught up in a burst.
     */
    private static final class SnapshotMirror implements AutoCloseable {
        final SnapshotExchange exchange;
        final EventLog events;
        private final Thread thread;
        private volatile boolean running = true;

        SnapshotMirror(SnapshotExchange source, int bodyCount, EventLog events) {
            // Sized as the loop's own: its scene's bodies and contact capacity.
            this.exchange = new SnapshotExchange(bodyCount, 0, source.newSnapshot().contactCapacity);
            this.events = events;
            thread = new Thread(() -> {
                LoopSnapshot copy = source.newSnapshot();
                long lastTick = -1;
                long nextNs = System.nanoTime();
                while (running) {
                    if (source.read(copy) != 0 && copy.tick != lastTick) {
                        lastTick = copy.tick;
                        exchange.publish(copy);
                        events.onTick(copy);
                    }
                    long nowNs = System.nanoTime();
                    nextNs = nextNs + MS - nowNs > 0 ? nextNs + MS : nowNs + MS;
                    LockSupport.parkNanos(nextNs - nowNs);
                }
            }, "snapshot-mirror");
            thread.setDaemon(true);
            thread.start();
        }

        @Override
        public void close() throws InterruptedException {
            running = false;
            thread.join();
        }
    }

    /** p99 of period error and of tick time over one window, ns. */
    private record Window(long periodErrorP99Ns, long tickP99Ns, long ticks) {
        static Window of(LoopStats stats) {
            Histogram period = stats.periodError().interval();
            Histogram tick = stats.tickTime().interval();
            return new Window(period.getValueAtPercentile(99), tick.getValueAtPercentile(99), tick.getTotalCount());
        }

        @Override
        public String toString() {
            return String.format("period error p99 %.1f us, tick p99 %.1f us over %d ticks",
                periodErrorP99Ns / 1e3, tickP99Ns / 1e3, ticks);
        }
    }

    /** A window with the clients on one server: the loop's statistics and each reader's STATEs per second. */
    private record ClientWindow(Window loop, double[] statesPerS) {
    }

    /**
     * Opens the clients on {@code target} (four every-tick readers, eight 60 Hz readers, one client that never
     * reads), lets them settle, and measures the loop and the readers over the next {@code ms}: this test is the
     * statistics' only reader, so two folds make a window. The clients are closed again before it returns.
     */
    private ClientWindow clientsOn(StreamServer target, long ms) throws Exception {
        try (StreamClients clients = new StreamClients(target)) {
            clients.webSocketReader(0);
            clients.webSocketReader(0);
            clients.tcpReader(0);
            clients.tcpReader(0);
            for (int i = 0; i < 4; i++) {
                clients.webSocketReader(60);
                clients.tcpReader(60);
            }
            clients.tcpNonReader(0);
            int expected = clients.counters().size() + 1;
            awaitClients(target, expected);
            Thread.sleep(SETTLE_MS);
            long[] start = counts(clients.counters());
            long startNs = System.nanoTime();
            assembly.stats().sample();
            Thread.sleep(ms);
            Window loop = Window.of(assembly.stats().sample());
            long[] end = counts(clients.counters());
            double elapsedS = (System.nanoTime() - startNs) / 1e9;
            assertEquals(expected, target.clients(), "every client stayed connected");
            double[] statesPerS = new double[start.length];
            for (int i = 0; i < start.length; i++) {
                statesPerS[i] = (end[i] - start[i]) / elapsedS;
            }
            return new ClientWindow(loop, statesPerS);
        } finally {
            Thread.sleep(500);
        }
    }

    @Test
    void shouldKeepTheLoopsTimingWithANonReadingClientWhileOthersKeepReceiving() throws Exception {
        // A first round of the clients on the twin, not measured: the clients' and the servers' paths are compiled
        // here (under load the settle alone was not enough: the first window with clients ran about 1 ms worse than
        // the later ones, whichever server they read from).
        clientsOn(twin, BASELINE_WINDOW_MS);
        ClientWindow before = clientsOn(twin, BASELINE_WINDOW_MS);
        ClientWindow with = clientsOn(server, CLIENT_WINDOW_MS);
        ClientWindow after = clientsOn(twin, BASELINE_WINDOW_MS);
        String report = "clients on the twin " + before.loop() + " / " + after.loop() + "; on the loop's server "
            + with.loop();

        // The readers kept receiving beside the client that never reads: each at least a quarter of what the same
        // reader got from the twin (the worse of the two windows), where no client is the loop's. A reader stalled
        // behind the stuck client would get almost none.
        for (int i = 0; i < with.statesPerS().length; i++) {
            double baseline = Math.min(before.statesPerS()[i], after.statesPerS()[i]);
            assertTrue(with.statesPerS()[i] >= baseline / 4, String.format("reader %d got %.1f STATEs/s, %.1f/s from "
                + "the twin; %s", i, with.statesPerS()[i], baseline, report));
        }

        // The loop's bounds, against the worse of the two windows with the clients on the twin:
        //  - tick time p99 <= max(3 x baseline, baseline + 50 us). Tick p99 is 10-50 us on this machine with or
        //    without clients (docs/performance.md); 3x and +50 us absorb that spread. Publishing on the loop thread
        //    would add an encode and a write for each of the five every-tick clients to every tick and fail this.
        //  - period error p99 <= max(3 x baseline, baseline + 1 ms). The wait before each tick is at the mercy of the
        //    scheduler, and the baseline windows carry the same runnable threads as the window measured. A loop
        //    blocked on the client that never reads would miss whole seconds of deadlines and fail this.
        long tickBaseline = Math.max(before.loop().tickP99Ns(), after.loop().tickP99Ns());
        long periodBaseline = Math.max(before.loop().periodErrorP99Ns(), after.loop().periodErrorP99Ns());
        assertTrue(with.loop().tickP99Ns() <= Math.max(3 * tickBaseline, tickBaseline + 50 * US),
            "tick time: " + report);
        assertTrue(with.loop().periodErrorP99Ns() <= Math.max(3 * periodBaseline, periodBaseline + MS),
            "period error: " + report);
        System.out.println("LoopPublishingIsolationTest: " + report);
    }

    private static void awaitClients(StreamServer target, int count) throws InterruptedException {
        long deadlineNs = System.nanoTime() + HANG_GUARD_MS * MS;
        while (target.clients() < count && System.nanoTime() - deadlineNs < 0) {
            Thread.sleep(10);
        }
        assertTrue(target.clients() >= count, "clients connected: " + target.clients() + " of " + count);
    }

    private static long[] counts(List<AtomicLong> counters) {
        long[] values = new long[counters.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = counters.get(i).get();
        }
        return values;
    }
}
