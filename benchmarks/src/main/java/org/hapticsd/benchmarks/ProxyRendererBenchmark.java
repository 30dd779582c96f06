package org.hapticsd.benchmarks;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.hapticsd.physics.BoxShape;
import org.hapticsd.physics.ContactSettings;
import org.hapticsd.physics.Material;
import org.hapticsd.physics.PhysicsWorld;
import org.hapticsd.physics.TriangleMeshShape;
import org.hapticsd.physics.geometry.TriangleMesh;
import org.hapticsd.server.render.ProxyRenderer;
import org.joml.Quaterniond;
import org.joml.Vector3d;
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
 * One tick of the tool's proxy ({@link ProxyRenderer#update}) while it presses and slides, the work proxy rendering
 * adds to a tick before the physics step:
 * <ul>
 *   <li>{@code plate}: a 2 mm box with friction, the goal 10 mm under its top, circling: the proxy sticks and
 *       slides on one face;</li>
 *   <li>{@code ball-mesh}: a ball of 0.05 m tessellated into 1,280 triangles (an icosahedron subdivided three times),
 *       the goal circling 5 mm inside it: the proxy slides over facets and edges, a dozen triangles within its reach
 *       at once, every one a constraint plane.</li>
 * </ul>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-XX:+UseZGC", "-Xms512m", "-Xmx512m"})
public class ProxyRendererBenchmark {

    private static final double DT_S = 1e-3;

    @Param({"plate", "ball-mesh"})
    public String scene;

    private ProxyRenderer proxy;
    private final Vector3d goal = new Vector3d();
    private final Vector3d velocity = new Vector3d();
    private long tick;
    private double radiusM;
    private double heightM;

    @Setup(Level.Trial)
    public void setUp() {
        PhysicsWorld world = new PhysicsWorld(ContactSettings.defaults());
        int body;
        if ("plate".equals(scene)) {
            body = world.addStaticBody("plate", new BoxShape(0.1, 0.1, 0.001), new Vector3d(), new Quaterniond(),
                new Material(0.0, 0.6, 0.4));
            radiusM = 0.02;
            heightM = 0.001 + 0.005 - 0.01;
        } else if ("ball-mesh".equals(scene)) {
            body = world.addStaticBody("ball", new TriangleMeshShape(icosphere(0.05, 3)), new Vector3d(),
                new Quaterniond());
            radiusM = 0.045;
            heightM = Double.NaN;
        } else {
            throw new IllegalArgumentException("scene: plate or ball-mesh, got " + scene);
        }
        proxy = new ProxyRenderer(world, new int[] {body}, 0.005, 1000.0, 1.0, Material.DEFAULT);
        // Engage from outside, then one lap to settle.
        goal.set(0.0, 0.0, 0.2);
        proxy.update(goal, velocity, DT_S);
        for (int i = 0; i < 2000; i++) {
            update();
        }
        if (!proxy.touching()) {
            throw new IllegalStateException(scene + ": the proxy does not rest on the surface after a lap");
        }
    }

    /** The goal goes round a circle (the plate) or a tilted great circle inside the ball, 1 m/s. */
    @Benchmark
    public double update() {
        double angle = 0.001 * tick++ / radiusM;
        double c = Math.cos(angle);
        double s = Math.sin(angle);
        if (Double.isNaN(heightM)) {
            goal.set(radiusM * c, radiusM * s * 0.6, radiusM * s * 0.8);
        } else {
            goal.set(radiusM * c, radiusM * s, heightM);
        }
        velocity.set(-s, c, 0.0);
        proxy.update(goal, velocity, DT_S);
        return proxy.forceN().z();
    }

    /** A sphere of {@code radiusM}: an icosahedron's faces subdivided {@code levels} times, outward. */
    static TriangleMesh icosphere(double radiusM, int levels) {
        double t = (1.0 + Math.sqrt(5.0)) / 2.0;
        List<double[]> vertices = new ArrayList<>();
        double[][] corners = {{-1, t, 0}, {1, t, 0}, {-1, -t, 0}, {1, -t, 0}, {0, -1, t}, {0, 1, t}, {0, -1, -t},
            {0, 1, -t}, {t, 0, -1}, {t, 0, 1}, {-t, 0, -1}, {-t, 0, 1}};
        for (double[] v : corners) {
            vertices.add(unit(v));
        }
        int[][] faces = {{0, 11, 5}, {0, 5, 1}, {0, 1, 7}, {0, 7, 10}, {0, 10, 11}, {1, 5, 9}, {5, 11, 4},
            {11, 10, 2}, {10, 7, 6}, {7, 1, 8}, {3, 9, 4}, {3, 4, 2}, {3, 2, 6}, {3, 6, 8}, {3, 8, 9}, {4, 9, 5},
            {2, 4, 11}, {6, 2, 10}, {8, 6, 7}, {9, 8, 1}};
        List<int[]> triangles = new ArrayList<>(List.of(faces));
        for (int level = 0; level < levels; level++) {
            Map<Long, Integer> middles = new HashMap<>();
            List<int[]> finer = new ArrayList<>();
            for (int[] f : triangles) {
                int a = middle(f[0], f[1], vertices, middles);
                int b = middle(f[1], f[2], vertices, middles);
                int c = middle(f[2], f[0], vertices, middles);
                finer.add(new int[] {f[0], a, c});
                finer.add(new int[] {f[1], b, a});
                finer.add(new int[] {f[2], c, b});
                finer.add(new int[] {a, b, c});
            }
            triangles = finer;
        }
        double[] xyz = new double[3 * vertices.size()];
        for (int i = 0; i < vertices.size(); i++) {
            for (int k = 0; k < 3; k++) {
                xyz[3 * i + k] = radiusM * vertices.get(i)[k];
            }
        }
        int[] corners3 = new int[3 * triangles.size()];
        for (int i = 0; i < triangles.size(); i++) {
            System.arraycopy(triangles.get(i), 0, corners3, 3 * i, 3);
        }
        return new TriangleMesh(xyz, corners3);
    }

    private static int middle(int i, int j, List<double[]> vertices, Map<Long, Integer> middles) {
        long key = ((long) Math.min(i, j) << 32) | Math.max(i, j);
        Integer known = middles.get(key);
        if (known != null) {
            return known;
        }
        double[] a = vertices.get(i);
        double[] b = vertices.get(j);
        vertices.add(unit(new double[] {a[0] + b[0], a[1] + b[1], a[2] + b[2]}));
        middles.put(key, vertices.size() - 1);
        return vertices.size() - 1;
    }

    private static double[] unit(double[] v) {
        double length = Math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
        return new double[] {v[0] / length, v[1] / length, v[2] / length};
    }
}
