package org.hapticsd.server.calibrate;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.hapticsd.server.loop.LoopEvents;
import org.hapticsd.server.record.Recording;
import org.hapticsd.server.record.RecordingFormat;
import org.joml.Vector3d;

/**
 * The taps in a tick recording ({@code run --record}) as collision data: each contact of the tool that begins and
 * ends within {@link #MAX_TAP_S} is one single-point collision of the tool (a particle of the given effective mass)
 * with a surface that does not move.
 *
 * <ul>
 *   <li>velocity before: the device's at the tick whose contact began ({@code CONTACT_BEGAN}), read before any
 *       contact force acted;</li>
 *   <li>velocity after: the device's at the tick the contact ended ({@code CONTACT_ENDED});</li>
 *   <li>normal: the direction of the rendered force on the first tick that has one (the contact spring pushes
 *       along the surface normal); point: the device's position then.</li>
 * </ul>
 * No force samples: the recorded force is the contact spring plus whatever transient was rendered, not a
 * measurement of the collision, so a recording identifies {@code e} and the friction coefficients, not
 * {@code S_h} and {@code S_w}. The hand's own force during the few milliseconds of a tap is neglected. Contacts
 * longer than {@link #MAX_TAP_S} (presses, strokes) and approaches slower than the impact threshold are skipped.
 */
public final class RecordedTaps {

    /** A contact longer than this is a press or a stroke, not a tap, s. */
    static final double MAX_TAP_S = 0.2;

    private RecordedTaps() {
    }

    /** Whether the file starts with the tick recording magic. */
    public static boolean isRecording(Path file) {
        byte[] magic = new byte[RecordingFormat.MAGIC.length];
        try (InputStream in = Files.newInputStream(file)) {
            return in.readNBytes(magic, 0, magic.length) == magic.length && Arrays.equals(magic, RecordingFormat.MAGIC);
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Reads the taps of a recording.
     *
     * @param effectiveMassKg the tool's effective mass (the recording does not carry it)
     * @param thresholdMps taps approaching slower than this are not collisions and are skipped
     */
    public static CollisionData read(Path file, double effectiveMassKg, double thresholdMps)
            throws CollisionDataException {
        return read(file, recording(file), effectiveMassKg, thresholdMps);
    }

    /** The recording in {@code file}, or a {@link CollisionDataException} saying why it cannot be read. */
    public static Recording recording(Path file) throws CollisionDataException {
        try {
            return Recording.read(file);
        } catch (IOException e) {
            throw new CollisionDataException(file.toString(), 0, 0, e.getMessage());
        }
    }

    /** {@link #read(Path, double, double)} of a recording already read from {@code file}. */
    public static CollisionData read(Path file, Recording recording, double effectiveMassKg, double thresholdMps)
            throws CollisionDataException {
        double dtS = 1.0 / recording.rateHz();
        int maxTicks = (int) Math.ceil(MAX_TAP_S / dtS);
        List<CollisionData.Event> events = new ArrayList<>();
        for (int i = 0; i < recording.recordCount(); i++) {
            if ((recording.events(i) & LoopEvents.CONTACT_BEGAN) == 0) {
                continue;
            }
            int end = -1;
            for (int j = i + 1; j < recording.recordCount() && j <= i + maxTicks; j++) {
                if ((recording.events(j) & LoopEvents.CONTACT_ENDED) != 0) {
                    end = j;
                    break;
                }
            }
            if (end < 0) {
                continue;
            }
            Vector3d normal = null;
            int at = i;
            for (int j = i; j < end && normal == null; j++) {
                Vector3d force = vector(recording, j, true);
                if (force.length() > 0.0) {
                    normal = force.normalize();
                    at = j;
                }
            }
            if (normal == null) {
                continue;
            }
            Vector3d before = vector(recording, i, false);
            if (-before.dot(normal) <= thresholdMps) {
                continue;
            }
            Vector3d after = vector(recording, end, false);
            Vector3d point = new Vector3d(recording.devicePositionM(at, 0), recording.devicePositionM(at, 1),
                recording.devicePositionM(at, 2));
            CollisionData.Body tool = new CollisionData.Body("tool", effectiveMassKg, null, point, before,
                new Vector3d(), after, new Vector3d(), false);
            CollisionData.Body surface = new CollisionData.Body("surface", Double.POSITIVE_INFINITY, null, point,
                new Vector3d(), new Vector3d(), new Vector3d(), new Vector3d(), false);
            CollisionData.Contact contact = new CollisionData.Contact(0, 1, point, normal, 0.0, null, i);
            events.add(new CollisionData.Event("tap@" + recording.tick(i), List.of(tool, surface), List.of(contact),
                i));
        }
        if (events.isEmpty()) {
            throw new CollisionDataException(file.toString(), 0, 0, "no taps: no contact of the tool began and "
                + "ended within " + (int) (MAX_TAP_S * 1000) + " ms approaching faster than " + thresholdMps
                + " m/s");
        }
        return new CollisionData(file.toString(), events);
    }

    private static Vector3d vector(Recording recording, int i, boolean force) {
        return force
            ? new Vector3d(recording.renderedForceN(i, 0), recording.renderedForceN(i, 1), recording.renderedForceN(i, 2))
            : new Vector3d(recording.deviceVelocityMps(i, 0), recording.deviceVelocityMps(i, 1),
                recording.deviceVelocityMps(i, 2));
    }
}
