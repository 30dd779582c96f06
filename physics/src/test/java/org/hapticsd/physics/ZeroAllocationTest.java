package org.hapticsd.physics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;

import org.hapticsd.physics.dynamics.SolidInertia;
import org.hapticsd.testsupport.JitPrimer;
import org.joml.Matrix3d;
import org.joml.Quaterniond;
import org.joml.Vector3d;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The per-tick path must not allocate: at 1 kHz any garbage eventually buys a collector pause inside the force
 * loop. HotSpot counts the bytes each thread allocates exactly (TLAB accounting), so the bound is exactly 0.
 *
 * <p>The scene has every kind of contact the step handles: boxes resting on the floor (LCP, four points each),
 * a box on penalty springs, a box the tool shoves around (sliding LCP friction, tool against a dynamic body), a
 * ball rolling and bouncing off the walls of a pen, and the tool pressing the floor and walls (penalty, rendered).
 *
 * <p>The compiler's own one-off allocations on this thread (the string constants and signature classes of a class
 * whose first method C2 is asked for) are done ahead by {@link JitPrimer}: on a busy machine those requests came
 * late enough to land in the measured window (80 and 232 bytes, 3 runs in 8 with two other busy processes).
 */
class ZeroAllocationTest {

    /** Ticks per warm-up window; the JIT settles within a few windows. */
    private static final int WINDOW_TICKS = 2_000;
    private static final int MAX_WARM_UP_WINDOWS = 20;
    private static final int MEASURED_TICKS = 20_000;

    /** The compiler's one-off allocations on the measuring thread, done before anything is measured. */
    @BeforeAll
    static void primeJit() {
        JitPrimer.primeClassPath();
    }

    @Test
    void shouldAllocateNothingPerTickOnceWarm() {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assertTrue(threads.isThreadAllocatedMemorySupported(), "this JVM cannot count allocated bytes");
        threads.setThreadAllocatedMemoryEnabled(true);

        Scene scene = new Scene();
        TickDriver driver = new TickDriver(scene, threads);

        // Warm up until a whole window allocates nothing: buffers may still grow the first time the scene reaches a
        // larger contact set, and a deoptimisation re-materialises the objects C2 had scalar-replaced.
        int windows = 0;
        long lastWindowBytes;
        do {
            lastWindowBytes = driver.bytesAllocatedBy(WINDOW_TICKS);
            windows++;
        } while (lastWindowBytes != 0 && windows < MAX_WARM_UP_WINDOWS);
        assertEquals(0L, lastWindowBytes, "no warm-up window was allocation-free in " + windows + " windows");

        driver.resetCounters();
        long measuredBytes = driver.bytesAllocatedBy(MEASURED_TICKS);

        assertEquals(0L, measuredBytes, "bytes allocated by " + MEASURED_TICKS + " ticks");
        // The measured ticks must exercise every kind of contact for the zero to mean anything.
        assertTrue(driver.ticksWithLcpContacts == MEASURED_TICKS, "LCP contacts in " + driver.ticksWithLcpContacts);
        assertTrue(driver.ticksWithPenaltyBodyContacts == MEASURED_TICKS,
                "dynamic penalty contacts in " + driver.ticksWithPenaltyBodyContacts);
        assertTrue(driver.ticksToolTouchedDynamicBody > 0, "the tool never touched a dynamic body");
        assertTrue(driver.ticksToolRendered > 0, "the tool never pressed a static body");
        assertTrue(driver.ticksToolFree > 0, "the tool never left contact");
        assertTrue(driver.ticksSliding > 0, "no box ever slid");
        assertTrue(driver.ticksRolling > 0, "the ball never rolled");
        assertTrue(driver.onsets > 0, "no contact began");
        assertTrue(Double.isFinite(driver.checksum), "checksum " + driver.checksum);
    }

    /** A pen of four walls on a floor, three boxes, a ball and a tool. */
    static final class Scene {
        final PhysicsWorld world;
        final int tool;
        final int ball;
        final int pushedBox;

        Scene() {
            this(ContactSettings.defaults());
        }

        /** The pen with {@code settings}, whose penalty spring is replaced by the pen's own. */
        Scene(ContactSettings settings) {
            world = new PhysicsWorld(settings.withPenalty(new PenaltyContactSettings(2000.0, 1.5)));
            Material ground = new Material(0.3, 0.5, 0.4);
            Quaterniond identity = new Quaterniond();
            world.addStaticBody("floor", new PlaneShape(new Vector3d(0, 0, 1)), new Vector3d(), identity, ground);
            world.addStaticBody("wall +x", new PlaneShape(new Vector3d(-1, 0, 0)), new Vector3d(0.3, 0, 0), identity,
                    ground);
            world.addStaticBody("wall -x", new PlaneShape(new Vector3d(1, 0, 0)), new Vector3d(-0.3, 0, 0), identity,
                    ground);
            world.addStaticBody("wall +y", new PlaneShape(new Vector3d(0, -1, 0)), new Vector3d(0, 0.3, 0), identity,
                    ground);
            world.addStaticBody("wall -y", new PlaneShape(new Vector3d(0, 1, 0)), new Vector3d(0, -0.3, 0), identity,
                    ground);
            double h = 0.04;
            double massKg = 0.5;
            Matrix3d boxInertia = SolidInertia.box(massKg, h, h, h, new Matrix3d());
            world.addDynamicBody("resting box", new BoxShape(h, h, h), new Vector3d(-0.15, -0.15, h - 1e-4), identity,
                    massKg, boxInertia, ground);
            int springBox = world.addDynamicBody("penalty box", new BoxShape(h, h, h),
                    new Vector3d(0.15, -0.15, h - 1e-4), identity, massKg, boxInertia, ground);
            world.setBodyContactMode(springBox, ContactMode.PENALTY);
            pushedBox = world.addDynamicBody("pushed box", new BoxShape(h, h, h), new Vector3d(0.0, 0.12, h - 1e-4),
                    identity, massKg, boxInertia, ground);
            double r = 0.03;
            ball = world.addDynamicBody("ball", new SphereShape(r), new Vector3d(-0.1, 0.1, r - 1e-4), identity, 0.2,
                    SolidInertia.sphere(0.2, r, new Matrix3d()), ground);
            world.setBodyVelocity(ball, new Vector3d(0.5, -0.35, 0), new Vector3d());
            tool = world.addTool("tool", 0.01, ground);
        }
    }

    /**
     * The measured loop. The tool follows a Lissajous path through the pen that dips into the floor and sweeps
     * through the boxes.
     */
    private static final class TickDriver {
        private static final double DT_S = 0.001;
        private static final double W_X = 2.0 * Math.PI * 0.37;
        private static final double W_Y = 2.0 * Math.PI * 0.23;
        private static final double W_Z = 2.0 * Math.PI * 1.9;
        private static final double SLIDING_MPS = 0.02;
        private static final double ROLLING_RADPS = 1.0;

        private final PhysicsWorld world;
        private final com.sun.management.ThreadMXBean threads;
        private final int tool;
        private final int ball;
        private final int pushedBox;
        private final Vector3d positionM = new Vector3d();
        private final Vector3d velocityMps = new Vector3d();
        private final Vector3d forceN = new Vector3d();
        private final Vector3d torqueNm = new Vector3d();
        private final Vector3d bodyVelocityMps = new Vector3d();
        private final Vector3d bodyAngularVelocityRadps = new Vector3d();
        private final Vector3d angularMomentum = new Vector3d();
        private final Quaterniond bodyOrientation = new Quaterniond();
        private final Vector3d pushPointM = new Vector3d();
        private static final Vector3d PUSH_N = new Vector3d(0.01, 0.0, 0.0);
        private int tick;
        long onsets;
        long ticksWithLcpContacts;
        long ticksWithPenaltyBodyContacts;
        long ticksToolTouchedDynamicBody;
        long ticksToolRendered;
        long ticksToolFree;
        long ticksSliding;
        long ticksRolling;
        double checksum;

        TickDriver(Scene scene, com.sun.management.ThreadMXBean threads) {
            this.world = scene.world;
            this.threads = threads;
            this.tool = scene.tool;
            this.ball = scene.ball;
            this.pushedBox = scene.pushedBox;
        }

        void resetCounters() {
            ticksWithLcpContacts = 0;
            ticksWithPenaltyBodyContacts = 0;
            ticksToolTouchedDynamicBody = 0;
            ticksToolRendered = 0;
            ticksToolFree = 0;
            ticksSliding = 0;
            ticksRolling = 0;
            onsets = 0;
        }

        long bytesAllocatedBy(int ticks) {
            long beforeBytes = threads.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < ticks; i++) {
                tick(tick++ * DT_S);
            }
            return threads.getCurrentThreadAllocatedBytes() - beforeBytes;
        }

        private void tick(double tS) {
            positionM.set(0.2 * Math.sin(W_X * tS), 0.2 * Math.sin(W_Y * tS), 0.035 + 0.04 * Math.sin(W_Z * tS));
            velocityMps.set(0.2 * W_X * Math.cos(W_X * tS), 0.2 * W_Y * Math.cos(W_Y * tS),
                    0.04 * W_Z * Math.cos(W_Z * tS));
            world.setToolState(tool, positionM, velocityMps);
            // A small push on the ball, off its centre (applyForce is on the per-tick path of a coupled renderer).
            world.bodyPosition(ball, pushPointM).add(0.0, 0.0, 0.01);
            world.applyForce(ball, PUSH_N, pushPointM);
            world.step(DT_S);
            onsets += world.contactOnsets().count();
            world.contactForceOnBody(tool, forceN);
            world.contactTorqueOnBody(pushedBox, torqueNm);
            world.bodyOrientation(pushedBox, bodyOrientation);
            world.bodyLinearVelocity(pushedBox, bodyVelocityMps);
            world.bodyAngularMomentum(ball, angularMomentum);
            StepProfile profile = world.profile();
            checksum += forceN.x + forceN.y + forceN.z + torqueNm.y + bodyOrientation.w + angularMomentum.z
                    + 0.0 * (profile.lastNs(StepStage.SOLVE) + profile.lastTotalNs() + profile.lastLcpResidualNs());
            if (bodyVelocityMps.length() > SLIDING_MPS) {
                ticksSliding++;
            }
            world.bodyLinearVelocity(ball, bodyVelocityMps);
            world.bodyAngularVelocity(ball, bodyAngularVelocityRadps);
            if (bodyAngularVelocityRadps.length() > ROLLING_RADPS) {
                ticksRolling++;
            }
            boolean lcp = false;
            boolean penaltyBody = false;
            boolean toolOnDynamic = false;
            boolean toolRendered = false;
            int count = world.contactCount();
            for (int i = 0; i < count; i++) {
                Contact contact = world.contact(i);
                checksum += contact.depthM() + contact.normalSpeedMps() + contact.point().x() + contact.normal().y()
                        + contact.forceN().z() + contact.normalForceN() + contact.featureId();
                boolean byTool = contact.bodyA() == tool;
                BodyType other = world.bodyType(contact.bodyB());
                if (contact.mode() == ContactMode.LCP) {
                    lcp = true;
                } else if (!byTool) {
                    penaltyBody = true;
                }
                if (byTool && other == BodyType.DYNAMIC) {
                    toolOnDynamic = true;
                }
                if (byTool && other == BodyType.STATIC) {
                    toolRendered = true;
                }
            }
            ticksWithLcpContacts += lcp ? 1 : 0;
            ticksWithPenaltyBodyContacts += penaltyBody ? 1 : 0;
            ticksToolTouchedDynamicBody += toolOnDynamic ? 1 : 0;
            ticksToolRendered += toolRendered ? 1 : 0;
            ticksToolFree += (forceN.x == 0.0 && forceN.y == 0.0 && forceN.z == 0.0) ? 1 : 0;
        }
    }
}
