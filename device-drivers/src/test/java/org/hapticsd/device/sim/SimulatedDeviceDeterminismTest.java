package org.hapticsd.device.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.hapticsd.device.DeviceState;
import org.junit.jupiter.api.Test;

/**
 * Same inputs, same bits. Java 17 floating point is strict everywhere (JEP 306) and the device and its hand
 * targets use only +, -, *, /, sqrt and floor, all exactly rounded, so results are also identical across
 * machines and JIT tiers; the golden hash pins them so that a change to the dynamics cannot slip through
 * unnoticed.
 */
class SimulatedDeviceDeterminismTest {

    /** Recorded from this implementation. Update it only for an intended change of the dynamics. */
    private static final long GOLDEN_HASH = 0x8a3dc1a5c5262153L;

    @Test
    void shouldProduceBitIdenticalStatesFromIdenticalInputs() {
        SimulatedDevice first = scriptedDevice();
        SimulatedDevice second = scriptedDevice();
        DeviceState a = new DeviceState();
        DeviceState b = new DeviceState();
        long nowNs = 0L;
        for (int i = 0; i < 5_000; i++) {
            first.readState(nowNs, a);
            second.readState(nowNs, b);
            assertEquals(Double.doubleToRawLongBits(a.positionXM), Double.doubleToRawLongBits(b.positionXM));
            assertEquals(Double.doubleToRawLongBits(a.positionYM), Double.doubleToRawLongBits(b.positionYM));
            assertEquals(Double.doubleToRawLongBits(a.positionZM), Double.doubleToRawLongBits(b.positionZM));
            assertEquals(Double.doubleToRawLongBits(a.velocityXMps), Double.doubleToRawLongBits(b.velocityXMps));
            commandWall(first, a);
            commandWall(second, b);
            nowNs += jitteredTickNs(i);
        }
    }

    @Test
    void shouldMatchGoldenHashOfScriptedRun() {
        SimulatedDevice device = scriptedDevice();
        DeviceState state = new DeviceState();
        long hash = 0xcbf29ce484222325L;
        long nowNs = 0L;
        for (int i = 0; i < 5_000; i++) {
            device.readState(nowNs, state);
            hash = mix(hash, Double.doubleToRawLongBits(state.positionXM));
            hash = mix(hash, Double.doubleToRawLongBits(state.positionYM));
            hash = mix(hash, Double.doubleToRawLongBits(state.positionZM));
            hash = mix(hash, Double.doubleToRawLongBits(state.velocityXMps));
            hash = mix(hash, Double.doubleToRawLongBits(state.velocityYMps));
            hash = mix(hash, Double.doubleToRawLongBits(state.velocityZMps));
            commandWall(device, state);
            nowNs += jitteredTickNs(i);
        }
        assertEquals(GOLDEN_HASH, hash, String.format("golden hash, got 0x%016xL", hash));
    }

    /** A looping hand path through a wall, so contact, release and the force clamp all occur. */
    private static SimulatedDevice scriptedDevice() {
        WaypointHandTarget path = new WaypointHandTarget(List.of(
                new WaypointHandTarget.Waypoint(0.0, 0.0, 0.0, 0.0),
                new WaypointHandTarget.Waypoint(0.4, 0.08, 0.01, 0.0),
                new WaypointHandTarget.Waypoint(0.9, 0.08, -0.02, 0.02),
                new WaypointHandTarget.Waypoint(1.5, 0.0, 0.0, 0.0)), true);
        SimulatedDevice device = new SimulatedDevice(SimulatedDeviceConfig.defaults(), path);
        device.open();
        return device;
    }

    /**
     * Wall at x = 20 mm, 3000 N/m. Holding the hand at 80 mm would take 11.25 N, so the 10 N clamp engages
     * and the stylus sinks to 30 mm while the hand is there.
     */
    private static void commandWall(SimulatedDevice device, DeviceState state) {
        double penetrationM = state.positionXM - 0.02;
        device.commandForce(penetrationM > 0.0 ? -3000.0 * penetrationM : 0.0, 0.0, 0.0, 0.0, 0.0, 0.0);
    }

    /** Ticks of 1 ms +- a few tens of microseconds, so intervals split into uneven substeps too. */
    private static long jitteredTickNs(int i) {
        return 1_000_000L + (i % 7 - 3) * 13_337L;
    }

    /** FNV-1a over the 8 bytes of a value. */
    private static long mix(long hash, long bits) {
        long h = hash;
        for (int shift = 0; shift < 64; shift += 8) {
            h ^= (bits >>> shift) & 0xff;
            h *= 0x100000001b3L;
        }
        return h;
    }
}
