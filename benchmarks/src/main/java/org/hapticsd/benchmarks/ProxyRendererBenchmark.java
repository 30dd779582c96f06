package org.hapticsd.benchmarks;

import java.util.concurrent.TimeUnit;
import org.hapticsd.physics.BoxShape;
import org.hapticsd.physics.ContactSettings;
import org.hapticsd.physics.Material;
import org.hapticsd.physics.PhysicsWorld;
import org.hapticsd.physics.TriangleMeshShape;
import org.hapticsd.physics.geometry.MeshShapes;
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
 *       at once, every one a constraint plane;</li>
 *   <li>{@code ball-mesh-shaded}: the same with force shading (30° crease): a second move toward the shaded goal.</li>
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

    @Param({"plate", "ball-mesh", "ball-mesh-shaded"})
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
        } else if (scene.startsWith("ball-mesh")) {
            body = world.addStaticBody("ball", new TriangleMeshShape(MeshShapes.icosphere(0.05, 3)), new Vector3d(),
                new Quaterniond());
            radiusM = 0.045;
            heightM = Double.NaN;
        } else {
            throw new IllegalArgumentException("scene: plate, ball-mesh or ball-mesh-shaded, got " + scene);
        }
        proxy = new ProxyRenderer(world, new int[] {body}, 0.005, 1000.0, 1.0, Material.DEFAULT,
            scene.endsWith("-shaded") ? Math.toRadians(30.0) : Double.NaN);
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
}
