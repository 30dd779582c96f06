package org.hapticsd.server.record;

import java.nio.ByteOrder;

/**
 * The layout of a tick recording (docs/recording.md). Little-endian throughout.
 *
 * <pre>
 * header   : magic "HAPTREC1" (8 bytes) | version int32 | record size int32 | rate Hz int32 |
 *            scene-name length int32 | scene name UTF-8
 * record   : RECORD_BYTES bytes per tick, fields at the offsets below
 * trailer  : magic "HAPTEND1" (8 bytes) | records written int64 | ticks lost int64   (absent if the writer died)
 * </pre>
 */
public final class RecordingFormat {
    public static final byte[] MAGIC = {'H', 'A', 'P', 'T', 'R', 'E', 'C', '1'};
    public static final byte[] END_MAGIC = {'H', 'A', 'P', 'T', 'E', 'N', 'D', '1'};
    public static final int VERSION = 1;
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
    public static final int LOST_BEFORE = 128;
    public static final int RECORD_BYTES = 136;

    /** {@link #FLAGS} bit: the device produced a fresh state this tick. */
    public static final int FLAG_DEVICE_FRESH = 1;

    private RecordingFormat() {
    }
}
