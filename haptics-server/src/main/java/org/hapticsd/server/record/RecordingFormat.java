package org.hapticsd.server.record;

import java.nio.ByteOrder;

/**
 * The layout of a tick recording, version 3 (docs/recording.md). Little-endian throughout.
 *
 * <pre>
 * header   : magic "HAPTREC1" (8 bytes) | version int32 | record size int32 | rate Hz int32 |
 *            scene-name length int32 | scene name UTF-8 |
 *            device-name length int32 | device name UTF-8 | peak force, continuous force N, stiffness N/m,
 *            damping N·s/m (4 × float64)                                   (version 3; version 2 ends at the scene name)
 * record   : RECORD_BYTES bytes per tick, fields at the offsets below
 * trailer  : magic "HAPTEND1" (8 bytes) | records written int64 | ticks lost int64   (absent if the writer died)
 * </pre>
 *
 * <p>The magic names the file type and stays the same across versions; the version field says the layout. That
 * way a file of another version is still recognised as a recording and the reader can say which version it found,
 * instead of "not a recording".
 *
 * <p>Version 2 keeps every field of version 1 at its offset and appends the new ones (delivered force, events,
 * device status word), with the device fault in version 1's reserved byte and "connected" as a second flag bit.
 * A tool that reads the version-1 fields by offset keeps working; regrouping the fields by meaning was rejected for
 * that reason. The record stays a multiple of 8 bytes so its float64 fields stay aligned in the ring and the file.
 */
public final class RecordingFormat {
    public static final byte[] MAGIC = {'H', 'A', 'P', 'T', 'R', 'E', 'C', '1'};
    public static final byte[] END_MAGIC = {'H', 'A', 'P', 'T', 'E', 'N', 'D', '1'};
    public static final int VERSION = 3;
    /** The version before the header held the device's ratings: same records, read too. */
    public static final int VERSION_WITHOUT_DEVICE = 2;
    /** The device block's four float64 ratings after its name. */
    public static final int DEVICE_RATINGS_BYTES = 32;
    public static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;

    public static final int TICK = 0;
    public static final int TIME_NS = 8;
    public static final int DEVICE_POSITION_M = 16;
    public static final int DEVICE_VELOCITY_MPS = 40;
    public static final int DEVICE_SEQUENCE = 64;
    public static final int RENDERED_FORCE_N = 72;
    public static final int COMMANDED_FORCE_N = 96;
    public static final int CONTACT_COUNT = 120;
    public static final int SAFETY_STATE = 124;
    public static final int SAFETY_FAULT = 125;
    public static final int FLAGS = 126;
    /** uint8, the ordinal of {@link org.hapticsd.device.DeviceFault}. Version 1's reserved byte. */
    public static final int DEVICE_FAULT = 127;
    public static final int LOST_BEFORE = 128;
    /** 3 × float64, N: the force the device reported applying when this tick's state was sampled. */
    public static final int DELIVERED_FORCE_N = 136;
    /** int32, bits of {@link org.hapticsd.server.loop.LoopEvents}. */
    public static final int EVENTS = 160;
    /** int32, the device's status word ({@code org.hapticsd.protocol.StatusFlags}). */
    public static final int DEVICE_STATUS_FLAGS = 164;
    public static final int RECORD_BYTES = 168;

    /** {@link #FLAGS} bit: the device produced a fresh state this tick. */
    public static final int FLAG_DEVICE_FRESH = 1;
    /** {@link #FLAGS} bit: the device reported itself connected this tick. */
    public static final int FLAG_DEVICE_CONNECTED = 1 << 1;

    private RecordingFormat() {
    }
}
