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
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One physics step of {@code scenes/cloth.yaml} (issue 13's target: the cloth's step ≤ 200 µs p50): the 20 × 20
 * cloth (1194 degrees of freedom, 30 modes kept) with its nodes against the post, the thrown ball and the floor,
 * and the rigid bodies. Timed after 2 s of simulated time, each step on its own (sample time), so the p50 and p99
 * are per step. Run from the repository root: the scene path is relative to it.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-XX:+UseZGC", "-Xms512m", "-Xmx512m"})
public class ClothStepBenchmark {
    private PhysicsWorld world;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        world = SceneBuilder.build(new SceneLoader().load(Path.of("scenes/cloth.yaml"))).haptic().world();
        for (int i = 0; i < 2000; i++) {
            world.step(0.001);
        }
    }

    @Benchmark
    public int step() {
        world.step(0.001);
        return world.deformableContactCount(0);
    }
}
