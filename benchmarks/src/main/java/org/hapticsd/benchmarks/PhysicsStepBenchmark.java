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
 * One physics step (broadphase → narrowphase → contacts → solve → integrate → correct positions) of a scene file,
 * with the tool left where the scene starts it. Run from the repository root: scene paths are relative to it.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-XX:+UseZGC", "-Xms512m", "-Xmx512m"})
public class PhysicsStepBenchmark {
    @Param({"scenes/wall.yaml", "scenes/pen.yaml", "scenes/stack.yaml"})
    public String scene;

    private PhysicsWorld world;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        world = SceneBuilder.build(new SceneLoader().load(Path.of(scene))).haptic().world();
        for (int i = 0; i < 2000; i++) {
            world.step(0.001); // settle: the benchmark measures resting contact, the steady state of a scene
        }
    }

    @Benchmark
    public int step() {
        world.step(0.001);
        return world.contactCount();
    }
}
