package org.hapticsd.server.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.hapticsd.device.sim.WaypointHandTarget;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code --hand-path} CSV: what it accepts, and that every rejection names the file and the line. */
class HandPathFileTest {
    @TempDir
    Path dir;

    private Path file(String text) throws IOException {
        return Files.writeString(dir.resolve("path.csv"), text);
    }

    private String error(String text, boolean loop) throws IOException {
        Path path = file(text);
        return assertThrows(UsageException.class, () -> HandPathFile.load(path, loop)).getMessage();
    }

    @Test
    void shouldReadWaypointsSkippingHeaderCommentsAndBlankLines() throws IOException {
        WaypointHandTarget target = HandPathFile.load(file("""
            # a press along x
            T, X, Y, Z

            0.0, 0.00, 0.0, 0.0
              1.0 ,0.02,0.01,-0.01   # out
            2.0, 0.00, 0.0, 0.0
            """), false);

        assertEquals(3, target.size());
        double[] at = new double[3];
        target.targetAt(0.5, at);
        // Halfway along the first segment; 1e-15 m is rounding of the linear interpolation.
        assertArrayEquals(new double[] {0.01, 0.005, -0.005}, at, 1e-15);
        target.targetAt(9.0, at);
        assertArrayEquals(new double[] {0.0, 0.0, 0.0}, at, 0.0, "the last point is held after the last time");
    }

    @Test
    void shouldRepeatWithLoop() throws IOException {
        WaypointHandTarget target = HandPathFile.load(file("0,0,0,0\n1,0.02,0,0\n2,0,0,0\n"), true);
        double[] at = new double[3];
        target.targetAt(2.5, at);
        assertEquals(0.01, at[0], 1e-15, "t = 2.5 s is t = 0.5 s of the second lap");
    }

    @Test
    void shouldNameLineOfWrongFieldCount() throws IOException {
        assertEquals("--hand-path " + dir.resolve("path.csv")
                + ":3: expected t,x,y,z (4 numbers), got 3 fields: '1,0.02,0'",
            error("0,0,0,0\n\n1,0.02,0\n", false));
    }

    @Test
    void shouldNameLineAndFieldOfANonNumber() throws IOException {
        assertEquals("--hand-path " + dir.resolve("path.csv") + ":1: x '2cm' is not a number",
            error("0,2cm,0,0\n", false));
    }

    @Test
    void shouldRejectNonFiniteValues() throws IOException {
        assertEquals("--hand-path " + dir.resolve("path.csv") + ":2: z must be finite, got 'NaN'",
            error("0,0,0,0\n1,0,0,NaN\n", false));
    }

    @Test
    void shouldNameBothLinesOfTimesThatDoNotIncrease() throws IOException {
        assertEquals("--hand-path " + dir.resolve("path.csv") + ":4: time 1.0 s must be after 1.0 s on line 2",
            error("0,0,0,0\n1,0,0,0\n# same time again\n1,0.01,0,0\n", true));
    }

    @Test
    void shouldRejectAFileWithoutWaypoints() throws IOException {
        assertEquals("--hand-path " + dir.resolve("path.csv") + ": no waypoints (expected lines of t,x,y,z)",
            error("# nothing\nt,x,y,z\n\n", false));
    }

    @Test
    void shouldRejectALoopWithoutAPositivePeriod() throws IOException {
        assertEquals("--hand-path " + dir.resolve("path.csv")
                + ":1: --hand-loop repeats with period = the last time, which must be > 0 s, got 0.0 s",
            error("0,0,0,0\n", true));
        assertEquals("--hand-path " + dir.resolve("path.csv") + ":1: --hand-loop needs the first time >= 0 s, got -1.0 s",
            error("-1,0,0,0\n1,0,0,0\n", true));
    }

    @Test
    void shouldRejectAMissingFile() {
        Path missing = dir.resolve("missing.csv");
        assertEquals("--hand-path " + missing + ": not found",
            assertThrows(UsageException.class, () -> HandPathFile.load(missing, false)).getMessage());
    }
}
