package org.hapticsd.benchmarks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;
import org.hapticsd.benchmarks.peers.PeerEngine;
import org.hapticsd.benchmarks.peers.PeerScene;
import org.hapticsd.physics.SpinRoundTrip;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One physics step of the same scene in our engine, ode4j and Bullet ({@link PeerScene}, {@link PeerEngine}),
 * each step timed on its own (sample time: the targets are percentiles of the step, not a throughput). Ours runs
 * twice: {@code ours} on one thread, as the real-time loop steps it, and {@code ours-2lanes} with each step split
 * over two threads ({@code PhysicsWorld.setStepLanes(2)}, for offline runs).
 *
 * <p>Only steps of a scene's timed window are measured: an episode builds the scene and settles it for
 * {@link PeerScene#SETTLE_S} in the untimed per-invocation setup, then its next {@link PeerScene#TIMED_S} of steps
 * are the benchmark's invocations; when they run out the setup starts the next episode. A benchmark iteration may
 * hold several episodes or part of one. The first episode, built in the trial setup, is also the JIT's warm-up.
 *
 * <p>The parameter of the engine is called {@code world} (what each library steps: our {@code PhysicsWorld},
 * ODE's {@code DWorld}, Bullet's {@code btDiscreteDynamicsWorld}) because JMH runs the combinations in the order
 * of the parameters' names: {@code scene} before {@code world} runs the engines of a scene one after the
 * other, minutes apart, so that on a shared machine the ratios compare engines measured under the same load.
 *
 * <p>Penetration and the ratios come from {@link PeerPhysicsReport}, which runs this benchmark. After each
 * iteration (untimed) the trial measures the {@link SpinRoundTrip} of a spin handshake between its thread and another,
 * the latency a two-lane step pays at its handshakes and shared lines, which this machine's host changes from one
 * minute to the next; with {@code -D}{@value #ROUND_TRIP_FILE}{@code =PATH} a trial appends a line "scene world
 * ns ns …" to PATH, which the report reads.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 1, time = 10)
@Measurement(iterations = 3, time = 10)
// The launcher's collector (ZGC, docs/performance.md) for every engine: ode4j allocates on every step, and a
// stop-the-world young collection would land in its p99. 2 GiB fixed and pre-touched: our pile-800 reserves about
// 40 MB of contact storage, ode4j's garbage is collected concurrently.
@Fork(value = 1, jvmArgsAppend = {PeerPhysicsBenchmark.COLLECTOR, PeerPhysicsBenchmark.HEAP_MIN,
    PeerPhysicsBenchmark.HEAP_MAX, PeerPhysicsBenchmark.PRE_TOUCH})
public class PeerPhysicsBenchmark {
    /**
     * The forks' flags, here and in {@link NoiseFloorBenchmark}. Named so that {@link PeerPhysicsReport} can keep
     * them when it adds its own: JMH's {@code -jvmArgsAppend} replaces an annotation's list rather than adding to it.
     */
    static final String COLLECTOR = "-XX:+UseZGC";
    static final String HEAP_MIN = "-Xms2g";
    static final String HEAP_MAX = "-Xmx2g";
    static final String PRE_TOUCH = "-XX:+AlwaysPreTouch";
    /** The system property naming the file a trial appends its round trips to. */
    static final String ROUND_TRIP_FILE = "peer.roundTripFile";
    /** Round trips per measurement: 2–16 ms at 100–800 ns, between iterations of 5–10 s. */
    private static final int ROUND_TRIPS = 20_000;

    @Param({"stack-10", "pile-200", "pile-50", "pile-100", "pile-400", "pile-800"})
    public String scene;

    @Param({"ours", "ours-2lanes", "ode4j", "bullet"})
    public String world;

    private PeerScene peerScene;
    private PeerEngine engine;
    private int timedStepsLeft;
    private SpinRoundTrip roundTrip;
    private final StringBuilder roundTripsNs = new StringBuilder();

    @Setup(Level.Trial)
    public void setUpTrial() {
        peerScene = PeerScene.named(scene);
        startEpisode();
    }

    @Setup(Level.Invocation)
    public void setUpStep() {
        if (timedStepsLeft == 0) {
            startEpisode();
        }
        timedStepsLeft--;
    }

    @Benchmark
    public void step() {
        engine.step();
    }

    @TearDown(Level.Iteration)
    public void measureRoundTrip() {
        if (roundTrip == null) {
            roundTrip = new SpinRoundTrip();
        }
        roundTripsNs.append(' ').append(roundTrip.meanNs(ROUND_TRIPS));
    }

    @TearDown(Level.Trial)
    public void tearDownTrial() {
        engine.close();
        if (roundTrip != null) {
            roundTrip.close();
        }
        String file = System.getProperty(ROUND_TRIP_FILE);
        if (file != null) {
            try {
                Files.writeString(Path.of(file), scene + " " + world + roundTripsNs + "\n", StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot append the round trips to " + file, e);
            }
        }
    }

    private void startEpisode() {
        if (engine != null) {
            engine.close();
        }
        engine = PeerEngine.create(world, peerScene);
        for (int i = 0, n = PeerScene.settleSteps(); i < n; i++) {
            engine.step();
        }
        timedStepsLeft = PeerScene.timedSteps();
    }
}
