package org.hapticsd.benchmarks;

import java.util.concurrent.TimeUnit;
import org.hapticsd.benchmarks.peers.PeerEngine;
import org.hapticsd.benchmarks.peers.PeerScene;
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
 * every step timed (sample time: the percentiles are the targets').
 *
 * <p>Only steps of a scene's timed window are measured: an episode builds the scene and settles it for
 * {@link PeerScene#SETTLE_S} in the untimed per-invocation setup, then its next {@link PeerScene#TIMED_S} of steps
 * are the benchmark's invocations; when they run out the setup starts the next episode. A benchmark iteration may
 * hold several episodes or part of one. The first episode, built in the trial setup, is also the JIT's warm-up.
 *
 * <p>Penetration and the ratios come from {@link PeerPhysicsReport}, which runs this benchmark.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 1, time = 10)
@Measurement(iterations = 3, time = 10)
// A 4 GiB heap: our scene builder reserves contact buffers for every pair of bodies (pile-800: 2.6 M points).
@Fork(value = 1, jvmArgsAppend = {"-XX:+UseZGC", "-Xms4g", "-Xmx4g", "-XX:+AlwaysPreTouch"})
public class PeerPhysicsBenchmark {
    @Param({"ours", "ode4j", "bullet"})
    public String engine;

    @Param({"stack-10", "pile-200", "pile-50", "pile-100", "pile-400", "pile-800"})
    public String scene;

    private PeerScene peerScene;
    private PeerEngine world;
    private int timedStepsLeft;

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
        world.step();
    }

    @TearDown(Level.Trial)
    public void tearDownTrial() {
        world.close();
    }

    private void startEpisode() {
        if (world != null) {
            world.close();
        }
        world = PeerEngine.create(engine, peerScene);
        for (int i = 0, n = PeerScene.settleSteps(); i < n; i++) {
            world.step();
        }
        timedStepsLeft = PeerScene.timedSteps();
    }
}
