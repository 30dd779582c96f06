package org.hapticsd.benchmarks;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.hapticsd.physics.PhysicsWorld;
import org.hapticsd.server.scene.SceneBuilder;
import org.hapticsd.server.scene.SceneLoader;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * One physics step (1 ms) of a scene with a deformable body, after 2 s, each step on its own (sample time, so p50 and
 * p99 are per step). Issue 13's targets: {@code scenes/cloth.yaml} (the 20 × 20 cloth truncated to 30 modes, its
 * nodes against the rigid bodies) ≤ 200 µs p50; {@code scenes/string-cantilever.yaml} (source 001's string held by
 * the tool; the tool stays where the scene starts it) ≤ 100 µs. Run from the repository root: scene paths are
 * relative to it.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-XX:+UseZGC", "-Xms512m", "-Xmx512m"})
public class DeformableStepBenchmark {
    @Param({"scenes/cloth.yaml", "scenes/string-cantilever.yaml"})
    public String scene;

    private PhysicsWorld world;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        world = SceneBuilder.build(new SceneLoader().load(Path.of(scene))).haptic().world();
        for (int i = 0; i < 2000; i++) {
            world.step(0.001);
        }
    }

    @Benchmark
    public int step() {
        world.step(0.001);
        return world.deformableContactCount(0) + world.heldDeformableNode(0);
    }
}
