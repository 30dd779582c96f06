package org.hapticsd.server.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.joml.Vector3d;
import org.junit.jupiter.api.Test;

/** {@link PassivityController} on synthetic forces: idle on a passive damper, damping an active one, its caps. */
class PassivityControllerTest {

    private static final double T = 1e-3;

    @Test
    void aDamperIsPassiveAndIsLeftAlone() {
        PassivityController pc = new PassivityController(0.1);
        Vector3d f = new Vector3d();
        for (int n = 0; n < 10_000; n++) {
            // A hand moving smoothly (0.2 m/s, 3 Hz, three axes out of phase) against a damper of 2 N·s/m.
            double t = n * T;
            double vx = 0.2 * Math.sin(2 * Math.PI * 3 * t);
            double vy = 0.2 * Math.cos(2 * Math.PI * 3 * t);
            double vz = 0.1 * Math.sin(2 * Math.PI * 5 * t);
            pc.filter(T, vx, vy, vz, f.set(-2.0 * vx, -2.0 * vy, -2.0 * vz));
            pc.commanded(f.x, f.y, f.z);
            assertEquals(0.0, pc.lastDampingNspm(), 0.0, "tick " + n);
            assertTrue(pc.energyJ() >= 0.0, "tick " + n);
        }
        assertEquals(0, pc.activeTicks());
    }

    @Test
    void anActiveForceIsDampedBackToZeroEnergy() {
        PassivityController pc = new PassivityController(0.1);
        Vector3d f = new Vector3d();
        // A negative damper pushing the hand along its own motion at 0.1 m/s: +0.5 N·s/m · v.
        double v = 0.1;
        pc.filter(T, v, 0, 0, f.set(0.05, 0, 0));
        pc.commanded(f.x, f.y, f.z);
        assertEquals(0.0, pc.energyJ(), 0.0, "nothing observed before a force has acted");
        pc.filter(T, v, 0, 0, f.set(0.05, 0, 0));
        // The last period gave the hand 0.05 N · 0.1 m/s · 1 ms = 5e-6 J: damping of 5e-6 / (1e-3 · 0.01) = 0.5.
        assertEquals(-5e-6, pc.energyJ(), 1e-18);
        assertEquals(0.5, pc.lastDampingNspm(), 1e-12);
        assertEquals(0.0, f.x, 1e-15, "the active force is cancelled for the next period");
        pc.commanded(f.x, f.y, f.z);
        pc.filter(T, v, 0, 0, f.set(0.05, 0, 0));
        assertEquals(-5e-6, pc.energyJ(), 1e-18, "a period of zero force changes nothing");
        assertEquals(2, pc.activeTicks(), "still owed: it damps again");
    }

    @Test
    void theDampingIsCappedAtTheMassOverThePeriodAndSkipsAHandAtRest() {
        PassivityController pc = new PassivityController(0.1);
        Vector3d f = new Vector3d();
        pc.filter(T, 0.01, 0, 0, f.set(50.0, 0, 0));
        pc.commanded(f.x, f.y, f.z);
        pc.filter(T, 0.01, 0, 0, f.set(0.0, 0, 0));
        // −E = 50 · 0.01 · 1e-3 = 5e-4 J would ask for 5e-4 / (1e-3 · 1e-4) = 5000 N·s/m; m/T = 100.
        assertEquals(100.0, pc.lastDampingNspm(), 0.0);
        assertEquals(-1.0, f.x, 1e-12);
        pc.commanded(0, 0, 0);
        pc.filter(T, 1e-5, 0, 0, f.set(0, 0, 0));
        assertEquals(0.0, pc.lastDampingNspm(), 0.0, "below 0.1 mm/s the hand is at rest: no damping");
        pc.reset();
        assertEquals(0.0, pc.energyJ(), 0.0);
    }
}
