package org.hapticsd.server.record;

import static org.hapticsd.server.record.RecordingFormat.ORDER;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.hapticsd.device.DeviceFault;
import org.hapticsd.server.loop.TickSchedule;
import org.hapticsd.server.safety.SafetyFault;
import org.hapticsd.server.safety.SafetyState;

/**
 * A tick recording read back from a file (docs/recording.md). Reads format versions 3 and 2 (2 has the same records
 * and no device ratings in its header): a version-1 file is refused with a message that names it, because its
 * records lack the delivered force, device health and events, and inventing values for them would make a replay or
 * an event count silently wrong.
 */
public final class Recording {
    private static final DeviceFault[] DEVICE_FAULTS = DeviceFault.values();
    /** The flag bits a record may have set; the others are reserved. */
    private static final int KNOWN_FLAGS = RecordingFormat.FLAG_DEVICE_FRESH | RecordingFormat.FLAG_DEVICE_CONNECTED;

    private final String sceneName;
    private final int rateHz;
    private final Ratings device;
    private final ByteBuffer records;
    private final int recordCount;
    private final boolean complete;
    private final long trailerRecords;
    private final long trailerLostTicks;
    private int leftoverBytes;

    private Recording(String sceneName, int rateHz, Ratings device, ByteBuffer records, int recordCount,
                      boolean complete, long trailerRecords, long trailerLostTicks) {
        this.sceneName = sceneName;
        this.rateHz = rateHz;
        this.device = device;
        this.records = records;
        this.recordCount = recordCount;
        this.complete = complete;
        this.trailerRecords = trailerRecords;
        this.trailerLostTicks = trailerLostTicks;
    }

    /** Reads a recording; a file that is not one gives an IOException naming the file and the byte offset. */
    public static Recording read(Path file) throws IOException {
        ByteBuffer all = ByteBuffer.wrap(Files.readAllBytes(file)).order(ORDER);
        byte[] magic = new byte[RecordingFormat.MAGIC.length];
        if (all.remaining() < magic.length + 16) {
            throw new IOException(file + ": byte offset 0: too short to be a tick recording");
        }
        all.get(magic);
        if (!Arrays.equals(magic, RecordingFormat.MAGIC)) {
            throw new IOException(file + ": byte offset 0: not a tick recording (no HAPTREC1 magic)");
        }
        int version = all.getInt();
        if (version != RecordingFormat.VERSION && version != RecordingFormat.VERSION_WITHOUT_DEVICE) {
            throw new IOException(file + ": byte offset 8: recording format version " + version
                + " is not supported, this build reads versions " + RecordingFormat.VERSION_WITHOUT_DEVICE + " and "
                + RecordingFormat.VERSION
                + (version == 1 ? " (version 1 lacks the delivered force, device health and events; record again)"
                    : ""));
        }
        int recordBytes = all.getInt();
        if (recordBytes != RecordingFormat.RECORD_BYTES) {
            throw new IOException(file + ": byte offset 12: record size " + recordBytes + ", expected "
                + RecordingFormat.RECORD_BYTES);
        }
        int rateHz = all.getInt();
        if (rateHz < TickSchedule.MIN_RATE_HZ
            || rateHz > TickSchedule.MAX_RATE_HZ) {
            // No recorder writes one: a replay advised "--rate 0", which the command line refuses, and calibrate
            // found "no taps" in a good tap recording (a tester).
            throw new IOException(file + ": byte offset 16: loop rate " + rateHz + " Hz, outside the "
                + TickSchedule.MIN_RATE_HZ + ".." + TickSchedule.MAX_RATE_HZ
                + " Hz a loop runs at");
        }
        int nameLength = all.getInt();
        if (nameLength < 0 || nameLength > all.remaining()) {
            throw new IOException(file + ": byte offset 20: scene name length " + nameLength + " out of range");
        }
        byte[] name = new byte[nameLength];
        all.get(name);
        String sceneName = headerText(file, name, "the scene name", 24, 20);
        Ratings device = version == RecordingFormat.VERSION ? ratings(file, all) : null;
        int recordsStart = all.position();
        int body = all.remaining();
        int trailerLength = RecordingFormat.END_MAGIC.length + 16;
        boolean complete = false;
        long trailerRecords = -1;
        long trailerLost = -1;
        if (body >= trailerLength && (body - trailerLength) % RecordingFormat.RECORD_BYTES == 0) {
            byte[] end = new byte[RecordingFormat.END_MAGIC.length];
            all.position(recordsStart + body - trailerLength);
            all.get(end);
            if (Arrays.equals(end, RecordingFormat.END_MAGIC)) {
                complete = true;
                trailerRecords = all.getLong();
                trailerLost = all.getLong();
                body -= trailerLength;
            }
        }
        int count = body / RecordingFormat.RECORD_BYTES;
        if (complete && trailerRecords != count) {
            throw new IOException(file + ": byte offset " + (recordsStart + body + RecordingFormat.END_MAGIC.length)
                + ": the trailer says " + trailerRecords + " records, the file holds " + count);
        }
        ByteBuffer records = all.duplicate().order(ORDER);
        records.position(recordsStart).limit(recordsStart + count * RecordingFormat.RECORD_BYTES);
        Recording recording = new Recording(sceneName, rateHz, device,
            records.slice().order(ORDER), count, complete, trailerRecords, trailerLost);
        recording.leftoverBytes = complete ? 0 : body - count * RecordingFormat.RECORD_BYTES;
        recording.check(file, recordsStart);
        return recording;
    }

    /**
     * Refuses, naming the byte offset, a record no recorder writes: a state, fault or device-fault code out of its
     * table, reserved flag bits set, a loop time below 0 or earlier than the record before, a device state or force
     * that is not finite, a tick that does not follow the one before. Found by a
     * record whose fault byte was 200, replayed into an ArrayIndexOutOfBoundsException, and one whose position was
     * NaN, refused only by the loop at that tick.
     */
    private void check(Path file, int recordsStart) throws IOException {
        long lostInRecords = 0;
        for (int i = 0; i < recordCount; i++) {
            requireCode(file, recordsStart, i, RecordingFormat.SAFETY_STATE, "safety state", SafetyState.ALL.length);
            requireCode(file, recordsStart, i, RecordingFormat.SAFETY_FAULT, "safety fault", SafetyFault.ALL.length);
            requireCode(file, recordsStart, i, RecordingFormat.DEVICE_FAULT, "device fault", DEVICE_FAULTS.length);
            int flags = records.get(at(i, RecordingFormat.FLAGS)) & 0xFF;
            if ((flags & ~KNOWN_FLAGS) != 0) {
                throw new IOException(file + ": byte offset " + (recordsStart + at(i, RecordingFormat.FLAGS))
                    + ": record " + i + " has flags 0x" + Integer.toHexString(flags) + ", whose bits 2-7 are reserved "
                    + "(0 in every record)");
            }
            // Loop time since the loop's first tick: never negative, never earlier than the record before.
            if (timeNs(i) < 0 || i > 0 && timeNs(i) < timeNs(i - 1)) {
                throw new IOException(file + ": byte offset " + (recordsStart + at(i, RecordingFormat.TIME_NS))
                    + ": record " + i + " has loop time " + timeNs(i) + " ns" + (timeNs(i) < 0 ? ", below 0"
                    : ", earlier than the previous record's " + timeNs(i - 1) + " ns"));
            }
            if (deviceFresh(i)) {
                requireFinite(file, recordsStart, i, RecordingFormat.DEVICE_POSITION_M, "device position");
                requireFinite(file, recordsStart, i, RecordingFormat.DEVICE_VELOCITY_MPS, "device velocity");
                requireFinite(file, recordsStart, i, RecordingFormat.DELIVERED_FORCE_N, "delivered force");
            }
            requireFinite(file, recordsStart, i, RecordingFormat.COMMANDED_FORCE_N, "commanded force");
            if (lostBefore(i) < 0) {
                throw new IOException(file + ": byte offset " + (recordsStart + at(i, RecordingFormat.LOST_BEFORE))
                    + ": record " + i + " has " + lostBefore(i) + " ticks lost before it");
            }
            if (contactCount(i) < 0) {
                throw new IOException(file + ": byte offset " + (recordsStart + at(i, RecordingFormat.CONTACT_COUNT))
                    + ": record " + i + " has " + contactCount(i) + " contacts");
            }
            lostInRecords += lostBefore(i);
            // Ticks are consecutive but for the lost ones, which the next record counts: an exact test, so a damaged
            // tick is named at its own record, not at the next one (a tester's edit of record 7 was blamed on 8).
            if (i > 0 && tick(i) != tick(i - 1) + 1 + lostBefore(i)) {
                throw new IOException(file + ": byte offset " + (recordsStart + at(i, RecordingFormat.TICK))
                    + ": record " + i + " has tick " + tick(i) + ", but the previous record's is " + tick(i - 1)
                    + " and it says " + lostBefore(i) + " ticks were lost between them");
            }
        }
        // The trailer's total counts the records' gaps and any ticks lost after the last record: never fewer.
        if (complete && trailerLostTicks < lostInRecords) {
            throw new IOException(file + ": byte offset " + (recordsStart + recordCount * RecordingFormat.RECORD_BYTES
                + RecordingFormat.END_MAGIC.length + 8) + ": the trailer says " + trailerLostTicks + " ticks were lost, "
                + "the records count " + lostInRecords);
        }
    }

    private void requireCode(Path file, int recordsStart, int i, int field, String what, int codes)
            throws IOException {
        int code = records.get(at(i, field)) & 0xFF;
        if (code >= codes) {
            throw new IOException(file + ": byte offset " + (recordsStart + at(i, field)) + ": record " + i + " has "
                + what + " code " + code + ", outside 0.." + (codes - 1));
        }
    }

    private void requireFinite(Path file, int recordsStart, int i, int field, String what) throws IOException {
        for (int axis = 0; axis < 3; axis++) {
            double value = records.getDouble(at(i, field) + 8 * axis);
            if (!Double.isFinite(value)) {
                throw new IOException(file + ": byte offset " + (recordsStart + at(i, field) + 8 * axis) + ": record "
                    + i + " has a " + what + " of " + value + " (axis " + "xyz".charAt(axis) + ")");
            }
        }
    }

    /**
     * Bytes after the last whole record of a file without a trailer (a recorder that died mid-record, or bytes
     * appended to a complete file, which then no longer ends in its trailer); 0 for a complete file.
     */
    /**
     * A name in the header, which must be one line of UTF-8 text. A name length that is wrong but within the file
     * (found by a tester: 100,000 in a 1.7 MB file) would otherwise swallow records as the name and be reported as a
     * record with a nonsense tick further on; records hold zero bytes and raw doubles, so the name check catches it.
     */
    private static String headerText(Path file, byte[] name, String what, int offset, int lengthOffset)
        throws IOException {
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
                .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT)
                .decode(ByteBuffer.wrap(name)).toString();
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new IOException(file + ": byte offset " + offset + ": " + what + " (" + name.length + " bytes, the "
                + "length at byte offset " + lengthOffset + ") is not UTF-8 text: the length is wrong or the header is "
                + "damaged");
        }
        for (int i = 0; i < text.length(); i++) {
            if (Character.isISOControl(text.charAt(i))) {
                throw new IOException(file + ": byte offset " + offset + ": " + what + " (" + name.length + " bytes, "
                    + "the length at byte offset " + lengthOffset + ") holds a control character at character " + i
                    + ": the length is wrong or the header is damaged");
            }
        }
        return text;
    }

    /**
     * The ratings of the device a recording was made with (version 3): what a replay reports, so that the safety
     * layer's ceiling and thermal limit are the original run's.
     *
     * @param name                the device's name as it reported itself (DeviceInfo)
     * @param maxForceN           peak force, N
     * @param maxContinuousForceN continuous force, N
     * @param maxStiffnessNpm     highest stable stiffness, N/m
     * @param dampingNspm         the mechanism's damping, N·s/m
     */
    public record Ratings(String name, double maxForceN, double maxContinuousForceN, double maxStiffnessNpm,
                          double dampingNspm) {
        public static Ratings of(org.hapticsd.device.DeviceInfo info) {
            return new Ratings(info.name(), info.maxForceN(), info.maxContinuousForceN(), info.maxStiffnessNpm(),
                info.dampingNspm());
        }
    }

    /** Version 3's device block, after the scene name; every rating checked as a device's own ratings are. */
    private static Ratings ratings(Path file, ByteBuffer all) throws IOException {
        int lengthAt = all.position();
        if (all.remaining() < 4) {
            throw new IOException(file + ": byte offset " + lengthAt + ": the header ends before the device's ratings");
        }
        int length = all.getInt();
        if (length < 1 || length > 1_000_000) {
            throw new IOException(file + ": byte offset " + lengthAt + ": device name length " + length
                + " out of range");
        }
        if (length > all.remaining() - RecordingFormat.DEVICE_RATINGS_BYTES) {
            // A file cut short in its header (a tester's, cut at 32 to 82 bytes, was told its length was wrong).
            throw new IOException(file + ": byte offset " + (lengthAt + 4 + all.remaining()) + ": the file ends in its "
                + "header, before the device's name (" + length + " bytes) and ratings ("
                + RecordingFormat.DEVICE_RATINGS_BYTES + " bytes) that the length at byte offset " + lengthAt
                + " announces");
        }
        byte[] name = new byte[length];
        all.get(name);
        String deviceName = headerText(file, name, "the device name", lengthAt + 4, lengthAt);
        int at = all.position();
        double[] values = new double[4];
        String[] what = {"peak force", "continuous force", "stiffness", "damping"};
        for (int i = 0; i < values.length; i++) {
            values[i] = all.getDouble();
            boolean ok = i == 3 ? values[i] >= 0 && Double.isFinite(values[i])
                : values[i] > 0 && Double.isFinite(values[i]);
            if (!ok) {
                throw new IOException(file + ": byte offset " + (at + 8 * i) + ": the recorded device's " + what[i]
                    + " is " + values[i] + (i == 3 ? ", not a finite value of 0 or more" : ", not a finite positive value"));
            }
        }
        if (values[1] > values[0]) {
            throw new IOException(file + ": byte offset " + (at + 8) + ": the recorded device's continuous force "
                + String.format(java.util.Locale.ROOT, "%.3f N is above its peak force %.3f N", values[1], values[0]));
        }
        return new Ratings(deviceName, values[0], values[1], values[2], values[3]);
    }

    public int leftoverBytes() {
        return leftoverBytes;
    }

    public String sceneName() {
        return sceneName;
    }

    public int rateHz() {
        return rateHz;
    }

    /** The ratings of the device recorded (version 3), or null for a version-2 file, which does not hold them. */
    public Ratings device() {
        return device;
    }

    public int recordCount() {
        return recordCount;
    }

    /**
     * What a reader of a file without a trailer should be told, for "recording FILE has ..." followed by what the
     * reader does with the records (replay and calibrate both say it); null for a complete file.
     */
    public String cutShortNote() {
        if (complete) {
            return null;
        }
        return "no trailer (its recorder stopped without closing it" + (leftoverBytes > 0
            ? ", or bytes were added after it; " + leftoverBytes + " bytes after the last whole record" : "")
            + "): " + recordCount + " whole records";
    }

    /**
     * What a replay of a file whose recorder lost ticks should be told, for "recording FILE ..." (null when no record
     * says ticks were lost before it): a replay plays the records back to back, so the device jumps across each gap
     * and the scene's clock runs behind the original's from the first one on (a tester's file lost 19,814 ticks in
     * one gap, and its replay said nothing). Losses after the last record are only in the trailer's total.
     */
    public String gapsNote() {
        long lost = 0;
        int gaps = 0;
        int first = -1;
        for (int i = 0; i < recordCount; i++) {
            if (lostBefore(i) > 0) {
                lost += lostBefore(i);
                gaps++;
                if (first < 0) {
                    first = i;
                }
            }
        }
        if (gaps == 0) {
            return null;
        }
        return String.format(java.util.Locale.ROOT, "lost %d ticks in %d gap%s while it recorded (the first %d before "
            + "record %d, tick %d): the replay plays the records back to back, so the device jumps across each gap and "
            + "the scene's time runs %d ticks behind the recording's by its end", lost, gaps, gaps == 1 ? "" : "s",
            lostBefore(first), first, tick(first), lost);
    }

    /** Whether the trailer is present (the recorder closed normally). */
    public boolean complete() {
        return complete;
    }

    /** Records the writer says it wrote, or −1 without a trailer. */
    public long trailerRecords() {
        return trailerRecords;
    }

    /** Ticks the recorder lost in total, or −1 without a trailer. */
    public long trailerLostTicks() {
        return trailerLostTicks;
    }

    private int at(int i, int field) {
        return i * RecordingFormat.RECORD_BYTES + field;
    }

    public long tick(int i) {
        return records.getLong(at(i, RecordingFormat.TICK));
    }

    public long timeNs(int i) {
        return records.getLong(at(i, RecordingFormat.TIME_NS));
    }

    public double devicePositionM(int i, int axis) {
        return records.getDouble(at(i, RecordingFormat.DEVICE_POSITION_M) + 8 * axis);
    }

    public double deviceVelocityMps(int i, int axis) {
        return records.getDouble(at(i, RecordingFormat.DEVICE_VELOCITY_MPS) + 8 * axis);
    }

    public long deviceSequence(int i) {
        return records.getLong(at(i, RecordingFormat.DEVICE_SEQUENCE));
    }

    public double renderedForceN(int i, int axis) {
        return records.getDouble(at(i, RecordingFormat.RENDERED_FORCE_N) + 8 * axis);
    }

    public double commandedForceN(int i, int axis) {
        return records.getDouble(at(i, RecordingFormat.COMMANDED_FORCE_N) + 8 * axis);
    }

    public int contactCount(int i) {
        return records.getInt(at(i, RecordingFormat.CONTACT_COUNT));
    }

    public SafetyState safety(int i) {
        return SafetyState.ALL[records.get(at(i, RecordingFormat.SAFETY_STATE))];
    }

    public SafetyFault fault(int i) {
        return SafetyFault.ALL[records.get(at(i, RecordingFormat.SAFETY_FAULT))];
    }

    public boolean deviceFresh(int i) {
        return (records.get(at(i, RecordingFormat.FLAGS)) & RecordingFormat.FLAG_DEVICE_FRESH) != 0;
    }

    /** The force the device reported applying when record {@code i}'s state was sampled, N, device frame. */
    public double deliveredForceN(int i, int axis) {
        return records.getDouble(at(i, RecordingFormat.DELIVERED_FORCE_N) + 8 * axis);
    }

    public boolean deviceConnected(int i) {
        return (records.get(at(i, RecordingFormat.FLAGS)) & RecordingFormat.FLAG_DEVICE_CONNECTED) != 0;
    }

    public DeviceFault deviceFault(int i) {
        return DEVICE_FAULTS[records.get(at(i, RecordingFormat.DEVICE_FAULT))];
    }

    /** The device's status word ({@code org.hapticsd.protocol.StatusFlags}). */
    public int deviceStatusFlags(int i) {
        return records.getInt(at(i, RecordingFormat.DEVICE_STATUS_FLAGS));
    }

    /** What happened in record {@code i}'s tick: bits of {@link org.hapticsd.server.loop.LoopEvents}. */
    public int events(int i) {
        return records.getInt(at(i, RecordingFormat.EVENTS));
    }

    /** How many records carry each event, over the whole file. */
    public EventCounts eventCounts() {
        EventCounts counts = new EventCounts();
        for (int i = 0; i < recordCount; i++) {
            counts.add(events(i));
        }
        return counts;
    }

    /** Ticks lost immediately before record {@code i}. */
    public long lostBefore(int i) {
        return records.getLong(at(i, RecordingFormat.LOST_BEFORE));
    }
}
