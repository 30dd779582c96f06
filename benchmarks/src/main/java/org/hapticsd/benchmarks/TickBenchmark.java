package org.hapticsd.benchmarks;

import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.SystemNanoClock;
import org.hapticsd.device.sim.SimulatedDevice;
import org.hapticsd.server.LoopAssembly;
import org.hapticsd.server.loop.HapticLoop;
import org.hapticsd.server.scene.BuiltScene;
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
 * One whole tick of the default scene (read the simulated stylus, map, physics, render, safety, write,
 * publish) on simulated time: the compute cost the real-time loop pays per period, without waiting.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-XX:+UseZGC", "-Xms512m", "-Xmx512m"})
public class TickBenchmark {
    private HapticLoop loop;
    private long nowNs;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        BuiltScene scene = SceneBuilder.build(new SceneLoader().loadEmbedded());
        SimulatedDevice stylus = scene.newSimulatedDevice();
        stylus.open();
        loop = new LoopAssembly(scene, stylus, 1000, SystemNanoClock.INSTANCE).loop();
    }

    /** The hand path repeats every 6 s, so successive calls cover free space, the wall and the box. */
    @Benchmark
    public long tick() {
        loop.tick(nowNs);
        loop.afterTick(false);
        nowNs += loop.periodNs();
        return loop.ticks();
    }
}
