package org.hapticsd.server.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.agrona.concurrent.CachedNanoClock;
import org.hapticsd.device.DeviceFault;
import org.hapticsd.device.HapticDevice;
import org.hapticsd.device.sim.SimulatedDevice;
import org.hapticsd.protocol.StatusFlags;
import org.hapticsd.server.LoopAssembly;
import org.hapticsd.server.loop.HapticLoop;
import org.hapticsd.server.loop.LoopCommand;
import org.hapticsd.server.loop.LoopEvents;
import org.hapticsd.server.loop.LoopSnapshot;
import org.hapticsd.server.loop.SnapshotExchange;
import org.hapticsd.server.safety.SafetyFault;
import org.hapticsd.server.safety.SafetyState;
import org.hapticsd.server.scene.BuiltScene;
import org.hapticsd.server.scene.SceneBuilder;
import org.hapticsd.server.scene.SceneLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Format version 2: the delivered force, the device's health and status word, and the loop's events, recorded from
 * real loop runs on simulated time and read back.
 */
class RecordedEventsTest {
    private static final long PERIOD_NS = 1_000_000L;

    /** A loop on the embedded default scene that records every tick and keeps a copy of every snapshot. */
    private static final class Run {
        final BuiltScene scene;
        final LoopAssembly assembly;
        final HapticLoop loop;
        final TickRecorder recorder;
        final Path file;
        final List<LoopSnapshot> snapshots = new ArrayList<>();
        long nowNs;

        Run(Path file, BuiltScene scene, HapticDevice device) throws Exception {
            this.file = file;
            this.scene = scene;
            device.open();
            this.assembly = new LoopAssembly(scene, device, 1000, new CachedNanoClock());
            this.loop = assembly.loop();
            this.recorder = TickRecorder.start(file, scene.name(), 1000,
                org.hapticsd.server.record.Recording.Ratings.of(device.info()), TickRecorder.DEFAULT_RING_BYTES, true);
            loop.setTickSink(recorder);
        }

        Run(Path file, HapticDevice device) throws Exception {
            this(file, defaultScene(), device);
        }

        void tick(boolean overran) {
            loop.tick(nowNs);
            loop.afterTick(overran);
            nowNs += PERIOD_NS;
            LoopSnapshot copy = assembly.snapshots().newSnapshot();
            copy.copyFrom(loop.lastSnapshot());
            snapshots.add(copy);
        }

        void tick() {
            tick(false);
        }

        void ticks(int count) {
            for (int i = 0; i < count; i++) {
                tick();
            }
        }

        Recording finish() throws IOException {
            loop.shutdown();
            recorder.close();
            return Recording.read(file);
        }
    }

    private static BuiltScene defaultScene() throws Exception {
        return SceneBuilder.build(new SceneLoader().loadEmbedded());
    }

    private static boolean has(int events, int event) {
        return (events & event) != 0;
    }

    private static Set<Integer> recordsWith(Recording r, int event) {
        Set<Integer> found = new TreeSet<>();
        for (int i = 0; i < r.recordCount(); i++) {
            if (has(r.events(i), event)) {
                found.add(i);
            }
        }
        return found;
    }

    @Test
    void shouldRecordTheDeliveredForceAsTheStylusClampedCommandOfThePreviousTick(@TempDir Path dir) throws Exception {
        BuiltScene scene = defaultScene();
        SimulatedDevice stylus = scene.newSimulatedDevice();
        Run run = new Run(dir.resolve("delivered.rec"), scene, stylus);
        int ticks = 6_000;
        double[][] heldN = new double[ticks][];
        for (int k = 0; k < ticks; k++) {
            run.tick();
            // The stylus's force after its own clamp, which it holds until the next command.
            heldN[k] = new double[] {stylus.commandedForceXN(), stylus.commandedForceYN(), stylus.commandedForceZN()};
        }
        Recording r = run.finish();

        assertEquals(ticks, r.recordCount());
        for (int axis = 0; axis < 3; axis++) {
            assertEquals(0.0, r.deliveredForceN(0, axis), 0.0, "nothing was commanded before the first tick");
        }
        int pressing = 0;
        for (int k = 1; k < ticks; k++) {
            for (int axis = 0; axis < 3; axis++) {
                // Exact (tolerance 0): the stylus reports the double it stored at the previous command, and the
                // snapshot and the record copy float64 values without arithmetic.
                assertEquals(heldN[k - 1][axis], r.deliveredForceN(k, axis), 0.0, "tick " + k + " axis " + axis);
                // Also exactly the loop's previous command: the safety layer's limit is min(device, scene) = 8 N,
                // below the stylus's 10 N, so the stylus's clamp never changes a command from the loop.
                assertEquals(r.commandedForceN(k - 1, axis), r.deliveredForceN(k, axis), 0.0);
            }
            double x = r.deliveredForceN(k, 0);
            double y = r.deliveredForceN(k, 1);
            double z = r.deliveredForceN(k, 2);
            if (Math.sqrt(x * x + y * y + z * z) > 1.0) {
                pressing++;
            }
        }
        // The hand presses into the wall from 0.8 s to 2.6 s and onto the box from 3.5 s to 4.5 s (scenes/wall.yaml),
        // with force from the end of the 1 s ramp: well over 1000 ticks above 1 N, so the comparison is not of zeros.
        assertTrue(pressing > 1000, "ticks delivering more than 1 N: " + pressing);
    }

    @Test
    void shouldMarkContactBeganAndEndedExactlyWhenTheContactCountLeavesAndReturnsToZero(@TempDir Path dir)
        throws Exception {
        BuiltScene scene = defaultScene();
        Run run = new Run(dir.resolve("contacts.rec"), scene, scene.newSimulatedDevice());
        run.ticks(12_000);
        Recording r = run.finish();

        int previous = 0;
        for (int i = 0; i < r.recordCount(); i++) {
            int contacts = r.contactCount(i);
            assertEquals(previous == 0 && contacts > 0, has(r.events(i), LoopEvents.CONTACT_BEGAN),
                "record " + i + ": contacts " + previous + " -> " + contacts);
            assertEquals(previous > 0 && contacts == 0, has(r.events(i), LoopEvents.CONTACT_ENDED),
                "record " + i + ": contacts " + previous + " -> " + contacts);
            previous = contacts;
        }
        EventCounts counts = r.eventCounts();
        // Two 6 s cycles of the hand path, each touching the wall once and the box once.
        assertEquals(4, counts.count(LoopEvents.CONTACT_BEGAN));
        assertEquals(4, counts.count(LoopEvents.CONTACT_ENDED));
        // The recorder counted the same events on its writer thread as a read of the file finds.
        for (int bit = 0; bit < LoopEvents.COUNT; bit++) {
            assertEquals(counts.count(1 << bit), run.recorder.eventCounts().count(1 << bit), LoopEvents.name(bit));
        }
        assertEquals(12_000, run.recorder.eventCounts().ticks());
    }

    @Test
    void shouldMarkTheEmergencyStopTickWithSafetyStateChangedAndCommandApplied(@TempDir Path dir) throws Exception {
        BuiltScene scene = defaultScene();
        Run run = new Run(dir.resolve("estop.rec"), scene, scene.newSimulatedDevice());
        run.ticks(2_000);
        int stopTick = 2_000;
        assertTrue(run.assembly.commands().offer(LoopCommand.EMERGENCY_STOP));
        run.ticks(101);
        int resetTick = stopTick + 101;
        assertTrue(run.assembly.commands().offer(LoopCommand.RESET_SAFETY));
        run.ticks(100);
        Recording r = run.finish();

        assertEquals(SafetyState.ACTIVE, r.safety(stopTick - 1), "pressing the wall before the stop");
        assertEquals(SafetyState.ESTOP, r.safety(stopTick));
        int stop = r.events(stopTick);
        assertTrue(has(stop, LoopEvents.SAFETY_STATE_CHANGED), LoopEvents.appendNames(stop, new StringBuilder())
            .toString());
        assertTrue(has(stop, LoopEvents.COMMAND_APPLIED));
        assertFalse(has(stop, LoopEvents.SAFETY_FAULT_RAISED), "a stop is not a fault");
        assertEquals(0, r.events(stopTick + 1) & (LoopEvents.SAFETY_STATE_CHANGED | LoopEvents.COMMAND_APPLIED),
            "marked on the stop tick only");
        assertEquals(SafetyState.GATED, r.safety(resetTick));
        assertTrue(has(r.events(resetTick), LoopEvents.SAFETY_STATE_CHANGED | LoopEvents.COMMAND_APPLIED));
        assertEquals(Set.of(stopTick, resetTick), recordsWith(r, LoopEvents.COMMAND_APPLIED));

        // SAFETY_STATE_CHANGED on exactly the records whose state differs from the one before (GATED before tick 0):
        // GATED -> RAMPING -> ACTIVE -> ESTOP -> GATED, and the gate stays shut while the stylus presses the wall.
        SafetyState previous = SafetyState.GATED;
        for (int i = 0; i < r.recordCount(); i++) {
            assertEquals(r.safety(i) != previous, has(r.events(i), LoopEvents.SAFETY_STATE_CHANGED), "record " + i);
            previous = r.safety(i);
        }
        assertEquals(4, r.eventCounts().count(LoopEvents.SAFETY_STATE_CHANGED));
    }

    @Test
    void shouldMarkDeviceConnectionFaultAndStatusChangesOnTheTicksTheyHappen(@TempDir Path dir) throws Exception {
        SettableDevice device = new SettableDevice();
        Run run = new Run(dir.resolve("device.rec"), device);
        run.ticks(10);
        device.connected = false;
        run.ticks(10);
        device.connected = true;
        run.ticks(10);
        device.fault = DeviceFault.OVER_FORCE;
        run.ticks(10);
        device.fault = DeviceFault.NONE;
        run.ticks(10);
        device.statusFlags = StatusFlags.OUTPUT_ENABLED | StatusFlags.HOMED;
        run.ticks(10);
        Recording r = run.finish();

        assertEquals(Set.of(0, 20), recordsWith(r, LoopEvents.DEVICE_CONNECTED),
            "connected from the first tick, and again after the unplug");
        assertEquals(Set.of(10), recordsWith(r, LoopEvents.DEVICE_DISCONNECTED));
        assertEquals(Set.of(30, 40), recordsWith(r, LoopEvents.DEVICE_FAULT_CHANGED));
        assertEquals(Set.of(50), recordsWith(r, LoopEvents.DEVICE_STATUS_CHANGED));
        // The safety layer answers both the unplug and the device fault with a DEVICE fault and recovers into the
        // gate; the stylus rests in free space, so the 50-tick gate never opens within these 60 ticks.
        assertEquals(Set.of(10, 30), recordsWith(r, LoopEvents.SAFETY_FAULT_RAISED));
        assertEquals(Set.of(10, 20, 30, 40), recordsWith(r, LoopEvents.SAFETY_STATE_CHANGED));
        assertEquals(SafetyFault.DEVICE, r.fault(10));
        for (int i = 0; i < r.recordCount(); i++) {
            assertEquals(i < 10 || i >= 20, r.deviceConnected(i), "record " + i);
            assertEquals(i >= 30 && i < 40 ? DeviceFault.OVER_FORCE : DeviceFault.NONE, r.deviceFault(i));
            assertEquals(i >= 50 ? 0b11 : 0, r.deviceStatusFlags(i));
        }
    }

    @Test
    void shouldMarkTheTickAfterAnOverrun(@TempDir Path dir) throws Exception {
        Run run = new Run(dir.resolve("overrun.rec"), new SettableDevice());
        run.ticks(4);
        run.tick(true);
        run.ticks(5);
        Recording r = run.finish();
        assertEquals(Set.of(5), recordsWith(r, LoopEvents.OVERRUN),
            "tick 4 overran; the runner says so after it, so tick 5 carries the mark");
    }

    @Test
    void shouldRecordATickWhoseStageThrewMarkedStageError(@TempDir Path dir) throws Exception {
        SettableDevice device = new SettableDevice();
        Run run = new Run(dir.resolve("error.rec"), device);
        run.ticks(10);
        device.throwOnRead = new IllegalStateException("USB unplugged");
        run.ticks(3);
        device.throwOnRead = null;
        run.ticks(3);
        Recording r = run.finish();

        assertEquals(16, r.recordCount(), "a failed tick is recorded too: no gap");
        for (int i = 0; i < r.recordCount(); i++) {
            assertEquals(i, r.tick(i));
            assertEquals(i * PERIOD_NS, r.timeNs(i));
        }
        assertEquals(Set.of(10, 11, 12), recordsWith(r, LoopEvents.STAGE_ERROR));
        assertEquals(Set.of(10), recordsWith(r, LoopEvents.SAFETY_FAULT_RAISED), "raised once, then latched");
        assertEquals(Set.of(10), recordsWith(r, LoopEvents.SAFETY_STATE_CHANGED));
        for (int i = 10; i < 16; i++) {
            assertEquals(SafetyState.SAFE, r.safety(i));
            assertEquals(SafetyFault.INTERNAL_ERROR, r.fault(i));
            assertEquals(0.0, r.commandedForceN(i, 0), 0.0);
        }
        assertFalse(r.deviceFresh(10), "the read threw: no fresh state");
        assertTrue(r.deviceFresh(13));
    }

    /** Every field of every record against the snapshot the loop published for that tick, bit for bit. */
    @Test
    void shouldRoundTripEveryFieldOfEveryTick(@TempDir Path dir) throws Exception {
        SettableDevice device = new SettableDevice();
        Run run = new Run(dir.resolve("roundtrip.rec"), device);
        DeviceFault[] faults = DeviceFault.values();
        int ticks = 400;
        for (int k = 0; k < ticks; k++) {
            // Values that use every byte of their fields: irrational doubles, a status word up to the sign bit, every
            // device fault, and the connection toggling.
            device.appliedXN = k / 3.0;
            device.appliedYN = -Math.PI * k;
            device.appliedZN = Math.sqrt(2.0) * 1e-9 * k;
            device.statusFlags = k * 0x0101_0101;
            device.fault = faults[k % faults.length];
            device.connected = k % 7 != 3;
            if (k % 50 == 7) {
                run.assembly.commands().offer(LoopCommand.RESET_SAFETY);
            }
            if (k % 50 == 30) {
                boolean pause = (k / 50) % 2 == 0;
                run.assembly.commands().offer(loop -> loop.setPaused(pause));
            }
            if (k == 123) {
                // The scene replaced by itself: a new exchange and snapshot, made here as ServerCommands makes them.
                SnapshotExchange exchange = SnapshotExchange.forWorld(run.scene.haptic().world());
                LoopSnapshot fresh = exchange.newSnapshot();
                run.assembly.commands().offer(loop -> loop.replaceScene(run.scene.haptic(), exchange, fresh));
            }
            run.tick(k % 11 == 0);
        }
        Recording r = run.finish();

        assertEquals(ticks, r.recordCount());
        int withEvents = 0;
        for (int i = 0; i < ticks; i++) {
            LoopSnapshot s = run.snapshots.get(i);
            String at = "record " + i;
            assertEquals(s.tick, r.tick(i), at);
            assertEquals(s.timeNs, r.timeNs(i), at);
            for (int axis = 0; axis < 3; axis++) {
                assertEquals(s.devicePositionM[axis], r.devicePositionM(i, axis), 0.0, at);
                assertEquals(s.deviceVelocityMps[axis], r.deviceVelocityMps(i, axis), 0.0, at);
                assertEquals(s.renderedForceN[axis], r.renderedForceN(i, axis), 0.0, at);
                assertEquals(s.commandedForceN[axis], r.commandedForceN(i, axis), 0.0, at);
                assertEquals(s.deliveredForceN[axis], r.deliveredForceN(i, axis), 0.0, at);
            }
            assertEquals(s.deviceSequence, r.deviceSequence(i), at);
            assertEquals(s.contactCount, r.contactCount(i), at);
            assertEquals(s.safety, r.safety(i), at);
            assertEquals(s.fault, r.fault(i), at);
            assertEquals(s.deviceFresh, r.deviceFresh(i), at);
            assertEquals(s.deviceConnected, r.deviceConnected(i), at);
            assertEquals(s.deviceFault, r.deviceFault(i), at);
            assertEquals(s.deviceStatusFlags, r.deviceStatusFlags(i), at);
            assertEquals(s.events, r.events(i), at);
            assertEquals(0, r.lostBefore(i), at);
            // And the snapshot holds what the device said: the loop read the new fields, not defaults.
            assertEquals(i / 3.0, s.deliveredForceN[0], 0.0, at);
            assertEquals(-Math.PI * i, s.deliveredForceN[1], 0.0, at);
            assertEquals(i * 0x0101_0101, s.deviceStatusFlags, at);
            assertEquals(faults[i % faults.length], s.deviceFault, at);
            assertEquals(i % 7 != 3, s.deviceConnected, at);
            if (s.events != 0) {
                withEvents++;
            }
        }
        assertTrue(r.deviceStatusFlags(ticks - 1) < 0, "the status word's sign bit was exercised");
        assertTrue(withEvents > ticks / 2, "ticks with events: " + withEvents);
        EventCounts counts = r.eventCounts();
        // The physics bits need a second of slow steps or a full contact budget, which this wall scene has neither
        // of; the events field round-trips as a whole above, and LoopPhysicsReportTest sets both bits on a loop.
        // The impulse bits need a strike on a material with transients: SimulateTapTest records them. The thermal bit
        // needs seconds of a hard press: ThermalLimitCliTest records it. A dropped step needs a machine running the
        // step several times slower than it does here: LoopPhysicsReportTest sets that bit with a slow world clock. A
        // grab needs a body to grab: SimulateGrabTest finds the bit on the press and the release.
        for (int bit = 0; bit < LoopEvents.COUNT; bit++) {
            if (1 << bit != LoopEvents.CONTACT_BEGAN && 1 << bit != LoopEvents.CONTACT_ENDED
                && 1 << bit != LoopEvents.COMMAND_REJECTED && 1 << bit != LoopEvents.STAGE_ERROR
                && 1 << bit != LoopEvents.PHYSICS_BUDGET_CHANGED && 1 << bit != LoopEvents.CONTACTS_DROPPED
                && 1 << bit != LoopEvents.IMPACT_TRANSIENT && 1 << bit != LoopEvents.IMPULSE_COLLISION
                && 1 << bit != LoopEvents.THERMAL_LIMIT_CHANGED && 1 << bit != LoopEvents.PHYSICS_STEP_DROPPED
                && 1 << bit != LoopEvents.GRAB_CHANGED) {
                assertTrue(counts.count(1 << bit) > 0, "exercised: " + LoopEvents.name(bit));
            }
        }
    }

    @Test
    void shouldRefuseAVersionOneRecordingNamingTheFileAndTheVersion(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("old.rec");
        byte[] name = "wall".getBytes(StandardCharsets.UTF_8);
        ByteBuffer v1 = ByteBuffer.allocate(8 + 16 + name.length + 136).order(ByteOrder.LITTLE_ENDIAN);
        v1.put(RecordingFormat.MAGIC).putInt(1).putInt(136).putInt(1000).putInt(name.length).put(name);
        Files.write(file, v1.array());

        IOException e = assertThrows(IOException.class, () -> Recording.read(file));
        assertEquals(file + ": byte offset 8: recording format version 1 is not supported, this build reads versions 2"
            + " and 3 (version 1 lacks the delivered force, device health and events; record again)", e.getMessage());
    }

    @Test
    void shouldRefuseAnUnknownFutureVersion(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("future.rec");
        ByteBuffer v4 = ByteBuffer.allocate(8 + 16).order(ByteOrder.LITTLE_ENDIAN);
        v4.put(RecordingFormat.MAGIC).putInt(4).putInt(200).putInt(1000).putInt(0);
        Files.write(file, v4.array());

        IOException e = assertThrows(IOException.class, () -> Recording.read(file));
        assertEquals(file + ": byte offset 8: recording format version 4 is not supported, this build reads versions 2"
            + " and 3", e.getMessage());
    }
}
