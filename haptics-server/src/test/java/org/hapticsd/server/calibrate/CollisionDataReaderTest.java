package org.hapticsd.server.calibrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The collision CSV: what it reads, and errors that name the file, line and column. */
class CollisionDataReaderTest {

    private static final String HEADER = "event,a,b,px,py,pz,nx,ny,nz,"
        + "a_mass,a_x,a_y,a_z,a_vx0,a_vy0,a_vz0,a_vx1,a_vy1,a_vz1,"
        + "b_mass,b_x,b_y,b_z,b_vx0,b_vy0,b_vz0,b_vx1,b_vy1,b_vz1";
    /** A tool tip (particle, 0.1 kg) striking a static surface at 0.5 m/s and leaving at 0.36 m/s. */
    private static final String TAP = "t1,tip,wall,0,0,0,0,0,1,0.1,0,0,0,0,0,-0.5,0,0,0.36,inf,0,0,-1,,,,,,";

    @Test
    void shouldReadAParticleStrikingABodyThatDoesNotMove() throws CollisionDataException {
        CollisionData data = CollisionDataReader.parse("taps.csv", List.of("# a comment", "", HEADER, TAP));
        assertEquals(1, data.events().size());
        CollisionData.Event event = data.events().get(0);
        assertFalse(event.multiPoint());
        CollisionData.Body tip = event.bodies().get(0);
        assertEquals(0.1, tip.massKg());
        assertNull(tip.inertiaKgM2(), "no inertia columns: a particle");
        assertFalse(tip.rotates());
        assertEquals(0.36, tip.velocityAfterMps().z());
        assertFalse(event.bodies().get(1).moves());
        assertEquals(1.0, event.contacts().get(0).normal().z());
        assertEquals(4, event.contacts().get(0).line());
    }

    /** Found by a tester: a spreadsheet's UTF-8 byte-order mark made the first column an "unknown column 'event'". */
    @Test
    void shouldReadACsvThatStartsWithAByteOrderMark() throws CollisionDataException {
        assertEquals(1, CollisionDataReader.parse("taps.csv", List.of("\uFEFF" + HEADER, TAP)).events().size());
        assertEquals(1, CollisionDataReader.parse("taps.csv", List.of("\uFEFF# exported", HEADER, TAP)).events().size());
    }

    @Test
    void shouldGroupTheRowsOfAnEventAndShareItsBodies() throws CollisionDataException {
        String b0 = "1,0,0,0,1,0,0,0.2,0,0";
        String b1 = "1,0.1,0,0,0,0,0,0.5,0,0";
        String b2 = "1,0.2,0,0,0,0,0,0.3,0,0";
        CollisionData data = CollisionDataReader.parse("row.csv", List.of(HEADER,
            "r,b1,b0,0.05,0,0,1,0,0," + b1 + "," + b0,
            "r,b2,b1,0.15,0,0,1,0,0," + b2 + "," + b1));
        CollisionData.Event event = data.events().get(0);
        assertTrue(event.multiPoint());
        assertEquals(3, event.bodies().size(), "b1 is one body in both rows");
        assertEquals(0, event.contacts().get(1).b(), "the second row's b is the first row's a");
    }

    @Test
    void shouldNameFileLineAndColumnOfABadCell() {
        List<String> lines = new ArrayList<>(List.of(HEADER, TAP, TAP.replace("t1,", "t2,").replace(",0.36,", ",fast,")));
        CollisionDataException e = assertThrows(CollisionDataException.class,
            () -> CollisionDataReader.parse("taps.csv", lines));
        assertEquals(3, e.line());
        assertEquals(19, e.column(), "a_vz1 is the 19th column");
        assertTrue(e.getMessage().startsWith("taps.csv:3:19: 'a_vz1' is not a number: 'fast'"), e.getMessage());
    }

    @Test
    void shouldRejectWhatCannotBeAMeasurement() {
        assertError("taps.csv:2:7: the normal (nx, ny, nz) must be a unit vector", TAP.replace(",0,0,1,0.1,", ",0,0,2,0.1,"));
        assertError("taps.csv:2:10: a mass must be > 0 kg", TAP.replace(",0.1,", ",-0.1,"));
        assertError("taps.csv:2:20: neither body moves", TAP.replace(",0.1,", ",inf,"));
        assertError("taps.csv:2:3: body 'tip' cannot collide with itself", TAP.replace("wall", "tip"));
        assertError("taps.csv:2: has 28 fields, the header 29", TAP.substring(0, TAP.length() - 1));
        assertError("taps.csv:1:30: unknown column 'speed'", null, HEADER + ",speed");
        // Force samples longer than an event's replay compare with nothing: force_dt 1e300 overflowed the replay's
        // buffer into a NegativeArraySizeException. 5 s of them still read.
        assertError("taps.csv:2:30: the 3 force samples every 1.0E300 s span 2.0E300 s, longer than the 5.0 s an "
            + "event is replayed for", TAP + ",1e300,1 2 3", HEADER + ",force_dt,force");
        assertError("taps.csv:2:30: the 3 force samples every 2.6 s span 5.2 s", TAP + ",2.6,1 2 3",
            HEADER + ",force_dt,force");
        assertError("taps.csv:1: the header has no column 'b_vz1'", null,
            HEADER.substring(0, HEADER.lastIndexOf(',')));
    }

    @Test
    void shouldReadForceSamplesSpanningAReplayedEvent() throws CollisionDataException {
        CollisionData data = CollisionDataReader.parse("taps.csv", List.of(HEADER + ",force_dt,force",
            TAP + ",2.5,1 2 3"));
        assertEquals(2.5, data.events().get(0).contacts().get(0).forceDtS());
        assertEquals(3, data.events().get(0).contacts().get(0).forceN().length);
    }

    @Test
    void shouldRejectABodyGivenDifferentValuesInTwoRowsOfOneEvent() {
        String b0 = "1,0,0,0,1,0,0,0.2,0,0";
        CollisionDataException e = assertThrows(CollisionDataException.class, () -> CollisionDataReader.parse(
            "row.csv", List.of(HEADER, "r,b1,b0,0.05,0,0,1,0,0,1,0.1,0,0,0,0,0,0.5,0,0," + b0,
                "r,b2,b1,0.15,0,0,1,0,0,1,0.2,0,0,0,0,0,0.3,0,0,1,0.1,0,0,0,0,0,0.6,0,0")));
        assertEquals(3, e.line());
        assertTrue(e.getMessage().contains("body 'b1' has vx1 = 0.6 here and 0.5 on line 2"), e.getMessage());
    }

    /** Found by a tester: a Latin-1 byte read "cannot read: Input length = 1", a missing file "cannot read: FILE". */
    @Test
    void shouldSayAFileIsMissingADirectoryOrNotUtf8(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
        throws Exception {
        java.nio.file.Path latin1 = dir.resolve("latin1.csv");
        java.nio.file.Files.write(latin1, ("# units: \u00b5s\n" + HEADER + "\n").getBytes(
            java.nio.charset.StandardCharsets.ISO_8859_1));
        assertEquals(latin1 + ": not UTF-8 text (line 1, byte offset 9: 0xb5)", assertThrows(
            CollisionDataException.class, () -> CollisionDataReader.read(latin1)).getMessage());
        java.nio.file.Path missing = dir.resolve("missing.csv");
        assertEquals(missing + ": not found", assertThrows(CollisionDataException.class,
            () -> CollisionDataReader.read(missing)).getMessage());
        assertEquals(dir + ": is a directory, not a file", assertThrows(CollisionDataException.class,
            () -> CollisionDataReader.read(dir)).getMessage());
        assertEquals(missing + ": not found", assertThrows(CollisionDataException.class,
            () -> CalibrationBounds.read(missing)).getMessage());
        // YAML's .nan read as "not YAML: Malformed numeric value" (a tester).
        java.nio.file.Path nan = java.nio.file.Files.writeString(dir.resolve("bounds.yaml"), "mu_s: [-1, .nan]\n");
        assertTrue(assertThrows(CollisionDataException.class, () -> CalibrationBounds.read(nan)).getMessage()
            .endsWith("a bound must be a finite number, got '.nan'"));
    }

    private static void assertError(String expectedStart, String row) {
        assertError(expectedStart, row, HEADER);
    }

    private static void assertError(String expectedStart, String row, String header) {
        List<String> lines = row == null ? List.of(header, TAP) : List.of(header, row);
        CollisionDataException e = assertThrows(CollisionDataException.class,
            () -> CollisionDataReader.parse("taps.csv", lines));
        assertTrue(e.getMessage().startsWith(expectedStart), e.getMessage());
    }
}
