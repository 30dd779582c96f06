package org.hapticsd.server.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.List;
import org.hapticsd.device.DeviceFault;
import org.hapticsd.server.loop.LoopEvents;
import org.hapticsd.server.safety.SafetyFault;
import org.hapticsd.server.safety.SafetyState;
import org.junit.jupiter.api.Test;

/** The version-2 layout as docs/recording.md states it; a change here is a format change and needs a new version. */
class RecordingFormatTest {

    @Test
    void shouldTileTheRecordWithTheDocumentedFieldsAndNoGap() {
        // {offset, size} in documented order.
        int[][] fields = {
            {RecordingFormat.TICK, 8}, {RecordingFormat.TIME_NS, 8}, {RecordingFormat.DEVICE_POSITION_M, 24},
            {RecordingFormat.DEVICE_VELOCITY_MPS, 24}, {RecordingFormat.DEVICE_SEQUENCE, 8},
            {RecordingFormat.RENDERED_FORCE_N, 24}, {RecordingFormat.COMMANDED_FORCE_N, 24},
            {RecordingFormat.CONTACT_COUNT, 4}, {RecordingFormat.SAFETY_STATE, 1}, {RecordingFormat.SAFETY_FAULT, 1},
            {RecordingFormat.FLAGS, 1}, {RecordingFormat.DEVICE_FAULT, 1}, {RecordingFormat.LOST_BEFORE, 8},
            {RecordingFormat.DELIVERED_FORCE_N, 24}, {RecordingFormat.EVENTS, 4},
            {RecordingFormat.DEVICE_STATUS_FLAGS, 4},
        };
        int end = 0;
        for (int[] field : fields) {
            assertEquals(end, field[0], "each field starts where the previous one ends");
            end += field[1];
        }
        assertEquals(168, end);
        assertEquals(RecordingFormat.RECORD_BYTES, end);
        assertEquals(3, RecordingFormat.VERSION);
        assertEquals(0, RecordingFormat.RECORD_BYTES % 8, "float64 fields stay 8-aligned record after record");
    }

    /** The enums are stored by ordinal; reordering one would silently change what old files mean. */
    @Test
    void shouldKeepTheDocumentedCodesOfTheStoredEnums() {
        assertEquals(List.of("GATED", "RAMPING", "ACTIVE", "SAFE", "ESTOP"), names(SafetyState.values()));
        assertEquals(List.of("NONE", "WATCHDOG", "DEVICE", "NON_FINITE_FORCE", "OVERRUNS", "INTERNAL_ERROR"),
            names(SafetyFault.values()));
        assertEquals(List.of("NONE", "LINK_LOST", "OVER_FORCE", "WATCHDOG", "INTERNAL", "NOT_HOMED"),
            names(DeviceFault.values()));
    }

    @Test
    void shouldKeepTheDocumentedEventBits() {
        int[] bits = {
            LoopEvents.SAFETY_STATE_CHANGED, LoopEvents.SAFETY_FAULT_RAISED, LoopEvents.DEVICE_CONNECTED,
            LoopEvents.DEVICE_DISCONNECTED, LoopEvents.DEVICE_FAULT_CHANGED, LoopEvents.DEVICE_STATUS_CHANGED,
            LoopEvents.CONTACT_BEGAN, LoopEvents.CONTACT_ENDED, LoopEvents.OVERRUN, LoopEvents.COMMAND_APPLIED,
            LoopEvents.COMMAND_REJECTED, LoopEvents.STAGE_ERROR, LoopEvents.SCENE_CHANGED, LoopEvents.PAUSE_CHANGED,
            LoopEvents.PHYSICS_BUDGET_CHANGED, LoopEvents.CONTACTS_DROPPED, LoopEvents.IMPACT_TRANSIENT,
            LoopEvents.IMPULSE_COLLISION, LoopEvents.THERMAL_LIMIT_CHANGED, LoopEvents.PHYSICS_STEP_DROPPED,
            LoopEvents.GRAB_CHANGED,
        };
        assertEquals(LoopEvents.COUNT, bits.length);
        for (int i = 0; i < bits.length; i++) {
            assertEquals(1 << i, bits[i], LoopEvents.name(i));
        }
    }

    @Test
    void shouldCountEachEventAndSummariseThoseThatOccurred() {
        EventCounts counts = new EventCounts();
        assertEquals("none", counts.summary());
        counts.add(LoopEvents.DEVICE_CONNECTED | LoopEvents.CONTACT_BEGAN);
        counts.add(0);
        counts.add(LoopEvents.CONTACT_BEGAN);
        assertEquals(3, counts.ticks());
        assertEquals(2, counts.count(LoopEvents.CONTACT_BEGAN));
        assertEquals(1, counts.count(LoopEvents.DEVICE_CONNECTED));
        assertEquals(0, counts.count(LoopEvents.STAGE_ERROR));
        assertEquals("DEVICE_CONNECTED 1, CONTACT_BEGAN 2", counts.summary());
        assertThrows(IllegalArgumentException.class,
            () -> counts.count(LoopEvents.CONTACT_BEGAN | LoopEvents.CONTACT_ENDED));
        assertThrows(IllegalArgumentException.class, () -> counts.count(1 << LoopEvents.COUNT));
    }

    private static List<String> names(Enum<?>[] values) {
        return Arrays.stream(values).map(Enum::name).toList();
    }
}
