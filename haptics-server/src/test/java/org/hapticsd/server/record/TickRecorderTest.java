package org.hapticsd.server.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.agrona.concurrent.SystemNanoClock;
import org.hapticsd.device.sim.SimulatedDevice;
import org.hapticsd.server.LoopAssembly;
import org.hapticsd.server.cli.Main;
import org.hapticsd.server.loop.HapticLoop;
import org.hapticsd.server.loop.LoopSnapshot;
import org.hapticsd.server.safety.SafetyState;
import org.hapticsd.server.scene.BuiltScene;
import org.hapticsd.server.scene.SceneBuilder;
import org.hapticsd.server.scene.SceneLoader;
import org.hapticsd.testsupport.JitPrimer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TickRecorderTest {

    private static HapticLoop defaultLoop() throws Exception {
        BuiltScene scene = SceneBuilder.build(new SceneLoader().loadEmbedded());
        SimulatedDevice stylus = scene.newSimulatedDevice();
        stylus.open();
        return new LoopAssembly(scene, stylus, 1000, SystemNanoClock.INSTANCE).loop();
    }

    /** The compiler's one-off allocations on the measuring thread, done before anything is measured. */
    @BeforeAll
    static void primeJit() {
        JitPrimer.primeClassPath();
    }

    @Test
    void shouldRecordEveryTickOfSixtySecondsOfSimulatedTime(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("run.rec");
        HapticLoop loop = defaultLoop();
        TickRecorder recorder = TickRecorder.start(file, "wall", 1000, Recording.Ratings.of(loop.device().info()),
            TickRecorder.DEFAULT_RING_BYTES, true);
        loop.setTickSink(recorder);
        LoopSnapshot last = null;
        for (long k = 0; k < 60_000; k++) {
            loop.tick(k * 1_000_000L);
            loop.afterTick(false);
            last = loop.lastSnapshot();
        }
        loop.shutdown();
        recorder.close();

        Recording recording = Recording.read(file);
        assertEquals(60_000, recording.recordCount());
        assertTrue(recording.complete());
        assertEquals(60_000, recording.trailerRecords());
        assertEquals(0, recording.trailerLostTicks());
        for (int i = 0; i < recording.recordCount(); i++) {
            assertEquals(i, recording.tick(i), "every tick, in order");
            assertEquals(i * 1_000_000L, recording.timeNs(i));
            assertEquals(0, recording.lostBefore(i));
        }
        int n = recording.recordCount() - 1;
        // The last record is the last snapshot, bit for bit.
        assertEquals(last.devicePositionM[0], recording.devicePositionM(n, 0), 0.0);
        assertEquals(last.commandedForceN[0], recording.commandedForceN(n, 0), 0.0);
        assertEquals(last.renderedForceN[0], recording.renderedForceN(n, 0), 0.0);
        assertEquals(last.safety, recording.safety(n));
        assertEquals("wall", recording.sceneName());
        assertEquals(1000, recording.rateHz());
        assertEquals(SafetyState.GATED, recording.safety(0));
    }

    /**
     * The writer thread, once warm, allocates nothing while it waits for ticks (it polls every 200 µs) nor while it
     * writes them: a loop at 1 kHz for 0.6 s, fed from this thread in real time, then 0.3 s idle. Before its wrapper
     * and handler were made once it allocated about 48 bytes a poll and a handler a read: some 100 kB here.
     */
    @Test
    @org.junit.jupiter.api.Timeout(value = 60, unit = java.util.concurrent.TimeUnit.SECONDS)
    void shouldAllocateNothingOnItsWriterThreadOnceWarm(@TempDir Path dir) throws Exception {
        com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        assertTrue(threads.isThreadAllocatedMemorySupported(), "this JVM cannot count allocated bytes");
        threads.setThreadAllocatedMemoryEnabled(true);
        HapticLoop loop = defaultLoop();
        TickRecorder recorder = TickRecorder.start(dir.resolve("quiet.rec"), "wall", 1000,
            Recording.Ratings.of(loop.device().info()), TickRecorder.DEFAULT_RING_BYTES, false);
        loop.setTickSink(recorder);
        long bytes = -1;
        long tick = 0;
        try {
            // Rounds until one allocates nothing on the writer thread (its first ones warm the JIT), at most ten.
            for (int round = 0; round < 10 && bytes != 0; round++) {
                long before = threads.getThreadAllocatedBytes(recorder.writerThreadId());
                for (int k = 0; k < 600; k++, tick++) {
                    loop.tick(tick * 1_000_000L);
                    loop.afterTick(false);
                    Thread.sleep(1);
                }
                Thread.sleep(300);
                bytes = threads.getThreadAllocatedBytes(recorder.writerThreadId()) - before;
            }
        } finally {
            loop.shutdown();
            recorder.close();
        }
        assertEquals(0L, bytes, "bytes the writer thread allocated in a warm round");
        assertEquals(tick, Recording.read(dir.resolve("quiet.rec")).recordCount(), "every tick recorded");
    }

    @Test
    void shouldCountAndMarkTicksLostWhenTheRingIsFull(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("lossy.rec");
        HapticLoop loop = defaultLoop();
        // 4 KiB holds 23 records of 168 bytes (+8 bytes of ring header each: 4096 / 176 = 23.3). The writer is held
        // off, so ticks 23 and later find the ring full and are lost, never waited for.
        TickRecorder recorder = TickRecorder.startPaused(file, "wall", 1000,
            new Recording.Ratings("test device", 10.0, 4.0, 2000.0, 0.0), 4096);
        loop.setTickSink(recorder);
        for (long k = 0; k < 100; k++) {
            loop.tick(k * 1_000_000L);
            loop.afterTick(false);
        }
        long lostWhilePaused = recorder.lostTicks();
        recorder.resumeWriter();
        while (recorder.recordsWritten() < 100 - lostWhilePaused) {
            Thread.onSpinWait();
        }
        for (long k = 100; k < 110; k++) {
            loop.tick(k * 1_000_000L);
            loop.afterTick(false);
        }
        loop.shutdown();
        recorder.close();

        Recording recording = Recording.read(file);
        assertEquals(23, 100 - lostWhilePaused, "ring capacity in records");
        assertEquals(77, recording.trailerLostTicks());
        assertEquals(33, recording.recordCount());
        assertEquals(22, recording.tick(22));
        assertEquals(100, recording.tick(23), "the first tick after the loss");
        assertEquals(77, recording.lostBefore(23), "says how many ticks were lost just before it");
        long sumLost = 0;
        for (int i = 0; i < recording.recordCount(); i++) {
            sumLost += recording.lostBefore(i);
        }
        assertEquals(recording.trailerLostTicks(), sumLost);
        // Found by a tester: a replay of such a file said nothing of the gap it plays across.
        assertEquals("lost 77 ticks in 1 gap while it recorded (the first 77 before record 23, tick 100): the replay "
            + "plays the records back to back, so the device jumps across each gap and the scene's time runs 77 ticks "
            + "behind the recording's by its end", recording.gapsNote());

        // A trailer that counts fewer lost ticks than the records do is not a recorder's (a tester's edit was read).
        byte[] bytes = Files.readAllBytes(file);
        java.nio.ByteBuffer.wrap(bytes).order(java.nio.ByteOrder.LITTLE_ENDIAN).putLong(bytes.length - 8, 5);
        Files.write(file, bytes);
        IOException e = assertThrows(IOException.class, () -> Recording.read(file));
        assertEquals(file + ": byte offset " + (bytes.length - 8) + ": the trailer says 5 ticks were lost, the records "
            + "count 77", e.getMessage());
    }

    /** Found by a tester: a header's rate of 0 Hz was read, then replay advised "--rate 0", which the CLI refuses. */
    @Test
    void shouldRefuseALoopRateNoRecorderWrites(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("rate.rec");
        byte[] bytes = recordDefaultScene(file, 20);
        assertEquals(null, Recording.read(file).gapsNote(), "nothing lost, nothing to say");
        int header = bytes.length - 24 - 20 * RecordingFormat.RECORD_BYTES;
        byte[] negative = bytes.clone();
        java.nio.ByteBuffer.wrap(negative).order(java.nio.ByteOrder.LITTLE_ENDIAN)
            .putInt(header + 3 * RecordingFormat.RECORD_BYTES + RecordingFormat.CONTACT_COUNT, -1);
        Files.write(file, negative);
        assertEquals(file + ": byte offset " + (header + 3 * RecordingFormat.RECORD_BYTES + RecordingFormat.CONTACT_COUNT)
            + ": record 3 has -1 contacts", assertThrows(IOException.class, () -> Recording.read(file)).getMessage());
        for (int rate : new int[] {0, -1000, 249, 4001}) {
            java.nio.ByteBuffer.wrap(bytes).order(java.nio.ByteOrder.LITTLE_ENDIAN).putInt(16, rate);
            Files.write(file, bytes);
            IOException e = assertThrows(IOException.class, () -> Recording.read(file));
            assertEquals(file + ": byte offset 16: loop rate " + rate + " Hz, outside the 250..4000 Hz a loop runs at",
                e.getMessage());
        }
    }

    @Test
    void shouldRefuseAFileThatIsNotARecording(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("not.rec");
        Files.writeString(file, "solid cube\nendsolid cube\n and more text to be long enough");
        IOException e = assertThrows(IOException.class, () -> Recording.read(file));
        assertEquals(file + ": byte offset 0: not a tick recording (no HAPTREC1 magic)", e.getMessage());
    }

    @Test
    void shouldReadARecordingCutShortWithoutItsTrailer(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("cut.rec");
        byte[] bytes = recordDefaultScene(file, 50);
        // Drop the 24-byte trailer and half of the last 168-byte record, as a crash would.
        Files.write(file, java.util.Arrays.copyOf(bytes, bytes.length - 24 - 84));
        Recording recording = Recording.read(file);
        assertFalse(recording.complete());
        assertEquals(49, recording.recordCount(), "whole records only");
        assertEquals(48, recording.tick(48));
        assertEquals(84, recording.leftoverBytes(), "the half record, which a replay says it leaves out");
        assertEquals("no trailer (its recorder stopped without closing it, or bytes were added after it; 84 bytes "
            + "after the last whole record): 49 whole records", recording.cutShortNote());
        Files.write(file, java.util.Arrays.copyOf(bytes, bytes.length - 24 - 168));
        assertEquals("no trailer (its recorder stopped without closing it): 49 whole records",
            Recording.read(file).cutShortNote());
        Files.write(file, bytes);
        assertNull(Recording.read(file).cutShortNote(), "a complete file");
    }

    /** Damaged records found by a user editing bytes: each refused at read with the byte offset, not at replay. */
    @Test
    void shouldRefuseRecordsNoRecorderWrites(@TempDir Path dir) throws Exception {
        byte[] good = recordDefaultScene(dir.resolve("good.rec"), 20);
        int records = good.length - 24 - 20 * RecordingFormat.RECORD_BYTES;
        int seventh = records + 7 * RecordingFormat.RECORD_BYTES;

        assertRefused(dir, good, seventh + RecordingFormat.DEVICE_FAULT, b -> b[seventh + RecordingFormat.DEVICE_FAULT]
            = (byte) 200, "record 7 has device fault code 200, outside 0..");
        assertRefused(dir, good, seventh + RecordingFormat.SAFETY_STATE, b -> b[seventh + RecordingFormat.SAFETY_STATE]
            = 9, "record 7 has safety state code 9, outside 0..");
        assertRefused(dir, good, seventh + RecordingFormat.FLAGS, b -> b[seventh + RecordingFormat.FLAGS] |= 0x40,
            "record 7 has flags 0x43, whose bits 2-7 are reserved (0 in every record)");
        assertRefused(dir, good, seventh + RecordingFormat.TIME_NS, b -> java.nio.ByteBuffer.wrap(b)
            .order(RecordingFormat.ORDER).putLong(seventh + RecordingFormat.TIME_NS, 5_999_999L),
            "record 7 has loop time 5999999 ns, earlier than the previous record's 6000000 ns");
        assertRefused(dir, good, records + RecordingFormat.TIME_NS, b -> java.nio.ByteBuffer.wrap(b)
            .order(RecordingFormat.ORDER).putLong(records + RecordingFormat.TIME_NS, -1L),
            "record 0 has loop time -1 ns, below 0");
        assertRefused(dir, good, seventh + RecordingFormat.DEVICE_POSITION_M, b -> java.nio.ByteBuffer.wrap(b)
            .order(RecordingFormat.ORDER).putDouble(seventh + RecordingFormat.DEVICE_POSITION_M, Double.NaN),
            "record 7 has a device position of NaN (axis x)");
        assertRefused(dir, good, seventh + RecordingFormat.TICK, b -> java.nio.ByteBuffer.wrap(b)
            .order(RecordingFormat.ORDER).putLong(seventh + RecordingFormat.TICK, 2L),
            "record 7 has tick 2, but the previous record's is 6 and it says 0 ticks were lost between them");
        // A tick made larger is named at its own record, not at the next one's.
        assertRefused(dir, good, seventh + RecordingFormat.TICK, b -> java.nio.ByteBuffer.wrap(b)
            .order(RecordingFormat.ORDER).putLong(seventh + RecordingFormat.TICK, 139_637_976_727_559L),
            "record 7 has tick 139637976727559, but the previous record's is 6");
        // A name length that swallows records into the name.
        assertRefused(dir, good, 24, b -> java.nio.ByteBuffer.wrap(b).order(RecordingFormat.ORDER).putInt(20, 1000),
            "the scene name (1000 bytes, the length at byte offset 20) ");
        assertRefused(dir, good, good.length - 16, b -> java.nio.ByteBuffer.wrap(b).order(RecordingFormat.ORDER)
            .putLong(b.length - 16, 12_345L), "the trailer says 12345 records, the file holds 20");
        // Version 3's device block, after the 4-byte scene name "wall": its name length at 28, the name at 32.
        int deviceName = java.nio.ByteBuffer.wrap(good).order(RecordingFormat.ORDER).getInt(28);
        int ratings = 32 + deviceName;
        assertRefused(dir, good, 28, b -> java.nio.ByteBuffer.wrap(b).order(RecordingFormat.ORDER).putInt(28, 0),
            "device name length 0 out of range");
        assertRefused(dir, good, 32, b -> b[33] = 7, "the device name (" + deviceName + " bytes, the length at byte "
            + "offset 28) holds a control character at character 1");
        assertRefused(dir, good, ratings, b -> java.nio.ByteBuffer.wrap(b).order(RecordingFormat.ORDER)
            .putDouble(ratings, Double.NaN), "the recorded device's peak force is NaN, not a finite positive value");
        assertRefused(dir, good, ratings + 8, b -> java.nio.ByteBuffer.wrap(b).order(RecordingFormat.ORDER)
            .putDouble(ratings + 8, 1e6), "the recorded device's continuous force 1000000.000 N is above its peak "
            + "force");
        // Cut in its header: the length is right, the file ends.
        byte[] cut = java.util.Arrays.copyOf(good, ratings + 5);
        Path cutFile = dir.resolve("cut-header.rec");
        Files.write(cutFile, cut);
        IOException e = assertThrows(IOException.class, () -> Recording.read(cutFile));
        assertEquals(cutFile + ": byte offset " + (ratings + 5) + ": the file ends in its header, before the device's "
            + "name (" + deviceName + " bytes) and ratings (32 bytes) that the length at byte offset 28 announces",
            e.getMessage());
        assertRefused(dir, good, ratings + 24, b -> java.nio.ByteBuffer.wrap(b).order(RecordingFormat.ORDER)
            .putDouble(ratings + 24, -1.0), "the recorded device's damping is -1.0, not a finite value of 0 or more");
    }

    /** {@code ticks} ticks of the default scene recorded to {@code file}; returns its bytes. */
    private static byte[] recordDefaultScene(Path file, int ticks) throws Exception {
        HapticLoop loop = defaultLoop();
        TickRecorder recorder = TickRecorder.start(file, "wall", 1000, Recording.Ratings.of(loop.device().info()),
            TickRecorder.DEFAULT_RING_BYTES, true);
        loop.setTickSink(recorder);
        for (long k = 0; k < ticks; k++) {
            loop.tick(k * 1_000_000L);
            loop.afterTick(false);
        }
        loop.shutdown();
        recorder.close();
        return Files.readAllBytes(file);
    }

    private static void assertRefused(Path dir, byte[] good, int offset,
                                      java.util.function.Consumer<byte[]> damage, String why) throws IOException {
        byte[] bad = good.clone();
        damage.accept(bad);
        Path file = dir.resolve("bad.rec");
        Files.write(file, bad);
        IOException e = assertThrows(IOException.class, () -> Recording.read(file));
        assertTrue(e.getMessage().startsWith(file + ": byte offset " + offset + ": " + why), e.getMessage());
    }

    @Test
    void shouldRecordFromTheCommandLine(@TempDir Path dir) throws Exception {
        Path csv = dir.resolve("w.csv");
        Path rec = dir.resolve("w.rec");
        StringWriter out = new StringWriter();
        int code = Main.run(new PrintWriter(out), new PrintWriter(new StringWriter()),
            "simulate", "--duration", "2", "--out", csv.toString(), "--record", rec.toString());
        assertEquals(0, code);
        assertTrue(out.toString().contains("recorded 2000 ticks to " + rec + " (0 lost)"), out.toString());
        Recording recording = Recording.read(rec);
        assertEquals(2000, recording.recordCount());
        String[] lastRow = Files.readAllLines(csv).get(2000).split(",");
        assertEquals(Double.parseDouble(lastRow[7]), recording.commandedForceN(1999, 0), 0.0,
            "the recording and the CSV agree on the force");
        // The summary line counts what the file holds: the gate opening into the ramp and the ramp ending (two
        // state changes), the stylus seen connected on the first tick, the wall touched at about 1 s and held.
        assertEquals("SAFETY_STATE_CHANGED 2, DEVICE_CONNECTED 1, CONTACT_BEGAN 1", recording.eventCounts().summary());
        assertTrue(out.toString().lines().anyMatch(
            line -> line.equals("events: SAFETY_STATE_CHANGED 2, DEVICE_CONNECTED 1, CONTACT_BEGAN 1")), out.toString());
    }
}
