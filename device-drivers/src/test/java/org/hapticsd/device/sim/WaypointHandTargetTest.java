package org.hapticsd.device.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.hapticsd.device.sim.WaypointHandTarget.Waypoint;
import org.junit.jupiter.api.Test;

class WaypointHandTargetTest {

    /**
     * Interpolation is one subtraction, one division and a multiply-add on values <= 0.2 m (ulp 2.8e-17 m),
     * and looping adds one floor-mod: a few ulps. 1e-15 m allows ~35 ulps and is far below any wrong segment.
     */
    private static final double TOLERANCE_M = 1e-15;

    private static final WaypointHandTarget PATH = new WaypointHandTarget(List.of(
            new Waypoint(0.0, 0.0, 0.0, 0.0),
            new Waypoint(1.0, 0.1, 0.0, 0.0),
            new Waypoint(3.0, 0.1, 0.2, -0.04)), false);

    private static final WaypointHandTarget LOOP = new WaypointHandTarget(List.of(
            new Waypoint(0.0, 0.0, 0.0, 0.0),
            new Waypoint(1.0, 0.1, 0.0, 0.0),
            new Waypoint(2.0, 0.0, 0.0, 0.0)), true);

    private final double[] out = new double[3];

    @Test
    void shouldHoldFirstPointBeforeFirstTime() {
        WaypointHandTarget late = new WaypointHandTarget(List.of(
                new Waypoint(1.0, 0.01, 0.02, 0.03), new Waypoint(2.0, 0.0, 0.0, 0.0)), false);
        late.targetAt(-5.0, out);
        assertPosition(0.01, 0.02, 0.03);
        late.targetAt(0.5, out);
        assertPosition(0.01, 0.02, 0.03);
    }

    @Test
    void shouldInterpolateLinearlyBetweenWaypoints() {
        PATH.targetAt(0.25, out);
        assertPosition(0.025, 0.0, 0.0);
        PATH.targetAt(1.0, out);
        assertPosition(0.1, 0.0, 0.0);
        PATH.targetAt(2.0, out);
        assertPosition(0.1, 0.1, -0.02);
        PATH.targetAt(2.5, out);
        assertPosition(0.1, 0.15, -0.03);
    }

    @Test
    void shouldHoldLastPointAfterLastTime() {
        PATH.targetAt(3.0, out);
        assertPosition(0.1, 0.2, -0.04);
        PATH.targetAt(1e9, out);
        assertPosition(0.1, 0.2, -0.04);
    }

    @Test
    void shouldRepeatPathWithPeriodOfLastTimeWhenLooping() {
        LOOP.targetAt(0.25, out);
        assertPosition(0.025, 0.0, 0.0);
        LOOP.targetAt(2.25, out);
        assertPosition(0.025, 0.0, 0.0);
        LOOP.targetAt(4.0 + 1.5, out);
        assertPosition(0.05, 0.0, 0.0);
        LOOP.targetAt(-0.5, out);
        assertPosition(0.05, 0.0, 0.0);
        LOOP.targetAt(2.0, out);
        assertPosition(0.0, 0.0, 0.0);
    }

    @Test
    void shouldHoldSingleWaypoint() {
        WaypointHandTarget single = new WaypointHandTarget(List.of(new Waypoint(0.5, 0.01, -0.01, 0.0)), false);
        single.targetAt(0.0, out);
        assertPosition(0.01, -0.01, 0.0);
        single.targetAt(10.0, out);
        assertPosition(0.01, -0.01, 0.0);
    }

    @Test
    void shouldRejectEmptyPath() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new WaypointHandTarget(List.of(), false));
        assertEquals("waypoints must contain at least one waypoint", e.getMessage());
    }

    @Test
    void shouldRejectNonIncreasingTimeNamingTheWaypoint() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new WaypointHandTarget(List.of(
                        new Waypoint(0.0, 0.0, 0.0, 0.0),
                        new Waypoint(1.0, 0.0, 0.0, 0.0),
                        new Waypoint(1.0, 0.1, 0.0, 0.0)), false));
        assertEquals("waypoint 2 time 1.0 s must be greater than waypoint 1 time 1.0 s", e.getMessage());
    }

    @Test
    void shouldRejectNonFiniteValueNamingTheWaypoint() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new WaypointHandTarget(List.of(
                        new Waypoint(0.0, 0.0, 0.0, 0.0),
                        new Waypoint(1.0, 0.0, Double.NaN, 0.0)), false));
        assertEquals("waypoint 1 must be finite, got Waypoint[timeS=1.0, xM=0.0, yM=NaN, zM=0.0, buttons=0]",
                e.getMessage());
    }

    /** Buttons are held from their waypoint to the next, the first point's before it, and repeat with the loop. */
    @Test
    void shouldHoldEachWaypointsButtonsUntilTheNext() {
        WaypointHandTarget path = new WaypointHandTarget(List.of(
                new Waypoint(0.5, 0.0, 0.0, 0.0, 1),
                new Waypoint(1.0, 0.0, 0.0, 0.0, 3),
                new Waypoint(2.0, 0.0, 0.0, 0.0)), true);
        assertEquals(1, path.buttonsAt(0.2), "before the first point: its buttons");
        assertEquals(1, path.buttonsAt(0.5));
        assertEquals(1, path.buttonsAt(0.999));
        assertEquals(3, path.buttonsAt(1.0));
        assertEquals(3, path.buttonsAt(1.9));
        assertEquals(3, path.buttonsAt(3.2), "looped: 3.2 s is 1.2 s");
        assertEquals(1, path.buttonsAt(2.6), "looped: 2.6 s is 0.6 s");
    }

    @Test
    void shouldRejectLoopWithoutPositivePeriod() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new WaypointHandTarget(List.of(new Waypoint(0.0, 0.0, 0.0, 0.0)), true));
        assertEquals("a looping path needs waypoint 0 (the last) time > 0 s as its period, got 0.0 s",
                e.getMessage());
    }

    @Test
    void shouldRejectLoopStartingBeforeZero() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new WaypointHandTarget(List.of(
                        new Waypoint(-1.0, 0.0, 0.0, 0.0), new Waypoint(1.0, 0.0, 0.0, 0.0)), true));
        assertEquals("a looping path needs waypoint 0 time >= 0 s, got -1.0 s", e.getMessage());
    }

    private void assertPosition(double xM, double yM, double zM) {
        assertEquals(xM, out[0], TOLERANCE_M, "x");
        assertEquals(yM, out[1], TOLERANCE_M, "y");
        assertEquals(zM, out[2], TOLERANCE_M, "z");
    }
}
