package org.hapticsd.server.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.concurrent.atomic.AtomicBoolean;
import org.hapticsd.server.render.BodyViscosity;
import org.hapticsd.server.render.ContactVibration;
import org.hapticsd.server.render.ForceField;
import org.hapticsd.server.render.GratingTexture;
import org.hapticsd.server.render.Guide;
import org.hapticsd.server.render.HapticScene;
import org.hapticsd.server.render.StickSlip;
import org.hapticsd.server.render.SurfaceMagnet;
import org.hapticsd.testsupport.JitPrimer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The tick allocates nothing after warm-up. Measured with the JVM's per-thread allocation counter on the thread
 * that runs the ticks, over 100,000 ticks of the default scene with the simulated stylus following the scene's
 * hand path (free space, wall contact, box contact, the safety gate and ramp all exercised).
 *
 * <p>Warm-up: JIT compilation charges a few hundred bytes, once, to the thread whose code is being compiled
 * (C2 resolving the string constants of a class on its first compile of one of its methods, deoptimisation
 * re-materialising scalar-replaced objects). That is not per-tick allocation, but on two cores shared with a
 * spinning reader the compiler can land inside any fixed window; measured here, the last such transient came
 * before tick 100,000 and none followed in 1.1 million ticks. So warm-up runs at least
 * {@value #MIN_WARM_UP_WINDOWS} windows of {@value #WARM_UP_WINDOW_TICKS} ticks and then until
 * {@value #QUIET_WINDOWS} in a row allocate nothing (at most {@value #MAX_WARM_UP_WINDOWS} windows: a tick that
 * allocates never gets there and fails the test), and then the measured {@value #MEASURED_TICKS} ticks must
 * allocate exactly 0 bytes. The measured loop lives in {@link TickDriver}, a class without string
 * literals, for the first of those reasons.
 */
class LoopAllocationTest {
    private static final int WARM_UP_WINDOW_TICKS = 20_000;
    private static final int MAX_WARM_UP_WINDOWS = 40;
    private static final int QUIET_WINDOWS = 3;
    private static final int MIN_WARM_UP_WINDOWS = 8;
    private static final int MEASURED_TICKS = 100_000;

    /** Warms the loop up, then runs {@value #MEASURED_TICKS} ticks and asserts that they allocated nothing. */
    private static void assertTicksAllocateNothing(LoopFixture f, String what) {
        assertTicksAllocateNothing(f, what, () -> 0L);
    }

    /**
     * {@link #assertTicksAllocateNothing(LoopFixture, String)}, and how much {@code count} (the scene's grabs, its
     * pulses) grew over the measured ticks, for the test to check that they did what the scene does.
     */
    private static long assertTicksAllocateNothing(LoopFixture f, String what, java.util.function.LongSupplier count) {
        TickDriver driver = new TickDriver(f.loop);
        int warmUpWindows = driver.warmUp();
        long before = count.getAsLong();

        long allocated = driver.run(MEASURED_TICKS);

        assertTrue(warmUpWindows <= MAX_WARM_UP_WINDOWS, "warm-up never reached an allocation-free window");
        assertEquals(0, allocated, "bytes allocated by " + MEASURED_TICKS + " ticks of " + what);
        return count.getAsLong() - before;
    }

    /** The compiler's one-off allocations on the measuring thread, done before anything is measured. */
    @BeforeAll
    static void primeJit() {
        JitPrimer.primeClassPath();
    }

    @Test
    void shouldAllocateZeroBytesPerTickAfterWarmUp() throws Exception {
        LoopFixture f = LoopFixture.withSimulatedStylus();
        TickDriver driver = new TickDriver(f.loop);
        int warmUpWindows = driver.warmUp();

        long allocated = driver.run(MEASURED_TICKS);

        assertTrue(warmUpWindows <= MAX_WARM_UP_WINDOWS, "warm-up never reached an allocation-free window");
        assertEquals(0, allocated, "bytes allocated by " + MEASURED_TICKS + " ticks");
        assertEquals((long) warmUpWindows * WARM_UP_WINDOW_TICKS + MEASURED_TICKS, f.loop.ticks());
        assertTrue(warmUpWindows >= MIN_WARM_UP_WINDOWS);
        assertTrue(f.assembly.stats().sample().tickTime().total().getTotalCount() > 0);
    }

    /** scenes/pen.yaml: dynamic boxes, a stack, a ball, a capsule and a hull, LCP and penalty contacts. */
    @Test
    void shouldAllocateZeroBytesPerTickWithDynamicBodies() throws Exception {
        LoopFixture f = LoopFixture.withSimulatedStylus(java.nio.file.Path.of("../scenes/pen.yaml"));
        assertTicksAllocateNothing(f, "the pen scene");
        assertTrue(f.snapshot().contactCount > 0, "bodies in contact");
    }

    /**
     * The scale series' 100-sphere pile ({@code hapticsd scene pile --spheres 100}): a full layer with 19 spheres on
     * top that never stop rolling, so contacts begin and end on every tick of the measured window, with about 190
     * contact points carried by the snapshot and its events (issue 11: the loop's snapshot, events and contact
     * storage at a lab scene's size).
     */
    @Test
    void shouldAllocateZeroBytesPerTickWithASpherePile(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
        throws Exception {
        java.nio.file.Path scene = dir.resolve("pile-100.yaml");
        java.nio.file.Files.writeString(scene, new org.hapticsd.server.scene.SpherePile(100).yaml());
        LoopFixture f = LoopFixture.withSimulatedStylus(scene);
        TickDriver driver = new TickDriver(f.loop);
        int warmUpWindows = driver.warmUp();

        long allocated = driver.run(MEASURED_TICKS);

        assertTrue(warmUpWindows <= MAX_WARM_UP_WINDOWS, "warm-up never reached an allocation-free window");
        assertEquals(0, allocated, "bytes allocated by " + MEASURED_TICKS + " ticks of the 100-sphere pile");
        assertTrue(f.snapshot().contactCount > 100, "contacts in the snapshot: " + f.snapshot().contactCount);
    }

    /** A 6 × 6 cloth (test scene browser-cloth.yaml) draped over a ball: the deformable stages and node snapshots. */
    @Test
    void shouldAllocateZeroBytesPerTickWithADeformableBody() throws Exception {
        LoopFixture f = LoopFixture.withSimulatedStylus(
            java.nio.file.Path.of(LoopAllocationTest.class.getResource("/scenes/browser-cloth.yaml").toURI()));
        TickDriver driver = new TickDriver(f.loop);
        int warmUpWindows = driver.warmUp();

        long allocated = driver.run(MEASURED_TICKS);

        assertTrue(warmUpWindows <= MAX_WARM_UP_WINDOWS, "warm-up never reached an allocation-free window");
        assertEquals(0, allocated, "bytes allocated by " + MEASURED_TICKS + " ticks of the cloth scene");
        assertTrue(f.scene.haptic().world().deformableContactCount(0) > 0, "the cloth lies on the ball");
        assertTrue(f.snapshot().nodeCount == 36 && f.snapshot().nodePositionM[3 * 35 + 2] < -0.03,
            "the snapshot carries the cloth's nodes, its free corner fallen");
    }

    /**
     * Source 001's string under gravity, grabbed by its free end with the stylus's button, lifted and let go every
     * 4 s (test scene string-press-grab.yaml): the string's two solves a step, the grasp's presses and releases.
     */
    @Test
    void shouldAllocateZeroBytesPerTickGrabbingAString() throws Exception {
        LoopFixture f = LoopFixture.withSimulatedStylus(
            java.nio.file.Path.of(LoopAllocationTest.class.getResource("/scenes/string-press-grab.yaml").toURI()));
        TickDriver driver = new TickDriver(f.loop);
        int warmUpWindows = driver.warmUp();

        long allocated = driver.run(MEASURED_TICKS);

        assertTrue(warmUpWindows <= MAX_WARM_UP_WINDOWS, "warm-up never reached an allocation-free window");
        assertEquals(0, allocated, "bytes allocated by " + MEASURED_TICKS + " ticks of the string scene");
        assertTrue(Double.isFinite(f.snapshot().nodePositionM[3 * 20 + 2]), "the string's end stays finite");
    }

    /** scenes/grab.yaml: the stylus grabs a cube with its button, carries it 5 cm and sets it down, every 7 s. */
    @Test
    void shouldAllocateZeroBytesPerTickGrabbingARigidBody() throws Exception {
        LoopFixture f = LoopFixture.withSimulatedStylus(java.nio.file.Path.of("../scenes/grab.yaml"));
        long grabs = assertTicksAllocateNothing(f, "the grab scene", () -> f.scene.haptic().grasps().taken());
        // 100 s of a 14 s path with two grabs: 14 or 15.
        assertTrue(grabs >= 12, "grabs while measured: " + grabs);
    }

    /** scenes/curl-field.yaml: the hand reaches out and back through a curl force field, every 3.6 s. */
    @Test
    void shouldAllocateZeroBytesPerTickInAForceField() throws Exception {
        LoopFixture f = LoopFixture.withSimulatedStylus(java.nio.file.Path.of("../scenes/curl-field.yaml"));
        assertTicksAllocateNothing(f, "the curl-field scene");
        assertTrue(f.scene.haptic().effect(ForceField.class) != null, "the scene has its field");
    }

    /** scenes/coupling.yaml: a coupled proxy pushes a cube along a table, presses on it and pushes it back. */
    @Test
    void shouldAllocateZeroBytesPerTickThroughAVirtualCoupling() throws Exception {
        LoopFixture f = LoopFixture.withSimulatedStylus(java.nio.file.Path.of("../scenes/coupling.yaml"));
        assertTicksAllocateNothing(f, "the coupling scene");
        assertTrue(f.scene.haptic().coupling() != null, "the scene has its coupling");
    }

    /**
     * The default scene with a wall that has every material effect (material.vibration, magnet, viscosityNspm,
     * stickSlip, texture): the magnet and the viscosity query the wall every tick, every press adds the wall's 50 Hz
     * sine and its grating's slope, and the stylus leaving the wall sideways slips its stick-slip spring.
     */
    @Test
    void shouldAllocateZeroBytesPerTickWithEveryMaterialEffect(
            @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        java.nio.file.Path file = java.nio.file.Files.writeString(dir.resolve("effects.yaml"),
            MaterialEffectsLoopTest.wallWithMaterial("{vibration: {frequencyHz: 50.0, amplitudeN: 0.5}, "
                + "magnet: {maxForceN: 1.0, distanceM: 0.01}, viscosityNspm: 0.5, "
                + "stickSlip: {stiffnessNpm: 500.0, maxForceN: 0.5}, "
                + "texture: {periodM: 0.006, amplitudeM: 0.0001, direction: [0.0, 1.0, 0.0]}}"));
        LoopFixture f = LoopFixture.withSimulatedStylus(file);
        assertTicksAllocateNothing(f, "the wall with every material effect");
        HapticScene haptic = f.scene.haptic();
        assertTrue(haptic.effect(ContactVibration.class) != null && haptic.effect(SurfaceMagnet.class) != null
            && haptic.effect(BodyViscosity.class) != null && haptic.effect(StickSlip.class) != null
            && haptic.effect(GratingTexture.class) != null,
            "the scene's effects");
    }

    /** scenes/guide.yaml: the hand moves off, along and across a line fixture, every 5.5 s. */
    @Test
    void shouldAllocateZeroBytesPerTickWithAGuide() throws Exception {
        LoopFixture f = LoopFixture.withSimulatedStylus(java.nio.file.Path.of("../scenes/guide.yaml"));
        assertTicksAllocateNothing(f, "the guide scene");
        assertTrue(f.scene.haptic().effect(Guide.class) != null, "the scene has its guide");
    }

    /** scenes/tap.yaml: the stylus strikes a block every 4.5 s and each strike plays an impact transient. */
    @Test
    void shouldAllocateZeroBytesPerTickWhileStrikesPlayImpactTransients() throws Exception {
        LoopFixture f = LoopFixture.withSimulatedStylus(java.nio.file.Path.of("../scenes/tap.yaml"));
        long pulses = assertTicksAllocateNothing(f, "the tap scene", () -> f.scene.haptic().transients().pulses());
        // 100 s of a 4.5 s path with three strikes: 66 pulses; at least 60 leaves room for where the window falls.
        assertTrue(pulses >= 60, "pulses played while measured: " + pulses);
    }

    /** scenes/proxy.yaml: the proxy presses on a plate, sticks, slides on its friction cone and lifts off. */
    @Test
    void shouldAllocateZeroBytesPerTickRenderingByProxy() throws Exception {
        LoopFixture f = LoopFixture.withSimulatedStylus(java.nio.file.Path.of("../scenes/proxy.yaml"));
        assertTicksAllocateNothing(f, "the proxy scene");
        assertTrue(f.scene.haptic().proxy().engaged(), "the proxy rendered");
    }

    /** The default wall at 5000 N/m with the passivity controller, which damps at every contact. */
    @Test
    void shouldAllocateZeroBytesPerTickWithPassivityControl(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        java.nio.file.Path scene = java.nio.file.Files.writeString(dir.resolve("stiff.yaml"),
            java.nio.file.Files.readString(java.nio.file.Path.of("../scenes/wall.yaml"))
                .replace("stiffnessNpm: 1000.0", "stiffnessNpm: 5000.0")
                .replace("  radiusM: 0.005\n", "  radiusM: 0.005\n  passivityControl: true\n"));
        LoopFixture f = LoopFixture.withSimulatedStylus(scene);
        TickDriver driver = new TickDriver(f.loop);
        int warmUpWindows = driver.warmUp();

        long allocated = driver.run(MEASURED_TICKS);

        assertTrue(warmUpWindows <= MAX_WARM_UP_WINDOWS, "warm-up never reached an allocation-free window");
        assertEquals(0, allocated, "bytes allocated by " + MEASURED_TICKS + " ticks with passivity control");
        assertTrue(f.scene.haptic().passivity().activeTicks() > 0, "the controller damped");
    }

    /** scenes/proxy-ball.yaml: the shaded proxy strokes a ball of 320 facets, over and over. */
    @Test
    void shouldAllocateZeroBytesPerTickWithForceShading() throws Exception {
        LoopFixture f = LoopFixture.withSimulatedStylus(java.nio.file.Path.of("../scenes/proxy-ball.yaml"));
        assertTicksAllocateNothing(f, "the shaded ball");
    }

    /**
     * On the system clock the physics budget reads the loop thread's CPU time around every step
     * ({@link ThreadCpuClock}): that reading allocates nothing either.
     */
    @Test
    void shouldAllocateZeroBytesPerTickOnTheSystemClock() throws Exception {
        org.hapticsd.server.scene.BuiltScene scene = org.hapticsd.server.scene.SceneBuilder.build(
            new org.hapticsd.server.scene.SceneLoader().loadEmbedded());
        org.hapticsd.device.sim.SimulatedDevice stylus = scene.newSimulatedDevice();
        stylus.open();
        HapticLoop loop = new org.hapticsd.server.LoopAssembly(scene, stylus, 1000,
            org.agrona.concurrent.SystemNanoClock.INSTANCE).loop();
        assertTrue(loop.judgesStepByCpuTime(), "the CPU-time path is the one measured");
        TickDriver driver = new TickDriver(loop);
        int warmUpWindows = driver.warmUp();
        long allocated = driver.run(MEASURED_TICKS);
        assertTrue(warmUpWindows <= MAX_WARM_UP_WINDOWS, "warm-up never reached an allocation-free window");
        assertEquals(0, allocated, "bytes allocated by the ticking thread on the system clock");
    }

    /** The recorder's loop side (claim, write, commit into a preallocated ring) allocates nothing either. */
    @Test
    void shouldAllocateZeroBytesPerTickWhileRecording(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
        throws Exception {
        LoopFixture f = LoopFixture.withSimulatedStylus();
        org.hapticsd.server.record.TickRecorder recorder = org.hapticsd.server.record.TickRecorder.start(
            dir.resolve("alloc.rec"), "wall", 1000,
            org.hapticsd.server.record.Recording.Ratings.of(f.loop.device().info()),
            org.hapticsd.server.record.TickRecorder.DEFAULT_RING_BYTES, false);
        f.loop.setTickSink(recorder);
        try {
            TickDriver driver = new TickDriver(f.loop);
            int warmUpWindows = driver.warmUp();
            long allocated = driver.run(MEASURED_TICKS);
            assertTrue(warmUpWindows <= MAX_WARM_UP_WINDOWS, "warm-up never reached an allocation-free window");
            assertEquals(0, allocated, "bytes allocated by the ticking thread while recording");
        } finally {
            recorder.close();
        }
        assertTrue(recorder.recordsWritten() > 0);
    }

    @Test
    void shouldAllocateZeroBytesWhileAnotherThreadReadsSnapshotsAndStats() throws Exception {
        LoopFixture f = LoopFixture.withSimulatedStylus();
        TickDriver driver = new TickDriver(f.loop);
        // A flag, not an interrupt: HdrHistogram's phaser sleeps and swallows interrupts inside sample().
        AtomicBoolean stop = new AtomicBoolean();
        Thread reader = new Thread(() -> {
            LoopSnapshot copy = f.assembly.snapshots().newSnapshot();
            while (!stop.get()) {
                f.assembly.snapshots().read(copy);
                f.assembly.stats().sample();
            }
        }, "snapshot-reader");
        reader.start();
        try {
            int warmUpWindows = driver.warmUp();
            long allocated = driver.run(MEASURED_TICKS);
            assertTrue(warmUpWindows <= MAX_WARM_UP_WINDOWS, "warm-up never reached an allocation-free window");
            assertEquals(0, allocated, "bytes allocated by the ticking thread with a concurrent reader");
        } finally {
            stop.set(true);
            reader.join();
        }
    }

    /** Runs ticks on simulated time and returns the bytes the current thread allocated meanwhile. No literals. */
    static final class TickDriver {
        private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        private final HapticLoop loop;
        private long nowNs;

        TickDriver(HapticLoop loop) {
            this.loop = loop;
        }

        /** Runs at least MIN windows, then until QUIET_WINDOWS in a row allocate nothing; returns how many ran. */
        int warmUp() {
            int quiet = 0;
            for (int window = 1; window <= MAX_WARM_UP_WINDOWS; window++) {
                quiet = run(WARM_UP_WINDOW_TICKS) == 0 ? quiet + 1 : 0;
                if (quiet >= QUIET_WINDOWS && window >= MIN_WARM_UP_WINDOWS) {
                    return window;
                }
            }
            return MAX_WARM_UP_WINDOWS + 1;
        }

        long run(int ticks) {
            long before = THREADS.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < ticks; i++) {
                loop.tick(nowNs);
                loop.afterTick(false);
                nowNs += LoopFixture.PERIOD_NS;
            }
            return THREADS.getCurrentThreadAllocatedBytes() - before;
        }
    }
}
