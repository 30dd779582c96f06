package org.hapticsd.server.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.hapticsd.server.cli.Main;
import org.hapticsd.server.scene.SceneBuilder;
import org.hapticsd.server.scene.SceneLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReplayDeviceTest {

    private static int simulate(Path dir, String... args) {
        StringWriter err = new StringWriter();
        int code = Main.run(new PrintWriter(new StringWriter()), new PrintWriter(err), args);
        assertEquals(0, code, err.toString());
        return code;
    }

    @Test
    void shouldReproduceTheRecordedRunBitForBit(@TempDir Path dir) throws Exception {
        Path original = dir.resolve("original.csv");
        Path rec = dir.resolve("run.rec");
        Path replayed = dir.resolve("replayed.csv");
        simulate(dir, "simulate", "--duration", "3", "--out", original.toString(), "--record", rec.toString());
        simulate(dir, "simulate", "--duration", "3", "--out", replayed.toString(),
            "--device", "replay:" + rec);

        List<String> a = Files.readAllLines(original);
        List<String> b = Files.readAllLines(replayed);
        assertEquals(a.size(), b.size());
        // Same scene, same safety layer, the recorded device states: the loop is deterministic, so the replayed
        // run commands exactly the recorded forces, and every other column follows: device, tool, force, safety,
        // bodies, and the delivered force and events, which the replay device reports as recorded.
        for (int i = 1; i < a.size(); i++) {
            assertEquals(a.get(i), b.get(i), "row " + i);
        }
    }

    /**
     * A run whose device was unplugged, faulted and changed its status word, replayed: the replay device reports the
     * recorded delivered force, status word, connection and fault tick by tick, so the replayed loop sees the same
     * device trouble and marks the same events on the same ticks.
     */
    @Test
    void shouldReplayTheDeliveredForceStatusAndDeviceHealthAsRecorded(@TempDir Path dir) throws Exception {
        Path rec = dir.resolve("trouble.rec");
        org.hapticsd.server.scene.BuiltScene scene = org.hapticsd.server.scene.SceneBuilder.build(
            new org.hapticsd.server.scene.SceneLoader().loadEmbedded());
        SettableDevice device = new SettableDevice();
        device.open();
        org.hapticsd.server.LoopAssembly original = new org.hapticsd.server.LoopAssembly(scene, device, 1000,
            new org.agrona.concurrent.CachedNanoClock());
        TickRecorder recorder = TickRecorder.start(rec, "wall", 1000, Recording.Ratings.of(device.info()),
            TickRecorder.DEFAULT_RING_BYTES, true);
        original.loop().setTickSink(recorder);
        int ticks = 300;
        for (int k = 0; k < ticks; k++) {
            device.appliedXN = 0.01 * k;
            device.appliedZN = -1.0 / (k + 1);
            device.statusFlags = k / 40;
            device.connected = k < 100 || k >= 120;
            device.fault = k >= 200 && k < 210 ? org.hapticsd.device.DeviceFault.WATCHDOG
                : org.hapticsd.device.DeviceFault.NONE;
            original.loop().tick(k * 1_000_000L);
            original.loop().afterTick(false);
        }
        original.loop().shutdown();
        recorder.close();
        Recording recording = Recording.read(rec);

        ReplayDevice replay = new ReplayDevice(rec, scene.simDevice().info());
        replay.open();
        org.hapticsd.server.LoopAssembly replayed = new org.hapticsd.server.LoopAssembly(scene, replay, 1000,
            new org.agrona.concurrent.CachedNanoClock());
        for (int k = 0; k < ticks; k++) {
            replayed.loop().tick(k * 1_000_000L);
            replayed.loop().afterTick(false);
            org.hapticsd.server.loop.LoopSnapshot s = replayed.loop().lastSnapshot();
            String at = "tick " + k;
            for (int axis = 0; axis < 3; axis++) {
                assertEquals(recording.deliveredForceN(k, axis), s.deliveredForceN[axis], 0.0, at);
            }
            assertEquals(recording.deviceStatusFlags(k), s.deviceStatusFlags, at);
            assertEquals(recording.deviceConnected(k), s.deviceConnected, at);
            assertEquals(recording.deviceFault(k), s.deviceFault, at);
            assertEquals(recording.safety(k), s.safety, at);
            assertEquals(recording.events(k), s.events, at);
        }
        assertEquals(0.01 * 250, recording.deliveredForceN(250, 0), 0.0, "the recording holds the device's values");
        assertEquals(org.hapticsd.server.safety.SafetyState.SAFE, recording.safety(110), "the unplug was seen");
        assertTrue((recording.events(100) & org.hapticsd.server.loop.LoopEvents.DEVICE_DISCONNECTED) != 0);
    }

    /**
     * The replay reports the ratings of the device it stands for: the safety layer's ceiling and thermal limit follow
     * them. It reported a fixed 10 N peak and 4 N continuous, so a tester's recording of the Touch-like emulator
     * (3.3 N, 0.88 N) replayed at 4 N where the original held 0.88 N. A version-3 recording holds its device's
     * ratings and the replay reports those, whatever the scene says; a version-2 one does not, and the replay reports
     * the scene's.
     */
    @Test
    void shouldReportTheRatingsOfTheDeviceItStandsFor(@TempDir Path dir) throws Exception {
        Path rec = dir.resolve("r.rec");
        simulate(dir, "simulate", "--duration", "0.1", "--out", dir.resolve("o.csv").toString(), "--record",
            rec.toString());
        org.hapticsd.device.DeviceInfo stylus = SceneBuilder.build(new SceneLoader().loadEmbedded()).simDevice().info();
        org.hapticsd.device.DeviceInfo touch = new org.hapticsd.device.DeviceInfo("Touch-like", 3,
            org.hapticsd.device.Workspace.cube(0.08), 3.3, 0.88, 1500.0, 0.5);
        ReplayDevice replay = new ReplayDevice(rec, touch);
        assertEquals(stylus.maxForceN(), replay.info().maxForceN(), 0.0, "the recorded device's, not the scene's");
        assertEquals(stylus.maxContinuousForceN(), replay.info().maxContinuousForceN(), 0.0);
        assertEquals(stylus.maxStiffnessNpm(), replay.info().maxStiffnessNpm(), 0.0);
        assertEquals(stylus.dampingNspm(), replay.info().dampingNspm(), 0.0);
        assertEquals("replay of r.rec (" + stylus.name() + ")", replay.info().name());
        assertTrue(stylus.maxForceN() != 3.3 && stylus.maxContinuousForceN() != 0.88, "the two must differ");

        // The same file as version 2 wrote it: the header ends at the scene name.
        Path v2 = dir.resolve("v2.rec");
        Files.write(v2, asVersion2(Files.readAllBytes(rec)));
        ReplayDevice old = new ReplayDevice(v2, touch);
        assertEquals(3.3, old.info().maxForceN(), 0.0);
        assertEquals(0.88, old.info().maxContinuousForceN(), 0.0);
        assertEquals(1500.0, old.info().maxStiffnessNpm(), 0.0);
        assertEquals(0.5, old.info().dampingNspm(), 0.0);
        assertEquals("replay of v2.rec", old.info().name());
        assertEquals(Recording.read(rec).recordCount(), old.recording().recordCount(), "the same records");
    }

    /** A version-3 file's bytes as version 2: version 2 in the header, the device block taken out. */
    static byte[] asVersion2(byte[] v3) {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(v3).order(RecordingFormat.ORDER);
        int nameLength = b.getInt(20);
        int deviceAt = 24 + nameLength;
        int deviceEnd = deviceAt + 4 + b.getInt(deviceAt) + RecordingFormat.DEVICE_RATINGS_BYTES;
        byte[] v2 = new byte[v3.length - (deviceEnd - deviceAt)];
        System.arraycopy(v3, 0, v2, 0, deviceAt);
        System.arraycopy(v3, deviceEnd, v2, deviceAt, v3.length - deviceEnd);
        java.nio.ByteBuffer.wrap(v2).order(RecordingFormat.ORDER).putInt(8, 2);
        return v2;
    }

    @Test
    void shouldGoSafeWithZeroForceWhenTheRecordingEnds(@TempDir Path dir) throws Exception {
        Path rec = dir.resolve("short.rec");
        Path replayed = dir.resolve("replayed.csv");
        simulate(dir, "simulate", "--duration", "1.5", "--out", dir.resolve("o.csv").toString(),
            "--record", rec.toString(), "--hand-target", "0.01,0,0");
        simulate(dir, "simulate", "--duration", "2", "--out", replayed.toString(), "--device", "replay:" + rec);
        List<String> rows = Files.readAllLines(replayed);
        String[] lastRecorded = rows.get(1500).split(",");
        String[] afterEnd = rows.get(1510).split(",");
        assertEquals("ACTIVE", lastRecorded[10]);
        assertEquals("SAFE", afterEnd[10], "no fresh states after the recording: the watchdog trips");
        assertEquals(0.0, Double.parseDouble(afterEnd[7]), 0.0);
    }

    @Test
    void shouldRejectAReplayOfSomethingThatIsNotARecording(@TempDir Path dir) throws Exception {
        Path bogus = dir.resolve("bogus.rec");
        Files.writeString(bogus, "this is not a recording, just some text long enough");
        StringWriter err = new StringWriter();
        int code = Main.run(new PrintWriter(new StringWriter()), new PrintWriter(err),
            "simulate", "--duration", "1", "--out", dir.resolve("x.csv").toString(), "--device", "replay:" + bogus);
        assertEquals(2, code);
        assertTrue(err.toString().contains("byte offset 0: not a tick recording"), err.toString());
        assertEquals(1, err.toString().strip().lines().count());
    }
}
