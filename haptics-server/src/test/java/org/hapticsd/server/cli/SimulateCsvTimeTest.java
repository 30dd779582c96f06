package org.hapticsd.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The CSV's time column reads as the tick's time in seconds, without float noise (a tester: 2.9130000000000003). */
class SimulateCsvTimeTest {

    @Test
    void shouldWriteEachTicksTimeAsItsShortestDecimal(@TempDir Path dir) throws Exception {
        Path csv = dir.resolve("w.csv");
        CliCall call = CliCall.run("simulate", "--duration", "5", "--out", csv.toString());
        assertEquals(0, call.exitCode(), call.toString());
        List<String> rows = Files.readAllLines(csv);
        assertEquals(5001, rows.size());
        for (int k = 0; k < 5000; k++) {
            String t = rows.get(k + 1).substring(0, rows.get(k + 1).indexOf(','));
            assertEquals(Double.toString(k / 1000.0), t, "row " + k);
        }
        assertEquals("2.913", rows.get(2914).substring(0, 5));
    }

    /** Below a millisecond (a 4 kHz loop) a double printed 2.5E-4. */
    @Test
    void shouldWriteSecondsWithoutExponents() {
        assertEquals("0.0", seconds(0));
        assertEquals("0.00025", seconds(250_000));
        assertEquals("0.000000001", seconds(1));
        assertEquals("1.0", seconds(1_000_000_000L));
        assertEquals("2.913", seconds(2_913_000_000L));
        assertEquals("3600.0000005", seconds(3_600_000_000_500L));
    }

    private static String seconds(long ns) {
        StringBuilder b = new StringBuilder();
        CsvTickWriter.appendSeconds(b, ns);
        return b.toString();
    }
}
