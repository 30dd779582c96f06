package org.hapticsd.benchmarks;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;
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
 * The control of the step-time percentiles: an operation whose work is exactly the same on every call (a chain of
 * dependent multiply-adds, no memory traffic, no allocation), sized to take about {@code targetUs} microseconds,
 * timed exactly as {@link PeerPhysicsBenchmark} times a physics step (sample time, same fork settings). Whatever
 * spread its p99 has over its p50 is the machine's (interrupts, the hypervisor, other processes), not any code's,
 * so it is the floor under the p99/p50 of a step of the same length: a 25 µs step cannot be judged against
 * "p99 ≤ 2 × p50" more finely than this control's ratio.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 1, time = 5)
@Measurement(iterations = 3, time = 5)
@Fork(value = 1, jvmArgsAppend = {PeerPhysicsBenchmark.COLLECTOR, PeerPhysicsBenchmark.HEAP_MIN,
    PeerPhysicsBenchmark.HEAP_MAX, PeerPhysicsBenchmark.PRE_TOUCH})
public class NoiseFloorBenchmark {
    /** About the p50 of {@code pile-50} or {@code stack-10}, of {@code pile-200}, and of {@code pile-800}. */
    @Param({"25", "150", "800"})
    public int targetUs;

    private long iterations;
    private double x;

    @Setup(Level.Trial)
    public void calibrate() {
        // Compiled first: sized while the chain still ran in the interpreter or C1, the "150 µs" control ran
        // 11.6 µs once C2 had it (a tester). A second of calls gets it through the tiers.
        iterations = 1_000;
        long warmUntilNs = System.nanoTime() + 1_000_000_000L;
        while (System.nanoTime() - warmUntilNs < 0) {
            x = chain(x, iterations);
        }
        for (int round = 0; round < 8; round++) {
            long[] ns = new long[21];
            for (int i = 0; i < ns.length; i++) {
                long t0 = System.nanoTime();
                x = chain(x, iterations);
                ns[i] = System.nanoTime() - t0;
            }
            Arrays.sort(ns);
            iterations = Math.max(1, (long) (iterations * (targetUs * 1e3) / Math.max(1, ns[ns.length / 2])));
        }
    }

    @Benchmark
    public double work() {
        x = chain(x, iterations);
        return x;
    }

    /** {@code n} dependent multiply-adds: the same instructions every call, whatever {@code x} is. */
    private static double chain(double x, long n) {
        double y = x;
        for (long i = 0; i < n; i++) {
            y = y * 0.999_999_9 + 1e-9;
        }
        return y;
    }
}
