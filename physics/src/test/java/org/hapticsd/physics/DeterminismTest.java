package org.hapticsd.physics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.joml.Quaterniond;
import org.joml.Vector3d;
import org.junit.jupiter.api.Test;

/**
 * Same inputs, same bits (Box2D {@code test/test_determinism.c}). Java 17 evaluates every double operation
 * strictly (JEP 306), {@code Math.sqrt} is correctly rounded and JOML does not fuse multiply-adds unless
 * {@code joml.useMathFma} is set, so the golden hash below holds on any JVM and CPU. The path uses
 * {@link StrictMath} and the scene uses no trigonometry, so the inputs are reproducible too.
 */
class DeterminismTest {

    private static final int TICKS = 5_000;

    /**
     * FNV-1a over the raw bits of the tool force and the contact count of every tick. Changing it is a decision:
     * any change to the contact or force arithmetic, intended or not, moves it.
     */
    private static final long GOLDEN_HASH = 7306239012444193777L;

    @Test
    void shouldGiveBitIdenticalForcesInTwoWorldsFedTheSameToolStates() {
        Run first = run();
        Run second = run();
        assertEquals(first, second);
        // The run must spend time both in and out of contact for the comparison to cover the force arithmetic.
        assertTrue(first.ticksInContact() > TICKS / 10, "ticks in contact: " + first.ticksInContact());
        assertTrue(first.ticksInContact() < TICKS, "the tool never left contact");
    }

    @Test
    void shouldReproduceTheGoldenHash() {
        assertEquals(GOLDEN_HASH, run().hash(), "hash of the reference run; see GOLDEN_HASH before updating it");
    }

    private record Run(long hash, int ticksInContact) {
    }

    private static Run run() {
        PhysicsWorld world = new PhysicsWorld(new PenaltyContactSettings(1500.0, 2.5));
        world.addStaticBody("floor", new PlaneShape(new Vector3d(0.0, 0.1, 1.0)), new Vector3d(0.0, 0.0, -0.01),
                new Quaterniond());
        world.addStaticBody("block", new BoxShape(0.03, 0.025, 0.02), new Vector3d(0.05, 0.0, 0.02),
                new Quaterniond(0.1, 0.2, 0.3, 0.9));
        world.addStaticBody("post", new BoxShape(0.01, 0.01, 0.05), new Vector3d(-0.05, 0.01, 0.05),
                new Quaterniond(0.0, 0.0, 0.6, 0.8));
        int tool = world.addTool("tool", 0.012);
        Vector3d positionM = new Vector3d();
        Vector3d velocityMps = new Vector3d();
        Vector3d forceN = new Vector3d();
        long hash = 0xcbf29ce484222325L;
        int ticksInContact = 0;
        for (int tick = 0; tick < TICKS; tick++) {
            double tS = tick * 0.001;
            positionM.set(0.08 * StrictMath.sin(3.1 * tS), 0.03 * StrictMath.sin(5.3 * tS),
                    0.025 + 0.03 * StrictMath.sin(11.7 * tS));
            velocityMps.set(0.08 * 3.1 * StrictMath.cos(3.1 * tS), 0.03 * 5.3 * StrictMath.cos(5.3 * tS),
                    0.03 * 11.7 * StrictMath.cos(11.7 * tS));
            world.setToolState(tool, positionM, velocityMps);
            world.step(0.001);
            world.contactForceOnBody(tool, forceN);
            hash = mix(hash, Double.doubleToRawLongBits(forceN.x));
            hash = mix(hash, Double.doubleToRawLongBits(forceN.y));
            hash = mix(hash, Double.doubleToRawLongBits(forceN.z));
            hash = mix(hash, world.contactCount());
            if (world.contactCount() > 0) {
                ticksInContact++;
            }
        }
        return new Run(hash, ticksInContact);
    }

    private static long mix(long hash, long value) {
        for (int i = 0; i < 8; i++) {
            hash ^= (value >>> (8 * i)) & 0xff;
            hash *= 0x100000001b3L;
        }
        return hash;
    }
}
