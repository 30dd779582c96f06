package org.hapticsd.server.calibrate;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.joml.Matrix3d;
import org.joml.Vector3d;

/**
 * Reads measured collisions from CSV (docs/calibration.md, "The data file"): a header naming the columns, then one
 * row per contact. Rows with the same {@code event} are the contacts of one event; a body named in several rows of
 * an event must be given the same values in each. Lines starting with {@code #} and blank lines are skipped. Every
 * error names the file, line and column.
 *
 * <p>Columns (any order; SI units, world frame at the onset):
 * <ul>
 *   <li>{@code event}, {@code a}, {@code b}: the event and the two bodies' names;</li>
 *   <li>{@code px,py,pz}: the contact point, m; {@code nx,ny,nz}: the unit normal from b toward a;</li>
 *   <li>per body, prefix {@code a_} or {@code b_}: {@code mass} (kg, {@code inf} for a body that does not move),
 *       {@code x,y,z} (centre of mass, m), {@code vx0,vy0,vz0} and {@code vx1,vy1,vz1} (velocity before and after
 *       the event, m/s; may be empty for a body that does not move), optional {@code ixx,iyy,izz,ixy,ixz,iyz}
 *       (inertia about the centre of mass, kg·m²; all empty: a particle), optional {@code wx0,wy0,wz0} and
 *       {@code wx1,wy1,wz1} (angular velocity, rad/s; empty after: not measured);</li>
 *   <li>optional {@code force_dt} (s) and {@code force}: the normal force on a, N, sampled every {@code force_dt}
 *       from the onset, as numbers separated by spaces.</li>
 * </ul>
 */
public final class CollisionDataReader {

    private static final String[] REQUIRED = {
        "event", "a", "b", "px", "py", "pz", "nx", "ny", "nz",
        "a_mass", "a_x", "a_y", "a_z", "a_vx0", "a_vy0", "a_vz0", "a_vx1", "a_vy1", "a_vz1",
        "b_mass", "b_x", "b_y", "b_z", "b_vx0", "b_vy0", "b_vz0", "b_vx1", "b_vy1", "b_vz1",
    };
    private static final String[] INERTIA = {"ixx", "iyy", "izz", "ixy", "ixz", "iyz"};
    private static final String[] OPTIONAL = {
        "a_ixx", "a_iyy", "a_izz", "a_ixy", "a_ixz", "a_iyz", "a_wx0", "a_wy0", "a_wz0", "a_wx1", "a_wy1", "a_wz1",
        "b_ixx", "b_iyy", "b_izz", "b_ixy", "b_ixz", "b_iyz", "b_wx0", "b_wy0", "b_wz0", "b_wx1", "b_wy1", "b_wz1",
        "force_dt", "force",
    };
    /** How far a normal's length may be from 1 before it is taken for a mistake rather than rounding. */
    private static final double UNIT_TOLERANCE = 0.01;
    /** Relative difference beyond which two rows give one body different values. */
    private static final double SAME_TOLERANCE = 1e-9;

    private final String source;
    private final Map<String, Integer> columns = new HashMap<>();
    private String[] cells;
    private int line;

    private CollisionDataReader(String source) {
        this.source = source;
    }

    /** Reads a file; its name (as given) is the source in messages. */
    public static CollisionData read(Path file) throws CollisionDataException {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new CollisionDataException(file.toString(), 0, 0, readProblem(file, e));
        }
        return parse(file.toString(), lines);
    }

    /**
     * Why a data or bounds file could not be read, in a user's words: a tester got "cannot read: Input length = 1"
     * for a Latin-1 byte, and "cannot read: FILE" for a file that does not exist.
     */
    static String readProblem(Path file, IOException e) {
        if (e instanceof java.nio.file.NoSuchFileException) {
            return "not found";
        }
        if (Files.isDirectory(file)) {
            return "is a directory, not a file";
        }
        if (e instanceof java.nio.charset.CharacterCodingException) {
            return "not UTF-8 text" + org.hapticsd.server.scene.SceneLoader.firstInvalidUtf8(file);
        }
        return "cannot read: " + e.getMessage();
    }

    /** Parses the lines of a data file. */
    public static CollisionData parse(String source, List<String> lines) throws CollisionDataException {
        return new CollisionDataReader(source).parse(lines);
    }

    private CollisionData parse(List<String> lines) throws CollisionDataException {
        Map<String, EventBuilder> events = new LinkedHashMap<>();
        boolean header = false;
        for (int i = 0; i < lines.size(); i++) {
            line = i + 1;
            String text = lines.get(i).strip();
            if (i == 0 && text.startsWith("\uFEFF")) {
                // The byte-order mark a spreadsheet writes at the start of a UTF-8 CSV: the header's first column
                // was refused as an unknown column whose name looked right (a tester).
                text = text.substring(1).strip();
            }
            if (text.isEmpty() || text.startsWith("#")) {
                continue;
            }
            cells = text.split(",", -1);
            for (int c = 0; c < cells.length; c++) {
                cells[c] = cells[c].strip();
            }
            if (!header) {
                readHeader();
                header = true;
                continue;
            }
            if (cells.length != columns.size()) {
                throw error(0, "has " + cells.length + " fields, the header " + columns.size());
            }
            readRow(events);
        }
        if (!header) {
            throw new CollisionDataException(source, 0, 0, "no header line (and no data)");
        }
        if (events.isEmpty()) {
            throw new CollisionDataException(source, 0, 0, "no collisions: the file has a header and no rows");
        }
        List<CollisionData.Event> built = new ArrayList<>();
        for (EventBuilder event : events.values()) {
            built.add(new CollisionData.Event(event.id, event.bodies, event.contacts, event.line));
        }
        return new CollisionData(source, built);
    }

    private void readHeader() throws CollisionDataException {
        for (int c = 0; c < cells.length; c++) {
            String name = cells[c].toLowerCase(Locale.ROOT);
            if (!isKnown(name)) {
                throw error(c + 1, "unknown column '" + cells[c] + "' (docs/calibration.md lists the columns)");
            }
            if (columns.put(name, c) != null) {
                throw error(c + 1, "column '" + name + "' appears twice");
            }
        }
        for (String name : REQUIRED) {
            if (!columns.containsKey(name)) {
                throw error(0, "the header has no column '" + name + "'");
            }
        }
        if (columns.containsKey("force") != columns.containsKey("force_dt")) {
            throw error(0, "columns 'force' and 'force_dt' go together");
        }
    }

    private static boolean isKnown(String name) {
        for (String known : REQUIRED) {
            if (known.equals(name)) {
                return true;
            }
        }
        for (String known : OPTIONAL) {
            if (known.equals(name)) {
                return true;
            }
        }
        return false;
    }

    private void readRow(Map<String, EventBuilder> events) throws CollisionDataException {
        String id = text("event");
        String nameA = text("a");
        String nameB = text("b");
        for (String name : new String[] {"event", "a", "b"}) {
            if (text(name).isEmpty()) {
                throw error(column(name), "'" + name + "' is empty");
            }
        }
        if (nameA.equals(nameB)) {
            throw error(column("b"), "body '" + nameB + "' cannot collide with itself");
        }
        EventBuilder event = events.computeIfAbsent(id, key -> new EventBuilder(key, line));
        int a = body(event, "a", nameA);
        int b = body(event, "b", nameB);
        if (!event.bodies.get(a).moves() && !event.bodies.get(b).moves()) {
            throw error(column("b_mass"), "neither body moves (both masses are inf)");
        }
        for (CollisionData.Contact other : event.contacts) {
            if (other.a() == a && other.b() == b || other.a() == b && other.b() == a) {
                throw error(column("b"), "event '" + id + "' already has a contact between '" + nameA + "' and '"
                    + nameB + "' (line " + other.line() + ")");
            }
        }
        Vector3d point = vector("px", "py", "pz", false);
        Vector3d normal = vector("nx", "ny", "nz", false);
        double length = normal.length();
        if (Math.abs(length - 1.0) > UNIT_TOLERANCE) {
            throw error(column("nx"), "the normal (nx, ny, nz) must be a unit vector, its length is " + length);
        }
        normal.div(length);
        double forceDtS = 0.0;
        double[] forceN = null;
        if (columns.containsKey("force") && !text("force").isEmpty()) {
            forceDtS = number("force_dt");
            if (!(forceDtS > 0.0)) {
                throw error(column("force_dt"), "force_dt must be > 0 s, was " + forceDtS);
            }
            forceN = samples("force");
            // The replay stops after Calibration.MAX_EVENT_S, so samples beyond it compare with nothing (force_dt
            // 1e300 overflowed the replay's buffer size into a NegativeArraySizeException).
            double spanS = (forceN.length - 1) * forceDtS;
            if (!(spanS <= Calibration.MAX_EVENT_S)) {
                throw error(column("force_dt"), String.format(Locale.ROOT, "the %d force samples every %s s span %s s, "
                    + "longer than the %s s an event is replayed for", forceN.length, forceDtS, spanS,
                    Calibration.MAX_EVENT_S));
            }
        }
        event.contacts.add(new CollisionData.Contact(a, b, point, normal, forceDtS, forceN, line));
    }

    /** The body named in this row's {@code side} columns: added to the event, or checked against its first row. */
    private int body(EventBuilder event, String side, String name) throws CollisionDataException {
        CollisionData.Body body = readBody(side, name);
        Integer known = event.index.get(name);
        if (known == null) {
            event.index.put(name, event.bodies.size());
            event.bodies.add(body);
            event.bodyLines.add(line);
            return event.bodies.size() - 1;
        }
        CollisionData.Body first = event.bodies.get(known);
        compare(side, "mass", first.massKg(), body.massKg(), event.bodyLines.get(known), name);
        compare(side, "x", first.positionM().x(), body.positionM().x(), event.bodyLines.get(known), name);
        compare(side, "y", first.positionM().y(), body.positionM().y(), event.bodyLines.get(known), name);
        compare(side, "z", first.positionM().z(), body.positionM().z(), event.bodyLines.get(known), name);
        compare(side, "vx0", first.velocityBeforeMps().x(), body.velocityBeforeMps().x(), event.bodyLines.get(known),
            name);
        compare(side, "vy0", first.velocityBeforeMps().y(), body.velocityBeforeMps().y(), event.bodyLines.get(known),
            name);
        compare(side, "vz0", first.velocityBeforeMps().z(), body.velocityBeforeMps().z(), event.bodyLines.get(known),
            name);
        compare(side, "vx1", first.velocityAfterMps().x(), body.velocityAfterMps().x(), event.bodyLines.get(known),
            name);
        compare(side, "vy1", first.velocityAfterMps().y(), body.velocityAfterMps().y(), event.bodyLines.get(known),
            name);
        compare(side, "vz1", first.velocityAfterMps().z(), body.velocityAfterMps().z(), event.bodyLines.get(known),
            name);
        return known;
    }

    private void compare(String side, String field, double first, double here, int firstLine, String name)
            throws CollisionDataException {
        boolean same = first == here
            || Math.abs(first - here) <= SAME_TOLERANCE * Math.max(1.0, Math.max(Math.abs(first), Math.abs(here)));
        if (!same) {
            throw error(column(side + "_" + field), "body '" + name + "' has " + field + " = " + here + " here and "
                + first + " on line " + firstLine + " of the same event");
        }
    }

    private CollisionData.Body readBody(String side, String name) throws CollisionDataException {
        double massKg = mass(side + "_mass");
        boolean moves = Double.isFinite(massKg);
        Vector3d position = vector(side + "_x", side + "_y", side + "_z", false);
        Vector3d before = vector(side + "_vx0", side + "_vy0", side + "_vz0", !moves);
        Vector3d after = vector(side + "_vx1", side + "_vy1", side + "_vz1", !moves);
        Matrix3d inertia = inertia(side);
        Vector3d angularBefore = optionalVector(side + "_wx0", side + "_wy0", side + "_wz0");
        Vector3d angularAfter = optionalVector(side + "_wx1", side + "_wy1", side + "_wz1");
        boolean angularMeasured = angularAfter != null && moves && inertia != null;
        return new CollisionData.Body(name, massKg, inertia, position, before,
            angularBefore == null ? new Vector3d() : angularBefore, after,
            angularAfter == null ? new Vector3d() : angularAfter, angularMeasured);
    }

    private double mass(String name) throws CollisionDataException {
        String cell = text(name);
        if (cell.equalsIgnoreCase("inf") || cell.equalsIgnoreCase("infinity")) {
            return Double.POSITIVE_INFINITY;
        }
        double massKg = number(name);
        if (!(massKg > 0.0)) {
            throw error(column(name), "a mass must be > 0 kg (inf for a body that does not move), was " + cell);
        }
        return massKg;
    }

    /** The inertia tensor of a side: all six cells, or none (a particle); it must be positive definite. */
    private Matrix3d inertia(String side) throws CollisionDataException {
        int given = 0;
        for (String field : INERTIA) {
            String name = side + "_" + field;
            if (columns.containsKey(name) && !text(name).isEmpty()) {
                given++;
            }
        }
        if (given == 0) {
            return null;
        }
        if (given < INERTIA.length) {
            for (String field : INERTIA) {
                String name = side + "_" + field;
                if (!columns.containsKey(name) || text(name).isEmpty()) {
                    throw error(columns.containsKey(name) ? column(name) : 0,
                        "the inertia needs all six of " + side + "_ixx … " + side + "_iyz, or none (a particle); "
                            + name + " is missing");
                }
            }
        }
        double ixx = number(side + "_ixx");
        double iyy = number(side + "_iyy");
        double izz = number(side + "_izz");
        double ixy = number(side + "_ixy");
        double ixz = number(side + "_ixz");
        double iyz = number(side + "_iyz");
        // Positive definite: Sylvester's criterion on the leading minors.
        double m2 = ixx * iyy - ixy * ixy;
        double m3 = ixx * (iyy * izz - iyz * iyz) - ixy * (ixy * izz - iyz * ixz) + ixz * (ixy * iyz - iyy * ixz);
        if (!(ixx > 0.0 && m2 > 0.0 && m3 > 0.0)) {
            throw error(column(side + "_ixx"), "the inertia tensor of '" + text(side) + "' is not positive definite");
        }
        // JOML is column-major: (m00, m01, m02) is the first column; the tensor is symmetric either way.
        return new Matrix3d(ixx, ixy, ixz, ixy, iyy, iyz, ixz, iyz, izz);
    }

    private Vector3d vector(String x, String y, String z, boolean emptyIsZero) throws CollisionDataException {
        return new Vector3d(number(x, emptyIsZero), number(y, emptyIsZero), number(z, emptyIsZero));
    }

    /** Three optional cells: all empty (or absent) is null, some empty is an error. */
    private Vector3d optionalVector(String x, String y, String z) throws CollisionDataException {
        boolean hasX = columns.containsKey(x) && !text(x).isEmpty();
        boolean hasY = columns.containsKey(y) && !text(y).isEmpty();
        boolean hasZ = columns.containsKey(z) && !text(z).isEmpty();
        if (!hasX && !hasY && !hasZ) {
            return null;
        }
        if (!(hasX && hasY && hasZ)) {
            String missing = !hasX ? x : !hasY ? y : z;
            throw error(columns.containsKey(missing) ? column(missing) : 0,
                x + ", " + y + " and " + z + " go together: " + missing + " is missing");
        }
        return vector(x, y, z, false);
    }

    private double[] samples(String name) throws CollisionDataException {
        String[] parts = text(name).split("\\s+");
        double[] values = new double[parts.length];
        for (int i = 0; i < parts.length; i++) {
            try {
                values[i] = Double.parseDouble(parts[i]);
            } catch (NumberFormatException e) {
                throw error(column(name), "sample " + (i + 1) + " of '" + name + "' is not a number: '" + parts[i]
                    + "'");
            }
            if (!Double.isFinite(values[i])) {
                throw error(column(name), "sample " + (i + 1) + " of '" + name + "' is not finite");
            }
        }
        return values;
    }

    private double number(String name) throws CollisionDataException {
        return number(name, false);
    }

    private double number(String name, boolean emptyIsZero) throws CollisionDataException {
        String cell = text(name);
        if (cell.isEmpty()) {
            if (emptyIsZero) {
                return 0.0;
            }
            throw error(column(name), "'" + name + "' is empty");
        }
        double value;
        try {
            value = Double.parseDouble(cell);
        } catch (NumberFormatException e) {
            throw error(column(name), "'" + name + "' is not a number: '" + cell + "'");
        }
        if (!Double.isFinite(value)) {
            throw error(column(name), "'" + name + "' must be finite, was '" + cell + "'");
        }
        return value;
    }

    private String text(String name) {
        return cells[columns.get(name)];
    }

    private int column(String name) {
        return columns.get(name) + 1;
    }

    private CollisionDataException error(int column, String message) {
        return new CollisionDataException(source, line, column, message);
    }

    private static final class EventBuilder {
        final String id;
        final int line;
        final List<CollisionData.Body> bodies = new ArrayList<>();
        final List<Integer> bodyLines = new ArrayList<>();
        final Map<String, Integer> index = new HashMap<>();
        final List<CollisionData.Contact> contacts = new ArrayList<>();

        EventBuilder(String id, int line) {
            this.id = id;
            this.line = line;
        }
    }
}
