package org.hapticsd.physics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;

import org.joml.Quaterniond;
import org.joml.Vector3d;
import org.junit.jupiter.api.Test;

/**
 * The per-tick path must not allocate: at 1 kHz any garbage eventually buys a collector pause inside the force
 * loop. HotSpot counts the bytes each thread allocates exactly (TLAB accounting), so the bound is exactly 0.
 */
class ZeroAllocationTest {

    private static final int WARM_UP_TICKS = 20_000;
    private static final int MEASURED_TICKS = 200_000;

    @Test
    void shouldAllocateNothingPerTick() {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assertTrue(threads.isThreadAllocatedMemorySupported(), "this JVM cannot count allocated bytes");
        threads.setThreadAllocatedMemoryEnabled(true);

        PhysicsWorld world = new PhysicsWorld(new PenaltyContactSettings(2000.0, 1.5));
        world.addStaticBody("floor", new PlaneShape(new Vector3d(0, 0, 1)), new Vector3d(), new Quaterniond());
        world.addStaticBody("block", new BoxShape(0.03, 0.03, 0.02), new Vector3d(0.06, 0.0, 0.02),
                new Quaterniond());
        world.addStaticBody("turned block", new BoxShape(0.02, 0.04, 0.03), new Vector3d(-0.06, 0.02, 0.03),
                new Quaterniond().rotationAxis(0.6, 1.0, 1.0, 1.0));
        int tool = world.addTool("tool", 0.01);
        TickDriver driver = new TickDriver(world, tool);

        driver.run(0, WARM_UP_TICKS);
        driver.resetCounters();
        threads.getCurrentThreadAllocatedBytes();

        long beforeBytes = threads.getCurrentThreadAllocatedBytes();
        driver.run(WARM_UP_TICKS, MEASURED_TICKS);
        long afterBytes = threads.getCurrentThreadAllocatedBytes();

        assertEquals(0L, afterBytes - beforeBytes, "bytes allocated by " + MEASURED_TICKS + " ticks");
        // The path must exercise every branch for the zero to mean anything.
        assertTrue(driver.ticksWithoutContact > 0, "the path never left contact");
        assertTrue(driver.ticksWithContact > 0, "the path never touched");
        assertTrue(driver.ticksWithTwoContacts > 0, "the path never touched two bodies at once");
        assertTrue(driver.boxContacts > 0, "the path never touched a box");
        assertTrue(Double.isFinite(driver.checksum));
    }

    /**
     * The measured loop, in a class without string literals. When HotSpot queues a C2 compilation (here, the
     * on-stack replacement of this loop, which can fall inside the measured window) it first resolves every
     * string constant of the method's class on the requesting thread (compileBroker.cpp,
     * {@code CompileBroker::compile_method}: {@code resolve_string_constants}). With assertion messages in the
     * same class that is a one-off few hundred bytes charged to this thread that the physics never allocated.
     *
     * <p>The tool follows a Lissajous path over both blocks that dips into the floor: in contact with none, one
     * or two bodies, and through the inside of the blocks.
     */
    private static final class TickDriver {
        private static final double DT_S = 0.001;
        private static final double W_X = 2.0 * Math.PI * 0.7;
        private static final double W_Y = 2.0 * Math.PI * 1.3;
        private static final double W_Z = 2.0 * Math.PI * 2.9;

        private final PhysicsWorld world;
        private final int tool;
        private final Vector3d positionM = new Vector3d();
        private final Vector3d velocityMps = new Vector3d();
        private final Vector3d forceN = new Vector3d();
        private final Vector3d torqueNm = new Vector3d();
        private final Vector3d bodyPositionM = new Vector3d();
        private final Vector3d bodyVelocityMps = new Vector3d();
        private final Quaterniond bodyOrientation = new Quaterniond();
        long ticksWithoutContact;
        long ticksWithContact;
        long ticksWithTwoContacts;
        long boxContacts;
        double checksum;

        TickDriver(PhysicsWorld world, int tool) {
            this.world = world;
            this.tool = tool;
        }

        void resetCounters() {
            ticksWithoutContact = 0;
            ticksWithContact = 0;
            ticksWithTwoContacts = 0;
            boxContacts = 0;
        }

        void run(int firstTick, int ticks) {
            for (int tick = firstTick; tick < firstTick + ticks; tick++) {
                tick(tick * DT_S);
            }
        }

        private void tick(double tS) {
            positionM.set(0.09 * Math.sin(W_X * tS), 0.04 * Math.sin(W_Y * tS), 0.03 + 0.035 * Math.sin(W_Z * tS));
            velocityMps.set(0.09 * W_X * Math.cos(W_X * tS), 0.04 * W_Y * Math.cos(W_Y * tS),
                    0.035 * W_Z * Math.cos(W_Z * tS));
            world.setToolState(tool, positionM, velocityMps);
            world.step(DT_S);
            world.contactForceOnBody(tool, forceN);
            world.contactTorqueOnBody(1, torqueNm);
            world.bodyPosition(2, bodyPositionM);
            world.bodyOrientation(2, bodyOrientation);
            world.bodyLinearVelocity(tool, bodyVelocityMps);
            StepProfile profile = world.profile();
            checksum += forceN.x + forceN.y + forceN.z + torqueNm.y + bodyOrientation.w + bodyVelocityMps.x
                    + 0.0 * (profile.lastNs(StepStage.NARROWPHASE) + profile.lastTotalNs());
            int count = world.contactCount();
            if (count == 0) {
                ticksWithoutContact++;
            } else {
                ticksWithContact++;
            }
            if (count >= 2) {
                ticksWithTwoContacts++;
            }
            for (int i = 0; i < count; i++) {
                Contact contact = world.contact(i);
                checksum += contact.depthM() + contact.normalSpeedMps() + contact.point().x()
                        + contact.normal().y() + contact.forceN().z() + contact.bodyA();
                if (world.bodyType(contact.bodyB()) == BodyType.STATIC
                        && world.shape(contact.bodyB()) instanceof BoxShape) {
                    boxContacts++;
                }
            }
        }
    }
}
