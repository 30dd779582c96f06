package org.hapticsd.server.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.hapticsd.server.cli.Main;
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
        // run commands exactly the recorded forces. Columns 1..9 are device, tool and force; 10 is safety.
        for (int i = 1; i < a.size(); i++) {
            String[] x = a.get(i).split(",");
            String[] y = b.get(i).split(",");
            for (int c = 1; c <= 10; c++) {
                assertEquals(x[c], y[c], "row " + i + " column " + c);
            }
        }
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
