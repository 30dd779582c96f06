package org.hapticsd.device.sim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class DeferredStartHandTargetTest {
    private final WaypointHandTarget path = new WaypointHandTarget(List.of(
        new WaypointHandTarget.Waypoint(0.0, 0.0, 0.0, 0.0),
        new WaypointHandTarget.Waypoint(1.0, 0.1, 0.0, 0.0)), false);

    @Test
    void shouldHoldTheFirstPointUntilStartedThenRunFromTimeZero() {
        DeferredStartHandTarget hand = new DeferredStartHandTarget(path);
        double[] p = new double[3];
        hand.targetAt(5.0, p);
        assertArrayEquals(new double[] {0, 0, 0}, p, 0.0, "not started: the path's first point");
        hand.start();
        hand.targetAt(7.0, p);
        assertArrayEquals(new double[] {0, 0, 0}, p, 0.0, "the start instant is the path's time 0");
        hand.targetAt(7.5, p);
        // Halfway along a linear 1 s segment from 0 to 0.1 m: 0.05 m, exact to rounding.
        assertArrayEquals(new double[] {0.05, 0, 0}, p, 1e-12);
        hand.start();
        hand.targetAt(8.0, p);
        assertArrayEquals(new double[] {0.1, 0, 0}, p, 1e-12, "a second start does not restart the path");
    }
}
